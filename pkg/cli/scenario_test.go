package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

var update = flag.Bool("update", false, "rewrite the expected.json of every scenario")

// scenarioResult is what a scenario's expected.json holds: the exit code, the JSON report on
// stdout, and anything written to stderr.
type scenarioResult struct {
	ExitCode int             `json:"exitCode"`
	Report   json.RawMessage `json:"report,omitempty"`
	Stdout   string          `json:"stdout,omitempty"`
	Stderr   string          `json:"stderr,omitempty"`
}

// scenarioEntries is the absolute path of testdata/scenarios and its entries.
func scenarioEntries(t *testing.T) (string, []os.DirEntry) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, entries
}

// TestScenarios runs every folder under testdata/scenarios: `args` holds the command line
// (split on white space, run from inside the folder), expected.json what it must print.
// Run `go test ./pkg/cli -run TestScenarios -update` to accept new output, then review the diff.
func TestScenarios(t *testing.T) { runScenarios(t, *update) }

// TestScenariosWithPolicyClasses (-tags slow) runs every scenario with the policies grouping
// the workloads into classes themselves, as they do for an input without the engine's
// classes: every report is the one expected.json holds (pkg/rules/classes.go).
func TestScenariosWithPolicyClasses(t *testing.T) {
	testtool.SkipUnlessSlow(t, "every scenario a second time")
	engineVariant = (*rules.Engine).WithPolicyClasses
	t.Cleanup(func() { engineVariant = func(e *rules.Engine) *rules.Engine { return e } })
	runScenarios(t, false)
}

func runScenarios(t *testing.T, update bool) {
	root, entries := scenarioEntries(t)
	Version = "test"
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		dir := filepath.Join(root, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			argsText, err := os.ReadFile(filepath.Join(dir, "args"))
			if err != nil {
				t.Fatal(err)
			}
			args := strings.Fields(string(argsText))
			stdin := []byte{}
			if b, err := os.ReadFile(filepath.Join(dir, "stdin")); err == nil {
				stdin = b
			}
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), args, IO{
				In: bytes.NewReader(stdin), Out: &stdout, Err: &stderr,
				Getenv: func(string) string { return "" }, IsTerminal: func() bool { return false },
			})
			got := scenarioResult{ExitCode: code, Stderr: stderr.String()}
			if json.Valid(stdout.Bytes()) && stdout.Len() > 0 {
				got.Report = json.RawMessage(bytes.TrimSpace(stdout.Bytes()))
			} else {
				got.Stdout = stdout.String()
			}
			gotJSON, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			gotJSON = append(gotJSON, '\n')
			expectedPath := filepath.Join(dir, "expected.json")
			if update {
				if err := os.WriteFile(expectedPath, gotJSON, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(expectedPath)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			var wantV, gotV any
			if err := json.Unmarshal(want, &wantV); err != nil {
				t.Fatalf("expected.json: %v", err)
			}
			if err := json.Unmarshal(gotJSON, &gotV); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantV, gotV); diff != "" {
				t.Errorf("scenario %s (-want +got):\n%s", e.Name(), diff)
			}
		})
	}
	if n == 0 {
		t.Fatal("no scenarios found")
	}
}
