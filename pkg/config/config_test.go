package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	src := `# comment
eniRelease: onCompletion
cooldown: 90s
namespace: apps
failOn: warning
nodeGroups:
  - name: batch
    instanceTypes: [m5.large, m5.xlarge]
    labels: {team: batch}
    taints:
      - {key: dedicated, value: batch, effect: NoSchedule}
    maxPods: 20
limits:
  x9.large: {branchInterfaces: 12}
`
	f, err := Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.ENIRelease != "onCompletion" || f.Cooldown != "90s" || f.Namespace != "apps" || f.FailOn != "warning" || f.Limits["x9.large"].BranchInterfaces != 12 {
		t.Errorf("config %+v", f)
	}
	max := 20
	want := inventory.NodeGroupSpec{
		Name: "batch", Source: "config", Location: inventory.Position{File: "c.yaml", Line: 7, Column: 5, EndLine: 7, EndColumn: 9},
		InstanceTypes: []string{"m5.large", "m5.xlarge"},
		TypeLocations: []inventory.Position{{File: "c.yaml", Line: 8, Column: 21, EndLine: 8, EndColumn: 29}, {File: "c.yaml", Line: 8, Column: 31, EndLine: 8, EndColumn: 40}},
		Labels:        map[string]string{"team": "batch"},
		Taints:        []inventory.Taint{{Key: "dedicated", Value: "batch", Effect: "NoSchedule"}},
		MaxPods:       &max,
	}
	if diff := cmp.Diff(want, f.NodeGroups[0].Spec()); diff != "" {
		t.Errorf("node group (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
	}{
		{"unknown key", "eniRelease: onDelete\nnodegroups: []\n", 2},
		{"unknown nested key", "nodeGroups:\n  - name: a\n    instanceTypes: [m5.large]\n    taint: []\n", 4},
		{"syntax", "nodeGroups: [\n", 2},
		{"no types", "nodeGroups:\n  - name: a\n", 2},
		{"bad taint effect", "nodeGroups:\n  - name: a\n    instanceTypes: [m5.large]\n    taints: [{key: k, effect: Never}]\n", 2},
		{"wrong type", "nodeGroups: 3\n", 1},
		{"two documents", "a: 1\n---\nb: 2\n", 3},
		{"chart without path", "charts:\n  - values: [a.yaml]\n", 2},
		{"chart set without value", "charts:\n  - path: a\n    set: [novalue]\n", 2},
		{"cluster without name", "clusters:\n  - infrastructure: [infra]\n", 2},
		{"cluster named twice", "clusters:\n  - name: a\n    infrastructure: [x]\n  - name: a\n    infrastructure: [y]\n", 4},
		{"cluster without infrastructure", "clusters:\n  - name: a\n    manifests: [k8s]\n", 2},
		{"cluster var files without roots", "clusters:\n  - name: a\n    varFiles: [a.tfvars]\n    nodeGroups: [{name: g, instanceTypes: [m5.large]}]\n", 2},
		{"cluster node group without types", "clusters:\n  - name: a\n    nodeGroups:\n      - name: g\n", 4},
		{"unknown cluster key", "clusters:\n  - name: a\n    infra: [x]\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v", err)
			}
			if ce.Position.Line != tc.line || ce.Position.File != "c.yaml" {
				t.Errorf("error at %v, want line %d: %v", ce.Position, tc.line, ce)
			}
		})
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := Find(deep); got != "" {
		t.Fatalf("found %q in an empty tree", got)
	}
	cfg := filepath.Join(root, "a", FileName)
	if err := os.WriteFile(cfg, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := Find(deep); got != cfg {
		t.Errorf("Find = %q, want %q", got, cfg)
	}
}

func TestParseNodeGroupFlag(t *testing.T) {
	max := 17
	tests := []struct {
		in      string
		want    inventory.NodeGroupSpec
		wantErr bool
	}{
		{"default=m5.large", inventory.NodeGroupSpec{Name: "default", Source: "flag", Location: inventory.Position{File: "--node-group default=m5.large"}, InstanceTypes: []string{"m5.large"}, Labels: map[string]string{}}, false},
		{"b=m5.large, m5.xlarge;labels=team=b,tier=1;taints=dedicated=b:NoSchedule,spot:PreferNoSchedule;maxPods=17",
			inventory.NodeGroupSpec{Name: "b", Source: "flag", Location: inventory.Position{File: "--node-group b=m5.large, m5.xlarge;labels=team=b,tier=1;taints=dedicated=b:NoSchedule,spot:PreferNoSchedule;maxPods=17"},
				InstanceTypes: []string{"m5.large", "m5.xlarge"}, Labels: map[string]string{"team": "b", "tier": "1"},
				Taints: []inventory.Taint{{Key: "dedicated", Value: "b", Effect: "NoSchedule"}, {Key: "spot", Effect: "PreferNoSchedule"}}, MaxPods: &max}, false},
		{"m5.large", inventory.NodeGroupSpec{}, true},
		{"=m5.large", inventory.NodeGroupSpec{}, true},
		{"a=", inventory.NodeGroupSpec{}, true},
		{"a=m5.large;color=red", inventory.NodeGroupSpec{}, true},
		{"a=m5.large;taints=x:Sometimes", inventory.NodeGroupSpec{}, true},
		{"a=m5.large;taints=x", inventory.NodeGroupSpec{}, true},
		{"a=m5.large;maxPods=0", inventory.NodeGroupSpec{}, true},
		{"a=m5.large;labels=novalue", inventory.NodeGroupSpec{}, true},
	}
	for _, tc := range tests {
		got, err := ParseNodeGroupFlag(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if err == nil {
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%q (-want +got):\n%s", tc.in, diff)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("nodeGroups:\n  - name: a\n    instanceTypes: [m5.large]\n"))
	f.Add([]byte("limits: {x: {branchInterfaces: 3}}\n"))
	f.Add([]byte("clusters:\n  - name: prod\n    infrastructure: [infra]\n    varFiles: [infra/prod.tfvars]\n    nodeGroups: [{name: g, instanceTypes: [m5.large]}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse("fuzz.yaml", data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.Position.File != "fuzz.yaml" {
				t.Fatalf("unlocated error %T: %v", err, err)
			}
			return
		}
		for _, ng := range cfg.NodeGroups {
			ng.Spec()
		}
		for _, c := range cfg.Clusters {
			if c.Name == "" || c.Location().File != "fuzz.yaml" {
				t.Fatalf("cluster without a name or position: %+v", c)
			}
			for _, ng := range c.NodeGroups {
				ng.Spec()
			}
		}
	})
}

func FuzzParseNodeGroupFlag(f *testing.F) {
	f.Add("a=m5.large;labels=a=b;taints=k=v:NoSchedule;maxPods=3")
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseNodeGroupFlag(s)
		if err == nil && (spec.Name == "" || len(spec.InstanceTypes) == 0) {
			t.Fatalf("accepted %q without name or types", s)
		}
	})
}

// disruptions comes from the flag, the environment or the file, in that order, and a value
// that is no whole number of pods, 0 or more, is refused naming where it came from.
func TestDisruptions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".eni-lint.yaml"), []byte("disruptions: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		flag, want string
		n          int
	}{
		{"", "", 2}, {"3", "", 3}, {"-1", `disruptions "-1" (flag)`, 0}, {"x", `disruptions "x" (flag)`, 0},
	} {
		e, err := Resolve(Flags{Disruptions: tc.flag}, noEnv, dir)
		switch {
		case tc.want != "":
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("flag %q: error %v, want %q", tc.flag, err, tc.want)
			}
		case err != nil:
			t.Errorf("flag %q: %v", tc.flag, err)
		case e.Disruptions != tc.n:
			t.Errorf("flag %q: %d disruptions, want %d", tc.flag, e.Disruptions, tc.n)
		}
	}
}
