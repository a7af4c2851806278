package yamledit

import (
	"errors"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
	"testing"
)

func TestSetInt(t *testing.T) {
	cronJob := "# keep this\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c # the name\nspec:\n  schedule: \"*/5 * * * *\"\n  jobTemplate:\n    spec:\n      # the pods\n      template:\n        spec:\n          restartPolicy: Never\n"
	tests := []struct {
		name    string
		in      string
		docLine int
		path    string
		value   int
		want    string
		changed bool
		refused bool
	}{
		{
			name: "insert under the job template, after its key, keeping the comment on the next key",
			in:   cronJob, docLine: 2, path: "spec.jobTemplate.spec.backoffLimit", value: 2, changed: true,
			want: "# keep this\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c # the name\nspec:\n  schedule: \"*/5 * * * *\"\n  jobTemplate:\n    spec:\n      backoffLimit: 2\n      # the pods\n      template:\n        spec:\n          restartPolicy: Never\n",
		},
		{
			name: "replace a plain scalar, keeping its comment",
			in:   "kind: Job\nspec:\n  backoffLimit: 6 # retries\n  template: {}\n", path: "spec.backoffLimit", value: 3, changed: true,
			want: "kind: Job\nspec:\n  backoffLimit: 3 # retries\n  template: {}\n",
		},
		{
			name: "replace a quoted scalar in the same quotes",
			in:   "kind: Job\nspec:\n  backoffLimit: '6'\n", path: "spec.backoffLimit", value: 1, changed: true,
			want: "kind: Job\nspec:\n  backoffLimit: '1'\n",
		},
		{
			name: "the same value: nothing to do",
			in:   "kind: Job\nspec:\n  backoffLimit: 2\n", path: "spec.backoffLimit", value: 2,
			want: "kind: Job\nspec:\n  backoffLimit: 2\n",
		},
		{
			name: "CRLF stays CRLF",
			in:   "kind: Job\r\nspec:\r\n  template:\r\n    spec: {}\r\n", path: "spec.ttlSecondsAfterFinished", value: 600, changed: true,
			want: "kind: Job\r\nspec:\r\n  ttlSecondsAfterFinished: 600\r\n  template:\r\n    spec: {}\r\n",
		},
		{
			name: "four-space indentation, missing intermediate mapping",
			in:   "kind: CronJob\nspec:\n    schedule: x\n", path: "spec.jobTemplate.spec.backoffLimit", value: 0, changed: true,
			want: "kind: CronJob\nspec:\n    jobTemplate:\n        spec:\n            backoffLimit: 0\n    schedule: x\n",
		},
		{
			name: "the second document of a stream; the first stays",
			in:   "kind: Job\nmetadata:\n  name: a\nspec:\n  backoffLimit: 6\n---\n# b\nkind: Job\nmetadata:\n  name: b\nspec:\n  backoffLimit: 6\n", docLine: 8, path: "spec.backoffLimit", value: 4, changed: true,
			want: "kind: Job\nmetadata:\n  name: a\nspec:\n  backoffLimit: 6\n---\n# b\nkind: Job\nmetadata:\n  name: b\nspec:\n  backoffLimit: 4\n",
		},
		{
			name: "no final newline",
			in:   "kind: Job\nspec:\n  backoffLimit: 6", path: "spec.backoffLimit", value: 2, changed: true,
			want: "kind: Job\nspec:\n  backoffLimit: 2",
		},
		{name: "flow mapping", in: "kind: Job\nspec: {template: {}}\n", path: "spec.backoffLimit", value: 1, refused: true},
		{name: "alias", in: "x: &n 6\nkind: Job\nspec:\n  backoffLimit: *n\n", path: "spec.backoffLimit", value: 1, refused: true},
		{name: "no such document", in: "kind: Job\nspec:\n  a: 1\n", docLine: 7, path: "spec.a", value: 1, refused: true},
		{name: "top-level key", in: "kind: Job\n", path: "spec", value: 1, refused: true},
		{name: "not YAML", in: "kind: [\n", path: "spec.a", value: 1, refused: true},
		{name: "a sequence on the way", in: "kind: Job\nspec:\n- a\n", path: "spec.a", value: 1, refused: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, changed, err := SetInt([]byte(tc.in), tc.docLine, tc.path, tc.value)
			if tc.refused {
				var refusal *Error
				if !errors.As(err, &refusal) {
					t.Fatalf("err = %v, want a refusal", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if changed != tc.changed {
				t.Errorf("changed = %v, want %v", changed, tc.changed)
			}
			got := tc.in
			if changed {
				got = string(e.Apply([]byte(tc.in)))
			}
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			if changed {
				// A second edit with the result is a no-op: fix is idempotent.
				if _, again, err := SetInt([]byte(got), tc.docLine, tc.path, tc.value); err != nil || again {
					t.Errorf("second edit: changed %v, err %v", again, err)
				}
			}
		})
	}
}

// documentAt finds the one document on its line between document markers, with the lines of
// the whole file, and agrees with parsing the whole file.
func TestDocumentAt(t *testing.T) {
	data := []byte("a: 1\n---\nb: 2\n...\n--- \r\nc: |\n  ---x\n  y\n---\t{d: 4}\n--- {e: 5}\n---\n")
	whole, err := yamlpos.Documents(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != 6 {
		t.Fatalf("%d documents", len(whole))
	}
	for _, d := range whole {
		if d.Kind != yaml.MappingNode {
			continue // the empty document after the last marker: not one an edit targets
		}
		got := documentAt(data, d.Line)
		if got == nil {
			t.Errorf("line %d: not found", d.Line)
			continue
		}
		if got.Line != d.Line || got.Column != d.Column || len(got.Content) != len(d.Content) || got.Content[0].Value != d.Content[0].Value || got.Content[1].Line != d.Content[1].Line {
			t.Errorf("line %d: %+v, want %+v", d.Line, got, d)
		}
	}
	for _, line := range []int{0, 2, 4, 99} {
		if got := documentAt(data, line); got != nil {
			t.Errorf("line %d: found %+v", line, got)
		}
	}
}
