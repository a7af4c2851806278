package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// TestRuleExamples runs the example of every rule page (testdata/rule-examples) as the page
// shows it: `eni-lint check . ARGS` reports the rule on the failing files, unsuppressed, and
// does not on the passing ones. Every built-in rule has one.
func TestRuleExamples(t *testing.T) {
	examples, err := report.LoadRuleExamples(filepath.Join("..", "..", "testdata", "rule-examples"))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range eng.Rules() {
		if !r.BuiltIn {
			continue
		}
		e := examples[r.ID]
		if e == nil {
			t.Errorf("%s has no example in testdata/rule-examples", r.ID)
			continue
		}
		for _, side := range []struct {
			name  string
			files []findingsFile
			want  bool
		}{{"fails", toFiles(e.Fails), true}, {"passes", toFiles(e.Passes), false}} {
			t.Run(r.ID+"/"+side.name, func(t *testing.T) {
				dir := t.TempDir()
				for _, f := range side.files {
					if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				t.Chdir(dir)
				args := append([]string{"check", ".", "--format", "json"}, strings.Fields(e.Args)...)
				code, out, errOut := run(t, "", nil, args...)
				if code == 2 {
					t.Fatalf("exit 2\n%s", errOut)
				}
				var rep struct {
					Findings []struct {
						Rule       string         `json:"rule"`
						Suppressed any            `json:"suppressed"`
						Details    map[string]any `json:"details"`
					} `json:"findings"`
				}
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatal(err)
				}
				got := false
				var rules []string
				lists := starvationLists(t, []byte(out))
				for _, f := range rep.Findings {
					rules = append(rules, f.Rule)
					got = got || f.Rule == r.ID && f.Suppressed == nil
					if rule, ok := eng.Rule(f.Rule); ok {
						where := "the " + side.name + " example"
						checkDetails(t, where, rule, withStarvationLists(t, where, f.Rule, f.Details, lists))
					}
				}
				if got != side.want {
					t.Errorf("%s reported: %v, want %v (findings %v)", r.ID, got, side.want, rules)
				}
			})
		}
	}
}

type findingsFile struct{ name, text string }

func toFiles(fs []findings.ExampleFile) []findingsFile {
	var out []findingsFile
	for _, f := range fs {
		out = append(out, findingsFile{f.Name, f.Text})
	}
	return out
}
