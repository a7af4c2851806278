package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, maxPercent},
		{10 * mb, maxPercent},  // goal 50 MB: five times the live heap at most
		{100 * mb, maxPercent}, // goal 500 MB
		{128 * mb, 300},        // goal 512 MB
		{200 * mb, 156},        // goal 512 MB
		{255 * mb, 100},        // goal 510 MB: never below Go's default
		{256 * mb, 100},
		{4096 * mb, 100}, // a large tree: as without pacing
	} {
		if got := percent(c.live, softHeap); got != c.want {
			t.Errorf("percent(%d MB) = %d, want %d", c.live/mb, got, c.want)
		}
		// The goal is never below what GOGC=100 gives, and at most max(softHeap, 2 × live).
		goal := c.live * uint64(100+percent(c.live, softHeap)) / 100
		if goal < 2*c.live || (goal > softHeap && goal > 2*c.live && c.live > 0) {
			t.Errorf("live %d MB: goal %d MB", c.live/mb, goal/mb)
		}
	}
}

// TestStartRetunesAfterCollections: the hook runs after a collection and sets GOGC from the
// live heap (a test binary's is small: the most Percent allows).
func TestStartRetunesAfterCollections(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Start()
	debug.SetGCPercent(123)
	gogc := func() int {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(s[0].Value.Uint64())
	}
	for i := 0; i < 50 && gogc() != maxPercent; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := gogc(); got != maxPercent {
		t.Errorf("GOGC %d after collections, want %d", got, maxPercent)
	}
}

// TestLimitKeepsTheGoalUnderMaxMemory: under --max-memory 200 MiB the paced goal is 100 MiB
// at most: a live heap of 30 MiB gets GOGC 233 (goal 100), one of 50 MiB Go's default.
func TestLimitKeepsTheGoalUnderMaxMemory(t *testing.T) {
	const mb = 1 << 20
	defer goal.Store(softHeap)
	Limit(200 * mb)
	if got := Percent(30 * mb); got != 233 {
		t.Errorf("Percent(30 MB) under a 200 MB limit = %d, want 233", got)
	}
	if got := Percent(50 * mb); got != 100 {
		t.Errorf("Percent(50 MB) under a 200 MB limit = %d, want 100", got)
	}
	Limit(0)
	if got := Percent(30 * mb); got != 233 {
		t.Errorf("Limit(0) changed the goal: %d", got)
	}
	Limit(8 << 30)
	if got := Percent(30 * mb); got != maxPercent {
		t.Errorf("a limit above the soft goal raised it: %d", got)
	}
}

// TestBeginWaitsForTheGoal: from begin until the first collection the collector is off under a
// memory limit of the goal (which Limit lowers); the first collection lifts the limit and
// paces GOGC from the live heap.
func TestBeginWaitsForTheGoal(t *testing.T) {
	const mb = 1 << 20
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer goal.Store(softHeap)
	defer paced.Store(paced.Load())
	begin()
	gogc := func() int {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(s[0].Value.Uint64())
	}
	if got := gogc(); got != -1 {
		t.Errorf("GOGC %d before the first collection, want off (-1)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != softHeap {
		t.Errorf("memory limit %d MB before the first collection, want %d MB", got/mb, softHeap/mb)
	}
	Limit(200 * mb)
	if got := debug.SetMemoryLimit(-1); got != 100*mb {
		t.Errorf("memory limit %d MB under --max-memory 200 MiB, want 100 MB", got/mb)
	}
	for i := 0; i < 50 && first.Load(); i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if first.Load() {
		t.Fatal("the first collection did not end the first cycle")
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit %d after the first collection, want none", got)
	}
	if got := gogc(); got != maxPercent {
		t.Errorf("GOGC %d after the first collection, want %d (a test's heap is small)", got, maxPercent)
	}
}
