// Package gcpace paces Go's garbage collector for a short run whose heap is small: it lets
// the heap grow to softHeap before collecting as often as Go's default does.
//
// With GOGC=100 a run of a pull request's tree (a live heap of 40-100 MB) collects every few
// megabytes of policy-evaluation garbage, and the collector took a sixth of its CPU. Go has
// no minimum heap goal, so after every collection Start's hook sets GOGC from the live heap:
// the goal is softHeap, at most maxPercent above the live heap, and never below Go's default
// (100) so a large tree's heap grows no more than it does today.
//
// Before the first collection there is no live heap to pace from, and GOGC 400 from a 4 MB
// start still collected five times in a pull request's run (about 270 MB allocated in all,
// the last collection 70 ms of marking). So until then the collector is off under a memory
// limit of the goal: a run that allocates less than softHeap never collects, and one that
// allocates more collects at the goal and is paced from there. GOGC or GOMEMLIMIT in the
// environment turn the pacing off: whoever set them decides.
package gcpace

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

const (
	// softHeap is the heap goal a small run may grow to between collections.
	softHeap = 512 << 20
	// maxPercent bounds GOGC: the goal is at most five times the live heap.
	maxPercent = 400
)

var (
	once sync.Once
	// paced is whether Start paces the collector: Limit changes nothing otherwise.
	paced atomic.Bool
	// goal is the heap goal in force: softHeap, or less under Limit.
	goal atomic.Uint64
	// first is set from Start until the first collection: the collector is off under a memory
	// limit of goal.
	first atomic.Bool
)

func init() { goal.Store(softHeap) }

// Limit keeps the paced heap goal at half of maxBytes at most: the run's --max-memory ends a
// run whose heap (garbage not yet collected included) passes it, and pacing must not be what
// makes it pass. 0 means no limit.
func Limit(maxBytes uint64) {
	if maxBytes == 0 {
		return
	}
	goal.Store(min(softHeap, maxBytes/2))
	if first.Load() {
		debug.SetMemoryLimit(int64(goal.Load()))
		return
	}
	retune()
}

// Start paces the collector for the rest of the process, unless GOGC or GOMEMLIMIT is set.
func Start() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	once.Do(begin)
}

// begin turns the collector off until the heap reaches the goal (a memory limit), and arms
// the hook that paces it after each collection.
func begin() {
	paced.Store(true)
	first.Store(true)
	debug.SetMemoryLimit(int64(goal.Load()))
	debug.SetGCPercent(-1)
	arm()
}

// sentinel is garbage whose finalizer runs after each collection that finds it unreachable:
// one per cycle, re-armed by the finalizer.
type sentinel struct{ _ [16]byte }

func arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		retune()
		arm()
	})
}

// retune sets GOGC from the live heap of the last collection; after the first, it lifts the
// memory limit begin set.
func retune() {
	if !paced.Load() {
		return
	}
	if first.CompareAndSwap(true, false) {
		debug.SetMemoryLimit(math.MaxInt64)
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		debug.SetGCPercent(percent(sample[0].Value.Uint64(), goal.Load()))
	}
}

// Percent is the GOGC that sets the next heap goal, live × (1 + GOGC/100), to the goal in
// force (softHeap unless Limit lowered it), within [100, maxPercent].
func Percent(live uint64) int { return percent(live, goal.Load()) }

func percent(live, goal uint64) int {
	if live == 0 {
		return maxPercent
	}
	if live >= goal/2 {
		return 100
	}
	return max(100, min(maxPercent, int((goal-live)*100/live)))
}
