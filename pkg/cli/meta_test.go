package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/findings"
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

// TestJSONReportDetailsTableIsGenerated fails when docs/json-report.md's table of finding
// details differs from the rules' METADATA: run
// `go run ./cmd/eni-lint rules --format markdown --json-report docs/json-report.md`.
func TestJSONReportDetailsTableIsGenerated(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "json-report.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.ReplaceDetailsTable(string(raw), eng.Rules())
	if err != nil {
		t.Fatal(err)
	}
	if want != string(raw) {
		t.Error("docs/json-report.md's details table is stale: run go run ./cmd/eni-lint rules --format markdown --json-report docs/json-report.md")
	}
}

// TestFindingDetailsFollowTheirMetadata: every key of every finding's details in the golden
// reports is one its rule's METADATA declares (custom.details), with the declared JSON type,
// and no internal key reaches a report; every built-in rule declares its details.
func TestFindingDetailsFollowTheirMetadata(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range eng.Rules() {
		if len(r.Details) == 0 {
			t.Errorf("%s declares no details in its METADATA (custom.details)", r.ID)
		}
	}
	checked := 0
	for _, sc := range testtool.ScenarioReports(t, filepath.Join("..", "..")) {
		lists := starvationLists(t, sc.Raw)
		for _, f := range sc.Report.Findings {
			rule, ok := eng.Rule(f.Rule)
			if !ok {
				t.Fatalf("%s: no rule %s", sc.Path, f.Rule)
			}
			checked += checkDetails(t, sc.Path, rule, withStarvationLists(t, sc.Path, f.Rule, f.Details, lists))
		}
	}
	if checked < 500 {
		t.Fatalf("checked %d details values: the scenarios were not read", checked)
	}
}

// TestGoReadsDetailsThroughTypes: Go reads finding details through the types of
// pkg/findings/details.go only; elsewhere a details key may be written (noteRemainingExcess)
// or removed (the witness's unlisted contributors), by a key a rule's METADATA declares.
func TestGoReadsDetailsThroughTypes(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, r := range eng.Rules() {
		for _, d := range r.Details {
			declared[d.Key] = true
		}
	}
	use := regexp.MustCompile(`Details\["([A-Za-z]+)"\](\s*[=!:]?=?)|delete\([a-z.\[\]]*Details, "([A-Za-z]+)"\)`)
	uses := 0
	for _, dir := range []string{"pkg", "cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join("..", "..", dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			typesFile := filepath.ToSlash(p) == "../../pkg/findings/details.go"
			for _, m := range use.FindAllStringSubmatch(string(src), -1) {
				uses++
				key := m[1] + m[3]
				if !declared[key] {
					t.Errorf("%s uses details %q, which no rule's METADATA declares", p, key)
				}
				write := m[3] != "" || strings.TrimSpace(m[2]) == "="
				if !write && !typesFile {
					t.Errorf("%s reads details %q by key: read it through pkg/findings/details.go", p, key)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if uses < 3 {
		t.Fatalf("found %d uses of details by key: the walk is broken", uses)
	}
}

// checkDetails reports the keys of a finding's details (decoded from a JSON report) that its
// rule's METADATA does not declare with their JSON type, or declares internal; it returns
// how many values it checked.
func checkDetails(t *testing.T, where string, rule rules.Rule, details map[string]any) int {
	t.Helper()
	declared := map[string]findings.DetailField{}
	for _, d := range rule.Details {
		declared[d.Key] = d
	}
	for k, v := range details {
		d, ok := declared[k]
		switch {
		case !ok:
			t.Errorf("%s: %s details has %q, which its METADATA does not declare", where, rule.ID, k)
		case d.Internal:
			t.Errorf("%s: %s details has the internal %q", where, rule.ID, k)
		case jsonType(v) != d.Type:
			t.Errorf("%s: %s details %q is a JSON %s, its METADATA says %s", where, rule.ID, k, jsonType(v), d.Type)
		}
	}
	return len(details)
}

// TestTypedDetailsFollowTheirMetadata: every field of the types Go reads details through
// (pkg/findings/details.go) is a key the rules it is read for declare, with the same JSON type.
func TestTypedDetailsFollowTheirMetadata(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]map[string]findings.DetailField{}
	for _, r := range eng.Rules() {
		declared[r.ID] = map[string]findings.DetailField{}
		for _, d := range r.Details {
			declared[r.ID][d.Key] = d
		}
	}
	for _, tc := range []struct {
		typ   any
		rules []string // every one declares each field; none: at least one rule does
	}{
		{findings.ExceedDetails{}, []string{"ENI001"}},
		{findings.SubjectDetails{}, nil},
		{struct {
			Fixes []findings.FixDetail `json:"fixes"`
		}{}, []string{"ENI001", "ENI002", "ENI003"}},
	} {
		typ := reflect.TypeOf(tc.typ)
		for i := 0; i < typ.NumField(); i++ {
			field := typ.Field(i)
			key, _, _ := strings.Cut(field.Tag.Get("json"), ",")
			want := goJSONType(field.Type)
			var declaring []string
			for id, keys := range declared {
				if d, ok := keys[key]; ok && d.Type == want {
					declaring = append(declaring, id)
				}
			}
			if tc.rules == nil && len(declaring) == 0 {
				t.Errorf("%s.%s reads details %q (%s), which no rule's METADATA declares with that type", typ.Name(), field.Name, key, want)
			}
			for _, id := range tc.rules {
				if d, ok := declared[id][key]; !ok || d.Type != want {
					t.Errorf("%s.%s reads %s details %q as %s; its METADATA declares %+v", typ.Name(), field.Name, id, key, want, d)
				}
			}
		}
	}
}

// goJSONType is the METADATA type name of the JSON a Go type decodes from.
func goJSONType(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	}
	return t.String()
}

// jsonType is the METADATA type name of a value decoded from JSON.
func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
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

// starvationLists reads a JSON report's starvations: an ENI003 finding names its starvingOn
// list by id there (docs/json-report.md).
func starvationLists(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var rep struct {
		Starvations []struct {
			ID string `json:"id"`
			On any    `json:"on"`
		} `json:"starvations"`
	}
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	lists := map[string]any{}
	for _, s := range rep.Starvations {
		lists[s.ID] = s.On
	}
	return lists
}

// withStarvationLists is an ENI003 finding's details with starvingOn the list its id names,
// as the policies wrote it; an id the report's starvations lack fails the test.
func withStarvationLists(t *testing.T, where, rule string, details map[string]any, lists map[string]any) map[string]any {
	t.Helper()
	id, ok := details["starvingOn"].(string)
	if rule != "ENI003" || !ok {
		return details
	}
	list, ok := lists[id]
	if !ok {
		t.Errorf("%s: ENI003 names starvation %q, which the report's starvations lack", where, id)
		return details
	}
	out := maps.Clone(details)
	out["starvingOn"] = list
	return out
}
