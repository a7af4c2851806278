package limits

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinSpotChecks(t *testing.T) {
	table, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if table.Len() != 1316 {
		t.Errorf("table has %d types, want 1316 (1164 from the controller table + 152 from Karpenter)", table.Len())
	}
	tests := []struct {
		name     string
		trunking bool
		branch   int
		arch     string
		source   string
	}{
		{"m5.large", true, 9, "amd64", "vpc-resource-controller"},
		{"m5.xlarge", true, 18, "amd64", "vpc-resource-controller"},
		{"r5.xlarge", true, 18, "amd64", "vpc-resource-controller"},
		{"m5.24xlarge", true, 107, "amd64", "vpc-resource-controller"},
		{"m5.metal", true, 120, "amd64", "vpc-resource-controller"},
		{"m7g.large", true, 9, "arm64", "vpc-resource-controller"},
		{"m7i-flex.xlarge", true, 8, "amd64", "vpc-resource-controller"},
		{"t3.medium", false, 0, "amd64", "vpc-resource-controller"},
		{"m4.large", false, 0, "amd64", "vpc-resource-controller"},
		{"i4i.large", false, 0, "amd64", "vpc-resource-controller"},
		{"c8gb.large", true, 9, "arm64", "vpc-resource-controller"},
	}
	for _, tc := range tests {
		it, ok := table.Lookup(tc.name)
		if !ok {
			t.Errorf("%s: not in table", tc.name)
			continue
		}
		if it.Trunking != tc.trunking || it.BranchInterfaces != tc.branch || it.Arch != tc.arch || it.Source != tc.source {
			t.Errorf("%s = %+v, want trunking %v branch %d arch %s source %s", tc.name, it, tc.trunking, tc.branch, tc.arch, tc.source)
		}
	}
	if _, ok := table.Lookup("m99.large"); ok {
		t.Error("m99.large should be unknown")
	}
}

func TestKarpenterOnlyTypes(t *testing.T) {
	table, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range table.byName {
		if it.Source == "karpenter" {
			n++
			if it.Trunking != (it.BranchInterfaces > 0) {
				t.Errorf("%s: trunking %v with %d branch interfaces", it.Name, it.Trunking, it.BranchInterfaces)
			}
		}
	}
	if n != 152 {
		t.Errorf("%d types come from Karpenter's figures, want 152", n)
	}
}

func TestOverrides(t *testing.T) {
	table, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	no := false
	tests := []struct {
		name    string
		o       map[string]Override
		lookup  string
		want    InstanceType
		wantErr bool
	}{
		{"new type", map[string]Override{"x9.large": {BranchInterfaces: 12}}, "x9.large",
			InstanceType{Name: "x9.large", Trunking: true, BranchInterfaces: 12, Source: "override"}, false},
		{"correct a known type keeps its other figures", map[string]Override{"m5.large": {BranchInterfaces: 5}}, "m5.large",
			InstanceType{Name: "m5.large", Trunking: true, BranchInterfaces: 5, Interfaces: 3, IPv4PerInterface: 10, Hypervisor: "nitro", Arch: "amd64", VCPUs: 2, MemoryMiB: 8192, MaxPods: 29, Source: "override"}, false},
		{"switch trunking off", map[string]Override{"m5.large": {BranchInterfaces: 9, Trunking: &no}}, "m5.large",
			InstanceType{Name: "m5.large", Trunking: false, BranchInterfaces: 0, Interfaces: 3, IPv4PerInterface: 10, Hypervisor: "nitro", Arch: "amd64", VCPUs: 2, MemoryMiB: 8192, MaxPods: 29, Source: "override"}, false},
		{"negative", map[string]Override{"x.large": {BranchInterfaces: -1}}, "", InstanceType{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := table.WithOverrides(tc.o)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			it, _ := got.Lookup(tc.lookup)
			if it != tc.want {
				t.Errorf("got %+v\nwant %+v", it, tc.want)
			}
		})
	}
	if it, _ := table.Lookup("m5.large"); it.BranchInterfaces != 9 {
		t.Error("WithOverrides changed the builtin table")
	}
}

func TestFamilyLadder(t *testing.T) {
	table, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ladder := table.FamilyLadder("m5")
	if len(ladder) == 0 || ladder[0].Name != "m5.large" || ladder[1].Name != "m5.xlarge" {
		t.Fatalf("m5 ladder starts %v", ladder[:2])
	}
	for i := 1; i < len(ladder); i++ {
		if ladder[i].BranchInterfaces < ladder[i-1].BranchInterfaces {
			t.Fatalf("ladder not sorted at %d", i)
		}
	}
}

// TestEmbeddedTableIsFresh regenerates nothing; it checks that the embedded file says what the
// generator would write from shared/data, when that folder is beside the checkout (CI has it).
func TestEmbeddedTableIsFresh(t *testing.T) {
	data := filepath.Join("..", "..", "..", "shared", "data")
	if _, err := os.Stat(filepath.Join(data, "instance-branch-eni-limits.csv")); err != nil {
		t.Skip("shared/data is not beside this checkout")
	}
	// Each branch-ENI figure in the controller CSV must be what the table says.
	b, err := os.ReadFile(filepath.Join(data, "instance-branch-eni-limits.csv"))
	if err != nil {
		t.Fatal(err)
	}
	table, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for i, line := range strings.Split(string(b), "\n") {
		if i == 0 || line == "" {
			continue
		}
		lines++
		var branch int
		f := strings.Split(line, ",")
		name, trunk := f[0], f[1]
		if _, err := fmt.Sscan(f[2], &branch); err != nil {
			t.Fatal(err)
		}
		it, ok := table.Lookup(name)
		if !ok || it.BranchInterfaces != branch || it.Trunking != (trunk == "true") {
			t.Errorf("%s: table %+v, CSV %s %d (run go generate ./pkg/limits)", name, it, trunk, branch)
		}
	}
	if lines != 1164 {
		t.Errorf("CSV has %d rows", lines)
	}
}

func TestKarpenterCatalog(t *testing.T) {
	cat, err := KarpenterCatalog()
	if err != nil {
		t.Fatal(err)
	}
	if len(cat) != 1363 {
		t.Errorf("%d types, want 1363", len(cat))
	}
	for _, kt := range cat {
		if kt.Name == "m7i-flex.xlarge" {
			if kt.Labels["karpenter.k8s.aws/instance-family"] != "m7i-flex" || kt.Labels["karpenter.k8s.aws/instance-cpu"] != "4" || kt.Labels["kubernetes.io/arch"] != "amd64" {
				t.Errorf("labels %v", kt.Labels)
			}
			return
		}
	}
	t.Error("m7i-flex.xlarge missing")
}

func TestNearest(t *testing.T) {
	table, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, want string
	}{
		{"m5.lrage", "m5.large"},
		{"c5.xlareg", "c5.xlarge"},
		{"m5large", "m5.large"},
		{"zzzzzzzzzzzzzz", ""},
	}
	for _, tc := range tests {
		got := table.Nearest(tc.name, 3, 3)
		if tc.want == "" && len(got) != 0 || tc.want != "" && (len(got) == 0 || got[0] != tc.want) {
			t.Errorf("Nearest(%s) = %v, want %s first", tc.name, got, tc.want)
		}
	}
}
