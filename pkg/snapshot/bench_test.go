package snapshot

import (
	"bytes"
	"testing"

	"github.com/eni-lint/eni-lint/internal/synth"
)

// BenchmarkRead reads a generated snapshot of 200 nodes and 20,000 pods (one in ten SGP);
// scripts/bench-audit.sh measures the 500,000-pod case with the binary.
func BenchmarkRead(b *testing.B) {
	var buf bytes.Buffer
	if err := synth.WriteSnapshot(&buf, 200, 20000, 10, 1); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := New()
		s.Read("bench.json", bytes.NewReader(data), DefaultLimits)
		if len(s.Errors) > 0 || len(s.Nodes) != 200 || len(s.Pods) != 2000 {
			b.Fatalf("%d nodes %d pods %v", len(s.Nodes), len(s.Pods), s.Errors)
		}
	}
}
