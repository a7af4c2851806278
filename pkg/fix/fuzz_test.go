package fix

import (
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// FuzzListPatch: a kustomization from a pull request must not make listPatch panic, and what
// it returns must list the patch once and keep every original line.
func FuzzListPatch(f *testing.F) {
	f.Add([]byte("resources:\n  - ../../base\n"))
	f.Add([]byte("patches:\r\n  - path: other.yaml\r\n"))
	f.Add([]byte("patches: []\n"))
	f.Add([]byte("namePrefix: p-\npatches:\n- path: x\n  target: {kind: Job}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		out, err := listPatch(data, "p.yaml", "Job", "n")
		if err != nil {
			return
		}
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if !strings.Contains(string(out), strings.TrimRight(line, "\r\n")) {
				t.Fatalf("line %q is gone from\n%q", line, out)
			}
		}
		if _, err := yamlpos.Documents(out); err != nil {
			t.Fatalf("the result does not parse: %v\n%q", err, out)
		}
		again, err := listPatch(out, "p.yaml", "Job", "n")
		if err != nil || string(again) != string(out) {
			t.Fatalf("listing twice changes the file: %v\n%q\n%q", err, out, again)
		}
		_ = inputName(data, "n")
		_ = readPatch(data)
	})
}

// FuzzHeredocBody: any .tf text and lines must give a range inside the file, or none.
func FuzzHeredocBody(f *testing.F) {
	f.Add([]byte("a = <<-YAML\n  kind: Job\nYAML\n"), 1, 3)
	f.Add([]byte("a = <<EOT\nx\n"), 1, 5)
	f.Fuzz(func(t *testing.T, data []byte, first, last int) {
		if len(data) > 1<<16 {
			return
		}
		start, end, ok := heredocBody(data, first, last)
		if ok && (start < 0 || end > len(data) || start > end) {
			t.Fatalf("range %d-%d for lines %d-%d of %d bytes", start, end, first, last, len(data))
		}
		_ = valuesRef(string(data))
		_, _, _ = literalValue(string(data), "backoffLimit")
	})
}

// FuzzTerraformEdits: any .tf text must not make the attribute or object editors panic, and
// an edit they make must leave a file that still parses.
func FuzzTerraformEdits(f *testing.F) {
	f.Add([]byte("resource \"kubernetes_job_v1\" \"m\" {\n  spec {\n    backoff_limit = 6\n  }\n}\n"), 1, "spec.backoffLimit", 2)
	f.Add([]byte("resource \"kubernetes_manifest\" \"m\" {\n  manifest = {\n    spec = {\n      \"completions\" = 5\n    }\n  }\n}\n"), 1, "spec.backoffLimit", 2)
	f.Add([]byte("resource \"a\" \"b\" { spec {} }\n"), 1, "spec.x", 1)
	f.Fuzz(func(t *testing.T, data []byte, line int, path string, value int) {
		if len(data) > 1<<14 || len(path) > 100 || value < 0 {
			return
		}
		for _, edit := range []func([]byte, int, Field) ([]byte, string){setAttribute, setObjectItem} {
			out, why := edit(data, line, Field{path, value})
			if why != "" || string(out) == string(data) {
				continue
			}
			if _, diags := hclsyntax.ParseConfig(out, "main.tf", hcl.InitialPos); diags.HasErrors() {
				t.Fatalf("the edit breaks the file: %v\n%q\n%q", diags, data, out)
			}
		}
	})
}
