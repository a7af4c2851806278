package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/witness"
)

// TestOnDeleteIsNeverBelowOnCompletion runs every check scenario under both release models and
// asserts that no workload and no instance-type row holds less under onDelete, the model the
// report calls the worst case (docs/model.md §2: a pod that holds under onCompletion holds
// under onDelete too).
func TestOnDeleteIsNeverBelowOnCompletion(t *testing.T) {
	root, entries := scenarioEntries(t)
	// The figures compared do not depend on the witnesses, so the runs search none.
	witnessBudget = &witness.Budget{}
	t.Cleanup(func() { witnessBudget = nil })
	compared := 0
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		argsText, err := os.ReadFile(filepath.Join(dir, "args"))
		if err != nil || !strings.HasPrefix(string(argsText), "check ") || !strings.Contains(string(argsText), "--format json") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "stdin")); err == nil {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Chdir(dir)
			// The scenario's own run is its golden report (TestScenarios holds it equal to what
			// the command prints); only the other release model is run here.
			golden, err := os.ReadFile(filepath.Join(dir, "expected.json"))
			if err != nil {
				t.Fatal(err)
			}
			var expected struct {
				Report json.RawMessage `json:"report"`
			}
			if err := json.Unmarshal(golden, &expected); err != nil || len(expected.Report) == 0 {
				t.Fatalf("expected.json holds no report: %v", err)
			}
			var model struct {
				Model struct {
					ENIRelease string `json:"eniRelease"`
				} `json:"model"`
			}
			if err := json.Unmarshal(expected.Report, &model); err != nil {
				t.Fatal(err)
			}
			own := model.Model.ENIRelease
			other := map[string]string{"onDelete": "onCompletion", "onCompletion": "onDelete"}[own]
			if other == "" {
				t.Fatalf("the golden report's release model is %q", own)
			}
			reports := map[string]string{own: string(expected.Report)}
			_, reports[other], _ = run(t, "", nil, append(strings.Fields(string(argsText)), "--eni-release", other)...)
			held := map[string][2]float64{}
			for i, release := range []string{"onDelete", "onCompletion"} {
				stdout := reports[release]
				var r struct {
					Model struct {
						ENIRelease string `json:"eniRelease"`
					} `json:"model"`
					Workloads []struct {
						ID       string         `json:"id"`
						Clusters []string       `json:"clusters"`
						Numbers  map[string]any `json:"numbers"`
					} `json:"workloads"`
					InstanceTypes []struct {
						Cluster     string  `json:"cluster"`
						NodeGroupID string  `json:"nodeGroupId"`
						Type        string  `json:"instanceType"`
						Variant     string  `json:"variant"`
						Demand      float64 `json:"demand"`
					} `json:"instanceTypes"`
				}
				if err := json.Unmarshal([]byte(stdout), &r); err != nil {
					t.Fatalf("%s: %v\n%s", release, err, stdout)
				}
				if r.Model.ENIRelease != release {
					t.Fatalf("the %s report says it used %q", release, r.Model.ENIRelease)
				}
				for _, w := range r.Workloads {
					k := "workload " + w.ID + " " + strings.Join(w.Clusters, ",")
					v := held[k]
					v[i], _ = w.Numbers["held"].(float64)
					held[k] = v
				}
				for _, row := range r.InstanceTypes {
					k := "row " + row.Cluster + " " + row.NodeGroupID + " " + row.Type + " " + row.Variant
					v := held[k]
					v[i] = row.Demand
					held[k] = v
				}
			}
			for k, v := range held {
				compared++
				if v[0] < v[1] {
					t.Errorf("%s: onDelete %v < onCompletion %v", k, v[0], v[1])
				}
			}
		})
	}
	if compared < 50 {
		t.Fatalf("compared %d figures; expected every scenario's", compared)
	}
}
