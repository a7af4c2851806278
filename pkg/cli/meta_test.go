package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// TestRuleDocsAreGenerated fails when docs/rules differs from what the METADATA generates:
// run `go run ./cmd/eni-lint rules --format markdown --out-dir docs/rules`.
func TestRuleDocsAreGenerated(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := report.WriteRuleDocs(dir, eng.Rules()); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs := filepath.Join("..", "..", "docs", "rules")
	committed, err := os.ReadDir(docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(committed) != len(entries) {
		t.Errorf("docs/rules has %d files, the rules generate %d", len(committed), len(entries))
	}
	for _, e := range entries {
		want, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		got, err := os.ReadFile(filepath.Join(docs, e.Name()))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs/rules/%s is stale: run go run ./cmd/eni-lint rules --format markdown --out-dir docs/rules", e.Name())
		}
	}
}

// TestReadmeRuleTableIsGenerated fails when README.md's table of rules differs from the
// METADATA: run `go run ./cmd/eni-lint rules --format markdown --out-dir docs/rules --readme README.md`.
func TestReadmeRuleTableIsGenerated(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.ReplaceRuleTable(string(raw), eng.Rules())
	if err != nil {
		t.Fatal(err)
	}
	if want != string(raw) {
		t.Error("README.md's rules table is stale: run go run ./cmd/eni-lint rules --format markdown --out-dir docs/rules --readme README.md")
	}
	for _, r := range eng.Rules() {
		if !strings.Contains(string(raw), "["+r.ID+"](docs/rules/"+r.ID+".md)") {
			t.Errorf("README.md does not list %s", r.ID)
		}
	}
}

// TestEveryRuleFiresAndStaysQuietInAScenario: each built-in rule has a golden scenario where
// it fires and one where it does not.
func TestEveryRuleFiresAndStaysQuietInAScenario(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..", "testdata", "scenarios")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	fires, quiet := map[string]int{}, map[string]int{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(root, e.Name(), "expected.json"))
		if err != nil {
			continue
		}
		var s struct {
			Report *struct {
				Findings []struct {
					Rule string `json:"rule"`
				} `json:"findings"`
			} `json:"report"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.Report == nil {
			continue
		}
		seen := map[string]bool{}
		for _, f := range s.Report.Findings {
			seen[f.Rule] = true
		}
		for _, r := range eng.Rules() {
			if seen[r.ID] {
				fires[r.ID]++
			} else {
				quiet[r.ID]++
			}
		}
	}
	for _, r := range eng.Rules() {
		if fires[r.ID] == 0 || quiet[r.ID] == 0 {
			t.Errorf("%s: fires in %d scenarios, quiet in %d; each rule needs both", r.ID, fires[r.ID], quiet[r.ID])
		}
	}
}

// TestEveryFixIsInTheMessage: text, Markdown, annotations and SARIF show a finding's message,
// the JSON also lists details.fixes; across every golden scenario, each fix the JSON offers is
// in the message.
func TestEveryFixIsInTheMessage(t *testing.T) {
	expected, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*", "expected.json"))
	if err != nil || len(expected) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	fixes := 0
	for _, path := range expected {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var scenario struct {
			Report struct {
				Findings []struct {
					Rule    string `json:"rule"`
					Message string `json:"message"`
					Details struct {
						Fixes []struct {
							Change string `json:"change"`
						} `json:"fixes"`
					} `json:"details"`
				} `json:"findings"`
			} `json:"report"`
		}
		if err := json.Unmarshal(raw, &scenario); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, f := range scenario.Report.Findings {
			for _, fix := range f.Details.Fixes {
				fixes++
				if !strings.Contains(f.Message, fix.Change) {
					t.Errorf("%s: %s offers %q in the JSON only", path, f.Rule, fix.Change)
				}
			}
		}
	}
	if fixes == 0 {
		t.Error("no scenario offers a fix: the test checks nothing")
	}
}
