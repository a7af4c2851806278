package snapshot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead: any input is read without a panic, within its item budget, and every error names
// the input.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{sgpPod, `{"items":[` + sgpPod + `]}`, "kind: List\nitems:\n- kind: Node\n", `[{"kind":"Node","status":{"capacity":{"vpc.amazonaws.com/pod-eni":"x"}}}]`, "{", "[[[", "\xef\xbb\xbf{}"} {
		f.Add([]byte(seed))
	}
	for _, p := range []string{"exhausted/snapshot.json", "mixed/snapshot.json"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "audit", p)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New()
		lim := Limits{MaxItems: 100, MaxItemBytes: 1 << 16, MaxYAMLBytes: 1 << 20}
		s.Read("f.json", bytes.NewReader(data), lim)
		if s.total() > lim.MaxItems {
			t.Fatalf("%d items over the budget of %d", s.total(), lim.MaxItems)
		}
		for _, e := range s.Errors {
			if e.Position.File != "f.json" || e.Message == "" {
				t.Fatalf("error without its input: %+v", e)
			}
		}
	})
}
