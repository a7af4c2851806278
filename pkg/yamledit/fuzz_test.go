package yamledit

import (
	"strconv"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// FuzzSetInt feeds the editor arbitrary files and paths: it must not panic, and an edit it
// makes must leave a file where the path holds the value and a second edit changes nothing.
func FuzzSetInt(f *testing.F) {
	f.Add([]byte("kind: Job\nspec:\n  backoffLimit: 6\n"), "spec.backoffLimit", 2)
	f.Add([]byte("kind: CronJob\r\nspec:\r\n  jobTemplate:\r\n    spec:\r\n      template: {}\r\n"), "spec.jobTemplate.spec.ttlSecondsAfterFinished", 600)
	f.Add([]byte("a: 1\n---\nkind: Job\nspec:\n    x: 'q'\n"), "spec.x", 0)
	f.Add([]byte("spec:\n  a: &x 1\n  b: *x\n"), "spec.b", 3)
	f.Fuzz(func(t *testing.T, data []byte, path string, value int) {
		if len(data) > 1<<16 || len(path) > 200 || value < 0 {
			return
		}
		docs, _ := lineDocs(data)
		for _, line := range docs {
			e, changed, err := SetInt(data, line, path, value)
			if err != nil || !changed {
				continue
			}
			if e.Start < 0 || e.End > len(data) || e.Start > e.End {
				t.Fatalf("edit %+v outside a file of %d bytes", e, len(data))
			}
			out := e.Apply(data)
			if got, ok := valueAt(out, line, path); !ok || got != itoa(value) {
				t.Fatalf("after the edit %q is %q (found %v) in\n%q", path, got, ok, out)
			}
			if _, again, err := SetInt(out, line, path, value); err != nil || again {
				t.Fatalf("second edit changed %v, err %v on\n%q", again, err, out)
			}
		}
	})
}

func itoa(v int) string { return strconv.Itoa(v) }

// lineDocs lists the lines the documents of data start on.
func lineDocs(data []byte) ([]int, error) {
	docs, err := yamlpos.Documents(data)
	var lines []int
	for _, d := range docs {
		lines = append(lines, d.Line)
	}
	return lines, err
}
