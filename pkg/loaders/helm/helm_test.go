package helm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func TestLocateFindsKeysInTemplates(t *testing.T) {
	dir := t.TempDir()
	tpl := `{{- if .Values.enabled }}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}
spec:
  {{- with .Values.ttl }}
  ttlSecondsAfterFinished: {{ . }}
  {{- end }}
  template:
    spec:
      containers:
        - name: c
          image: x
{{- end }}
`
	l := locatorWith(t, dir, "chart/templates/job.yaml", tpl)
	tm := l.template("chart/templates/job.yaml")
	for path, want := range map[string]int{
		"":                                 3, // the kind: line
		"spec":                             6,
		"spec.ttlSecondsAfterFinished":     8,
		"spec.template.spec.containers[0]": 12,
		"spec.template.spec.nodeSelector":  11, // not in the template: the nearest enclosing key
		"metadata.name":                    5,
	} {
		if got := tm.locate(path, "x"); got.Line != want {
			t.Errorf("%q at line %d, want %d", path, got.Line, want)
		}
	}
	if got := l.template("missing/templates/x.yaml").locate("spec", "missing/templates/x.yaml"); got.Line != 0 || got.File != "missing/templates/x.yaml" {
		t.Errorf("missing template: %+v", got)
	}
}

// FuzzSourceMapping maps any `# Source:` path: nothing outside the root is ever opened.
func FuzzSourceMapping(f *testing.F) {
	for _, s := range []string{"chart/templates/job.yaml", "../../../../../../etc/passwd", "/etc/passwd", "..\\..\\x", "c/../../x", ""} {
		f.Add(s)
	}
	root := f.TempDir()
	os.WriteFile(filepath.Join(filepath.Dir(root), "outside.yaml"), []byte("kind: Secret\n"), 0o644)
	fsys, err := confine.Open(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, source string) {
		l := NewLocator(fsys, root)
		if tm := l.template(source); tm != nil && !confine.Within(root, fsys.Abs(tm.path)) {
			t.Fatalf("%q opened %s", source, tm.path)
		}
	})
}

// FuzzCheckCounts reads any template text before rendering without a panic (the hostile
// corpus asserts that the repeat and until bombs are refused).
func FuzzCheckCounts(f *testing.F) {
	f.Add(`{{ repeat 2000000000 "x" }}`)
	f.Add(`{{- range until 50000000 }}k{{ . }}{{- end }}`)
	f.Add(`{{ define "a" }}{{ if .x }}{{ "x" | repeat 999999 }}{{ end }}{{ end }}`)
	f.Add(`{{ include "a" (until (add 1 2)) }}`)
	f.Fuzz(func(t *testing.T, text string) {
		ch := &chart.Chart{Templates: []*chart.File{{Name: "templates/x.yaml", Data: []byte(text)}}}
		checkCounts("chart", ch, 1000)
	})
}

// FuzzParseSet: any --set text a config file or a flag holds parses or fails, without panic,
// and over-long text is refused by the budget.
func FuzzParseSet(f *testing.F) {
	for _, s := range []string{"a.b=c", "list[0]=x,list[1]=y", `a\.b=c`, "a[65536]=x", "a=", "=b", "a.b.c.d={x,y}", strings.Repeat("a.", 100) + "b=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseSet(s)
		if err == nil && m == nil {
			t.Fatal("no error and no values")
		}
		if len(s) > maxSetLength && err == nil {
			t.Fatal("over the budget and accepted")
		}
	})
}

// One template is one cache entry however a `# Source:` comment spells its path, and a
// document of a template is located at its own lines without copying the file: a rendered
// stream that spelled one path many ways filled memory, and one of many documents of one
// template was quadratic.
func TestLocatorKeysByFileAndViewsDocuments(t *testing.T) {
	dir := t.TempDir()
	var tpl strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&tpl, "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j%d\nspec:\n  backoffLimit: 1\n", i)
	}
	l := locatorWith(t, dir, "chart/templates/jobs.yaml", tpl.String())
	first := l.template("chart/templates/jobs.yaml")
	for _, spelling := range []string{"./chart/templates/jobs.yaml", "chart//templates/jobs.yaml", "chart/x/../templates/jobs.yaml", "chart/./templates/./jobs.yaml"} {
		if got := l.template(spelling); got != first {
			t.Errorf("%q is another template", spelling)
		}
	}
	if len(l.cache) != 1 {
		t.Errorf("%d cache entries for one file", len(l.cache))
	}
	// The third Job is the document after the --- of line 15: kind at 17, backoffLimit at 21.
	doc := first.doc("Job", 2)
	if got := doc.locate("spec.backoffLimit", "x"); got.Line != 21 || len(doc.lines) != 7 { // six lines and the file's last, empty one
		t.Errorf("third document: backoffLimit at %d, %d lines", got.Line, len(doc.lines))
	}
	if got := doc.locate("", "x"); got.Line != 17 {
		t.Errorf("third document's kind: line at %d", got.Line)
	}
}

// locatorWith writes one template under dir and returns a locator rooted there.
func locatorWith(t *testing.T, dir, rel, text string) *Locator {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := confine.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	return NewLocator(fsys, dir)
}

// TestTplCyclesAreRefused: a values string that tpl renders again through its own tpl calls is
// a located error before Helm renders the chart (which would recurse until the process ran out
// of stack); tpl chains without a loop, and loops no template reaches, render as before.
func TestTplCyclesAreRefused(t *testing.T) {
	cases := []struct {
		name, values, template string
		want                   string // "" renders; otherwise the error's start and line
		line                   int
	}{
		{"self", "a: '{{ tpl .Values.a . }}'\n", "x: {{ tpl .Values.a . }}\n", "values a: tpl renders it again (a → a)", 1},
		{"two steps, nested key", "b: x\nnest:\n  a: '{{ tpl .Values.c . }}'\nc: '{{ tpl $.Values.nest.a . }}'\n", "x: {{ tpl .Values.c . | quote }}\n",
			"values c: tpl renders it again (c → nest.a → c)", 4},
		{"a chain", "a: '{{ tpl .Values.b . }}'\nb: '{{ .Release.Name }}'\n", "x: {{ tpl .Values.a . }}\n", "", 0},
		{"a loop nothing renders", "a: '{{ tpl .Values.a . }}'\n", "x: {{ .Values.b }}\n", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{"Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n", "values.yaml": tc.values, "templates/cm.yaml": tc.template} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, "c", name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "c", name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			fsys, err := confine.New(dir, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			_, notes := RenderTemplates(fsys, Chart{Dir: filepath.Join(dir, "c")}, "default", Limits{}, func(confine.Skip) {})
			var errs []inventory.LoadError
			for _, n := range notes {
				errs = append(errs, n.Errors...)
			}
			if tc.want == "" {
				for _, e := range errs {
					if strings.Contains(e.Message, "tpl renders it again") {
						t.Fatalf("refused: %+v", e)
					}
				}
				return
			}
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Message, tc.want) || errs[0].Position.Line != tc.line || filepath.Base(errs[0].Position.File) != "values.yaml" {
				t.Fatalf("errors %+v, want %q at values.yaml:%d", errs, tc.want, tc.line)
			}
		})
	}
}

// FuzzTplRefs: any template text parses into its tpl references or none, without panic.
func FuzzTplRefs(f *testing.F) {
	f.Add(`{{ tpl .Values.a . }}`)
	f.Add(`{{ tpl $.Values.a.b $ }}{{ tpl (index .Values "a") . }}`)
	f.Add(`{{ define "x" }}{{ tpl .Values.x . | quote }}{{ end }}{{ if .a }}{{ tpl .Values.y . }}{{ end }}`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range tplRefs("x", text) {
			if r == "" {
				t.Fatalf("an empty reference from %q", text)
			}
		}
	})
}
