package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// withRules gives the sample report two documented rules and a finding with details and an
// object, as analysis fills them.
func withRules() *findings.Report {
	r := sample()
	r.Rules = []findings.RuleDoc{
		{ID: "ENI001", Title: "Branch ENIs can be exceeded on a node", Severity: findings.Error, Description: "Why it matters.", Numbers: "B, hidden, active.", Remediation: "Set a TTL.", OtherModel: "Churn instead.", BuiltIn: true},
		{ID: "ENI002", Title: "SGP-selected Job or CronJob without ttlSecondsAfterFinished", Severity: findings.Warning, Description: "Finished pods stay.", Remediation: "Set a TTL.", BuiltIn: true},
	}
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Rule == "ENI002" {
			f.Object = &findings.ObjectRef{Kind: "CronJob", Namespace: "billing", Name: "db-report"}
			f.Details = map[string]any{"T": 7}
			f.Message = "35 branch ENIs, where 9 exist: 100% | over\nnext line, with a comma: yes"
			// What eni-lint fix would write: an inserted line (repeating the line before),
			// a changed value on a CRLF line, and a new file.
			f.Edits = []findings.Edit{
				{File: "a.yaml", StartLine: 9, EndLine: 9, Original: "    spec:\n", Text: "    spec:\n      ttlSecondsAfterFinished: 600\n", Change: "set ttlSecondsAfterFinished to 600"},
				{File: "b.yaml", StartLine: 3, EndLine: 3, Original: "  backoffLimit: 6\r\n", Text: "  backoffLimit: 2\r\n", Change: "set ttlSecondsAfterFinished to 600"},
				{File: "overlay/eni-lint-fix-cronjob-db-report.yaml", NewFile: true, Text: "- op: add\n  path: /spec/backoffLimit\n  value: 2\n", Change: "set ttlSecondsAfterFinished to 600"},
			}
		}
	}
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./pkg/report -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

func render(t *testing.T, r Reporter, rep *findings.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSARIF(t *testing.T) {
	got := render(t, SARIF{InformationURI: InformationURI}, withRules())
	golden(t, "report.sarif", got)
	var log map[string]any
	if err := json.Unmarshal(got, &log); err != nil {
		t.Fatal(err)
	}
	run := log["runs"].([]any)[0].(map[string]any)
	results := run["results"].([]any)
	// The finding from a flag has no file: no location rather than a made-up line.
	for _, r := range results {
		res := r.(map[string]any)
		if res["ruleId"] == "ENI006" {
			if _, has := res["locations"]; has {
				t.Error("a finding without a file got a location")
			}
			continue
		}
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		if loc["region"].(map[string]any)["startLine"].(float64) < 1 {
			t.Error("region without a line")
		}
	}
	if inv := run["invocations"].([]any)[0].(map[string]any); inv["executionSuccessful"] != false {
		t.Error("a run with unreadable input is marked successful")
	}
}

func TestGitHubAnnotations(t *testing.T) {
	got := string(render(t, GitHub{}, withRules()))
	want := "::error file=bad.yaml,line=4,title=eni-lint%3A unreadable input::YAML syntax error: x\n" +
		"::warning title=ENI006::--node-group g=z9.large: unknown type\n" +
		"::error file=a.yaml,line=10,col=5,title=ENI001::too many\n" +
		"::warning file=a.yaml,line=10,col=5,title=ENI002::35 branch ENIs, where 9 exist: 100%25 | over%0Anext line, with a comma: yes\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "line=1,") || strings.Contains(got, "line=0") {
		t.Error("placeholder line in an annotation")
	}
}

func TestGitHubEscapesProperties(t *testing.T) {
	if got := escapeProperty("a,b:c%d\ne"); got != "a%2Cb%3Ac%25d%0Ae" {
		t.Errorf("escapeProperty = %q", got)
	}
}

func TestJUnit(t *testing.T) {
	got := render(t, JUnit{}, withRules())
	golden(t, "report.junit.xml", got)
	var suites junitSuites
	if err := xml.Unmarshal(got, &suites); err != nil {
		t.Fatal(err)
	}
	// ENI001 fails (error), ENI002 and ENI006 are below --fail-on (skipped), one input errs.
	if suites.Tests != 4 || suites.Failures != 1 || suites.Skipped != 2 || suites.Errors != 1 {
		t.Errorf("counts %+v", suites)
	}
}

func TestMarkdown(t *testing.T) {
	got := render(t, Markdown{LinkBase: "https://github.com/org/repo/blob/abc123/", Chart: true}, withRules())
	golden(t, "report.md", got)
	for _, want := range []string{
		"## eni-lint: 1 error, 2 warnings, 0 info findings, 1 unreadable input",
		"[a.yaml:10:5](https://github.com/org/repo/blob/abc123/a.yaml#L10)",
		`100% \| over next line`,
		"**No verdict:** 1 input could not be read",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if strings.Contains(string(got), "Branch ENIs per instance type") {
		t.Error("a run that exits 2 shows a verdict table")
	}
	// Everything read: the table and the chart.
	r := withRules()
	r.Errors = nil
	r.Count()
	got = render(t, Markdown{Chart: true}, r)
	for _, want := range []string{"### Branch ENIs per instance type", "```mermaid\nxychart-beta", `x-axis ["g m5.large"]`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestMarkdownWithoutLinks(t *testing.T) {
	got := string(render(t, Markdown{}, withRules()))
	if !strings.Contains(got, "`a.yaml:10:5`") || strings.Contains(got, "mermaid") {
		t.Errorf("markdown without link base or chart:\n%s", got)
	}
}

func TestHeadline(t *testing.T) {
	if got := Headline(&findings.Report{}); got != "eni-lint: no findings" {
		t.Errorf("clean headline %q", got)
	}
}

// Every fix the JSON lists is in every other format: text (one per line), Markdown (bullets),
// annotations, SARIF and JUnit (in the message).
func TestEveryFormatListsEveryFix(t *testing.T) {
	r := withRules()
	fixes := []string{
		"keep at most 1 finished Jobs of CronJob billing/db-report",
		"lower backoffLimit of CronJob billing/db-report from 6 to 2",
		`use m5.2xlarge (38 branch interfaces) instead of m5.large in node group "default"`,
	}
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Rule == "ENI001" {
			var list []any
			for _, c := range fixes {
				list = append(list, map[string]any{"change": c})
			}
			f.Details = map[string]any{"fixes": list}
		}
	}
	decode := map[string]func(string) string{
		"github": func(s string) string { return strings.ReplaceAll(s, "%0A", "\n") },
		"junit": func(s string) string {
			return strings.NewReplacer("&#34;", `"`, "&quot;", `"`, "&#xA;", "\n", "&#10;", "\n").Replace(s)
		},
		"sarif": func(s string) string { return strings.ReplaceAll(s, `\"`, `"`) },
		"json":  func(s string) string { return strings.ReplaceAll(s, `\"`, `"`) },
		"markdown": func(s string) string {
			return strings.NewReplacer(`\(`, "(", `\)`, ")").Replace(s)
		},
	}
	for format, out := range everyFormat(t, r) {
		if d := decode[format]; d != nil {
			out = d(out)
		}
		for _, fix := range fixes {
			if !strings.Contains(out, fix) {
				t.Errorf("%s does not list the fix %q:\n%s", format, fix, out)
			}
		}
	}
}

// A finding of some clusters only names them in every format, so a reader of a SARIF alert or
// a pull request comment knows which cluster it is about.
func TestEveryFormatNamesTheCluster(t *testing.T) {
	r := withRules()
	r.Clusters = []findings.Cluster{{Name: "infra:env/prod", Kind: "terraform"}, {Name: "infra:env/dev", Kind: "terraform"}}
	for i := range r.Findings {
		if f := &r.Findings[i]; f.Rule == "ENI001" {
			f.Clusters = []string{"infra:env/prod"}
		}
	}
	for i := range r.InstanceTypes {
		r.InstanceTypes[i].Cluster = "infra:env/prod"
	}
	for format, out := range everyFormat(t, r) {
		if !strings.Contains(out, "infra:env/prod") {
			t.Errorf("%s does not name the cluster:\n%s", format, out)
		}
	}
}

// everyFormat renders a report in every format, by format name.
func everyFormat(t *testing.T, r *findings.Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, format := range Formats() {
		rep, err := New(format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep.Write(&b, r); err != nil {
			t.Fatal(err)
		}
		out[format] = b.String()
	}
	return out
}

// A pull request's names cannot open HTML, close the chart's fence or hide the rest of a posted
// comment: a file named with "<!--" in a witness summary (inside <summary>, where Markdown is
// not parsed), a node group named with a fence and HTML in the chart.
func TestMarkdownHostileNames(t *testing.T) {
	r := withRules()
	r.Errors = nil
	for i := range r.Findings {
		if r.Findings[i].Rule == "ENI001" {
			r.Findings[i].Location.File = "k8s/<!--x.yaml"
			r.Findings[i].Witness = &findings.Witness{ENIRelease: "onDelete", Bound: 3, Reached: 3, BranchInterfaces: 1,
				Trajectory: &findings.WitnessTrajectory{Runs: []findings.WitnessRun{{Workload: "CronJob/ns/<b>x</b>@a.yaml:1",
					Pods: []findings.WitnessPod{{Created: 0, Ended: 1, HoldsAtPeak: true}}}}}}
		}
	}
	for i := range r.InstanceTypes {
		r.InstanceTypes[i].NodeGroup = "g```\n<img src=x>\x1b[2J"
	}
	r.Count()
	got := string(render(t, Markdown{Chart: true}, r))
	for _, bad := range []string{"<!--", "<b>", "<img", "\x1b", "g```"} {
		if strings.Contains(got, bad) {
			t.Errorf("markdown holds %q:\n%s", bad, got)
		}
	}
	if !strings.Contains(got, "<details><summary>ENI001 at k8s/&lt;\\!--x.yaml") {
		t.Errorf("the witness summary does not name the file escaped:\n%s", got)
	}
}
