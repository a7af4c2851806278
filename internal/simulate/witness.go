package simulate

import (
	"math/rand/v2"
	"sort"
)

// A witness is one trajectory of the controllers, played by the simulator, in which several
// workloads on one node hold the most ENIs at the same second that a bounded search found. It
// shows that an alarm is reachable, or how far below the bound the search stays.

// Trajectory is what a witness search found: the peak, the second it is reached, and the runs
// of every workload (each with its pods) that hold an ENI at that second.
type Trajectory struct {
	Peak int
	At   int
	Runs []RunRecord
}

// RunRecord is one run of a Job: the workload it belongs to (an index into the searched
// workloads), the schedule time it is for, when it started and finished, and its pods.
type RunRecord struct {
	Workload  int
	Scheduled int
	Start     int
	Finish    int
	Failed    bool
	// Deleted is when the Job was deleted (-1: not within the trajectory), DeletedBy by what:
	// "ttl", "history" or "replaced".
	Deleted   int
	DeletedBy string
	Pods      []PodRecord
}

// PodRecord is one pod: created, ended (terminal, or stopped after a deletion), deleted (-1:
// never), and the last second its branch ENI is held (Released; -1: beyond the trajectory).
type PodRecord struct {
	Created, Ended, Deleted, Released int
	Failed                            bool
}

// HoldsAt is whether the pod holds its ENI at second t.
func (p PodRecord) HoldsAt(t int) bool {
	return p.Created <= t && (p.Released < 0 || t <= p.Released)
}

// tape is a Source a search can replay and mutate: each choice reads the next value, and a
// tape that runs out extends itself from its generator.
type tape struct {
	vals  []uint64
	pos   int
	fresh *rand.Rand
}

func (t *tape) next() uint64 {
	if t.pos >= len(t.vals) {
		t.vals = append(t.vals, t.fresh.Uint64())
	}
	v := t.vals[t.pos]
	t.pos++
	return v
}

func (t *tape) IntN(n int) int { return int(t.next() % uint64(n)) }

func (t *tape) Float64() float64 { return float64(t.next()>>11) / (1 << 53) }

// mutated is a copy of the tape with a few values replaced, read from the start again.
func (t *tape) mutated(rng *rand.Rand) *tape {
	c := &tape{vals: append([]uint64(nil), t.vals...), fresh: t.fresh}
	if len(c.vals) == 0 {
		return c
	}
	for range 1 + rng.IntN(3) {
		c.vals[rng.IntN(len(c.vals))] = rng.Uint64()
	}
	return c
}

// choice is one workload's part of a joint trajectory: the adversary's bounds and its tape.
type choice struct {
	adv  Adversary
	tape *tape
}

// adversaries are the bounds a witness search draws from: pods that end at once or run long,
// status lags and controller latencies from none to a minute, mostly failing pods. Runs start
// at their schedule times (StartLatency 0), as the model assumes.
func adversary(rng *rand.Rand, w Workload, horizon int) Adversary {
	period := max(w.Period, 60)
	return Adversary{
		MaxRun:     []int{0, 0, 5, 30, 120, 2 * period, 2 * w.stop()}[rng.IntN(7)],
		MaxLag:     []int{0, 0, 10, 60}[rng.IntN(4)],
		MaxLatency: []int{0, 0, 5, 60}[rng.IntN(4)],
		Horizon:    horizon,
		FailShare:  []float64{0.8, 0.95, 1, 1}[rng.IntN(4)],
	}
}

// Search plays the workloads together on one node, up to plays trajectories, and returns the
// one with the most ENIs held at one second. It spends the plays on a few independent climbs
// (a hill climb gets stuck on a local best): each draws random trajectories first, then
// changes a few choices of one workload at a time and keeps what holds at least as much.
// Deterministic for a seed. Workloads' CronJob schedule times are theirs (Times).
func Search(ws []Workload, m Model, horizon, plays int, seed uint64) Trajectory {
	if len(ws) == 0 || plays <= 0 {
		return Trajectory{}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(ws))))
	climbs := max(1, min(searchClimbs, plays/500))
	var best jointPeak
	var bestRuns []ownedRun
	for c := range climbs {
		n := plays / climbs
		if c == 0 {
			n += plays % climbs
		}
		peak, runs := climb(ws, m, horizon, n, rng)
		if bestRuns == nil || peak.Peak > best.Peak {
			best, bestRuns = peak, runs
		}
	}
	return record(best, bestRuns)
}

// searchClimbs is how many independent climbs a search makes when it has the plays.
const searchClimbs = 6

func climb(ws []Workload, m Model, horizon, plays int, rng *rand.Rand) (jointPeak, []ownedRun) {
	fresh := func(w Workload) choice {
		return choice{adv: adversary(rng, w, horizon), tape: &tape{fresh: rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))}}
	}
	current := make([]choice, len(ws))
	for i, w := range ws {
		current[i] = fresh(w)
	}
	best, bestRuns := playAll(ws, m, current)
	explore := plays / 4
	for n := 1; n < plays; n++ {
		next := append([]choice(nil), current...)
		i := rng.IntN(len(ws))
		if n < explore {
			next[i] = fresh(ws[i])
		} else {
			next[i] = choice{adv: next[i].adv, tape: next[i].tape.mutated(rng)}
			if rng.IntN(8) == 0 {
				next[i].adv = adversary(rng, ws[i], horizon)
			}
		}
		peak, runs := playAll(ws, m, next)
		if peak.Peak >= best.Peak {
			if peak.Peak > best.Peak || n >= explore {
				current = next
			}
			if peak.Peak > best.Peak {
				best, bestRuns = peak, runs
			}
		}
	}
	return best, bestRuns
}

type jointPeak struct{ Peak, At int }

type ownedRun struct {
	workload int
	r        *run
}

// playAll plays every workload with its choice (tapes read from their start).
func playAll(ws []Workload, m Model, cs []choice) (jointPeak, []ownedRun) {
	var runs []ownedRun
	for i, w := range ws {
		cs[i].tape.pos = 0
		s := &sim{w: w, m: m, a: cs[i].adv, rng: cs[i].tape}
		s.play()
		for _, r := range s.runs {
			runs = append(runs, ownedRun{i, r})
		}
	}
	return peakOf(runs), runs
}

// peakOf is the most hold intervals [created, release] that share a second, and the first
// second it happens.
func peakOf(runs []ownedRun) jointPeak {
	type ev struct{ t, d int }
	var evs []ev
	for _, o := range runs {
		for _, p := range o.r.pods {
			evs = append(evs, ev{p.created, 1}, ev{p.release + 1, -1})
		}
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return evs[i].d < evs[j].d
	})
	n, best := 0, jointPeak{}
	for _, e := range evs {
		n += e.d
		if n > best.Peak {
			best = jointPeak{n, e.t}
		}
	}
	return best
}

// never is the release of a pod nothing deletes within the trajectory (releaseAll).
const never = 1 << 40

// record keeps the runs that hold an ENI at the peak.
func record(p jointPeak, runs []ownedRun) Trajectory {
	t := Trajectory{Peak: p.Peak, At: p.At}
	for _, o := range runs {
		rr := RunRecord{Workload: o.workload, Scheduled: o.r.slot, Start: o.r.start, Finish: o.r.finish,
			Failed: o.r.failed, Deleted: o.r.deletedAt, DeletedBy: o.r.deletedBy}
		holds := false
		for _, p := range o.r.pods {
			pr := PodRecord{Created: p.created, Ended: p.ended, Deleted: p.deleted, Released: p.release, Failed: p.failed}
			if p.release >= never {
				pr.Released = -1
			}
			holds = holds || pr.HoldsAt(t.At)
			rr.Pods = append(rr.Pods, pr)
		}
		if holds {
			t.Runs = append(t.Runs, rr)
		}
	}
	sort.SliceStable(t.Runs, func(i, j int) bool { return t.Runs[i].Start < t.Runs[j].Start })
	return t
}
