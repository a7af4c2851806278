package fix

import (
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
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
