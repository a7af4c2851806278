// Package replay checks a witness trajectory against the rules of the controllers that make
// it, second by second, as kubernetes/kubernetes writes them (pkg/controller/job,
// pkg/controller/cronjob, pkg/controller/ttlafterfinished) and as the VPC resource controller
// frees branch ENIs. It is a test oracle written apart from the simulator (pkg/simulate):
// it shares no code with it, evaluates schedules with its own cron reader, and knows nothing of
// how a trajectory was found. A violation names the rule and the second.
package replay

import (
	"fmt"
	"sort"
)

// Spec is a Job or CronJob after Kubernetes defaults.
type Spec struct {
	CronJob bool
	// Schedule is the CronJob's five-field schedule, read in UTC from Monday 2024-01-01.
	Schedule string
	Policy   string // Allow, Forbid or Replace
	// StartingDeadline, TTL and Deadline are -1 when unset.
	StartingDeadline  int
	SuccessfulHistory int
	FailedHistory     int
	// Parallelism and Completions (0: a work queue).
	Parallelism, Completions int
	BackoffLimit             int
	TTL                      int
	Deadline                 int
	// Grace is the pod's terminationGracePeriodSeconds.
	Grace int
	// OnFailure: restartPolicy OnFailure (containers restart in place; pods are replaced only
	// when disrupted, which a replay does not check).
	OnFailure bool
	// Spark: the runs are a ScheduledSparkApplication's, which the Spark operator starts
	// (kubeflow/spark-operator internal/controller/scheduledsparkapplication at 7b16bd2): only
	// at a schedule time (Reconcile requeues itself for schedule.Next; a time Forbid skips is
	// not started later), and the runs past the history limits are deleted only right after a
	// run starts (checkAndUpdatePastRuns after startNextRun).
	Spark bool
	// KEDA: the Jobs are a KEDA ScaledJob's (kedacore/keda pkg/scaling/executor/scale_jobs.go
	// at 7f17c10): every Poll seconds from 0, RequestJobScale creates Jobs while fewer than
	// MaxJobs are alive (the default strategy's maxScale − running), then cleanUp deletes the
	// finished ones past the history limits, sorted by completion time.
	KEDA          bool
	Poll, MaxJobs int
}

// Run is one Job of the trajectory.
type Run struct {
	Scheduled, Start, Finish int
	Failed                   bool
	// Deleted is -1 when the Job is not deleted; DeletedBy "ttl", "history" or "replaced".
	Deleted   int
	DeletedBy string
	Pods      []Pod
}

// Pod is one pod: Bound -1 when deleted before it was bound; Deleted and Released -1 when not
// within the trajectory.
type Pod struct {
	Created, Bound, Finished, Ended, Deleted, Released int
	Failed                                             bool
}

// Model is the ENI release model: OnDelete frees an ENI W after the pod is deleted, otherwise
// W after it ends (W: the cool-down and one 30 s tick of the delete queue).
type Model struct {
	OnDelete bool
	W        int
}

// Violation is a rule the trajectory breaks.
type Violation struct {
	Run  int
	At   int
	Rule string
}

func (v Violation) String() string { return fmt.Sprintf("run %d at %d s: %s", v.Run, v.At, v.Rule) }

// maxBackoff is MaxJobPodFailureBackOff (job_controller.go).
const maxBackoff = 600

// backoff is the delay before new pods after n failures since the last success:
// DefaultJobPodFailureBackOff (10 s) · 2^(n−1), capped (backoff_utils.go).
func backoff(n int) int {
	d := 10
	for i := 1; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// Check replays the runs of one workload up to horizon (runs that finish past it were cut
// short by the search and are checked only as far as they go).
func Check(s Spec, m Model, runs []Run, horizon int) []Violation {
	var out []Violation
	add := func(i, at int, format string, args ...any) {
		out = append(out, Violation{i, at, fmt.Sprintf(format, args...)})
	}
	for i, r := range runs {
		checkJob(s, m, r, horizon, func(at int, format string, args ...any) { add(i, at, format, args...) })
	}
	if s.CronJob {
		checkCronJob(s, runs, horizon, add)
	}
	if s.KEDA {
		checkPolls(s, runs, add)
	}
	return out
}

// checkPolls checks a ScaledJob's Jobs against KEDA's poll: created only at a poll, no more
// than MaxJobs alive after one, deleted for the history limits only at a poll and only past
// the limits, and by their TTL no earlier than it allows.
func checkPolls(s Spec, runs []Run, add func(i, at int, format string, args ...any)) {
	poll := max(1, s.Poll)
	for i, r := range runs {
		if r.Start%poll != 0 {
			add(i, r.Start, "a ScaledJob's Job created at %d s, between two polls (every %d s)", r.Start, poll)
			continue
		}
		alive := 0
		for _, o := range runs {
			if o.Start <= r.Start && o.Finish > r.Start {
				alive++
			}
		}
		if alive > s.MaxJobs {
			add(i, r.Start, "%d Jobs alive after the poll at %d s, more than maxReplicaCount %d", alive, r.Start, s.MaxJobs)
		}
		switch r.DeletedBy {
		case "ttl":
			checkTTL(s, r, i, add)
		case "history":
			if r.Deleted%poll != 0 {
				add(i, r.Deleted, "a ScaledJob's Job deleted for the history limits at %d s, between two polls", r.Deleted)
			}
			checkHistory(s, runs, i, completedAfter, "later completed", add)
		case "":
		default:
			add(i, r.Deleted, "a ScaledJob's Job deleted by %s", r.DeletedBy)
		}
	}
}

func checkJob(s Spec, m Model, r Run, horizon int, add func(at int, format string, args ...any)) {
	cut := r.Finish > horizon
	for _, p := range r.Pods {
		checkPod(s, m, r, p, cut, add)
	}
	checkPodsOverTime(s, r, add)
	if !cut {
		checkOutcome(s, r, add)
	}
}

// checkPod checks one pod's own times against its Job's: created while the Job runs, bound
// after created, at least a second run, stopped in time, its ENI freed when it may be.
func checkPod(s Spec, m Model, r Run, p Pod, cut bool, add func(at int, format string, args ...any)) {
	switch {
	case p.Created < r.Start:
		add(p.Created, "a pod created before its Job")
	case !cut && p.Created > r.Finish:
		add(p.Created, "a pod created after its Job finished")
	case s.Deadline >= 0 && p.Created >= r.Start+s.Deadline:
		add(p.Created, "a pod created past activeDeadlineSeconds")
	}
	if p.Bound >= 0 {
		if p.Bound < p.Created {
			add(p.Bound, "a pod bound before it was created")
		}
		if p.Finished < p.Bound+1 && !(p.Ended == p.Finished && stoppedByDeletion(r, p)) {
			add(p.Bound, "a pod that ran less than a second")
		}
	}
	if p.Ended < p.Finished {
		add(p.Ended, "a pod reported ended before its container finished")
	}
	switch {
	case r.DeletedBy == "replaced" && p.Ended > r.Deleted+s.Grace:
		add(p.Ended, "a pod of a replaced Job running past its grace period")
	case r.DeletedBy != "replaced" && !cut && p.Ended > r.Finish:
		// A deleted Job's pods stop after it; a finished one's before it (1.31 and later).
		add(r.Finish, "a Job finished before its pod stopped")
	}
	if s.Deadline >= 0 && p.Ended > r.Start+s.Deadline+s.Grace {
		add(p.Ended, "a pod still running past activeDeadlineSeconds and its grace period")
	}
	// What the pod may hold: from its binding to W after it ends (onCompletion) or after
	// it is deleted (onDelete); a pod nothing deletes holds under onDelete for good.
	if p.Bound >= 0 {
		switch {
		case !m.OnDelete && (p.Released < 0 || p.Released > p.Ended+m.W):
			add(p.Ended, "an ENI held longer than the cool-down after its pod ended")
		case m.OnDelete && p.Deleted >= 0 && (p.Released < 0 || p.Released > p.Deleted+m.W):
			add(p.Deleted, "an ENI held longer than the cool-down after its pod was deleted")
		case m.OnDelete && p.Deleted < 0 && p.Released >= 0 && p.Released < p.Ended:
			add(p.Released, "an ENI freed before anything deleted its pod")
		}
	}
	if r.Deleted >= 0 && p.Deleted >= 0 && p.Deleted < min(r.Deleted, p.Ended) {
		add(p.Deleted, "a pod deleted before its Job")
	}
}

// checkPodsOverTime checks the pods against each other as the Job controller creates them.
func checkPodsOverTime(s Spec, r Run, add func(at int, format string, args ...any)) {
	P := max(1, s.Parallelism)
	// Pods over time: the Job controller keeps at most min(P, C − succeeded) active, creates
	// a pod for an ended one only once it has seen the end (and not within the second the
	// container finished), none past the back-off since the last failure, and none once
	// failures pass backoffLimit.
	pods := append([]Pod(nil), r.Pods...)
	sort.SliceStable(pods, func(i, j int) bool { return pods[i].Created < pods[j].Created })
	want := P
	if s.Completions > 0 {
		want = min(P, s.Completions)
	}
	for k, p := range pods {
		active, seen, succeeded, failed, lastSuccess := 0, 0, 0, 0, -1
		for _, q := range pods[:k] {
			if q.Ended > p.Created || q.Ended == p.Created && q.Finished == p.Created {
				active++
				continue
			}
			seen++
			if q.Failed {
				failed++
			} else {
				succeeded++
				lastSuccess = max(lastSuccess, q.Finished)
			}
		}
		for _, q := range pods[k+1:] {
			if q.Created == p.Created {
				active++ // created in the same second: together they must fit
			}
		}
		limit := P
		if s.Completions > 0 {
			limit = min(P, s.Completions-succeeded)
		} else if succeeded > 0 {
			limit = 0
		}
		if active >= limit {
			add(p.Created, "more pods active than parallelism and the completions left allow (%d active, %d allowed)", active+1, limit)
		}
		if k >= want && seen == 0 && !s.OnFailure {
			add(p.Created, "a pod created while none of the first pods had been seen to end")
		}
		if !s.OnFailure && failed > s.BackoffLimit {
			add(p.Created, "a pod created after failures passed backoffLimit")
		}
		// The back-off: failures finished after the last success.
		n, last := 0, -1
		for _, q := range pods[:k] {
			if q.Failed && q.Ended <= p.Created && q.Finished > lastSuccess {
				n++
				last = max(last, q.Finished)
			}
		}
		if n > 0 && !s.OnFailure && p.Created < last+backoff(n) {
			add(p.Created, "a pod created %d s after a failure, within the back-off of %d s (%d failures)", p.Created-last, backoff(n), n)
		}
	}
}

// checkOutcome checks how the Job ended against its pods: its completions, its failures.
func checkOutcome(s Spec, r Run, add func(at int, format string, args ...any)) {
	succeeded, failed := 0, 0
	for _, p := range r.Pods {
		if p.Failed {
			failed++
		} else {
			succeeded++
		}
	}
	switch {
	case !r.Failed && s.Completions > 0 && succeeded < s.Completions && r.DeletedBy != "replaced":
		add(r.Finish, "a Job that succeeded with %d of %d completions", succeeded, s.Completions)
	case !r.Failed && s.Completions == 0 && succeeded == 0 && r.DeletedBy != "replaced":
		add(r.Finish, "a work-queue Job that succeeded with no pod succeeding")
	case r.Failed && !s.OnFailure && failed <= s.BackoffLimit && !(s.Deadline >= 0 && r.Finish >= r.Start+s.Deadline) && r.DeletedBy != "replaced":
		add(r.Finish, "a Job failed with %d failures, within backoffLimit %d and before its deadline", failed, s.BackoffLimit)
	}
}

// stoppedByDeletion is whether p was stopped by the controller (a deadline, the back-off
// limit, a replacement) rather than ending on its own: it may then stop within a second.
func stoppedByDeletion(r Run, p Pod) bool {
	return p.Failed && p.Deleted >= 0 && p.Deleted == p.Ended && (r.Failed || r.DeletedBy == "replaced")
}

func checkCronJob(s Spec, runs []Run, horizon int, add func(i, at int, format string, args ...any)) {
	times, err := Firings(s.Schedule, horizon+1)
	if err != nil {
		add(-1, 0, "schedule %q: %v", s.Schedule, err)
		return
	}
	fires := map[int]bool{}
	for _, t := range times {
		fires[t] = true
	}
	used := map[int]int{}
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return runs[order[a]].Start < runs[order[b]].Start })
	for k, i := range order {
		r := runs[i]
		if !fires[r.Scheduled] {
			add(i, r.Start, "a run for %d s, a time the schedule %q never fires", r.Scheduled, s.Schedule)
		}
		if j, ok := used[r.Scheduled]; ok {
			add(i, r.Start, "a second run for the time of run %d", j)
		}
		used[r.Scheduled] = i
		if r.Start < r.Scheduled {
			add(i, r.Start, "a run started before its time")
		}
		if s.Spark && r.Start != r.Scheduled {
			add(i, r.Start, "a ScheduledSparkApplication run started %d s after its time: the operator starts runs at their times only", r.Start-r.Scheduled)
		}
		if r.Start > r.Scheduled && !s.Spark {
			// Late only as Forbid's catch-up: for the most recent time missed, within the
			// starting deadline, once the run before it has finished.
			if s.Policy != "Forbid" {
				add(i, r.Start, "a %s run started %d s after its time", s.Policy, r.Start-r.Scheduled)
			}
			if s.StartingDeadline >= 0 && r.Start > r.Scheduled+s.StartingDeadline {
				add(i, r.Start, "a run started past startingDeadlineSeconds")
			}
			for _, t := range times {
				if t > r.Scheduled && t <= r.Start {
					add(i, r.Start, "a late run for %d s where %d s was more recent", r.Scheduled, t)
					break
				}
			}
		}
		if k > 0 {
			prev := runs[order[k-1]]
			if s.Policy == "Forbid" && r.Start < prev.Finish {
				add(i, r.Start, "a Forbid run started while the run before it was active (until %d s)", prev.Finish)
			}
			if s.Policy == "Replace" && prev.Finish > r.Start && !(prev.DeletedBy == "replaced" && prev.Deleted == r.Start) {
				add(i, r.Start, "a Replace run started beside an active run that was not deleted")
			}
		}
		switch r.DeletedBy {
		case "ttl":
			checkTTL(s, r, i, add)
		case "history":
			checkHistory(s, runs, i, startedAfter, "newer finished", add)
			if s.Spark && !startsAt(runs, r.Deleted) {
				add(i, r.Deleted, "a ScheduledSparkApplication run deleted for the history limits when no run started")
			}
		case "replaced":
			if s.Policy != "Replace" {
				add(i, r.Deleted, "a Job replaced under %s", s.Policy)
			}
		}
	}
}

// startsAt is whether a run starts at t.
func startsAt(runs []Run, t int) bool {
	for _, r := range runs {
		if r.Start == t {
			return true
		}
	}
	return false
}

// checkHistory: a finished Job is deleted for its history limits only after it finished, and
// only while the limit's number of Jobs of the same outcome that come after it (after) are
// kept: newer ones for the CronJob controller and the Spark operator, later completed ones for
// KEDA, which sorts by completion time.
func checkHistory(s Spec, runs []Run, i int, after func(o, r Run) bool, which string, add func(i, at int, format string, args ...any)) {
	r := runs[i]
	at := r.Deleted
	if at < r.Finish {
		add(i, at, "a Job deleted for the history limits before it finished")
		return
	}
	limit := s.SuccessfulHistory
	if r.Failed {
		limit = s.FailedHistory
	}
	kept := 0
	for j, o := range runs {
		if j != i && o.Failed == r.Failed && after(o, r) && o.Finish <= at && (o.Deleted < 0 || o.Deleted >= at) {
			kept++
		}
	}
	if kept < limit {
		add(i, at, "a Job deleted for the history limits with %d %s Jobs kept where the limit is %d", kept, which, limit)
	}
}

func startedAfter(o, r Run) bool   { return o.Start > r.Start }
func completedAfter(o, r Run) bool { return o.Finish >= r.Finish }

// checkTTL: ttlSecondsAfterFinished deletes a Job no earlier than its finish and the TTL.
func checkTTL(s Spec, r Run, i int, add func(i, at int, format string, args ...any)) {
	if s.TTL < 0 || r.Deleted < r.Finish+s.TTL {
		add(i, r.Deleted, "a Job deleted by ttlSecondsAfterFinished before finish + TTL")
	}
}
