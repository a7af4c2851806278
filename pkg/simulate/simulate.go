// Package simulate plays the Job, CronJob and TTL controllers, the pod-failure back-off and
// the two ENI release models on a timeline in whole seconds, with an adversary that picks pod
// run times, outcomes, status lags and controller latencies. It is product code: pkg/witness
// searches it for the trajectory attached to each ENI001 finding (Search, with a legal
// adversary: what today's controllers do, to the second). Its tests use it as the oracle of
// the time-aware model (docs/model.md §5a): with a stronger adversary than any cluster, the
// most pods of a workload holding a branch ENI at one second never passes the bound the Rego
// model computes. All its pods are on one node: the adversary's best placement.
package simulate

import (
	"math"
	"sort"
)

// Workload is a Job or CronJob after Kubernetes defaults, in the terms of the model.
type Workload struct {
	CronJob bool
	// Completions is 0 for a work-queue Job (completions unset). Parallelism is how many pods
	// a run may have running at once (0 or 1: one at a time, a chain); an Indexed Job without
	// per-index back-off is played as NonIndexed, its pods counted the same.
	Completions  int
	Parallelism  int
	BackoffLimit int
	// TTL is ttlSecondsAfterFinished, -1 when unset.
	TTL int
	// Deadline is activeDeadlineSeconds, -1 when unset.
	Deadline int
	// Period is the shortest gap between schedule times; Policy Forbid, Replace or Allow.
	Period            int
	Policy            string
	SuccessfulHistory int
	FailedHistory     int
	// StartingDeadline is startingDeadlineSeconds, -1 when unset.
	StartingDeadline int
	// Times, when set, are the schedule's times within Horizon instead of random gaps of at
	// least Period.
	Times []int
	// Grace is the pod template's terminationGracePeriodSeconds: how long a pod deleted while
	// it runs (a deadline, a replacement) may take to stop. A legal play keeps to it (0 stops
	// at once); the soundness adversary stops within max(30, Grace), the model's stop.
	Grace int
	// Schedule and Timezone are the CronJob's, for a witness to play its real times.
	Schedule, Timezone string
	// Start is when a Job (not a CronJob) is created; -1 lets the adversary choose.
	Start int
	// OnFailure is restartPolicy OnFailure: a failed container restarts in its pod (the
	// kubelet's back-off, 10 s doubling to 5 minutes), the restarts count against backoffLimit,
	// and past it the Job fails and deletes the pod. A new pod comes only when one is
	// disrupted: at most Model.Disruptions per run.
	OnFailure bool
	// Spark is a ScheduledSparkApplication's driver, run by the Spark operator rather than the
	// CronJob controller (kubeflow/spark-operator internal/controller/scheduledsparkapplication):
	// a run starts only at a schedule time (Forbid skips a time while a run is active and does
	// not start it later), and the runs past the history limits are deleted only when the next
	// run starts.
	Spark bool
	// KEDA is a KEDA ScaledJob (default scaling strategy): every Poll seconds from 0 it creates
	// Jobs of the template until MaxJobs are alive, then deletes the finished ones past the
	// history limits, the first completed first (kedacore/keda pkg/scaling/executor/
	// scale_jobs.go: RequestJobScale, cleanUp). The adversary decides how many the queue asks
	// for at each poll.
	KEDA          bool
	Poll, MaxJobs int
}

// stop is how long a deleted running pod may take to end: its grace period, and at least the
// 30 s the status may take to be seen (the model's stop, docs/model.md §5a).
func (w Workload) stop() int {
	return max(30, w.Grace)
}

// stop is how long a deleted running pod of w may take to end in this adversary's play: for a
// legal trajectory exactly its grace period (0 is 0: the pod is killed at once), otherwise the
// model's stop.
func (a Adversary) stop(w Workload) int {
	if a.Legal {
		return w.Grace
	}
	return w.stop()
}

// parallel is whether a run of w may have more than one pod running at once.
func (w Workload) parallel() bool {
	return w.Parallelism > 1 && w.Completions != 1
}

// Model is the release model and its window W (cool-down plus one delete-queue tick).
type Model struct {
	OnDelete bool
	Window   int
	// Disruptions is how many pods of one run may be disrupted (evicted, their node lost),
	// each replaced by a new one: what restartPolicy OnFailure needs to make more pods. The
	// controllers disrupt none on their own; --disruptions assumes some.
	Disruptions int
}

// Adversary bounds the choices: pod run times, status lags and controller latencies up to
// these many seconds, and the share of pods that fail.
type Adversary struct {
	MaxRun, MaxLag, MaxLatency, Horizon int
	// StartLatency is how late the CronJob controller may start a run after its time. The
	// model assumes 0 (docs/model.md §5a); Forbid still starts skipped times late.
	StartLatency int
	FailShare    float64
	// Cut, for a witness search, stops creating a run's pods past the horizon or past
	// maxPodsPerRun: what is played up to there is a real trajectory's beginning, and a
	// manifest's backoffLimit of millions cannot make a search create millions of pods.
	Cut bool
	// Legal plays only what the controllers of today's Kubernetes do, to the second, for a
	// witness: every pod runs at least a second (in every play); a controller acts on a pod's end no earlier
	// than the second after its container finished; the pod-failure back-off is capped at 10
	// minutes (MaxJobPodFailureBackOff); a pod deleted while it runs ends within its own grace
	// period (0 is 0) and its ENI is freed from then on (it is deleted); a Job is finished only
	// once its pods have stopped (as in every play: Kubernetes 1.31 and later). Without it the
	// adversary is stronger than any cluster (shorter back-off cap, a 30 s floor on stopping),
	// for the soundness tests.
	Legal bool
	// MaxPending is how long a created pod may wait Pending before it is bound to the node
	// (and its ENI attached): kube-scheduler binds a pod needing a branch ENI only while the
	// running pods leave one free, so a legal witness with many pods at one schedule time
	// has them wait their turn.
	MaxPending int
	// Pending is how long every pod waits at least: a witness staggers workloads whose pods
	// come at the same second by it, so that the node binds them in turn.
	Pending int
	// FailFirst, when positive, decides outcomes instead of FailShare: each run's first
	// FailFirst pods (container attempts, for OnFailure) fail and the rest succeed, the
	// trajectory that makes C + B pods of a parallel run.
	FailFirst int
	// Interleave, with FailFirst, spreads the failures: the first FailFirst − C attempts fail
	// (C the completions, at least 1), then failures and successes alternate until FailFirst
	// have failed. A success seen in the same second as a failure resets the back-off, so a
	// run whose pods run in pairs makes its C + B pods within seconds rather than minutes.
	Interleave bool
	// LongFirst, when positive, has the pods a CronJob's first run creates at its start run
	// until LongFirst seconds before the second schedule time after that start: the run
	// misses one time and ends shortly before the next, which is how the Forbid catch-up
	// chain the bound counts begins (the run's end, its catch-up across the next time, and
	// that time's catch-up, inside one release window).
	LongFirst int
	// Steady, when set, scripts the outcomes of a Forbid CronJob whose runs are one chain of
	// pods (Never): the trajectory the history count of docs/model.md §5a is made of, once the
	// history has filled. It decides instead of FailShare and FailFirst. A pointer: a search
	// copies every workload's Adversary at each step.
	Steady *Steady
}

// Steady is the script of Adversary.Steady, by the index of a run among those played: runs
// before Long − Failed make their back-off limit's failures and then succeed (every pod a
// run can make, kept by the successful history); the Failed runs before Long fail (the failed
// history); run Long does as the first ones, its last pod running until Before seconds before
// a schedule time (the second after the run's start, or the first its pods can reach), so
// that it misses a time and ends just before the next; run Long + 1 is that missed time's
// catch-up, whose pods fail until the next one could not end before the next schedule time,
// then one succeeds (its success deletes one more Job by history, in the same release window
// as the one Long's deleted); the runs after fail as fast as the back-off allows. With Target,
// run Long ends Before seconds before the first schedule time at or after it: CronJobs of
// different schedules then peak in the same second, at a time both fire. With Each, every run
// after Long (its catch-ups too) makes Each pods, the last a success: a TTL's tail holds most
// when its runs share the back-off evenly (6 + 6 + 6 in 990 s rather than 7 + 6).
type Steady struct{ Long, Failed, Before, Target, Each int }

// steadyShape is whether Adversary.Steady plays w under m: a Forbid CronJob (of the CronJob
// controller) of one chain of pods, each failure a new pod: under Never, or under OnFailure
// when disruptions are assumed (the hostile plays disrupt every failing pod while they last).
func steadyShape(w Workload, m Model) bool {
	return w.CronJob && w.Policy == "Forbid" && !w.parallel() && (!w.OnFailure || m.Disruptions > 0) && !w.Spark && !w.KEDA
}

// maxPodsPerRun bounds a run's pods when Cut is set.
const maxPodsPerRun = 2000

// containerBackoff is the kubelet's delay before the n-th restart of a failed container:
// 10 s doubling, at most 5 minutes.
func containerBackoff(n int) int {
	d := 10
	for i := 1; i < n && d < 300; i++ {
		d *= 2
	}
	return min(d, 300)
}

// Backoff is the Job controller's delay before re-creating pods after n consecutive failures
// (pkg/controller/job/backoff_utils.go): 10 s doubling, capped. The cap here is the one the
// model assumes (6 minutes); a longer cap only spaces pods further.
func Backoff(n int) int {
	return backoffCapped(n, 360)
}

// MaxPodFailureBackoff is the cap of today's Job controller (MaxJobPodFailureBackOff, 10
// minutes), which a legal trajectory keeps to.
const MaxPodFailureBackoff = 600

func backoffCapped(n, limit int) int {
	d := 10
	for i := 1; i < n; i++ {
		d *= 2
		if d >= limit {
			return limit
		}
	}
	return min(d, limit)
}

// backoff is the pod-failure back-off the adversary plays.
func (a Adversary) backoff(n int) int {
	if a.Legal {
		return backoffCapped(n, MaxPodFailureBackoff)
	}
	return Backoff(n)
}

type run struct {
	slot          int // the schedule time the run is for (its start for a Job)
	start, finish int
	failed, done  bool
	pods          []*pod
	deletedAt     int    // -1 while the Job exists
	deletedBy     string // "ttl", "history" or "replaced"
}

type pod struct {
	created, ended int // ended: the pod is terminal (or gone); -1 while running
	// bound is when kube-scheduler bound it to the node, its ENI held from then on: created,
	// or later for a pod that waited Pending; -1 for one deleted before it was bound.
	bound int
	// finished is when its (last) container finished, before the kubelet reported it at ended
	// (the status lag); for a pod stopped by a deletion, ended.
	finished int
	release  int // the second after which the ENI is free; -1 while held
	failed   bool
	deleted  int // when the pod is deleted, -1 while it exists
}

// Source is where the adversary's choices come from: a *rand.Rand, or a tape a search can
// replay and mutate.
type Source interface {
	IntN(n int) int
	Float64() float64
}

// Peak plays one trajectory and returns the most pods holding ENIs at one second.
func Peak(w Workload, m Model, a Adversary, rng Source) int {
	s := &sim{w: w, m: m, a: a, rng: rng}
	s.play()
	return s.peak()
}

// PeakAll plays one trajectory of several workloads on the same node: each has its own
// controllers, and the peak is over all their pods.
func PeakAll(ws []Workload, m Model, a Adversary, rng Source) int {
	all := &sim{m: m}
	for _, w := range ws {
		s := &sim{w: w, m: m, a: a, rng: rng}
		s.play()
		all.runs = append(all.runs, s.runs...)
	}
	return all.peak()
}

type sim struct {
	w    Workload
	m    Model
	a    Adversary
	rng  Source
	runs []*run
	// slots are the CronJob's schedule times, for pods that end just before one.
	slots []int
	// slab holds the pods created, a block at a time: a search plays millions of pods, and
	// one allocation each was a tenth of its time. A full block is never grown, so a pod's
	// address stays valid.
	slab []pod
}

// newPod is a pod of the play, from the current block.
func (s *sim) newPod(p pod) *pod {
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]pod, 0, 64)
	}
	s.slab = append(s.slab, p)
	return &s.slab[len(s.slab)-1]
}

// segmented is a Source whose choices come in segments (a search's tape): the simulator reads
// segment i+1 for the run of the i-th schedule time, so that each run's choices stay its own.
type segmented interface{ segment(i int) }

// segment starts the choices of segment i, when the source has segments.
func (s *sim) segment(i int) {
	if t, ok := s.rng.(segmented); ok {
		t.segment(i)
	}
}

func (s *sim) pick(max int) int {
	if max <= 0 {
		return 0
	}
	// Extremes matter most to an adversary: 0 and the maximum half the time.
	switch s.rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return max
	}
	return s.rng.IntN(max + 1)
}

// play runs the controllers. A run is played to its end when it starts, since runs of a
// Forbid or Replace CronJob only interact through start times and deletions, and Allow runs
// through deletions; deletions are applied afterwards in time order.
func (s *sim) play() {
	if s.w.KEDA {
		s.playPolls()
		return
	}
	if !s.w.CronJob {
		start := s.w.Start
		if start < 0 {
			start = s.pick(s.a.Horizon) // any time: a search aligns it with the others
		}
		s.segment(1)
		r := s.playRun(start, -1)
		r.slot = start
		s.runs = append(s.runs, r)
		s.history()
		s.releaseAll()
		return
	}
	// Schedule times at least Period apart.
	slots := append([]int(nil), s.w.Times...)
	for t := 0; s.w.Times == nil && t < s.a.Horizon; {
		slots = append(slots, t)
		t += s.w.Period + s.pick(s.w.Period/2)*s.rng.IntN(2)
	}
	s.slots = slots
	lastScheduled := -1 // index of the last slot a run was created for
	now := 0
slots:
	for {
		// The most recent unmet slot at or before now.
		idx := sort.SearchInts(slots, now+1) - 1
		if idx > lastScheduled && idx >= 0 && s.w.StartingDeadline >= 0 && now > slots[idx]+s.w.StartingDeadline {
			// Too late for this time: the controller waits for the next one.
			if idx+1 >= len(slots) {
				break
			}
			now = slots[idx+1]
			continue
		}
		if idx > lastScheduled && idx >= 0 {
			// The run for this time draws from its own segment, whatever ran before it.
			s.segment(idx + 1)
			var active *run
			for _, r := range s.runs {
				if r.deletedAt < 0 && r.finish > now {
					active = r
				}
			}
			switch {
			case active != nil && s.w.Policy == "Forbid" && s.w.Spark:
				// The operator requeues itself for the next time, and starts that one then.
				lastScheduled = idx
				if idx+1 >= len(slots) {
					break slots
				}
				now = slots[idx+1]
				continue
			case active != nil && s.w.Policy == "Forbid":
				// Skipped; the slot stays unmet and starts when the active run finishes.
				now = active.finish
				if s.a.Cut && (now > s.a.Horizon || now > slots[len(slots)-1]) {
					// Past the times listed (the trajectory's end, or the most runs played):
					// a later time may have come, so the catch-up run's time could not be
					// told; the trajectory ends here.
					break slots
				}
				continue
			case active != nil && s.w.Policy == "Replace":
				s.replace(active, now)
			}
			if s.w.Policy == "Replace" && idx+1 >= len(slots) && !s.a.Cut {
				// The run for the last time listed would be replaced at a time not listed:
				// played, it would make pods forever. The trajectory ends at that time (a
				// witness, Cut, stops making pods past it anyway).
				break slots
			}
			lastScheduled = idx
			start := now + s.pick(s.a.StartLatency)
			r := s.playRun(start, -1)
			r.slot = slots[idx]
			s.runs = append(s.runs, r)
		}
		if idx+1 >= len(slots) {
			break
		}
		now = slots[idx+1]
	}
	s.history()
	s.releaseAll()
}

// playRun plays one Job from start: pods one at a time, each failure delaying the next by the
// back-off measured from the container's finish time, the status reported up to MaxLag later.
// A run whose pods may run in parallel is playParallel's.
func (s *sim) playRun(start, _ int) *run {
	if s.w.parallel() {
		return s.playParallel(start)
	}
	r := &run{start: start, deletedAt: -1}
	succeeded, failures, consecutive, disrupted, attempts := 0, 0, 0, 0, 0
	want := s.w.Completions
	if want == 0 {
		want = 1 // a work queue is done at its first success
	}
	// Room for the pods a run usually creates, so that appending does not grow it step by step.
	r.pods = make([]*pod, 0, min(16, want+max(0, s.w.BackoffLimit)+1))
	steady := -1 // the run's index under Adversary.Steady
	if s.a.Steady != nil && steadyShape(s.w, s.m) {
		steady = len(s.runs)
	}
	next := start
	for {
		if s.a.Cut && len(r.pods) > 0 && (next > s.a.Horizon || len(r.pods) >= maxPodsPerRun) {
			// Not played further: the run is still in flight when the trajectory ends.
			r.finish = max(next, r.pods[len(r.pods)-1].ended)
			return r
		}
		if s.w.Deadline >= 0 && next >= start+s.w.Deadline {
			// The deadline passed while the run waited out a back-off: it fails with no pod
			// running, and creates no more.
			r.finish, r.failed = max(start+s.w.Deadline, r.pods[len(r.pods)-1].ended), true
			return r
		}
		p := s.newPod(pod{created: next, bound: next + s.a.Pending + s.pick(s.a.MaxPending), release: -1, deleted: -1})
		r.pods = append(r.pods, p)
		finished := s.longFirst(r, p, s.aligned(p, next, p.bound+s.runTime()))
		var fail bool
		if steady >= 0 {
			finished, fail = s.steadyPod(r, steady, attempts, want, consecutive, finished)
			attempts++
		}
		ended := finished + s.pick(s.a.MaxLag)
		if steady < 0 {
			fail = s.fails(&attempts)
		}
		// restartPolicy OnFailure: a failed container restarts in its pod unless the pod is
		// disrupted; past backoffLimit restarts the Job fails and deletes the running pod.
		for restarts := 1; fail && s.w.OnFailure && !(s.w.Deadline >= 0 && ended >= start+s.w.Deadline); restarts++ {
			if disrupted < s.m.Disruptions && s.rng.IntN(2) == 0 {
				disrupted++
				break // the pod fails; the Job controller replaces it as under Never
			}
			failures++
			if failures > s.w.BackoffLimit {
				p.finished = finished
				p.ended, p.failed = ended+s.pick(s.a.stop(s.w)), true
				s.deletedRunning(p)
				r.finish, r.failed = p.ended, true
				return r
			}
			finished = ended + containerBackoff(restarts) + s.runTime()
			ended = finished + s.pick(s.a.MaxLag)
			fail = s.fails(&attempts)
		}
		if s.w.Deadline >= 0 && ended >= start+s.w.Deadline {
			// The deadline fails the Job; its running pod is deleted and ends within its grace
			// period, and the Job is finished only once the pod has ended (Kubernetes 1.31 and
			// later: every EKS version today; before, it was finished at once).
			p.ended = start + s.w.Deadline + s.pick(s.a.stop(s.w))
			if p.bound >= start+s.w.Deadline {
				// Still Pending at the deadline: deleted before it was bound.
				p.bound, p.ended = -1, start+s.w.Deadline
			}
			p.finished = p.ended
			p.failed = true
			s.deletedRunning(p)
			r.finish, r.failed = p.ended, true
			return r
		}
		p.ended, p.finished = ended, finished
		p.failed = fail
		if fail {
			failures++
			consecutive++
			if failures > s.w.BackoffLimit {
				r.finish, r.failed = ended, true
				return r
			}
			next = max(s.reacts(finished, ended), finished+s.a.backoff(consecutive)) + s.pick(s.a.MaxLatency)
			continue
		}
		succeeded++
		consecutive = 0
		if succeeded >= want {
			r.finish = ended
			return r
		}
		next = s.reacts(finished, ended) + s.pick(s.a.MaxLatency)
	}
}

// minRun is the shortest a pod runs: a second, in every play. A pod with a branch ENI starts
// its containers only once the VPC resource controller has attached its ENI, and the kubelet
// writes a container's start and finish to the second; the model counts on it too (docs/model.md
// §5a, _chain_step).
func (s *sim) minRun() int {
	return 1
}

// runTime is how long a container attempt runs.
func (s *sim) runTime() int {
	return max(s.minRun(), s.pick(s.a.MaxRun))
}

// aligned is when a pod created at next whose container would finish at finished finishes:
// one time in six, just before one of the next schedule times, whatever the run times drawn
// otherwise. That is what Forbid's catch-up and the history clean-up need to line up (a run
// that skips a time and ends just before the next, its catch-up and the next run then inside
// one release window), and a random run time rarely hits it.
func (s *sim) aligned(p *pod, next, finished int) int {
	if len(s.slots) == 0 || s.rng.IntN(6) != 5 {
		return finished
	}
	reach := max(s.a.MaxRun, 2*s.w.Period)
	first, last := sort.SearchInts(s.slots, next+1), sort.SearchInts(s.slots, next+reach+1)
	if first < last {
		return max(p.bound+s.minRun(), s.slots[first+s.rng.IntN(last-first)]-s.pick(s.m.Window))
	}
	return finished
}

// longFirst is when a pod of run r whose container would finish at finished finishes under
// Adversary.LongFirst: later, for a pod the first run creates at its start.
func (s *sim) longFirst(r *run, p *pod, finished int) int {
	if s.a.LongFirst <= 0 || !s.w.CronJob || len(s.runs) > 0 || p.created != r.start {
		return finished
	}
	next := sort.SearchInts(s.slots, r.start+1)
	if next+1 >= len(s.slots) {
		return finished
	}
	return max(finished, s.slots[next+1]-s.a.LongFirst)
}

// steadyPod is, under Adversary.Steady, when the pod that is run i's attempt n+1 finishes
// and whether it fails (want: the run's completions; consecutive: its failures since the last
// success).
func (s *sim) steadyPod(r *run, i, n, want, consecutive, finished int) (int, bool) {
	st, b := s.a.Steady, max(0, s.w.BackoffLimit)
	switch {
	case i < st.Long-st.Failed:
		return finished, n < b
	case i < st.Long:
		return finished, true
	case i == st.Long:
		if n == b+want-1 {
			// The last success runs long: until Before seconds before a schedule time, the
			// second after the run's start or the first it can reach, so that the run misses
			// a time and its catch-up has Before seconds.
			at := max(sort.SearchInts(s.slots, r.start+1)+1, sort.SearchInts(s.slots, finished+st.Before), sort.SearchInts(s.slots, st.Target))
			if at < len(s.slots) {
				finished = s.slots[at] - st.Before
			}
		}
		return finished, n < b
	case i > st.Long && st.Each > 0:
		return finished, n < min(st.Each, b+want)-1
	case i == st.Long+1:
		// The catch-up: it fails while its next pod, a back-off after this one, can still end
		// before the next schedule time.
		next := sort.SearchInts(s.slots, r.start+1)
		if n >= b || next >= len(s.slots) {
			return finished, n < b
		}
		return finished, s.reacts(finished, finished)+s.a.backoff(consecutive+1)+s.minRun() < s.slots[next]
	}
	return finished, true
}

// reacts is the earliest second the Job controller acts on a pod whose container finished at
// finished and whose end it saw at ended: in a legal trajectory never within the second the
// container finished.
func (s *sim) reacts(finished, ended int) int {
	if s.a.Legal {
		return max(ended, finished+1)
	}
	return ended
}

// fails draws the outcome of a run's next container attempt (n counts them).
func (s *sim) fails(n *int) bool {
	*n++
	if s.a.FailFirst > 0 && s.a.Interleave {
		lead := max(0, s.a.FailFirst-max(1, s.w.Completions))
		k := *n - lead
		return k <= 0 || k%2 == 1 && lead+(k+1)/2 <= s.a.FailFirst
	}
	if s.a.FailFirst > 0 {
		return *n <= s.a.FailFirst
	}
	return s.rng.Float64() < s.a.FailShare
}

// deletedRunning records that the Job controller deleted p while it ran (a deadline, the
// back-off limit passed): the pod is gone once it has stopped, and its ENI is freed from then
// on, in every play (the stronger adversary's stop may be longer: at least 30 s). The model
// counts on it where a deadline ends a window (docs/model.md §5a, the window's fall).
func (s *sim) deletedRunning(p *pod) {
	p.deleted = p.ended
	s.free(p, p.ended)
}

// live is a pod of a parallel run that has not ended: its current container attempt's
// finish, the second its end is seen, and whether that end is a failure; restart when the
// end is a container restart in place (OnFailure) rather than the pod's.
type live struct {
	p               *pod
	finished, ended int
	fail, restart   bool
	restarts        int
}

// playParallel plays one Job whose pods may run at once (parallelism P > 1, completions C ≠ 1),
// as the Job controller of pkg/controller/job runs it: it keeps min(P, C − succeeded) pods
// active (P for a work queue until the first success, none after), creates new ones only once
// the back-off since the last failure has passed, fails the Job when failed pods pass
// backoffLimit (for OnFailure, when the containers' restarts reach it) and deletes the
// active pods then, and at activeDeadlineSeconds.
func (s *sim) playParallel(start int) *run {
	j := &parallelJob{s: s, r: &run{start: start, deletedAt: -1}, lastFailure: start, lastSuccess: -1, deadline: -1}
	if s.w.Deadline >= 0 {
		j.deadline = start + s.w.Deadline
	}
	r := j.r
	r.pods = make([]*pod, 0, min(64, s.w.Parallelism+max(0, s.w.BackoffLimit)+max(1, s.w.Completions)))
	createAt := start
	for {
		next := math.MaxInt
		if len(j.active) < j.wanted() {
			next = createAt
			if n := j.consecutive(); n > 0 {
				next = max(next, j.lastFailure+s.a.backoff(n))
			}
		}
		for _, l := range j.active {
			next = min(next, l.ended)
		}
		if j.deadline >= 0 && next >= j.deadline {
			if len(j.active) == 0 && len(r.pods) > 0 && next == math.MaxInt {
				break // the run ended before its deadline
			}
			if next > j.deadline || !s.endsAt(j.active, next) {
				j.stopAll(j.deadline)
				return r
			}
		}
		if next == math.MaxInt {
			break
		}
		if s.endsAt(j.active, next) {
			latest, done := j.seeEnds(next)
			if done {
				return r
			}
			createAt = latest + s.pick(s.a.MaxLatency)
			continue
		}
		if s.a.Cut && len(r.pods) > 0 && (next > s.a.Horizon || len(r.pods) >= maxPodsPerRun) {
			j.cut(next)
			return r
		}
		for n := j.wanted() - len(j.active); n > 0; n-- {
			l := &live{p: s.newPod(pod{created: next, bound: next + s.a.Pending + s.pick(s.a.MaxPending), release: -1, deleted: -1})}
			j.attempt(l, next)
			r.pods = append(r.pods, l.p)
			j.active = append(j.active, l)
		}
	}
	r.finish = start
	for _, p := range r.pods {
		r.finish = max(r.finish, p.ended)
	}
	return r
}

// parallelJob is the Job controller's state of one run played by playParallel.
type parallelJob struct {
	s                                                  *sim
	r                                                  *run
	succeeded, failures, restarts, disrupted, attempts int
	// The back-off counts the failed pods whose containers finished after the last success's
	// finished (newBackoffRecord): in parallel, a success seen later can have finished earlier.
	lastFailure, lastSuccess int
	failedAt                 []int
	active                   []*live
	deadline                 int // -1: none
}

func (j *parallelJob) consecutive() int {
	n := 0
	for _, f := range j.failedAt {
		if f > j.lastSuccess {
			n++
		}
	}
	return n
}

// wanted is how many pods the controller keeps active.
func (j *parallelJob) wanted() int {
	switch w := j.s.w; {
	case w.Completions > 0:
		return min(w.Parallelism, w.Completions-j.succeeded)
	case j.succeeded > 0:
		return 0 // a work queue creates no pod once one has succeeded
	default:
		return w.Parallelism
	}
}

// attempt draws a container attempt of l from second t.
func (j *parallelJob) attempt(l *live, t int) {
	s := j.s
	l.finished = max(t, l.p.bound) + s.runTime()
	if l.restarts == 0 {
		l.finished = s.longFirst(j.r, l.p, l.finished)
	}
	l.ended = l.finished + s.pick(s.a.MaxLag)
	l.fail = s.fails(&j.attempts)
	l.restart = false
	if l.fail && s.w.OnFailure {
		if j.disrupted < s.m.Disruptions && s.rng.IntN(2) == 0 {
			j.disrupted++ // the pod fails; the controller replaces it
		} else {
			l.restart = true
		}
	}
}

// stopAll deletes the active pods at t: each ends within its grace period, no later than it
// would have; the Job is finished once they have (Kubernetes 1.31 and later).
func (j *parallelJob) stopAll(t int) {
	s, r := j.s, j.r
	r.finish, r.failed = t, true
	for _, l := range j.active {
		l.p.ended = min(max(l.ended, t), t+s.pick(s.a.stop(s.w)))
		if l.p.bound >= t {
			l.p.bound, l.p.ended = -1, t // still Pending: deleted before it was bound
		}
		l.p.finished = min(l.finished, l.p.ended)
		l.p.failed = true
		s.deletedRunning(l.p)
		r.finish = max(r.finish, l.p.ended)
	}
	j.active = nil
}

// seeEnds is the controller seeing the pods that ended at next: restarted containers, failed
// and succeeded pods. It returns the latest second the controller reacts at, and whether the
// run is over (failed past its limits, or complete).
func (j *parallelJob) seeEnds(next int) (latest int, done bool) {
	s, w := j.s, j.s.w
	kept := j.active[:0]
	latest = next
	for _, l := range j.active {
		if l.ended != next {
			kept = append(kept, l)
			continue
		}
		latest = max(latest, s.reacts(l.finished, l.ended))
		switch {
		case l.restart:
			j.restarts++
			l.restarts++
			j.attempt(l, l.ended+containerBackoff(l.restarts))
			kept = append(kept, l)
		case l.fail:
			l.p.ended, l.p.finished, l.p.failed = l.ended, l.finished, true
			j.failures++
			j.failedAt = append(j.failedAt, l.finished)
			j.lastFailure = max(j.lastFailure, l.finished)
		default:
			l.p.ended, l.p.finished = l.ended, l.finished
			j.succeeded++
			j.lastSuccess = max(j.lastSuccess, l.finished)
		}
	}
	j.active = kept
	if j.failures > w.BackoffLimit || w.OnFailure && (j.restarts >= max(1, w.BackoffLimit)) {
		j.stopAll(next)
		return latest, true
	}
	if w.Completions > 0 && j.succeeded >= w.Completions || w.Completions == 0 && j.succeeded > 0 && len(j.active) == 0 {
		j.r.finish = next
		return latest, true
	}
	return latest, false
}

// cut ends the play at next: the run is still in flight when the trajectory ends. Its pods
// still running at its deadline are stopped there.
func (j *parallelJob) cut(next int) {
	for _, l := range j.active {
		if j.deadline >= 0 && l.ended > j.deadline {
			j.stopAll(j.deadline)
			return
		}
	}
	j.r.finish = next
	for _, l := range j.active {
		l.p.ended, l.p.finished = l.ended, l.finished
		j.r.finish = max(j.r.finish, l.ended)
	}
}

// endsAt is whether one of the active pods' ends is seen at t.
func (s *sim) endsAt(active []*live, t int) bool {
	for _, l := range active {
		if l.ended == t {
			return true
		}
	}
	return false
}

// replace deletes the active run at a new start (Replace): its pods go, the running one within
// its grace period.
func (s *sim) replace(r *run, now int) {
	r.deletedAt, r.deletedBy = now, "replaced"
	kept := r.pods[:0]
	for _, p := range r.pods {
		// The Job is deleted at now: a legal trajectory keeps only the pods made before.
		if p.created < now || p.created == now && !s.a.Legal {
			kept = append(kept, p)
		}
	}
	r.pods = kept
	for _, p := range r.pods {
		if p.bound > now || p.bound == now && s.a.Legal {
			p.bound, p.ended, p.finished = -1, now, now // deleted while Pending
		}
		if p.ended > now {
			// A deletion only shortens a pod: one already stopping (past a deadline) or about
			// to end keeps its earlier end.
			p.ended = min(p.ended, now+s.pick(s.a.stop(s.w)))
			p.finished = min(p.finished, p.ended)
		}
		p.deleted = max(now, p.ended)
		if s.a.Legal {
			// The pod is gone once it has stopped.
			s.free(p, p.deleted)
		} else {
			s.free(p, max(now, min(p.ended, now+s.w.stop())))
		}
	}
	r.finish = now
}

// history applies the TTL controller and the CronJob's history limits in time order: after
// each finish, the oldest finished Jobs beyond the limits are deleted.
func (s *sim) history() {
	if s.w.Spark {
		s.sparkHistory()
		return
	}
	finished := append([]*run(nil), s.runs...)
	sort.SliceStable(finished, func(i, j int) bool { return finished[i].finish < finished[j].finish })
	var done []*run
	for _, r := range finished {
		if r.deletedAt >= 0 && r.deletedAt <= r.finish {
			continue // replaced
		}
		if s.w.TTL >= 0 {
			s.deleteRun(r, r.finish+s.w.TTL, "ttl")
		}
		if !s.w.CronJob {
			continue // a Job alone: only its TTL deletes it
		}
		done = append(done, r)
		var kept []*run
		for _, d := range done {
			if !(d.deletedAt >= 0 && d.deletedAt <= r.finish) {
				kept = append(kept, d)
			}
		}
		s.deletePastLimits(kept, r.finish, byStart)
	}
}

// byStart and byFinish order finished runs for the history limits: the CronJob controller and
// the Spark operator delete the oldest started first, KEDA the first completed.
func byStart(a, b *run) bool  { return a.start < b.start }
func byFinish(a, b *run) bool { return a.finish < b.finish }

// deletePastLimits deletes at t, of the finished runs kept (in the order they were found), the
// succeeded and the failed past their history limits, the first in order first; it returns
// those it left.
func (s *sim) deletePastLimits(kept []*run, t int, first func(a, b *run) bool) []*run {
	var ok, bad, left []*run
	for _, r := range kept {
		if r.failed {
			bad = append(bad, r)
		} else {
			ok = append(ok, r)
		}
	}
	for _, set := range [][]*run{ok, bad} {
		limit := s.w.SuccessfulHistory
		if len(set) > 0 && set[0].failed {
			limit = s.w.FailedHistory
		}
		sort.SliceStable(set, func(i, j int) bool { return first(set[i], set[j]) })
		for i, r := range set {
			if i < len(set)-limit {
				s.deleteRun(r, t, "history")
			} else {
				left = append(left, r)
			}
		}
	}
	return left
}

// playPolls plays a KEDA ScaledJob: at each poll, new Jobs up to MaxJobs alive (as many as
// the queue asks for: all of them, or a number the adversary draws), then the clean-up; a
// Job's TTL deletes it after it ends. The Jobs alive and the finished ones kept are carried
// from poll to poll, so that a poll looks at those only, not at every Job played.
func (s *sim) playPolls() {
	poll := max(1, s.w.Poll)
	var alive, kept []polled
	for k, t := 0, 0; t <= s.a.Horizon && len(s.runs) < maxPolledJobs; k, t = k+1, t+poll {
		s.slots = append(s.slots, t)
		still := alive[:0]
		for _, p := range alive {
			if p.r.finish > t {
				still = append(still, p)
			} else {
				kept = append(kept, p)
			}
		}
		alive = still
		s.segment(k + 1)
		room := s.w.MaxJobs - len(alive)
		n := room
		if room > 0 && s.rng.IntN(4) == 0 {
			n = s.rng.IntN(room + 1) // a shorter queue
		}
		for range n {
			r := s.playRun(t, -1)
			r.slot = t
			alive = append(alive, polled{r, len(s.runs)})
			s.runs = append(s.runs, r)
		}
		kept = s.cleanUp(kept, t)
	}
	for _, r := range s.runs {
		if s.w.TTL >= 0 {
			s.deleteRun(r, r.finish+s.w.TTL, "ttl")
		}
	}
	s.releaseAll()
}

// polled is a ScaledJob's Job and its place among the Jobs created.
type polled struct {
	r *run
	i int
}

// maxPolledJobs bounds the Jobs one ScaledJob's play creates.
const maxPolledJobs = 5000

// cleanUp is KEDA's clean-up at a poll at t: of the Jobs finished by then and kept (not deleted
// by their TTL), the completed and the failed past their limits, the first completed first,
// are deleted. It returns the Jobs it keeps, in the order they were created.
func (s *sim) cleanUp(kept []polled, t int) []polled {
	// In creation order, as the Jobs are listed: among those completed in one second the
	// first created goes first.
	sort.Slice(kept, func(a, b int) bool { return kept[a].i < kept[b].i })
	byRun := make(map[*run]polled, len(kept))
	var runs []*run
	for _, p := range kept {
		if s.w.TTL >= 0 && p.r.finish+s.w.TTL <= t {
			continue // deleted by its TTL already
		}
		byRun[p.r] = p
		runs = append(runs, p.r)
	}
	left := s.deletePastLimits(runs, t, byFinish)
	out := kept[:0]
	for _, r := range left {
		out = append(out, byRun[r])
	}
	return out
}

// sparkHistory is history as the Spark operator keeps it: a run's TTL (timeToLiveSeconds)
// deletes it after it ends, and when a run starts (checkAndUpdatePastRuns after startNextRun)
// the finished runs past the limits, the oldest first, are deleted.
func (s *sim) sparkHistory() {
	for _, r := range s.runs {
		if s.w.TTL >= 0 && !(r.deletedAt >= 0 && r.deletedAt <= r.finish) {
			s.deleteRun(r, r.finish+s.w.TTL, "ttl")
		}
	}
	for _, start := range s.runs { // in start order
		t := start.start
		var kept []*run
		for _, d := range s.runs {
			if d != start && d.finish <= t && !(d.deletedAt >= 0 && d.deletedAt <= t) {
				kept = append(kept, d)
			}
		}
		s.deletePastLimits(kept, t, byStart)
	}
}

// deleteRun deletes a finished Job at time t (or keeps the earlier deletion).
func (s *sim) deleteRun(r *run, t int, by string) {
	if r.deletedAt >= 0 && r.deletedAt <= t {
		return
	}
	for _, p := range r.pods {
		p.deleted = max(t, p.ended)
		s.free(p, p.deleted)
	}
	r.deletedAt, r.deletedBy = t, by
}

// free records that a pod is deleted at t: under onDelete its ENI is held W more.
func (s *sim) free(p *pod, t int) {
	if !s.m.OnDelete {
		return
	}
	if p.release < 0 || t+s.m.Window < p.release {
		p.release = t + s.m.Window
	}
}

// releaseAll sets the release of every pod: onCompletion W after it ends; onDelete W after it
// is deleted, and never for pods nothing deletes.
func (s *sim) releaseAll() {
	for _, r := range s.runs {
		for _, p := range r.pods {
			switch {
			case !s.m.OnDelete:
				p.release = p.ended + s.m.Window
			case p.release < 0:
				p.release = 1 << 40
			}
		}
	}
}

// Overlap plays one trajectory of two workloads on the same node and reports whether pods of
// both ever hold ENIs at the same second.
func Overlap(a, b Workload, m Model, adv Adversary, rng Source) bool {
	var holds [2][][2]int
	for i, w := range []Workload{a, b} {
		s := &sim{w: w, m: m, a: adv, rng: rng}
		s.play()
		for _, r := range s.runs {
			for _, p := range r.pods {
				if p.bound >= 0 {
					holds[i] = append(holds[i], [2]int{p.bound, p.release})
				}
			}
		}
	}
	for _, x := range holds[0] {
		for _, y := range holds[1] {
			if x[0] <= y[1] && y[0] <= x[1] {
				return true
			}
		}
	}
	return false
}

// peak is the most hold intervals [bound, release] (closed) that share a second.
func (s *sim) peak() int {
	type ev struct{ t, d int }
	var evs []ev
	for _, r := range s.runs {
		for _, p := range r.pods {
			if p.bound >= 0 {
				evs = append(evs, ev{p.bound, 1}, ev{p.release + 1, -1})
			}
		}
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return evs[i].d < evs[j].d
	})
	n, best := 0, 0
	for _, e := range evs {
		n += e.d
		best = max(best, n)
	}
	return best
}
