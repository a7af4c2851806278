package simulate

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
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
	// Running is the most pods running (bound and not yet ended) at one second anywhere in the
	// trajectory: what kube-scheduler had to admit on the node.
	Running int
	// RunningAtPeak is how many of them run at the peak's second.
	RunningAtPeak int
	Runs          []RunRecord
	// AllRuns is every run played, for a replay that checks the trajectory against the
	// controllers' rules (history limits and Forbid depend on the runs not holding too).
	AllRuns []RunRecord
	// Plays is the search's budget, for the report (Search leaves it to its caller).
	Plays int
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
	// Bound is when the pod was bound to the node (after Created when it waited Pending), -1
	// when it was deleted before.
	Bound int
	// Finished is when its container finished; Ended − Finished is how late the kubelet
	// reported it (the status lag the trajectory assumes).
	Finished int
	Failed   bool
}

// HoldsAt is whether the pod holds its ENI at second t.
func (p PodRecord) HoldsAt(t int) bool {
	return p.Bound >= 0 && p.Bound <= t && (p.Released < 0 || t <= p.Released)
}

// tape is a Source a search can replay and mutate. Its values come in segments, one per
// schedule time (segment 0 for what comes before the first run): each choice reads the next
// value of the current segment, and a segment that runs out extends itself from the
// generator. A run that makes one more pod, or one fewer, then leaves the draws of every later
// run as they were, so that a search changing one run keeps the rest of its trajectory.
type tape struct {
	segs     [][]uint64
	seg, pos int
	fresh    *rand.Rand
}

// segment makes the next choices read segment i from its start.
func (t *tape) segment(i int) {
	t.seg, t.pos = i, 0
	for len(t.segs) <= i {
		t.segs = append(t.segs, nil)
	}
}

func (t *tape) next() uint64 {
	if t.seg >= len(t.segs) {
		t.segment(t.seg)
	}
	vals := t.segs[t.seg]
	if t.pos >= len(vals) {
		vals = append(vals, t.fresh.Uint64())
		t.segs[t.seg] = vals
	}
	v := vals[t.pos]
	t.pos++
	return v
}

func (t *tape) IntN(n int) int { return int(t.next() % uint64(n)) }

func (t *tape) Float64() float64 { return float64(t.next()>>11) / (1 << 53) }

// rewind reads the tape from its start again.
func (t *tape) rewind() { t.seg, t.pos = 0, 0 }

// mutated is a copy of the tape in which one segment changes: a few of its values replaced,
// all of them drawn afresh (a new run for that schedule time), or all of them 0, which the
// simulator reads as its most hostile run (every pick 0: pods that fail a second after they
// start, no lag, no latency, no wait), from which single changes make the run end otherwise. The other
// segments are shared, capped so that extending one in the copy does not write into this one.
func (t *tape) mutated(rng *rand.Rand) *tape {
	c := &tape{segs: make([][]uint64, len(t.segs)), fresh: t.fresh}
	total := 0
	for i, vals := range t.segs {
		c.segs[i] = vals[:len(vals):len(vals)]
		total += len(vals)
	}
	if total == 0 {
		return c
	}
	// The segment of a value drawn at random: longer runs are changed more often.
	k, at := 0, rng.IntN(total)
	for at >= len(c.segs[k]) {
		at -= len(c.segs[k])
		k++
	}
	switch rng.IntN(8) {
	case 0, 1:
		c.segs[k] = nil
		return c
	case 2:
		c.segs[k] = make([]uint64, len(c.segs[k]))
		return c
	}
	vals := append([]uint64(nil), c.segs[k]...)
	for range 1 + rng.IntN(3) {
		vals[rng.IntN(len(vals))] = rng.Uint64()
	}
	c.segs[k] = vals
	return c
}

// choice is one workload's part of a joint trajectory: the adversary's bounds and its tape.
type choice struct {
	adv  Adversary
	tape *tape
}

// adversaries are the bounds a witness search draws from: pods that end at once or run long,
// status lags and controller latencies from none to a minute, mostly failing pods (or, for
// pods in parallel, the back-off limit's failures first and successes after). Runs start at
// their schedule times (StartLatency 0), as the model assumes. Every trajectory is legal
// (Adversary.Legal) on today's controllers (Kubernetes 1.31 and later).
func adversary(rng *rand.Rand, w Workload, horizon int) Adversary {
	period := max(w.Period, 60)
	a := Adversary{
		MaxRun:     []int{0, 0, 5, 30, 120, 2 * period, 2 * max(w.Grace, 30)}[rng.IntN(7)],
		MaxLag:     []int{0, 0, 0, 10, 60}[rng.IntN(5)],
		MaxLatency: []int{0, 0, 0, 5, 60}[rng.IntN(5)],
		Horizon:    horizon,
		FailShare:  []float64{0.8, 0.95, 1, 1}[rng.IntN(4)],
		Cut:        true,
		Legal:      true,
		MaxPending: []int{0, 0, 0, 5, 30, 120}[rng.IntN(6)],
	}
	if w.parallel() && rng.IntN(2) == 0 {
		a.FailFirst = max(0, w.BackoffLimit)
		a.Interleave = rng.IntN(2) == 0
	}
	return a
}

// hostile is the adversary whose pods fail as soon as they start (run a second), with no
// status lag and no controller latency: runs make their pods as fast as the back-off allows.
// With failFirst, a run's first pods fail up to its back-off limit and the others succeed:
// the most pods a run whose pods run in parallel makes (C + B).
func hostile(horizon int, failFirst bool, w Workload) Adversary {
	a := Adversary{Horizon: horizon, FailShare: 1, Cut: true, Legal: true}
	if failFirst {
		a.FailFirst = max(0, w.BackoffLimit)
	}
	return a
}

// Search plays the workloads together on one node, up to plays trajectories, and returns the
// one with the most ENIs held at one second, stopping early once one holds target (0: no
// target). A trajectory with more than limit pods running at one second (negative: no limit)
// is not one the node allows: kube-scheduler binds a pod only while the pods running there
// request fewer branch ENIs than the node has, whatever terminated pods still hold. The search
// prefers fewer such pods before more ENIs, and returns one above the limit only when it found
// none within it (Running says by how much). It spends the plays on a few independent climbs
// (a hill climb gets stuck on a local best): each draws random trajectories first, then
// changes a few choices of one workload at a time and keeps what holds at least as much. A step replays only the workload it changes: the
// others' pods stay as they were. Deterministic for a seed. Workloads' CronJob schedule times
// are theirs (Times).
func Search(ws []Workload, m Model, horizon, plays, target int, limit Limit, seed uint64) Trajectory {
	if len(ws) == 0 || plays <= 0 {
		return Trajectory{}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(ws))))
	climbs := max(1, min(searchClimbs, plays/500))
	// First the most hostile trajectory of each release, played once: the one many bounds are
	// made of, and one that random draws for many workloads at once rarely make together. It
	// draws nothing from the search's random source (its tapes read 0), so the climbs are what they
	// would be without it.
	best, _ := hostileStart(ws, m, horizon, plays, target, limit)
	if best.reaches(target) {
		return best.trajectory()
	}
	for c := range climbs {
		n := plays / climbs
		if c == 0 {
			n += plays % climbs
		}
		var from *state
		if c%3 == 0 {
			// Every third climb goes on from the best trajectory so far (the first from the
			// hostile start): a run or a pod changed from there (one that succeeds, one that
			// ends just before a schedule time) is often what the bound is made of.
			from = best.clone()
		}
		got := climb(ws, m, horizon, n, target, limit, rng, from)
		if got.better(best) {
			best = got
		}
		if best.reaches(target) {
			break
		}
	}
	return shrink(ws, m, best, limit).trajectory()
}

// shrink lowers the lags the trajectory assumes where it needs none: for each workload in turn,
// no Pending wait, then no status lag, then no controller latency, each kept when the
// trajectory still holds as much within the node's limit. A choice draws the same values
// whatever its bound (Adversary.Legal), so the rest of the trajectory stays as it was.
func shrink(ws []Workload, m Model, s *state, limit Limit) *state {
	lower := []func(*Adversary) bool{
		func(a *Adversary) bool {
			ok := a.Pending > 0 || a.MaxPending > 0
			a.Pending, a.MaxPending = 0, 0
			return ok
		},
		func(a *Adversary) bool { ok := a.MaxLag > 0; a.MaxLag = 0; return ok },
		func(a *Adversary) bool { ok := a.MaxLatency > 0; a.MaxLatency = 0; return ok },
	}
	for i, w := range ws {
		for _, f := range lower {
			c := s.choices[i]
			if !c.adv.Legal || !f(&c.adv) {
				continue
			}
			next := &state{choices: append([]choice(nil), s.choices...), plays: append([]played(nil), s.plays...)}
			next.choices[i], next.plays[i] = c, playOne(w, m, c)
			next.sum(limit)
			if !s.better(next) {
				s = next
			}
		}
	}
	return s
}

// Sample plays one random trajectory of the workloads together, for a caller to tell how many
// pods a search's play creates.
func Sample(ws []Workload, m Model, horizon int, seed uint64) Trajectory {
	if len(ws) == 0 {
		return Trajectory{}
	}
	return climb(ws, m, horizon, 1, 0, NoLimit, rand.New(rand.NewPCG(seed, uint64(len(ws)))), nil).trajectory()
}

// hostileStart is the best of the trajectories in which pods end a second after they are
// bound, with no status lag or controller latency: every pod failing, each run's first B
// failing and the rest succeeding, or the B failures interleaved with the successes (pods in
// parallel then make C + B within seconds: a success in the same second resets the back-off);
// all bound as they are created, or (for a node that runs fewer pods than come at once) the
// i-th workload's pods waiting Pending i / limit seconds, so that the node binds at most
// limit of those that come at the same second at a time. For Forbid CronJobs, the failing
// outcomes also with the first run's first pods running until shortly before the second
// schedule time after its start (Adversary.LongFirst): the start of the catch-up chain. The
// distances come from how long a first run took in the plain trajectory (d): d, 1.5 d and 2 d
// past it, so that the run ends before that time and its catch-up runs across it. Last, for
// Forbid CronJobs of one chain, the steady scripts (steadyScripts): the history count's
// trajectory once the history has filled.
func hostileStart(ws []Workload, m Model, horizon, plays, target int, limit Limit) (*state, int) {
	var best *state
	bestOutcome := 0
	play := func(outcome int, staggered bool, long []int, steady []Steady) *state {
		s := &state{choices: make([]choice, len(ws)), plays: make([]played, len(ws))}
		for i, w := range ws {
			adv := hostile(horizon, outcome > 0, w)
			adv.Interleave = outcome == 2
			if long != nil {
				adv.LongFirst = long[i]
			}
			if steady != nil && steady[i].Before > 0 {
				adv.Steady = &steady[i]
			}
			if staggered {
				adv.Pending = i / max(1, limit.AtPeak)
			}
			s.choices[i] = choice{adv: adv, tape: &tape{fresh: rand.New(zeros{})}}
			s.plays[i] = playOne(w, m, s.choices[i])
		}
		s.sum(limit)
		if best == nil || s.better(best) {
			best, bestOutcome = s, outcome
		}
		return s
	}
	firstRuns := map[int][]int{} // outcome → each workload's first run's length
	for variant := range 6 {
		outcome, staggered := variant%3, variant >= 3
		if staggered && (limit.Running < 0 || len(ws) <= limit.AtPeak) {
			continue
		}
		s := play(outcome, staggered, nil, nil)
		if !staggered {
			firstRuns[outcome] = firstRunLengths(s)
		}
	}
	for _, outcome := range []int{1, 2} {
		for _, k := range []int{2, 3, 4} { // d·k/2 past the first run's start, and a second
			own := longFirstDistances(ws, firstRuns[outcome], k, false)
			candidates := [][]int{own}
			if common := longFirstDistances(ws, firstRuns[outcome], k, true); !slices.Equal(common, own) {
				candidates = append(candidates, common)
			}
			for _, long := range candidates {
				if long == nil {
					continue
				}
				for _, staggered := range []bool{false, true} {
					if !staggered || limit.Running >= 0 && len(ws) > limit.AtPeak {
						play(outcome, staggered, long, nil)
					}
				}
			}
		}
	}
	// The workloads a script does not play keep the outcome of the best trajectory so far.
	others := bestOutcome
	scripted := 0
	for _, steady := range steadyScripts(ws, m, plays) {
		for _, staggered := range []bool{false, true} {
			if best.reaches(target) {
				return best, scripted
			}
			if !staggered || limit.Running >= 0 && len(ws) > limit.AtPeak {
				play(others, staggered, nil, steady)
				scripted++
			}
		}
	}
	return scriptEach(ws, m, plays, target, limit, best), scripted
}

// scriptEach tries, for each scripted CronJob in turn, every script of its own (its distance
// and pods a run), all ending before the same time their schedules share, the others keeping
// their plays: CronJobs of different shapes need different distances (one the history count's,
// within W, one a TTL's tail) that one script for all cannot give.
func scriptEach(ws []Workload, m Model, plays, target int, limit Limit, best *state) *state {
	var scripted []int
	for i, w := range ws {
		if steadyShape(w, m) {
			scripted = append(scripted, i)
		}
	}
	if len(scripted) < 2 || plays < minSteadyPlays || best.reaches(target) {
		return best
	}
	for later := range 2 {
		at := commonTime(ws, m, later)
		if at == 0 {
			continue
		}
		s := best.clone()
		set := func(i int, sc Steady) {
			adv := hostile(s.choices[i].adv.Horizon, false, ws[i])
			adv.Steady = &sc
			s.choices[i] = choice{adv: adv, tape: &tape{fresh: rand.New(zeros{})}}
			s.plays[i] = playOne(ws[i], m, s.choices[i])
		}
		for _, i := range scripted {
			sc := steadyFor(ws[i], later)
			sc.Before, sc.Target = 1, at
			set(i, sc)
		}
		s.sum(limit)
		for _, i := range scripted {
			keep, keepPlay := s.choices[i], s.plays[i]
			for _, script := range steadyScripts(ws[i:i+1], m, plays/len(scripted)) {
				sc := script[0]
				if sc.Long != steadyFor(ws[i], later).Long {
					continue
				}
				sc.Target = at
				prev := state{overLimit: s.overLimit, peak: s.peak} // what better compares
				set(i, sc)
				s.sum(limit)
				if s.better(&prev) {
					keep, keepPlay = s.choices[i], s.plays[i]
				} else {
					s.choices[i], s.plays[i] = keep, keepPlay
					s.sum(limit)
				}
			}
		}
		if s.better(best) {
			best = s
			if best.reaches(target) {
				return best
			}
		}
	}
	return best
}

// steadyScripts are the Adversary.Steady scripts the hostile start plays: for every Forbid
// CronJob of one chain, its long run right after the history has filled (S + F runs) or one
// run later, ending 1 … W seconds (TTL + W with a TTL) before its time, all the CronJobs at
// the same distance so that their chains peak in the same second; nil when none is such a
// CronJob, or when the search has fewer than minSteadyPlays plays (the smallest budget is the
// one of a row whose contributors are neither all played nor counted, which cannot reach the
// bound: on the bench's pull-request tree the scripts cost its ten searches 1.3x the run's
// wall time, for nothing). About an eighth of the search's plays go to them (a quarter when
// staggered plays are made too), and the hostile start stops once one reaches the target:
// with fewer plays than distances, the distances are a step apart.
func steadyScripts(ws []Workload, m Model, plays int) [][]Steady {
	found := false
	for _, w := range ws {
		found = found || steadyShape(w, m)
	}
	if !found || m.Window <= 0 || plays < minSteadyPlays {
		return nil
	}
	// The distances reach the longest window of a finished run: W after its deletion, TTL + W
	// when a TTL deletes it (the catch-up and the next run then fit in that tail).
	span := m.Window
	for _, w := range ws {
		if steadyShape(w, m) && w.TTL >= 0 {
			span = max(span, w.TTL+m.Window)
		}
	}
	// Each CronJob's own long run, and, when they share a time, all of them ending before it.
	targets := [2][]int{{0}, {0}}
	for later := range 2 {
		if t := commonTime(ws, m, later); t > 0 {
			targets[later] = append(targets[later], t)
		}
	}
	// The runs after the long one as the history count needs them (0), and, under a TTL's
	// tail, each making the same number of pods: one to three fewer than a run can (a run's
	// last pods cost the longest back-offs, so a tail that fits every run's T holds T each,
	// which the first kind of script already plays).
	each := []int{0}
	if span > m.Window {
		most := 0
		for _, w := range ws {
			if steadyShape(w, m) {
				most = max(most, max(0, w.BackoffLimit)+1)
			}
		}
		for n := most - 1; n >= max(2, most-3); n-- {
			each = append(each, n)
		}
	}
	variants := (len(targets[0]) + len(targets[1])) * len(each)
	step := max(1, (variants*span+plays/8-1)/(plays/8))
	var out [][]Steady
	for later := range 2 {
		for _, target := range targets[later] {
			for _, n := range each {
				for before := 1; before <= span; before += step {
					script := make([]Steady, len(ws))
					for i, w := range ws {
						if steadyShape(w, m) {
							script[i] = steadyFor(w, later)
							script[i].Before, script[i].Target, script[i].Each = before, target, n
						}
					}
					out = append(out, script)
				}
			}
		}
	}
	return out
}

// steadyFor is the script of w whose long run is the first once its history has filled
// (run S + F), or later runs after it; the distance and the rest are the caller's.
func steadyFor(w Workload, later int) Steady {
	f := max(0, w.FailedHistory)
	return Steady{Long: max(0, w.SuccessfulHistory) + f + later, Failed: f}
}

// commonTime is the first time every scripted CronJob's schedule fires at, after each one's
// long run (run S + F + later) has started and passed the time after its own (the time it
// misses, whose catch-up the script needs); 0 with one such CronJob, or when their listed
// times share none.
func commonTime(ws []Workload, m Model, later int) int {
	var scripted []Workload
	after := 0
	for _, w := range ws {
		if !steadyShape(w, m) {
			continue
		}
		if len(w.Times) == 0 {
			return 0
		}
		scripted = append(scripted, w)
		after = max(after, w.Times[min(len(w.Times)-1, steadyFor(w, later).Long+2)])
	}
	if len(scripted) < 2 {
		return 0
	}
next:
	for _, t := range scripted[0].Times {
		if t < after {
			continue
		}
		for _, w := range scripted[1:] {
			if _, ok := slices.BinarySearch(w.Times, t); !ok {
				continue next
			}
		}
		return t
	}
	return 0
}

// firstRunLengths is how long each workload's first run lasted in a trajectory (0: none).
func firstRunLengths(s *state) []int {
	out := make([]int, len(s.plays))
	for i, p := range s.plays {
		if len(p.runs) > 0 {
			out[i] = p.runs[0].finish - p.runs[0].start
		}
	}
	return out
}

// longFirstDistances are Adversary.LongFirst distances for the Forbid CronJobs of ws: each
// one's first run length times k/2, and a second, when that is shorter than its period (the
// first run must end after the time it misses); nil when no workload gets one. With common,
// every one gets the longest of those lengths: CronJobs of one schedule then end their first
// runs together, and their chains peak in the same second.
func longFirstDistances(ws []Workload, lengths []int, k int, common bool) []int {
	longest := 0
	for i, w := range ws {
		if w.CronJob && w.Policy == "Forbid" && i < len(lengths) {
			longest = max(longest, lengths[i])
		}
	}
	var out []int
	for i, w := range ws {
		if !w.CronJob || w.Policy != "Forbid" || i >= len(lengths) || lengths[i] <= 0 {
			continue
		}
		length := lengths[i]
		if common {
			length = longest
		}
		if d := length*k/2 + 1; d < w.Period {
			if out == nil {
				out = make([]int, len(ws))
			}
			out[i] = d
		}
	}
	return out
}

// minSteadyPlays is the smallest search that plays the steady scripts.
const minSteadyPlays = 1000

// zeros is the source of the hostile start's tapes: every choice 0, which the simulator reads
// as its most hostile (no lag, no latency, no wait, no pod running longer than a second).
type zeros struct{}

func (zeros) Uint64() uint64 { return 0 }

func (s *state) trajectory() Trajectory {
	t := record(s.peak, s.owned())
	t.Running, t.RunningAtPeak = s.running, s.runningAtPeak
	return t
}

// searchClimbs is how many independent climbs a search makes when it has the plays; a climb
// that has not found more for stagnation plays past its exploration ends early.
const (
	searchClimbs = 6
	stagnation   = 1500
)

// played is one workload's trajectory: its runs, and its profile, the change of the number of
// ENIs it holds at each second where that changes (sorted, one entry per second).
type played struct {
	runs    []*run
	profile []event
	// busy is the same for the pods running: from bound to ended (a pod that ends within
	// the second it starts takes no place the scheduler counts at a second boundary).
	busy []event
}

type event struct{ t, d int }

// state is a joint trajectory: every workload's, the sum of their profiles, and its peak; the
// sum of their running pods, its most at one second, and how far that is above the limit.
type state struct {
	choices       []choice
	plays         []played
	total         []event
	peak          jointPeak
	busy          []event
	running       int
	runningAtPeak int
	overLimit     int
}

// clone is a copy of s that a climb may recycle without changing s.
func (s *state) clone() *state {
	c := *s
	c.choices = append([]choice(nil), s.choices...)
	c.plays = append([]played(nil), s.plays...)
	c.total = append([]event(nil), s.total...)
	c.busy = append([]event(nil), s.busy...)
	return &c
}

// Limit is what kube-scheduler admits on the node: at most Running played pods running at one
// second, and AtPeak at the peak's second, where the running pods of the workloads not played
// (replicas) take their places; negative Running: no limit.
type Limit struct{ Running, AtPeak int }

// NoLimit lets any number of pods run at once.
var NoLimit = Limit{-1, -1}

// RunningLimit is a node that admits n running pods throughout.
func RunningLimit(n int) Limit { return Limit{n, n} }

// peakSecond is, of the seconds at which the held profile total is at its peak, the one with
// the fewest pods running (busy), and how many run then: terminated pods go on holding, and
// the scheduler has room for the replicas not played only where few played pods run.
func peakSecond(total, busy []event, p jointPeak) (at, running int) {
	at, running = p.At, math.MaxInt
	held, run := 0, 0
	i, j := 0, 0
	for i < len(total) || j < len(busy) {
		t := math.MaxInt
		if i < len(total) {
			t = total[i].t
		}
		if j < len(busy) {
			t = min(t, busy[j].t)
		}
		for ; i < len(total) && total[i].t == t; i++ {
			held += total[i].d
		}
		for ; j < len(busy) && busy[j].t == t; j++ {
			run += busy[j].d
		}
		if held == p.Peak && run < running {
			at, running = t, run
			if run == 0 {
				break
			}
		}
	}
	if running == math.MaxInt {
		running = 0
	}
	return at, running
}

// better orders trajectories for a search: fewer running pods above the node's limit first
// (only a trajectory within it is one the scheduler allows), then more ENIs held.
func (s *state) better(o *state) bool {
	if s.overLimit != o.overLimit {
		return s.overLimit < o.overLimit
	}
	return s.peak.Peak > o.peak.Peak
}

// sameOrBetter is better or equal.
func (s *state) sameOrBetter(o *state) bool {
	return !o.better(s)
}

// reaches is whether the trajectory is within the limit and holds target (0: no target).
func (s *state) reaches(target int) bool {
	return target > 0 && s.overLimit == 0 && s.peak.Peak >= target
}

// sum sets the state's totals from its workloads' profiles.
func (s *state) sum(limit Limit) {
	s.total, s.busy = nil, nil
	for _, p := range s.plays {
		s.total, _ = combine(s.total, nil, p.profile)
		s.busy, _ = combine(s.busy, nil, p.busy)
	}
	var most jointPeak
	s.total, s.peak = combine(s.total, nil, nil)
	s.busy, most = combine(s.busy, nil, nil)
	var atPeak int
	s.peak.At, atPeak = peakSecond(s.total, s.busy, s.peak)
	s.setRunning(most.Peak, atPeak, limit)
}

func (s *state) setRunning(running, atPeak int, limit Limit) {
	s.running, s.runningAtPeak = running, atPeak
	if limit.Running >= 0 {
		s.overLimit = max(0, running-limit.Running) + max(0, atPeak-limit.AtPeak)
	}
}

func (s *state) owned() []ownedRun {
	var out []ownedRun
	for i, p := range s.plays {
		for _, r := range p.runs {
			out = append(out, ownedRun{i, r})
		}
	}
	return out
}

// climb is one hill climb.
func climb(ws []Workload, m Model, horizon, plays, target int, limit Limit, rng *rand.Rand, from *state) *state {
	fresh := func(w Workload) choice {
		return choice{adv: adversary(rng, w, horizon), tape: &tape{fresh: rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))}}
	}
	explore := plays / 4
	cur := from
	if cur == nil {
		cur = &state{choices: make([]choice, len(ws)), plays: make([]played, len(ws))}
		for i, w := range ws {
			cur.choices[i] = fresh(w)
			cur.plays[i] = playOne(w, m, cur.choices[i])
		}
		cur.sum(limit)
	} else {
		explore = 0 // climbing from a trajectory already chosen
	}
	best := cur
	var spare profiles
	improved := 0
	for n := 1; n < plays; n++ {
		if best.reaches(target) {
			break
		}
		if n >= explore && n-improved > stagnation {
			break // the climb is stuck; the next one starts afresh
		}
		i := rng.IntN(len(ws))
		c := cur.choices[i]
		if n < explore {
			c = fresh(ws[i])
		} else {
			c = choice{adv: c.adv, tape: c.tape.mutated(rng)}
			if rng.IntN(8) == 0 {
				c.adv = adversary(rng, ws[i], horizon)
			}
		}
		next := &state{choices: append([]choice(nil), cur.choices...), plays: append([]played(nil), cur.plays...)}
		next.choices[i], next.plays[i] = c, playOne(ws[i], m, c)
		// The others' pods are as they were: the total changes by this workload's profiles.
		total, busy := spare.take()
		next.total, next.peak = combineInto(total, cur.total, cur.plays[i].profile, next.plays[i].profile)
		var most jointPeak
		next.busy, most = combineInto(busy, cur.busy, cur.plays[i].busy, next.plays[i].busy)
		var atPeak int
		next.peak.At, atPeak = peakSecond(next.total, next.busy, next.peak)
		next.setRunning(most.Peak, atPeak, limit)
		prev := cur
		if next.sameOrBetter(best) {
			if next.better(best) || n >= explore {
				cur = next
			}
			if next.better(best) {
				best, improved = next, n
			}
		}
		// A state neither kept as the current one nor as the best is no longer read: its
		// profiles are written over by a later step.
		spare.give(next, cur, best)
		if prev != next {
			spare.give(prev, cur, best)
		}
	}
	return best
}

// profiles recycles the totals of states a climb no longer reads: most steps are rejected,
// and each allocated two profiles as long as the node's whole trajectory.
type profiles struct{ free [][2][]event }

func (p *profiles) take() (total, busy []event) {
	if len(p.free) == 0 {
		return nil, nil
	}
	last := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return last[0][:0], last[1][:0]
}

// give keeps s's profiles for a later step unless s is one of the states still read.
func (p *profiles) give(s *state, kept ...*state) {
	for _, k := range kept {
		if s == k {
			return
		}
	}
	p.free = append(p.free, [2][]event{s.total, s.busy})
	s.total, s.busy = nil, nil
}

type jointPeak struct{ Peak, At int }

type ownedRun struct {
	workload int
	r        *run
}

// playOne plays one workload with its choice (its tape read from the start).
func playOne(w Workload, m Model, c choice) played {
	c.tape.rewind()
	s := &sim{w: w, m: m, a: c.adv, rng: c.tape}
	s.play()
	pods := 0
	for _, r := range s.runs {
		pods += len(r.pods)
	}
	// Starts and ends apart: pods are created in order (runs are played in start order, and a
	// run's pods one after the other), so the starts are most often sorted already, and only
	// the ends need sorting. combine then merges the two and sums each second's changes, so
	// the order within a second does not matter.
	events := make([]event, 4*pods)
	starts, ends := events[:0:pods], events[pods:pods:2*pods]
	busyStarts, busyEnds := events[2*pods:2*pods:3*pods], events[3*pods:3*pods]
	for _, r := range s.runs {
		for _, p := range r.pods {
			if p.bound < 0 {
				continue // deleted while Pending: it never held an ENI
			}
			starts = append(starts, event{p.bound, 1})
			ends = append(ends, event{p.release + 1, -1})
			if p.ended > p.bound {
				busyStarts = append(busyStarts, event{p.bound, 1})
				busyEnds = append(busyEnds, event{p.ended, -1})
			}
		}
	}
	for _, list := range [][]event{starts, ends, busyStarts, busyEnds} {
		sortBySecond(list)
	}
	profile, _ := combine(starts, nil, ends)
	running, _ := combine(busyStarts, nil, busyEnds)
	return played{runs: s.runs, profile: profile, busy: running}
}

// sortBySecond sorts events by their second, at the cost of one pass when they are already.
func sortBySecond(list []event) {
	bySecond := func(a, b event) int { return cmp.Compare(a.t, b.t) }
	if !slices.IsSortedFunc(list, bySecond) {
		slices.SortFunc(list, bySecond)
	}
}

// combine is total − minus + plus as one profile (sorted by second, one entry per second, no
// zero changes), and its peak: the most ENIs held at one second (an interval [created,
// release] adds 1 at created and −1 at release + 1), and the first second it happens. Each
// input is sorted by second; a linear merge.
func combine(total, minus, plus []event) ([]event, jointPeak) {
	return combineInto(make([]event, 0, len(total)+len(plus)), total, minus, plus)
}

// combineInto is combine written into out (whose contents are replaced), which must not be
// one of the inputs.
func combineInto(out []event, total, minus, plus []event) ([]event, jointPeak) {
	out = out[:0]
	var i, j, k, n int
	best := jointPeak{}
	for i < len(total) || j < len(minus) || k < len(plus) {
		t := math.MaxInt
		if i < len(total) {
			t = total[i].t
		}
		if j < len(minus) {
			t = min(t, minus[j].t)
		}
		if k < len(plus) {
			t = min(t, plus[k].t)
		}
		d := 0
		for ; i < len(total) && total[i].t == t; i++ {
			d += total[i].d
		}
		for ; j < len(minus) && minus[j].t == t; j++ {
			d -= minus[j].d
		}
		for ; k < len(plus) && plus[k].t == t; k++ {
			d += plus[k].d
		}
		if d == 0 {
			continue
		}
		out = append(out, event{t, d})
		n += d
		if n > best.Peak {
			best = jointPeak{n, t}
		}
	}
	return out, best
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
			pr := PodRecord{Created: p.created, Bound: p.bound, Ended: p.ended, Finished: min(p.finished, p.ended), Deleted: p.deleted, Released: p.release, Failed: p.failed}
			if p.release >= never {
				pr.Released = -1
			}
			holds = holds || pr.HoldsAt(t.At)
			rr.Pods = append(rr.Pods, pr)
		}
		if holds {
			t.Runs = append(t.Runs, rr)
		}
		t.AllRuns = append(t.AllRuns, rr)
	}
	sort.SliceStable(t.Runs, func(i, j int) bool { return t.Runs[i].Start < t.Runs[j].Start })
	return t
}
