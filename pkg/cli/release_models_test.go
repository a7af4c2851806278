package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnDeleteIsNeverBelowOnCompletion runs every check scenario under both release models and
// asserts that no workload and no instance-type row holds less under onDelete, the model the
// report calls the worst case (docs/model.md §2: a pod that holds under onCompletion holds
// under onDelete too).
func TestOnDeleteIsNeverBelowOnCompletion(t *testing.T) {
	root, entries := scenarioEntries(t)
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
			held := map[string][2]float64{}
			for i, release := range []string{"onDelete", "onCompletion"} {
				args := append(strings.Fields(string(argsText)), "--eni-release", release)
				_, stdout, stderr := run(t, "", nil, args...)
				var r struct {
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
					t.Fatalf("%s: %v\n%s", release, err, stderr)
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
