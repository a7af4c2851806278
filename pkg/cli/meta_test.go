package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
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
	examples, err := report.LoadRuleExamples(filepath.Join("..", "..", "testdata", "rule-examples"))
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteRuleDocs(dir, report.WithExamples(eng.Rules(), examples)); err != nil {
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

// TestEveryFixIsInEveryFormat: across every golden scenario, each fix the JSON offers
// (details.fixes) is in the text, Markdown and annotations made from the same report.
func TestEveryFixIsInEveryFormat(t *testing.T) {
	fixes := 0
	for _, sc := range testtool.ScenarioReports(t, filepath.Join("..", "..")) {
		rendered := map[string]string{}
		for _, format := range []string{"text", "markdown", "github"} {
			rep, err := report.New(format, report.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := rep.Write(&b, sc.Report); err != nil {
				t.Fatal(err)
			}
			rendered[format] = b.String()
		}
		for _, f := range sc.Report.Findings {
			if f.Suppressed != nil {
				continue
			}
			for _, fix := range f.Fixes() {
				fixes++
				for format, out := range rendered {
					if !strings.Contains(out, fix) {
						t.Errorf("%s: %s's fix %q is not in the %s report", sc.Path, f.Rule, fix, format)
					}
				}
			}
		}
	}
	if fixes == 0 {
		t.Error("no scenario offers a fix: the test checks nothing")
	}
}
