package fanout

import (
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {7, 1}, {100, 3}, {5, 0}, {3, 10}} {
		out := make([]int, tc.n)
		var running, most atomic.Int64
		Each(tc.n, tc.workers, func(i int) {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			out[i] += i + 1
			running.Add(-1)
		})
		for i, v := range out {
			if v != i+1 {
				t.Fatalf("n %d, workers %d: piece %d ran %d times", tc.n, tc.workers, i, v/(i+1))
			}
		}
		if limit := int64(tc.workers); tc.workers > 0 && most.Load() > limit {
			t.Fatalf("n %d, workers %d: %d ran at once", tc.n, tc.workers, most.Load())
		}
	}
}
