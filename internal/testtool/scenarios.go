package testtool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// ScenarioReport is one golden scenario's expected report.
type ScenarioReport struct {
	Path   string // its expected.json
	Report *findings.Report
	// Raw is the report as written, for tests that check its JSON itself (a schema); empty
	// for scenarios whose output is text.
	Raw json.RawMessage
}

// ScenarioReports reads the expected report of every golden scenario under
// repoRoot/testdata/scenarios, for tests that render or check them all.
func ScenarioReports(t testing.TB, repoRoot string) []ScenarioReport {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot, "testdata", "scenarios", "*", "expected.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios under %s: %v", repoRoot, err)
	}
	sort.Strings(paths)
	out := make([]ScenarioReport, 0, len(paths))
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var scenario struct {
			Report json.RawMessage `json:"report"`
		}
		if err := json.Unmarshal(raw, &scenario); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var report findings.Report
		if len(scenario.Report) > 0 {
			if err := json.Unmarshal(scenario.Report, &report); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		out = append(out, ScenarioReport{Path: path, Report: &report, Raw: scenario.Report})
	}
	return out
}
