# The time-aware worst case (docs/model.md §5a): the most pods of one Job or CronJob that can
# hold branch ENIs at the same moment, given what the controllers guarantee about time: the
# Job controller's pod-failure back-off, the CronJob schedule, the TTL controller and the
# release window W after a pod ends (or, under onDelete, after it is deleted). Where nothing
# bounds a time the count of §5 stays. The simulator in pkg/simulate checks that these
# figures are never below what it can reach.
package eni.model

# W: how long a branch ENI stays taken after the pod that had it ends (onCompletion) or is
# deleted (onDelete): the cool-down plus one tick of the delete queue.
release_window := _settings.windowSeconds

# The back-off before the i-th replacement after i consecutive failures is 10 s · 2^(i−1),
# capped (pkg/controller/job/backoff_utils.go, getRemainingTimeForFailuresCount). The cap is
# 10 minutes in current releases and 6 in the docs; the smaller one is the sound choice here
# since a shorter delay packs more pods into a window. The back-off counts from the failed
# pod's end, and a pod runs at least a second (docs/model.md §5a: its containers start only
# once its branch ENI is attached), so each replacement comes at least its delay plus one
# second after the pod before it. _chain_step[i] is that spacing before the (i+1)-th pod of a
# chain, _chain_prefix[i] the sum of the first i: the earliest the (i+1)-th pod can be created.
_pod_min_seconds := 1

_chain_step := [0, 11, 21, 41, 81, 161, 321]

_chain_prefix := [0, 11, 32, 73, 154, 315, 636]

_backoff_cap := 360

_capped_step := _backoff_cap + _pod_min_seconds

_step_at(i) := _chain_step[i] if i <= 6

_step_at(i) := _capped_step if i > 6

_prefix_at(i) := _chain_prefix[i] if i <= 6

_prefix_at(i) := _chain_prefix[6] + (_capped_step * (i - 6)) if i > 6

# A run's pods follow one another when it runs one pod at a time (parallelism 1, or
# completions 1) without per-index back-off. The back-off counts the run's Failed pods since
# its last success, whatever the restart policy (newBackoffRecord), so OnFailure, whose pods
# fail only when disrupted or past the limits, follows it too. Each success starts a new chain:
# a run is at most max(1, C) chains of at most B + 1 pods, one after the other, and the n-th pod
# of a chain exists no earlier than _prefix_at(n−1) after the chain starts. Parallel pods and
# per-index back-off keep the count.
_sequential_pods(job) if {
	_job_running(job) == 1
	job.restartPolicy in {"Never", "OnFailure"}
	job.backoffLimitPerIndex == null
}

# A single chain: one success ends the run (completions 1, or a work queue).
_single_chain(job) if {
	_sequential_pods(job)
	job.completions == 1
}

_single_chain(job) if {
	_sequential_pods(job)
	job.completions == null
}

# How long a pod the Job controller deletes while it runs (past activeDeadlineSeconds, past the
# back-off limit with others still running, replaced by the next run) can keep its ENI before it
# has stopped: its terminationGracePeriodSeconds, and never less than the 30 s the model allows
# for a stop to be seen.
_stop_seconds(w) := max([30, object.get(w.job, "terminationGracePeriodSeconds", 30)])

# The most pods one run can create: T; for a single chain that can only create pods for D
# seconds, no more than the back-off lets it create before D (0, 11, 32, 73 … s: a 30 s
# deadline allows 2).
_run_pods(w) := min([t, _pack(1, d, t, _chain_of(w.job))]) if {
	t := job_t(w.job)
	d := min(_run_lifetimes(w))
	_sequential_pods(w.job)
} else := job_t(w.job)

# How long one run can create pods: its activeDeadlineSeconds, after which the Job controller
# creates none; under Replace also the time to the next schedule time, when the CronJob
# controller deletes the run (in the background: no Job is left to create pods for). Replace
# every 5 minutes under the default backoffLimit 6: a run creates at most 5 pods (the 6th would
# come at 310 s), so no run fails by its back-off limit and none keeps 7.
_run_lifetimes(w) := {d | d := w.job.activeDeadlineSeconds; d != null} | {g | g := _replace_lifetime(w)}

# A run's longest life under Replace: the schedule's gap, when every gap is the same (no
# runSpans). An irregular schedule has gaps longer than periodSeconds, and so may a time zone
# with daylight saving: those keep T. So does OnFailure, which the simulator's soundness test
# has not covered with this cap.
_replace_lifetime(w) := w.cronJob.periodSeconds if {
	w.cronJob.concurrencyPolicy == "Replace"
	w.job.restartPolicy == "Never"
	w.cronJob.periodSeconds > 0
	count(object.get(w.cronJob, "runSpans", [])) == 0
	object.get(w.cronJob, "timeZone", "") in {"", "UTC", "Etc/UTC"}
}

# How a run's pods are spaced: false when the back-off spaces nothing the model counts on,
# otherwise its chains (segments) and the most pods in one (cap).
_chain_of(job) := {"segments": segments, "cap": _replacements(job) + 1} if {
	_sequential_pods(job)
	segments := _chain_segments(job)
} else := false

_chain_segments(job) := 1 if {
	job.completions == null
} else := max([1, job.completions])

# The most pods k runs started inside a window of length l can create inside it, each run at
# most t pods. For chains each chain's first pod is free and each further pod costs its
# back-off delay; costs rise along a chain, so filling the cheapest delays across chains first
# (full levels of k, then part of the next) is the best packing. A run of several chains packs
# no more than as many independent chains (its chains follow one another; packing them side by
# side only relaxes that). Other runs: k · t.
_pack(k, l, t, chain) := 0 if {
	k <= 0
} else := 0 if {
	t <= 0
} else := k * t if {
	not chain
} else := min([k * t, _chains_pack(k * chain.segments, l, min([t, chain.cap]))])

_chains_pack(k, l, t) := (k * (levels + 1)) + partial if {
	levels := min([_full_levels(k, l), t - 1])
	partial := _partial_level(k, l, t, levels)
}

# The deepest level i such that k chains can all afford their first i delays within l.
_full_levels(k, l) := 6 + floor((l - (_chain_prefix[6] * k)) / (_capped_step * k)) if {
	(_chain_prefix[6] * k) <= l
} else := max([i | some i in [0, 1, 2, 3, 4, 5, 6]; (k * _chain_prefix[i]) <= l])

_partial_level(k, l, t, levels) := 0 if {
	levels >= t - 1
} else := floor((l - (k * _prefix_at(levels))) / _step_at(levels + 1))

# Runs of a CronJob that can start inside a closed window of length l: each run has its own
# schedule time, and at most _times_in(l) of them fall in the window. Under Forbid one more
# run can start late for a time before the window: a skipped time is started as soon as the
# run in the way finishes (syncCronJob does not advance lastScheduleTime when it skips), unless
# startingDeadlineSeconds has passed, which then bounds how early that time can be, or unless
# activeDeadlineSeconds ends every run before the next time. Replace and
# Allow start every run at its time (the controller requeues itself for it; an outage that
# starts a missed run late is outside the model, docs/model.md §7).
_runs_in(w, l, p) := _times_in(w, l, p) if {
	# A run stopped by its deadline (its pods within their grace period) before the next time
	# is never in the way of it: Forbid then skips nothing.
	w.cronJob.concurrencyPolicy == "Forbid"
	w.job.activeDeadlineSeconds != null
	w.job.activeDeadlineSeconds + _stop_seconds(w) < p
	not _late_starts(w)
} else := min([_times_in(w, l, p) + 1, _times_in(w, l + sd, p)]) if {
	w.cronJob.concurrencyPolicy == "Forbid"
	sd := w.cronJob.startingDeadlineSeconds
	sd != null
} else := _times_in(w, l, p) + 1 if {
	w.cronJob.concurrencyPolicy == "Forbid"
} else := _times_in(w, l, p)

# The most schedule times in a closed window of length l. From the schedule's real times when
# it is irregular: runSpans[k − 1] is the shortest time from a time to the k-th after it, so a
# window shorter than it holds at most k times. Otherwise, or for a window longer than every
# span listed, floor(l/p) + 1 from the shortest gap p.
_times_in(w, l, p) := n if {
	spans := object.get(w.cronJob, "runSpans", [])
	n := count([s | some s in spans; s <= l]) + 1
	n <= count(spans)
} else := floor(l / p) + 1

# Whether a workload gets the time-aware figure: Jobs and CronJobs the Job controller runs,
# whose numbers the manifest bounds.
_time_aware(w) if {
	w.kind in {"Job", "CronJob"}
	job_t(w.job) > 0
	not _time_unknown(w)
}

_time_unknown(w) if {
	object.get(w, "cronJob", null) != null
	w.cronJob.periodSeconds <= 0
}

_time_unknown(w) if {
	w.cronJob.concurrencyPolicy == "Allow"
	w.job.activeDeadlineSeconds == null
}

# The peak, and the facts that set it.
_timeline(w) := {"held": held, "facts": facts} if {
	object.get(w, "cronJob", null) == null
	t := _run_pods(w)
	on_delete

	# Every pod of the run exists just before it finishes; a TTL only decides how long after.
	held := t
	facts := ["all pods of a run exist when it finishes; a TTL only decides how long after"]
} else := {"held": held, "facts": facts} if {
	object.get(w, "cronJob", null) == null
	t := _run_pods(w)
	chain := _chain_of(w.job)

	# onCompletion: a pod ended before the window plus what one run creates inside it.
	held := min([t, _mid_chain_pack(1, release_window, t, chain)])
	facts := _chain_facts(chain)
} else := _cron_timeline(w)

_chain_facts(chain) := ["pod-failure back-off spaces the pods of a run"] if {
	chain != false
} else := []

# A CronJob. A Replace run whose pods take longer than 30 s to stop is counted two ways, and
# the smaller wins: with their grace period in every window, and as if they stopped within
# 30 s plus the replaced runs' running pods still stopping (_long_grace_held).
_cron_timeline(w) := tl if {
	_stop_seconds(w) > 30
	_late_stops(w)
	direct := _cron_timeline_core(w)
	short := _long_grace_held(w)
	tl := _smaller(direct, short)
} else := _cron_timeline_core(w)

# When long stops can be counted apart: Replace stops a run at each schedule time; Forbid whose
# only stops are deadlines (one pod at a time under Never) stops runs at least D apart, since
# a stopped run ran D from its start and the next starts after it.
_late_stops(w) if w.cronJob.concurrencyPolicy == "Replace"

_late_stops(w) if {
	w.cronJob.concurrencyPolicy == "Forbid"
	w.job.activeDeadlineSeconds != null
	_job_running(w.job) == 1
	w.job.restartPolicy == "Never"
}

_smaller(a, b) := a if a.held <= b.held

_smaller(a, b) := b if a.held > b.held

# Replace starts every run at its time, whatever its predecessor's pods are doing, so a
# trajectory whose stopped pods end within 30 s is one of the model's. Forbid may start a run
# later than the trajectory with short stops would (since 1.31 it waits for the stopped pods,
# then starts the most recent missed time): the short view is counted with late starts, as a
# Forbid CronJob whose runs can be in the way of the next time (one run per window for a time
# before it). The pods that hold at x in the
# real trajectory and not in the short one belong to runs stopped between x − grace − W and
# x − 30 − W: under Replace one per schedule time, floor((grace − 30)/p) + 1 runs, one more when
# a deadline can stop a run between two times; under Forbid at least D apart,
# floor((grace − 30)/D) + 1. Of a replaced run only the running pods (Pe)
# are late: its Job is deleted at once. A run stopped by its deadline is finished, since
# Kubernetes 1.31, only once its pods have ended, and under onDelete its TTL counts from then:
# all its T pods can be late.
_long_grace_held(w) := {"held": base.held + extra, "facts": array.concat(base.facts, ["terminationGracePeriodSeconds bounds how long stopped pods hold"]), "stopping": _late_stopping(w, extra)} if {
	short := object.union(w, {"job": {"terminationGracePeriodSeconds": 30}, "lateStarts": w.cronJob.concurrencyPolicy == "Forbid"})
	base := _cron_timeline_core(short)
	extra := _late_pods_per_run(w) * _late_runs(w)
}

# How many of the late pods were all running at one moment, W before the peak x: a late pod
# was stopped before x − 30 − W and holds at x, so it had not stopped by x − W (under
# onCompletion a pod holds W after it ends; a replaced run's pods hold W after their deletion,
# which is their end). kube-scheduler counts a pod that is stopping as it counts a running one,
# so a node runs at most its capacity of them at once: a row counts its late pods at most at
# its capacity (rows.rego, _type_row). Under onDelete a run stopped by its deadline keeps all
# its pods until its TTL, which counts from its stopped pod's end: those late pods need not have
# run together, and none is capped.
_late_stopping(w, extra) := 0 if {
	on_delete
	w.job.activeDeadlineSeconds != null
} else := extra

_late_runs(w) := floor((_stop_seconds(w) - 30) / w.cronJob.periodSeconds) + _replaced_extra(w) if {
	w.cronJob.concurrencyPolicy == "Replace"
} else := floor(release_window / max([1, d])) + 2 if {
	# The deadline (and the Job's failure, within 30 s) comes before the next time. The Job
	# stays active until its pod has stopped (Kubernetes 1.31), so the next run starts after
	# that: one pod stops at a time, and the ends of stopped pods are D apart, at most
	# floor(W/D) + 1 of them within W, with the one still stopping.
	d := w.job.activeDeadlineSeconds
	(d + 30) < w.cronJob.periodSeconds
} else := floor((_stop_seconds(w) - 30) / max([1, w.job.activeDeadlineSeconds])) + 1

_late_pods_per_run(w) := _run_pods(w) if {
	on_delete
	w.job.activeDeadlineSeconds != null
} else := _job_running(w.job)

_replaced_extra(w) := 2 if w.job.activeDeadlineSeconds != null

_replaced_extra(w) := 1 if w.job.activeDeadlineSeconds == null

# Sequential runs (Forbid, Replace) hold, at a moment x, the pods of the oldest run still
# holding (at most T) and of the runs started since, all inside the window of length l before x
# in which that oldest run can still hold. With activeDeadlineSeconds every run that holds at x
# started inside the window of its deadline, stop and tail before x (_deadline_held).
_cron_timeline_core(w) := {"held": held, "facts": facts} if {
	w.cronJob.concurrencyPolicy in {"Forbid", "Replace"}
	t := _run_pods(w)
	p := w.cronJob.periodSeconds
	chain := _chain_of(w.job)
	grace := _late_stop(w)
	counted := _cron_count_held(w, t, p)
	windowed := _smaller(_sequential_held(w, t, p, chain, grace), _deadline_held(w, t, p, chain))
	held := min([counted, windowed.held])
	facts := _held_facts(held, counted, windowed.facts)
} else := {"held": held, "facts": facts} if {
	# Allow with activeDeadlineSeconds D: every run holding at x started within D plus its tail.
	t := _run_pods(w)
	p := w.cronJob.periodSeconds
	d := w.job.activeDeadlineSeconds
	chain := _chain_of(w.job)
	counted := _cron_count_held(w, t, p)
	windowed := _overlapping_held(w, t, p, d, chain)
	held := min([counted, windowed])
	facts := _held_facts(held, counted, ["activeDeadlineSeconds and the schedule bound the runs that overlap"])
}

_held_facts(held, counted, windowed) := windowed if {
	held < counted
} else := ["the history limits bound the finished Jobs"]

# Forbid whose deadline ends each run before the next time, or Replace, with a deadline: every
# run holding at x started at its time inside the window of its deadline D, the stop of its
# pods, and how long it can hold after (its TTL and W under onDelete, W under onCompletion).
_deadline_held(w, t, p, chain) := {"held": runs * _run_held(t, chain), "facts": ["activeDeadlineSeconds and the schedule bound the runs that can hold at once"]} if {
	d := w.job.activeDeadlineSeconds
	d != null
	_deadline_separates(w, d, p)
	tail := _run_tail(w, 0)
	runs := _runs_in(w, (d + _stop_seconds(w)) + tail, p)
} else := {"held": 2147483647, "facts": []}

_deadline_separates(w, d, p) if {
	w.cronJob.concurrencyPolicy == "Forbid"
	d + _stop_seconds(w) < p
	not _late_starts(w)
}

_deadline_separates(w, _, _) if w.cronJob.concurrencyPolicy == "Replace"

# The count under history limits alone, which bounds both release models (a pod that holds
# under onCompletion holds under onDelete too). At a moment x the ENIs are held by the S + F
# finished Jobs the history keeps, the Jobs deleted within W before x (their cool-down), and the
# runs in flight.
#
# Sequential runs (Forbid, Replace): the history deletes one Job per finish, and the runs that
# finish within W, after the first of them, started inside the window together with the run in
# flight; so the deleted ones are matched by kept ones whose pods, with the run in flight's,
# were created inside the window: (S + F + 1)·T + pack(_runs_in(W), W). A TTL deletes on its own
# clock, but only Jobs the history kept: at the window's start it kept at most S + F, and every
# Job kept at x or deleted since (by the history or a TTL) was one of them or finished inside
# the window, so the TTL adds nothing on top.
# Overlapping runs (Allow, deadline D): runs finishing within W started within W + D + grace;
# (S + F + finishing + in flight)·T.
#
# Sequential runs that each end more than W before the next time (a deadline D with
# D + stop + W < p): finishes, and so history and TTL deletions, are more than W apart, and a
# run in flight started after the last finish, more than W after it. At x the history keeps at
# most S + F Jobs, and either one Job deleted by the history is in cool-down or one run is in
# flight, never both. A Job deleted by its TTL within W was one of the kept ones, and no finish
# of its kind has refilled its place since (a finish within W deletes the oldest of that kind,
# and that one is then the history's deletion): the kept Jobs and it are still at most S + F.
# So (S + F + 1)·T.
_cron_count_held(w, t, p) := min([windowed, spaced, _ttl_count_held(w, t, p, after_first)]) if {
	w.cronJob.concurrencyPolicy in {"Forbid", "Replace"}
	kept := _kept_pods(w, t)

	# A Job deleted while its pods still stop holds until they have stopped, then W.
	l := release_window + _late_stop(w)
	after_first := _started_after_first_finish(w, l, t, p)
	windowed := (kept + t) + after_first
	spaced := _spaced_count_held(w, t, p, kept)
} else := kept + (_runs_in(w, (release_window + d) + _stop_seconds(w), p) * t) if {
	kept := _kept_pods(w, t)
	d := w.job.activeDeadlineSeconds
	# Every finished Job that holds at x was kept at the window's start or finished inside it,
	# and a run that finishes inside the window started within W + D + stop before x (a Job
	# whose deadline deletes its running pods is finished once they have stopped, Kubernetes
	# 1.31), as did every run still in flight: those are different runs, so together at most
	# the runs in W + D + stop, T each.
}

# The pods of the runs started inside the count's window after its first finish (the deletion
# that opened it). With a deadline that ends every run at least g = p − (D + stop) before the
# next time, they start g after that finish at the earliest: every 5 minutes with D = 240, the
# run in flight has 60 s of the 90 s window, 3 pods, not 4 (terraform-plan-data-source-ami: 28).
# The window is closed: with g = l the deleted Job's last second still meets the next run's
# first pod.
_started_after_first_finish(w, l, t, p) := 0 if {
	g := _finish_gap(w, p)
	g > l
} else := _runs_pack(w, _runs_in(w, l - g, p), l - g, t, _chain_of(w.job), p) if {
	g := _finish_gap(w, p)
} else := _runs_pack(w, _runs_in(w, l, p), l, t, _chain_of(w.job), p)

_finish_gap(w, p) := g if {
	d := w.job.activeDeadlineSeconds
	d != null
	g := p - (d + _stop_seconds(w))
	g > 0
	not _late_starts(w)
}

# The pods of the finished Jobs the history keeps: S of T, and F of what a failed run keeps.
# Under OnFailure a pod fails only when disrupted: a run of one pod at a time fails by its B-th
# container restart or its deadline, and the Job controller then deletes the pod still running,
# so a failed Job keeps only its disrupted pods (none without --disruptions).
_kept_pods(w, t) := (w.cronJob.successfulJobsHistoryLimit * t) + (w.cronJob.failedJobsHistoryLimit * _failed_job_pods(w, t))

_failed_job_pods(w, t) := min([t, _disruptions]) if {
	w.job.restartPolicy == "OnFailure"
	_single_chain(w.job)
} else := t

_spaced_count_held(w, t, p, kept) := kept + t if {
	d := w.job.activeDeadlineSeconds
	d != null
	((d + _stop_seconds(w)) + release_window) < p
	not _late_starts(w)
} else := 2147483647

# A view of a Forbid CronJob whose stops were shortened to 30 s for counting (_long_grace_held):
# its real runs may start late (since 1.31 a stopped run's Job blocks the next until its pod has
# ended, and the next is then the most recent missed time's), so nothing may assume a run
# starts at its time.
_late_starts(w) if object.get(w, "lateStarts", false) == true

# How long after it ends (onCompletion) or finishes (onDelete) a run can still hold an ENI:
# a replaced run's pods are deleted at once, the running one within its grace period; under
# onDelete a run that finishes by itself stays until its TTL (without one, only the history
# limits remove it, and the count stays).
_run_tail(w, grace) := max([grace, w.job.ttlSecondsAfterFinished]) + release_window if {
	on_delete
	w.job.ttlSecondsAfterFinished != null
} else := grace + release_window if {
	not on_delete
}

_sequential_held(w, t, p, chain, grace) := {"held": held, "facts": facts} if {
	l := _run_tail(w, grace)
	k := _runs_in(w, l, p)
	held := _sequential_peak(t, k, l, chain, _runs_pack(w, k, l, t, chain, p))
	facts := array.concat(_tail_facts(w), _chain_facts(chain))
} else := {"held": 2147483647, "facts": []}

# Under onDelete the oldest run keeps all its pods until its deletion: T of them. Under
# onCompletion only its pods that ended within W before x still hold, and its pods follow one
# another, so at most one of them was created before the window: the rest are packed with the
# later runs (packed: what _runs_pack gives them).
_sequential_peak(t, k, l, chain, packed) := t + packed if {
	on_delete
} else := min([t + packed, _mid_chain_pack(k + 1, l, t, chain)])

# A pod of a run that ended just before the window, and that run's pods created inside it,
# packed with k − 1 runs started inside it. The run's next pod can come as soon as the ended
# one is seen (the back-off counts from the container's finish, which can be earlier), but its
# later pods cost the next steps, 21 s, 41 s …: the same as a fresh chain with one extra pod
# 11 s before its second, which a budget 11 s larger buys and the count then drops. Under onCompletion a window
# either holds the start of its oldest run (pack(k, l) ≤ this) or cuts one run in the middle.
_mid_chain_pack(k, l, t, chain) := _pack(k, l + _chain_step[1], t, chain) if {
	chain
} else := 1 + _pack(k, l, t, chain)

_tail_facts(w) := ["ttlSecondsAfterFinished and the schedule bound the finished Jobs that still hold"] if {
	on_delete
	w.job.ttlSecondsAfterFinished != null
} else := ["the schedule bounds the runs that end within one release window"]

# A run stopped by its deadline ends when its running pod does, within its grace period.
_overlapping_held(w, t, p, d, chain) := _aged_runs_held(w, runs, per_run, t, chain, d, p) if {
	tail := _run_tail(w, 0)
	runs := _runs_in(w, (d + _stop_seconds(w)) + tail, p)
	per_run := _run_held(t, chain)
} else := 2147483647

# One run's pods holding at once: under onDelete all of them; under onCompletion a pod ended
# before the window plus what the run creates inside it.
_run_held(t, _) := t if on_delete

_run_held(t, chain) := min([t, _mid_chain_pack(1, release_window, t, chain)]) if not on_delete

# The figures of §6 with the time-aware peak: held is the most pods of the workload holding
# ENIs at one moment (terminated or running). For the workloads the timeline covers, all of
# them can be terminated at that moment, so hidden is held too; countHeld is what the count
# of §5 alone gives, heldBy the facts that set held.
_with_time(w, n) := object.union(object.union(n, {
	"held": tl.held,
	"retained": _retained_value(tl.held),
	"churn": _churn_value(tl.held),
	"countHeld": hidden_of(n) + n.active,
	"heldBy": tl.facts,
}), _late_stopping_field(tl)) if {
	_time_aware(w)
	tl := _timeline(w)
} else := object.union(n, {"held": hidden_of(n) + n.active})

# lateStopping, when the timeline counted pods still stopping long after their run (see
# _late_stopping): only then, so that other workloads' figures read as before.
_late_stopping_field(tl) := {"lateStopping": tl.stopping} if {
	object.get(tl, "stopping", 0) > 0
} else := {}
