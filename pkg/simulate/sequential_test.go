package simulate

import (
	"math/rand/v2"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
)

// randomSequentialWorkload draws the shape whose packing pins each run to its schedule time
// (policies/lib/sequential_runs.rego): a CronJob under Forbid or Replace, one pod at a time and
// one chain a run, with a TTL long enough that a run's window holds more than one time.
func randomSequentialWorkload(rng *rand.Rand) Workload {
	w := Workload{
		CronJob: true, Completions: 1, BackoffLimit: 2 + rng.IntN(7), Deadline: -1, StartingDeadline: -1,
		Period:            []int{60, 120, 300, 600}[rng.IntN(4)],
		Policy:            []string{"Forbid", "Forbid", "Replace"}[rng.IntN(3)],
		SuccessfulHistory: 1 + rng.IntN(3), FailedHistory: rng.IntN(3),
	}
	w.TTL = max(0, w.Period-90) + rng.IntN(8*w.Period)
	if rng.IntN(4) == 0 {
		w.StartingDeadline = []int{10, 100, 3600}[rng.IntN(3)]
	}
	w.Times = everyPeriod(w.Period, 16*max(w.Period, 300))
	return w
}

// TestPinnedRunsAreSound: for the pinned shape, neither the random adversaries of the soundness
// property nor the witness search (3 workloads here, 100 with -tags slow, each under both
// release models) passes the bound. The search is the stronger check: the pinned packing is
// made of trajectories (a run ending as the next time comes, its catch-up, pods at the back-off)
// that its climbs and hostile start play, and random draws rarely do.
func TestPinnedRunsAreSound(t *testing.T) {
	checkShapeIsSound(t, randomSequentialWorkload, 71)
}

// checkShapeIsSound plays workloads drawn by next with the soundness property's random
// adversaries (15, 200 with -tags slow) and searches a few of them (3, 100) under both release
// models: no trajectory passes the bound.
func checkShapeIsSound(t *testing.T, next func(*rand.Rand) Workload, seed uint64) {
	checkBoundsHold(t, next, testtool.Size(15, 200), 40, rand.New(rand.NewPCG(seed, 2026)))
	b := newBound(t)
	rng := rand.New(rand.NewPCG(seed+1, 2026))
	n, reached := testtool.Size(3, 100), 0
	for i := range n {
		w := next(rng)
		for _, m := range []Model{{OnDelete: true, Window: 90}, {Window: 90}} {
			bound := b.held(t, w, m)
			got := Search([]Workload{w}, m, 16*max(w.Period, 300), 3000, bound, NoLimit, uint64(i))
			if got.Peak > bound {
				t.Fatalf("%+v under %+v: the witness reaches %d, above the bound %d", w, m, got.Peak, bound)
			}
			if got.Peak == bound {
				reached++
			}
		}
	}
	t.Logf("the search reached the bound in %d of %d searches", reached, 2*n)
}

// randomSeparatedWorkload draws the shape whose history count starts its runs a gap after the
// window's first finish (_started_after_first_finish): Forbid or Replace with a deadline that
// ends every run, its pods stopped, before the next time; no TTL or a long one, so that the
// history limits decide.
func randomSeparatedWorkload(rng *rand.Rand) Workload {
	w := Workload{
		CronJob: true, Completions: 1, BackoffLimit: 2 + rng.IntN(7), TTL: -1, StartingDeadline: -1,
		Period:            []int{120, 300, 600}[rng.IntN(3)],
		Policy:            []string{"Forbid", "Forbid", "Replace"}[rng.IntN(3)],
		SuccessfulHistory: rng.IntN(4), FailedHistory: rng.IntN(3),
		Grace: []int{0, 0, 10}[rng.IntN(3)],
	}
	w.Deadline = w.Period/2 + rng.IntN(w.Period/2-30)
	if rng.IntN(3) == 0 {
		w.TTL = 3600
	}
	w.Times = everyPeriod(w.Period, 16*max(w.Period, 300))
	return w
}

// TestRunsAfterTheFirstFinishAreSound: as TestPinnedRunsAreSound, for that shape.
func TestRunsAfterTheFirstFinishAreSound(t *testing.T) {
	checkShapeIsSound(t, randomSeparatedWorkload, 73)
}

// TestDeadlineWindowsFallSoundly: hourly CronJobs a minute or three apart whose deadlines end
// their windows (the window's fall, policies/lib/overlap.rego): the witness search, whose pods
// may run until the deadline and stop in their whole grace period, never holds more than the
// row's figure.
func TestDeadlineWindowsFallSoundly(t *testing.T) {
	b := newBound(t)
	rng := rand.New(rand.NewPCG(75, 2026))
	for i := range testtool.Size(1, 30) {
		n, gap := 3+rng.IntN(testtool.Size(2, 6)), 60*(1+rng.IntN(3))
		deadline, ttl := 300+60*rng.IntN(6), []int{30, 90, 300, 600}[rng.IntN(4)]
		ws := make([]Workload, n)
		for j := range ws {
			ws[j] = Workload{CronJob: true, Completions: 1, BackoffLimit: 2 + rng.IntN(6), TTL: ttl, Deadline: deadline, Period: 3600,
				Policy: "Forbid", SuccessfulHistory: 1, FailedHistory: 1, StartingDeadline: -1, Grace: []int{0, 30, 60}[rng.IntN(3)]}
			for at := j * gap; at < 2*86400; at += 3600 {
				ws[j].Times = append(ws[j].Times, at)
			}
		}
		for _, m := range []Model{{OnDelete: true, Window: 90}, {Window: 90}} {
			limit := b.separatedPeak(t, ws, m)
			if got := Search(ws, m, 2*86400, testtool.Size(1000, 2000), limit+1, NoLimit, uint64(i)); got.Peak > limit {
				t.Fatalf("case %d under %+v: the witness holds %d, the row counts %d", i, m, got.Peak, limit)
			}
		}
	}
}

// TestFailedOnFailureJobsAreSound: OnFailure CronJobs of one pod at a time, whose failed Jobs
// the history count takes at their disrupted pods only (_kept_pods), under 0 to 7 disruptions a
// run: neither random adversaries nor the witness search passes the bound.
func TestFailedOnFailureJobsAreSound(t *testing.T) {
	b := newBound(t)
	rng := rand.New(rand.NewPCG(76, 2026))
	for i := range testtool.Size(12, 120) {
		w := Workload{
			CronJob: true, Completions: 1, BackoffLimit: rng.IntN(7), TTL: []int{-1, -1, 300}[rng.IntN(3)], Deadline: []int{-1, -1, 600}[rng.IntN(3)],
			StartingDeadline: -1, Period: []int{300, 600, 3600}[rng.IntN(3)], Policy: []string{"Forbid", "Replace"}[rng.IntN(2)],
			SuccessfulHistory: rng.IntN(4), FailedHistory: 1 + rng.IntN(3), OnFailure: true,
		}
		w.Times = everyPeriod(w.Period, 16*max(w.Period, 300))
		d := []int{0, 1, 3, 7}[rng.IntN(4)]
		for _, m := range []Model{{OnDelete: true, Window: 90, Disruptions: d}, {Window: 90, Disruptions: d}} {
			bound := b.held(t, w, m)
			for range 20 {
				if got := Peak(w, m, randomAdversary(rng, w), rng); got > bound {
					t.Fatalf("%+v under %+v: simulated %d, bound %d", w, m, got, bound)
				}
			}
			if got := Search([]Workload{w}, m, 16*max(w.Period, 300), 1000, bound, NoLimit, uint64(i)); got.Peak > bound {
				t.Fatalf("%+v under %+v: the witness reaches %d, bound %d", w, m, got.Peak, bound)
			}
		}
	}
}
