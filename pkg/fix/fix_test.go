package fix

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func TestChoose(t *testing.T) {
	fixes := []Fix{
		{Workload: "w", Lever: "history", Set: []Field{{"spec.successfulJobsHistoryLimit", 1}}},
		{Workload: "w", Lever: "backoff", Set: []Field{{"spec.jobTemplate.spec.backoffLimit", 2}}},
		{Lever: LeverInstanceType, Change: "use m5.xlarge"},
	}
	zeroing := []Fix{
		{Workload: "w", Lever: "backoff", Set: []Field{{"spec.jobTemplate.spec.backoffLimit", 0}}},
		{Workload: "w", Lever: "history", Set: []Field{{"spec.failedJobsHistoryLimit", 0}}},
		fixes[2],
	}
	tests := []struct {
		prefer      string
		fixes       []Fix
		wantWritten string
		wantShown   string
	}{
		{prefer: "", fixes: fixes, wantWritten: "history"},
		{prefer: "backoff", fixes: fixes, wantWritten: "backoff"},
		{prefer: "ttl", fixes: fixes, wantWritten: "history"}, // no TTL fix: the default order
		{prefer: "instance-type", fixes: fixes, wantShown: LeverInstanceType},
		{prefer: "", fixes: fixes[2:], wantShown: LeverInstanceType},
		{prefer: "", fixes: nil},
		// A TTL with a deadline is the first remedy, and is written.
		{prefer: "", fixes: append([]Fix{{Workload: "w", Lever: "ttl", Levers: []string{"deadline", "ttl"}, Set: []Field{{"spec.jobTemplate.spec.ttlSecondsAfterFinished", 300}, {"spec.jobTemplate.spec.activeDeadlineSeconds", 120}}}}, fixes...), wantWritten: "ttl"},
		{prefer: "deadline", fixes: append([]Fix{{Workload: "w", Lever: "ttl", Levers: []string{"deadline", "ttl"}, Set: []Field{{"spec.jobTemplate.spec.activeDeadlineSeconds", 120}}}}, fixes...), wantWritten: "ttl"},
		// No retries and no evidence kept: only when preferred.
		{prefer: "", fixes: zeroing, wantShown: LeverInstanceType},
		{prefer: "backoff", fixes: zeroing, wantWritten: "backoff"},
		{prefer: "history", fixes: zeroing, wantWritten: "history"},
		{prefer: "ttl", fixes: zeroing, wantShown: LeverInstanceType},
		// A concurrency policy is a word: shown, and the next remedy is written.
		{prefer: "", fixes: append([]Fix{{Workload: "w", Lever: "concurrency", Unwritable: []string{"spec.concurrencyPolicy"}}}, fixes...), wantWritten: "history"},
	}
	for _, tc := range tests {
		order, err := Order(tc.prefer)
		if err != nil {
			t.Fatal(err)
		}
		written, shown := Choose(tc.fixes, order)
		if got := lever(written); got != tc.wantWritten {
			t.Errorf("prefer %q: written %q, want %q", tc.prefer, got, tc.wantWritten)
		}
		if got := lever(shown); got != tc.wantShown {
			t.Errorf("prefer %q: shown %q, want %q", tc.prefer, got, tc.wantShown)
		}
	}
	if _, err := Order("replicas"); err == nil {
		t.Error("an unknown --prefer is accepted")
	}
}

func lever(f *Fix) string {
	if f == nil {
		return ""
	}
	return f.Lever
}

func TestFixesOf(t *testing.T) {
	f := findings.Finding{Details: map[string]any{"fixes": []any{
		map[string]any{"workload": "CronJob/a/b@x.yaml:1", "change": "c", "lever": "ttl", "set": []any{map[string]any{"field": "spec.jobTemplate.spec.ttlSecondsAfterFinished", "value": float64(60)}}},
		map[string]any{"change": "bigger", "lever": "instance-type", "instanceType": "m5.xlarge"},
		"not a fix",
	}}}
	got := FixesOf(f)
	if len(got) != 2 || got[0].Set[0] != (Field{"spec.jobTemplate.spec.ttlSecondsAfterFinished", 60}) || got[1].InstanceType != "m5.xlarge" {
		t.Errorf("FixesOf = %+v", got)
	}
}

func TestListPatch(t *testing.T) {
	tests := []struct {
		name, in, want string
		refused        bool
	}{
		{
			name: "no patches yet: a key at the end",
			in:   "resources:\n  - ../../base\n",
			want: "resources:\n  - ../../base\npatches:\n- path: p.yaml\n  target:\n    kind: CronJob\n    name: r\n",
		},
		{
			name: "no final newline",
			in:   "resources: [../../base]",
			want: "resources: [../../base]\npatches:\n- path: p.yaml\n  target:\n    kind: CronJob\n    name: r\n",
		},
		{
			name: "an item after the key, at the items' indentation, CRLF kept",
			in:   "patches:\r\n  - path: other.yaml\r\nresources:\r\n  - base\r\n",
			want: "patches:\r\n  - path: p.yaml\r\n    target:\r\n      kind: CronJob\r\n      name: r\r\n  - path: other.yaml\r\nresources:\r\n  - base\r\n",
		},
		{name: "listed already", in: "patches:\n- path: p.yaml\n", want: "patches:\n- path: p.yaml\n"},
		{name: "flow list", in: "patches: [{path: a.yaml}]\n", refused: true},
		{name: "not a mapping", in: "- a\n", refused: true},
	}
	for _, tc := range tests {
		got, err := listPatch([]byte(tc.in), "p.yaml", "CronJob", "r")
		if tc.refused {
			if err == nil {
				t.Errorf("%s: accepted:\n%s", tc.name, got)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %q (%v), want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestInputName(t *testing.T) {
	k := []byte("namePrefix: prod-\nnameSuffix: -v2\n")
	if got := inputName(k, "prod-db-report-v2"); got != "db-report" {
		t.Errorf("inputName = %q", got)
	}
	if got := inputName([]byte("resources: []\n"), "x"); got != "x" {
		t.Errorf("inputName without affixes = %q", got)
	}
}

func TestPatchRoundTrip(t *testing.T) {
	ops := map[string]int{"/spec/backoffLimit": 2, "/spec/ttlSecondsAfterFinished": 600}
	got := readPatch(writePatch(ops, "Job a/b"))
	if len(got) != 2 || got["/spec/backoffLimit"] != 2 || got["/spec/ttlSecondsAfterFinished"] != 600 {
		t.Errorf("readPatch(writePatch) = %v", got)
	}
}

func TestHeredocBody(t *testing.T) {
	tf := "resource \"kubectl_manifest\" \"a\" {\n  yaml_body = <<-YAML\n    kind: Job\n    spec:\n      x: 1\n  YAML\n}\nlocals {\n  b = 2\n}\n"
	start, end, ok := heredocBody([]byte(tf), 2, 6)
	if !ok || tf[start:end] != "    kind: Job\n    spec:\n      x: 1\n" {
		t.Errorf("heredocBody = %d %d %v: %q", start, end, ok, tf[start:end])
	}
	for _, r := range [][2]int{{3, 6}, {2, 2}, {2, 40}, {0, 3}} {
		if _, _, ok := heredocBody([]byte(tf), r[0], r[1]); ok {
			t.Errorf("lines %v are taken for a heredoc", r)
		}
	}
}

func TestHelmLines(t *testing.T) {
	if s, e, ok := literalValue("      backoffLimit: 6 # retries\n", "backoffLimit"); !ok || s != 20 || e != 21 {
		t.Errorf("literalValue = %d %d %v", s, e, ok)
	}
	for _, line := range []string{"  backoffLimit: {{ .Values.b }}\n", "  backoffLimit: '6'\n", "  other: 6\n"} {
		if _, _, ok := literalValue(line, "backoffLimit"); ok {
			t.Errorf("%q is taken for a literal", line)
		}
	}
	for line, want := range map[string]string{
		"  backoffLimit: {{ .Values.job.backoffLimit }}\n":            "job.backoffLimit",
		"  backoffLimit: {{- .Values.retries | default 6 }}\n":        "retries",
		"  backoffLimit: {{ include \"x\" . }}\n":                     "",
		"  ttlSecondsAfterFinished: {{ int .Values.ttl }}\n":          "ttl",
		"  backoffLimit: {{ .Values.a }}{{ .Values.b }}\n":            "a",
		"  completions: {{ .Values.parallel | mul 2 | default 1 }}\n": "parallel",
	} {
		if got := valuesRef(line); got != want {
			t.Errorf("valuesRef(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestTerraformBlock: a literal attribute is replaced, a missing one added, an expression left
// alone and named in the suggestion; the rest of the file keeps its bytes.
func TestTerraformBlock(t *testing.T) {
	dir := t.TempDir()
	tf := filepath.Join(dir, "main.tf")
	src := "# jobs\nresource \"kubernetes_job_v1\" \"m\" {\n  metadata {\n    name = \"m\" # the name\n  }\n  spec {\n    completions   = 5\n    backoff_limit = var.retries\n  }\n}\n"
	if err := os.WriteFile(tf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkspace(os.ReadFile)
	w := inventory.Workload{Object: inventory.Object{Kind: "Job", Name: "m", Origin: inventory.Origin{Kind: inventory.OriginTerraformBlock, Resource: "kubernetes_job_v1.m", Declared: inventory.Position{File: tf, Line: 2}}}}
	p := placeFields(ws, w, []Field{{"spec.backoffLimit", 4}, {"spec.completions", 3}, {"spec.ttlSecondsAfterFinished", 600}})
	if !strings.Contains(p.Suggestion, "backoff_limit") || !strings.Contains(p.Suggestion, "var.retries") {
		t.Errorf("suggestion %q does not name the expression", p.Suggestion)
	}
	got := string(ws.Current(abs(tf)))
	want := "# jobs\nresource \"kubernetes_job_v1\" \"m\" {\n  metadata {\n    name = \"m\" # the name\n  }\n  spec {\n    completions   = 3\n    backoff_limit = var.retries\n    ttl_seconds_after_finished = 600\n  }\n}\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWorkspaceReadsThroughItsReader(t *testing.T) {
	ws := NewWorkspace(func(string) ([]byte, error) { return nil, errors.New("outside the roots") })
	if _, err := ws.Read("/etc/passwd"); err == nil {
		t.Error("the workspace read around its reader")
	}
	ws.Write("/tmp/new.yaml", []byte("x"))
	if got := ws.Changed(); len(got) != 1 || ws.Original(got[0]) != nil {
		t.Errorf("a new file: %v", got)
	}
}

// TestTerraformManifestValues: kubernetes_manifest written as an HCL object gets its item
// replaced or added; yamldecode of a heredoc or of file("${path.module}/…") gets the YAML
// edited; any other expression is a suggestion.
func TestTerraformManifestValues(t *testing.T) {
	dir := t.TempDir()
	tf := filepath.Join(dir, "main.tf")
	job := filepath.Join(dir, "job.yaml")
	src := `resource "kubernetes_manifest" "object" {
  manifest = {
    apiVersion = "batch/v1"
    kind       = "Job"
    spec = {
      "completions" = 5
      backoffLimit  = 6
    }
  }
}

resource "kubernetes_manifest" "heredoc" {
  manifest = yamldecode(<<-YAML
    kind: Job
    spec:
      completions: 5
  YAML
  )
}

resource "kubernetes_manifest" "file" {
  manifest = yamldecode(file("${path.module}/job.yaml"))
}

resource "kubernetes_manifest" "merged" {
  manifest = merge(local.base, { spec = {} })
}
`
	if err := os.WriteFile(tf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(job, []byte("kind: Job # from a file\nspec:\n  completions: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	workload := func(line int) inventory.Workload {
		return inventory.Workload{Object: inventory.Object{Kind: "Job", Name: "j", Origin: inventory.Origin{Kind: inventory.OriginTerraformValue, Resource: "kubernetes_manifest.x", Declared: inventory.Position{File: tf, Line: line}}}}
	}
	ws := NewWorkspace(os.ReadFile)
	fields := []Field{{"spec.backoffLimit", 2}, {"spec.ttlSecondsAfterFinished", 600}}
	for _, line := range []int{21, 12, 1} { // last first, as fix places them: an insertion moves what follows
		if p := placeFields(ws, workload(line), fields); p.Suggestion != "" || len(p.Files) != 1 {
			t.Errorf("line %d: %+v", line, p)
		}
	}
	got := string(ws.Current(abs(tf)))
	for _, want := range []string{
		"      backoffLimit  = 2\n      ttlSecondsAfterFinished = 600\n    }\n",
		"    spec:\n      backoffLimit: 2\n      ttlSecondsAfterFinished: 600\n      completions: 5\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tf lacks %q:\n%s", want, got)
		}
	}
	if got := string(ws.Current(abs(job))); got != "kind: Job # from a file\nspec:\n  backoffLimit: 2\n  ttlSecondsAfterFinished: 600\n  completions: 5\n" {
		t.Errorf("job.yaml:\n%s", got)
	}
	if p := placeFields(ws, workload(25), fields); p.Suggestion == "" || len(p.Files) != 0 {
		t.Errorf("merge(): %+v", p)
	}
}

// A patch's file name stays within what a file system writes, and unique, for the longest
// names Kubernetes allows (253 characters).
func TestPatchNameFits(t *testing.T) {
	long := strings.Repeat("a", 253)
	other := strings.Repeat("a", 252) + "b"
	a, b := patchName("CronJob", long), patchName("CronJob", other)
	if len(a) > 255 || len(b) > 255 || a == b {
		t.Errorf("patch names %d and %d bytes, equal %v", len(a), len(b), a == b)
	}
	if got := patchName("CronJob", "report"); got != "eni-lint-fix-cronjob-report.yaml" {
		t.Errorf("short name: %s", got)
	}
}
