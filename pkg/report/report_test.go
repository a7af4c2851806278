package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func sample() *findings.Report {
	r := &findings.Report{
		SchemaVersion: findings.SchemaVersion,
		Version:       "test",
		Model:         findings.Model{ENIRelease: "onDelete", CooldownSeconds: 60, WindowSeconds: 90, Description: "onDelete: held until deleted"},
		Inputs:        findings.Inputs{Paths: []string{"."}, Files: 2, Documents: 3},
		CapacityKnown: true,
		FailOn:        findings.Error,
		Errors:        []inventory.LoadError{{Position: inventory.Position{File: "bad.yaml", Line: 4}, Message: "YAML syntax error: x"}},
		Findings: []findings.Finding{
			{Rule: "ENI001", Severity: findings.Error, Message: "too many", Location: inventory.Position{File: "a.yaml", Line: 10, Column: 5}},
			{Rule: "ENI002", Severity: findings.Warning, Message: "no ttl", Location: inventory.Position{File: "a.yaml", Line: 10, Column: 5}},
			{Rule: "ENI006", Severity: findings.Warning, Message: "unknown type", Location: inventory.Position{File: "--node-group g=z9.large"}},
		},
		InstanceTypes: []findings.InstanceTypeRow{
			{NodeGroup: "g", InstanceType: "m5.large", Known: true, Trunking: true, BranchInterfaces: 9, Hidden: 34, Active: 1, Demand: 35, Verdict: "exceeds"},
			{NodeGroup: "g", InstanceType: "z9.large", Verdict: "unknown-type"},
		},
	}
	r.Sort()
	r.Count()
	return r
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := (Text{}).Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	want := `Release model: onDelete: held until deleted

Inputs that could not be read
  bad.yaml:4  YAML syntax error: x

--node-group g=z9.large
  -        warning ENI006  unknown type

a.yaml
  10:5     error   ENI001  too many
  10:5     warning ENI002  no ttl

No verdict: 1 input could not be read (listed above), so the per-instance-type verdicts are not shown; fix or exclude them

Summary: 1 error, 2 warnings, 0 info findings, 1 unreadable input in 2 files (3 documents); exit 2 (fail-on error)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	// Everything read: the verdicts.
	r := sample()
	r.Errors = nil
	r.Count()
	b.Reset()
	if err := (Text{}).Write(&b, r); err != nil {
		t.Fatal(err)
	}
	table := `Branch ENIs per instance type (worst case on one node)
  NODE GROUP  INSTANCE TYPE  BRANCH ENIs  HIDDEN  ACTIVE  DEMAND  VERDICT       SOURCE
  g           m5.large       9            34      1       35      exceeds
  g           z9.large       ?            0       0       0       unknown-type
`
	if !strings.Contains(b.String(), table) {
		t.Errorf("got:\n%s\nwant the table:\n%s", b.String(), table)
	}
}

func TestTextColor(t *testing.T) {
	var plain, colored bytes.Buffer
	_ = Text{}.Write(&plain, sample())
	_ = Text{Color: true}.Write(&colored, sample())
	if strings.Contains(plain.String(), "\x1b[") {
		t.Error("plain output has escape codes")
	}
	if !strings.Contains(colored.String(), ansiRed+"error  "+ansiReset) {
		t.Error("colored output does not color errors")
	}
}

func TestTextWithoutCapacity(t *testing.T) {
	r := sample()
	r.CapacityKnown = false
	r.InstanceTypes = nil
	r.Workloads = []findings.WorkloadNumbers{{Kind: "CronJob", Namespace: "b", Name: "c", SelectedBy: []string{"sgp"}, Numbers: map[string]any{"T": 7, "active": 1}, Hidden: 34}}
	var b bytes.Buffer
	_ = Text{}.Write(&b, r)
	for _, want := range []string{"capacity is unknown", "CronJob b/c  sgp", "7            34      1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := (JSON{}).Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var back findings.Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.SchemaVersion != findings.SchemaVersion || len(back.Findings) != 3 || back.Findings[1].Location.Line != 10 {
		t.Errorf("round trip: %+v", back)
	}
}

func TestNew(t *testing.T) {
	if _, err := New("xml", Options{}); err == nil {
		t.Error("unknown format accepted")
	}
	if got := strings.Join(Formats(), ","); got != "github,json,junit,markdown,sarif,text" {
		t.Errorf("formats %s", got)
	}
}

// TestJSONStreamsWhatEncoderWrites: the streamed report is byte for byte what encoding/json's
// indenting Encoder writes for the whole report: with its arrays full, empty and nil, and with
// text that Encoder escapes (HTML characters, a line separator).
func TestJSONStreamsWhatEncoderWrites(t *testing.T) {
	full := sample()
	full.Findings[0].Message = `<a href="x">&` + "\u2028 \"quoted\"\n"
	starving := []any{map[string]any{"nodeGroup": "a", "instanceType": "m5.large", "branchInterfaces": 9}}
	for _, name := range []string{"j1", "j2"} {
		full.Findings = append(full.Findings, findings.Finding{Rule: "ENI003", Severity: findings.Warning, Message: name,
			Details: map[string]any{"T": 10, "starvingOn": slices.Clone(starving)}})
	}
	full.Workloads = []findings.WorkloadNumbers{
		{Kind: "CronJob", Namespace: "b", Name: "c", SelectedBy: []string{"sgp"}, Numbers: map[string]any{"T": 7, "heldBy": []string{"<history>"}}, Hidden: 34, NodeGroups: []string{"a", "b"}},
		{Kind: "Job", Namespace: "b", Name: "d"},
	}
	empty := sample()
	empty.Findings, empty.InstanceTypes, empty.Workloads = []findings.Finding{}, []findings.InstanceTypeRow{}, []findings.WorkloadNumbers{}
	none := sample()
	none.Findings, none.InstanceTypes, none.Workloads = nil, nil, nil
	for name, r := range map[string]*findings.Report{"full": full, "empty": empty, "nil": none} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		placements, ids := placementTable(r.Workloads)
		starvations, starvationOf := starvationTable(r.Findings)
		whole := *r
		if r.Workloads != nil {
			whole.Workloads = slices.Clone(r.Workloads)
			for i := range whole.Workloads {
				whole.Workloads[i].Placement = ids[i]
			}
		}
		if r.Findings != nil {
			whole.Findings = slices.Clone(r.Findings)
			for i := range whole.Findings {
				nameStarvation(&whole.Findings[i], starvationOf[i])
			}
		}
		if err := enc.Encode(jsonReport{Report: &whole, Placements: placements, Trajectories: trajectoryTable(r.Findings), Starvations: starvations}); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := (JSON{}).Write(&got, r); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: streamed\n%s\nEncoder\n%s", name, got.String(), want.String())
		}
	}
	if _, has := full.Findings[len(full.Findings)-1].Details["starvingOn"].([]any); !has {
		t.Error("writing the report changed its findings' details")
	}
}

// TestStarvationTable: the ENI003 findings' starvingOn lists each once, in the order of first
// use; equal lists name the same entry, and other rules' details are left alone.
func TestStarvationTable(t *testing.T) {
	on := func(groups ...string) []any {
		var out []any
		for _, g := range groups {
			out = append(out, map[string]any{"nodeGroup": g, "instanceType": "m5.large", "branchInterfaces": 9})
		}
		return out
	}
	fs := []findings.Finding{
		{Rule: "ENI003", Details: map[string]any{"starvingOn": on("a", "b")}},
		{Rule: "ENI001", Details: map[string]any{"starvingOn": on("a")}},
		{Rule: "ENI003", Details: map[string]any{"starvingOn": on("a")}},
		{Rule: "ENI003", Details: map[string]any{"starvingOn": on("a", "b")}},
		{Rule: "ENI003"},
	}
	table, ids := starvationTable(fs)
	if want := []string{"s1", "", "s2", "s1", ""}; !slices.Equal(ids, want) {
		t.Errorf("ids %q, want %q", ids, want)
	}
	if len(table) != 2 || table[0].ID != "s1" || table[1].ID != "s2" || len(table[0].On.([]any)) != 2 {
		t.Errorf("table %+v", table)
	}
}

// TestPlacementTable: each distinct node-group list once, in the order of first use; the
// workloads sharing a slice, or a copy with the same names, name the same entry.
func TestPlacementTable(t *testing.T) {
	shared := []string{"a", "b"}
	ws := []findings.WorkloadNumbers{
		{Name: "1", NodeGroups: shared}, {Name: "2", NodeGroups: []string{"c"}}, {Name: "3", NodeGroups: shared},
		{Name: "4", NodeGroups: slices.Clone(shared)}, {Name: "5"}, {Name: "6", NodeGroups: []string{}}, {Name: "7", NodeGroups: shared[:1]},
	}
	table, ids := placementTable(ws)
	if got := strings.Join(ids, ","); got != "p1,p2,p1,p1,p3,p3,p4" {
		t.Errorf("ids %s", got)
	}
	want := []findings.PlacementRecord{{ID: "p1", NodeGroups: []string{"a", "b"}}, {ID: "p2", NodeGroups: []string{"c"}}, {ID: "p3", NodeGroups: []string{}}, {ID: "p4", NodeGroups: []string{"a"}}}
	if !reflect.DeepEqual(table, want) {
		t.Errorf("table %+v", table)
	}
}
