package suppress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

func jobFinding(rule, file, ns, name string) findings.Finding {
	return findings.Finding{
		Rule:     rule,
		Location: inventory.Position{File: file, Line: 3, Column: 1},
		Object:   &findings.ObjectRef{Kind: "Job", Namespace: ns, Name: name},
		ObjectID: "Job/" + ns + "/" + name + "@" + file,
	}
}

func TestConfigMatching(t *testing.T) {
	f := jobFinding("ENI002", "deploy/billing/job.yaml", "billing", "nightly-export")
	tests := []struct {
		name   string
		ignore ConfigIgnore
		want   bool
	}{
		{"any rule, any place", ConfigIgnore{Rule: "*"}, true},
		{"same rule, case-insensitive", ConfigIgnore{Rule: "eni002"}, true},
		{"other rule", ConfigIgnore{Rule: "ENI001"}, false},
		{"path glob matches", ConfigIgnore{Rule: "*", Paths: []string{"deploy/**/*.yaml"}}, true},
		{"path glob misses", ConfigIgnore{Rule: "*", Paths: []string{"infra/**"}}, false},
		{"one of several paths", ConfigIgnore{Rule: "*", Paths: []string{"infra/**", "deploy/billing/*"}}, true},
		{"kind and name globs", ConfigIgnore{Rule: "*", Kind: "Job", Name: "nightly-*"}, true},
		{"namespace differs", ConfigIgnore{Rule: "*", NS: "payments"}, false},
		{"name differs", ConfigIgnore{Rule: "*", Name: "weekly-*"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := []findings.Finding{f}
			Config(fs, []ConfigIgnore{tt.ignore})
			if got := fs[0].Suppressed != nil; got != tt.want {
				t.Fatalf("suppressed = %v, want %v", got, tt.want)
			}
			if tt.want && fs[0].Suppressed.Kind != "config" {
				t.Errorf("kind = %q, want config", fs[0].Suppressed.Kind)
			}
		})
	}
}

// An ignore that names an object does not cover a finding about no object (a node group).
func TestConfigObjectIgnoreSkipsNodeGroupFindings(t *testing.T) {
	fs := []findings.Finding{{Rule: "ENI003", Location: inventory.Position{File: "infra/main.tf", Line: 10, Column: 1}}}
	Config(fs, []ConfigIgnore{{Rule: "*", Kind: "Job"}})
	if fs[0].Suppressed != nil {
		t.Fatalf("node group finding suppressed by an object ignore: %+v", fs[0].Suppressed)
	}
}

func TestInline(t *testing.T) {
	a := jobFinding("ENI002", "a.yaml", "ns", "a")
	b := jobFinding("ENI004", "a.yaml", "ns", "a")
	c := jobFinding("ENI002", "b.yaml", "ns", "b")
	fs := []findings.Finding{a, b, c}
	Inline(fs, []rules.ActiveIgnore{{Object: a.ObjectID, Rules: []string{"eni002"}, Reason: "accepted", Expires: "2027-01-01"}})
	if fs[0].Suppressed == nil || fs[0].Suppressed.Kind != "inline" || fs[0].Suppressed.Expires != "2027-01-01" {
		t.Errorf("first finding: got %+v, want an inline suppression with its expiry", fs[0].Suppressed)
	}
	if fs[1].Suppressed != nil {
		t.Errorf("other rule on the same object suppressed")
	}
	if fs[2].Suppressed != nil {
		t.Errorf("same rule on another object suppressed")
	}
}

// An ignore comment on a node group (a Terraform aws_eks_node_group) suppresses the ENI001 of
// its rows, which is located at the workload that holds the most.
func TestInlineOnARowObject(t *testing.T) {
	row := jobFinding("ENI001", "cronjob.yaml", "ns", "a")
	row.RowObjectIDs = []string{"NodeGroup/default@infra/main.tf:2"}
	other := jobFinding("ENI001", "cronjob.yaml", "ns", "a")
	other.RowObjectIDs = []string{"NodeGroup/batch@infra/main.tf:9"}
	fs := []findings.Finding{row, other}
	Inline(fs, []rules.ActiveIgnore{{Object: "NodeGroup/default@infra/main.tf:2", Rules: []string{"ENI001"}, Reason: "reviewed"}})
	if fs[0].Suppressed == nil || fs[0].Suppressed.Reason != "reviewed" {
		t.Errorf("the node group's ENI001: %+v", fs[0].Suppressed)
	}
	if fs[1].Suppressed != nil {
		t.Errorf("another node group's ENI001 suppressed")
	}
}

func TestBaselineCountsAndStaleEntries(t *testing.T) {
	// Two findings share one identity (same rule, file and object): the baseline records a
	// count of 2, so a third one is new.
	f := jobFinding("ENI002", "a.yaml", "ns", "a")
	gone := jobFinding("ENI004", "gone.yaml", "ns", "gone")
	b := NewBaseline([]findings.Finding{f, f, gone})
	if len(b.Entries) != 2 {
		t.Fatalf("entries = %d, want 2: %+v", len(b.Entries), b.Entries)
	}
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := b.Write(path); err != nil {
		t.Fatal(err)
	}
	read, err := ReadBaseline(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := []findings.Finding{f, f, f}
	stale := read.Apply(now)
	suppressed := 0
	for _, x := range now {
		if x.Suppressed != nil {
			suppressed++
		}
	}
	if suppressed != 2 {
		t.Errorf("suppressed %d findings, want 2 (the baseline count)", suppressed)
	}
	if len(stale) != 1 || stale[0].File != "gone.yaml" {
		t.Errorf("stale = %+v, want the gone.yaml entry", stale)
	}
}

// A node-group finding has no object; its identity is the node group and instance type, so
// two node groups in one file stay apart.
func TestBaselineEntryForNodeGroupFinding(t *testing.T) {
	f := findings.Finding{Rule: "ENI003", Location: inventory.Position{File: "./infra/main.tf", Line: 4, Column: 3},
		Details: map[string]any{"nodeGroup": "jobs", "instanceType": "m5.large"}}
	e := EntryFor(f)
	if e.File != "infra/main.tf" || e.Subject != "jobs/m5.large" || e.Kind != "" {
		t.Errorf("entry = %+v", e)
	}
}

// eni001 is an ENI001 finding as the reporters decode it: on the workload that holds the
// most, about a node group, with its contributors.
func eni001(demand int, contributors ...string) findings.Finding {
	var cs []any
	for _, c := range contributors {
		parts := strings.SplitN(c, "/", 3)
		cs = append(cs, map[string]any{"kind": parts[0], "namespace": parts[1], "name": parts[2]})
	}
	top := strings.SplitN(contributors[0], "/", 3)
	return findings.Finding{Rule: "ENI001", Message: "m5.large in node group \"jobs\": too many.", Location: inventory.Position{File: "jobs/" + top[2] + ".yaml", Line: 10},
		Object: &findings.ObjectRef{Kind: top[0], Namespace: top[1], Name: top[2]},
		Details: map[string]any{"nodeGroup": "jobs", "instanceType": "m5.large", "demand": float64(demand),
			"nodeGroupLocation": map[string]any{"file": "infra/main.tf", "line": 3.0}, "contributors": cs}}
}

// ENI001's baseline entry is the node and what made its demand: a second TTL-less Job added to
// an exceeded node (demand 35 → 47) is new, and says so; the same or less stays accepted.
func TestBaselineAggregateFindings(t *testing.T) {
	recorded := NewBaseline([]findings.Finding{eni001(35, "CronJob/billing/report")})
	e := recorded.Entries[0]
	if e.File != "infra/main.tf" || e.Subject != "jobs/m5.large" || e.Demand != 35 || e.Kind != "" || fmt.Sprint(e.Contributors) != "[CronJob/billing/report]" {
		t.Fatalf("entry %+v", e)
	}
	tests := []struct {
		name       string
		now        findings.Finding
		suppressed bool
		says       string
	}{
		{"unchanged", eni001(35, "CronJob/billing/report"), true, ""},
		{"lower demand", eni001(30, "CronJob/billing/report"), true, ""},
		{"a Job added", eni001(47, "CronJob/billing/report", "Job/orders/backfill"), false, "demand 35 → 47; added Job orders/backfill"},
		{"a Job added that holds more: the finding's own object changed", eni001(47, "Job/orders/backfill", "CronJob/billing/report"), false, "added Job orders/backfill"},
		{"higher demand, same workloads", eni001(40, "CronJob/billing/report"), false, "demand 35 → 40"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := []findings.Finding{tc.now}
			recorded.Apply(fs)
			if (fs[0].Suppressed != nil) != tc.suppressed || !strings.Contains(fs[0].Message, tc.says) {
				t.Errorf("suppressed %v, message %q", fs[0].Suppressed != nil, fs[0].Message)
			}
		})
	}
}

// A v1 baseline is read, without its ENI001 entries, and says why.
func TestBaselineV1(t *testing.T) {
	b, err := parseBaseline([]byte(`{"version":"eni-lint.baseline/v1","entries":[{"rule":"ENI001","file":"a.yaml","kind":"CronJob","name":"c","count":1},{"rule":"ENI002","file":"a.yaml","kind":"CronJob","name":"c","count":1}]}`), "b.json")
	if err != nil || len(b.Entries) != 1 || b.Entries[0].Rule != "ENI002" || len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0], "1 ENI001 entries") {
		t.Errorf("%+v %v", b, err)
	}
}

func TestReadBaselineErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.json"), "baseline:"},
		{"not JSON", write("bad.json", "{"), "bad.json"},
		{"wrong version", write("old.json", `{"version":"v0","entries":[]}`), "want \"eni-lint.baseline/v2\""},
		{"count below one", write("zero.json", `{"version":"eni-lint.baseline/v2","entries":[{"rule":"ENI001","file":"a.yaml","count":0}]}`), "entry 1 (ENI001 a.yaml): count 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadBaseline(tt.path, 0)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestChangedOnly(t *testing.T) {
	inChanged := jobFinding("ENI002", "./deploy/a.yaml", "ns", "a")
	// An ENI001 finding sits on the node group, but a changed workload contributed to it.
	contributed := findings.Finding{Rule: "ENI001", Location: inventory.Position{File: "infra/main.tf", Line: 1, Column: 1},
		Details: map[string]any{"contributors": []any{
			map[string]any{"id": "x", "location": map[string]any{"file": "deploy/a.yaml", "line": 2.0}},
		}}}
	unrelated := jobFinding("ENI002", "deploy/b.yaml", "ns", "b")
	nodeGroupMoved := findings.Finding{Rule: "ENI003", Location: inventory.Position{File: "x.yaml", Line: 1, Column: 1},
		Details: map[string]any{"nodeGroupLocation": inventory.Position{File: "infra/main.tf", Line: 2}}}
	got := ChangedOnly([]findings.Finding{inChanged, contributed, unrelated, nodeGroupMoved},
		map[string]bool{"deploy/a.yaml": true}, nil)
	if len(got) != 2 || got[0].Rule != "ENI002" || got[1].Rule != "ENI001" {
		t.Fatalf("kept %+v, want the finding in the changed file and the one it contributed to", got)
	}
	got = ChangedOnly([]findings.Finding{nodeGroupMoved}, map[string]bool{"infra/main.tf": true}, nil)
	if len(got) != 1 {
		t.Fatalf("a finding whose node group file changed was dropped")
	}
	// A pull request that adds a SecurityGroupPolicy changes the verdict of workloads it does
	// not touch: a finding about one it selects is kept, and so is the ENI001 it contributes to.
	unchanged := jobFinding("ENI002", "deploy/b.yaml", "ns", "b")
	unchanged.ObjectID = "Job/ns/b@deploy/b.yaml:1"
	row := findings.Finding{Rule: "ENI001", Location: inventory.Position{File: "infra/main.tf", Line: 1},
		Details: map[string]any{"contributors": []any{map[string]any{"id": "Job/ns/b@deploy/b.yaml:1"}}}}
	inputs := func(id string) []string {
		if id == "Job/ns/b@deploy/b.yaml:1" {
			return []string{"policies/new-sgp.yaml", "infra/groups.tf"}
		}
		return nil
	}
	for _, file := range []string{"policies/new-sgp.yaml", "infra/groups.tf"} {
		if got := ChangedOnly([]findings.Finding{unchanged, row, unrelated}, map[string]bool{file: true}, inputs); len(got) != 2 {
			t.Errorf("%s changed: kept %d findings, want the selected workload's two", file, len(got))
		}
	}
}

func FuzzParseBaseline(f *testing.F) {
	f.Add([]byte(`{"version":"eni-lint.baseline/v1","entries":[{"rule":"ENI001","file":"a.yaml","kind":"CronJob","name":"c","count":2}]}`))
	f.Add([]byte(`{"version":"eni-lint.baseline/v1","entries":[{"rule":"ENI003","file":"","subject":"g/m5.large","count":1}]}`))
	f.Add([]byte(`{"version":"v0"}`))
	f.Add([]byte(`[[[[[[[[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseBaseline(data, "b.json")
		if err != nil {
			if !strings.Contains(err.Error(), "b.json") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		fs := []findings.Finding{
			{Rule: "ENI001", Location: inventory.Position{File: "a.yaml"}, Object: &findings.ObjectRef{Kind: "CronJob", Name: "c"}},
			{Rule: "ENI003", Details: map[string]any{"nodeGroup": "g", "instanceType": "m5.large"}},
		}
		total := 0
		for _, e := range b.Entries {
			total += e.Count
		}
		b.Apply(fs)
		suppressed := 0
		for _, f := range fs {
			if f.Suppressed != nil {
				suppressed++
			}
		}
		if suppressed > total {
			t.Fatalf("%d findings suppressed by entries counting %d", suppressed, total)
		}
	})
}
