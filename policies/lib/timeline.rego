# The time-aware worst case (docs/model.md §5a): the most pods of one Job or CronJob that can
# hold branch ENIs at the same moment, given what the controllers guarantee about time: the
# Job controller's pod-failure back-off, the CronJob schedule, the TTL controller and the
# release window W after a pod ends (or, under onDelete, after it is deleted). Where nothing
# bounds a time the count of §5 stays. The simulator in pkg/simulate checks that these
# figures are never below what it can reach.
package eni.model

# W: how long a branch ENI stays taken after the pod that had it ends (onCompletion) or is
# deleted (onDelete): the cool-down plus one tick of the delete queue.
release_window := settings.windowSeconds

# The back-off before the i-th replacement after i consecutive failures is 10 s · 2^(i−1),
# capped (pkg/controller/job/backoff_utils.go, getRemainingTimeForFailuresCount). The cap is
# 10 minutes in current releases and 6 in the docs; the smaller one is the sound choice here
# since a shorter delay packs more pods into a window. backoff_prefix[i] is the sum of the
# first i delays, the earliest the (i+1)-th pod of a run can be created.
backoff_delay := [0, 10, 20, 40, 80, 160, 320]

backoff_prefix := [0, 10, 30, 70, 150, 310, 630]

backoff_cap := 360

delay_at(i) := backoff_delay[i] if i <= 6

delay_at(i) := backoff_cap if i > 6

prefix_at(i) := backoff_prefix[i] if i <= 6

prefix_at(i) := 630 + (backoff_cap * (i - 6)) if i > 6

# A run's pods follow one another when it runs one pod at a time (parallelism 1, or
# completions 1) without per-index back-off. The back-off counts the run's Failed pods since
# its last success, whatever the restart policy (newBackoffRecord), so OnFailure, whose pods
# fail only when disrupted or past the limits, follows it too. Each success starts a new chain:
# a run is at most max(1, C) chains of at most B + 1 pods, one after the other, and the n-th pod
# of a chain exists no earlier than prefix_at(n−1) after the chain starts. Parallel pods and
# per-index back-off keep the count.
sequential_pods(job) if {
	job_running(job) == 1
	job.restartPolicy in {"Never", "OnFailure"}
	job.backoffLimitPerIndex == null
}

# A single chain: one success ends the run (completions 1, or a work queue).
single_chain(job) if {
	sequential_pods(job)
	job.completions == 1
}

single_chain(job) if {
	sequential_pods(job)
	job.completions == null
}

# How long a pod the Job controller deletes while it runs (past activeDeadlineSeconds, past the
# back-off limit with others still running, replaced by the next run) can keep its ENI before it
# has stopped: its terminationGracePeriodSeconds, and never less than the 30 s the model allows
# for a stop to be seen.
stop_seconds(w) := max([30, object.get(w.job, "terminationGracePeriodSeconds", 30)])

# Whether a run's pods can be deleted while they run: a deadline, a replacement, parallel pods
# cut short when the run ends, or an OnFailure pod whose restarts pass backoffLimit
# (pastBackoffLimitOnFailure). One pod at a time under Never ends the run with that pod.
stops_running_pods(w) if w.job.activeDeadlineSeconds != null

stops_running_pods(w) if w.cronJob.concurrencyPolicy == "Replace"

stops_running_pods(w) if job_running(w.job) > 1

stops_running_pods(w) if w.job.restartPolicy == "OnFailure"

# The most pods one run can create: T; for a single chain that can only create pods for D
# seconds, no more than the back-off lets it create before D (0, 10, 30, 70 … s: a 30 s
# deadline allows 3).
run_pods(w) := min([t, pack(1, d, t, chain_of(w.job))]) if {
	t := job_t(w.job)
	d := min(run_lifetimes(w))
	sequential_pods(w.job)
} else := job_t(w.job)

# How long one run can create pods: its activeDeadlineSeconds, after which the Job controller
# creates none; under Replace also the time to the next schedule time, when the CronJob
# controller deletes the run (in the background: no Job is left to create pods for). Replace
# every 5 minutes under the default backoffLimit 6: a run creates at most 5 pods (the 6th would
# come at 310 s), so no run fails by its back-off limit and none keeps 7.
run_lifetimes(w) := {d | d := w.job.activeDeadlineSeconds; d != null} | {g | g := replace_lifetime(w)}

# A run's longest life under Replace: the schedule's gap, when every gap is the same (no
# runSpans). An irregular schedule has gaps longer than periodSeconds, and so may a time zone
# with daylight saving: those keep T. So does OnFailure, which the simulator's soundness test
# has not covered with this cap.
replace_lifetime(w) := w.cronJob.periodSeconds if {
	w.cronJob.concurrencyPolicy == "Replace"
	w.job.restartPolicy == "Never"
	w.cronJob.periodSeconds > 0
	count(object.get(w.cronJob, "runSpans", [])) == 0
	object.get(w.cronJob, "timeZone", "") in {"", "UTC", "Etc/UTC"}
}

# How a run's pods are spaced: false when the back-off spaces nothing the model counts on,
# otherwise its chains (segments) and the most pods in one (cap).
chain_of(job) := {"segments": segments, "cap": replacements(job) + 1} if {
	sequential_pods(job)
	segments := chain_segments(job)
} else := false

chain_segments(job) := 1 if {
	job.completions == null
} else := max([1, job.completions])

# The most pods k runs started inside a window of length l can create inside it, each run at
# most t pods. For chains each chain's first pod is free and each further pod costs its
# back-off delay; costs rise along a chain, so filling the cheapest delays across chains first
# (full levels of k, then part of the next) is the best packing. A run of several chains packs
# no more than as many independent chains (its chains follow one another; packing them side by
# side only relaxes that). Other runs: k · t.
pack(k, l, t, chain) := 0 if {
	k <= 0
} else := 0 if {
	t <= 0
} else := k * t if {
	not chain
} else := min([k * t, chains_pack(k * chain.segments, l, min([t, chain.cap]))])

chains_pack(k, l, t) := (k * (levels + 1)) + partial if {
	levels := min([full_levels(k, l), t - 1])
	partial := partial_level(k, l, t, levels)
}

# The deepest level i such that k chains can all afford their first i delays within l.
full_levels(k, l) := 6 + floor((l - (630 * k)) / (backoff_cap * k)) if {
	(630 * k) <= l
} else := max([i | some i in [0, 1, 2, 3, 4, 5, 6]; (k * backoff_prefix[i]) <= l])

partial_level(k, l, t, levels) := 0 if {
	levels >= t - 1
} else := floor((l - (k * prefix_at(levels))) / delay_at(levels + 1))

# Runs of a CronJob that can start inside a closed window of length l: each run has its own
# schedule time, and at most times_in(l) of them fall in the window. Under Forbid one more
# run can start late for a time before the window: a skipped time is started as soon as the
# run in the way finishes (syncCronJob does not advance lastScheduleTime when it skips), unless
# startingDeadlineSeconds has passed, which then bounds how early that time can be, or unless
# activeDeadlineSeconds ends every run before the next time. Replace and
# Allow start every run at its time (the controller requeues itself for it; an outage that
# starts a missed run late is outside the model, docs/model.md §7).
runs_in(w, l, p) := times_in(w, l, p) if {
	# A run stopped by its deadline (its pods within their grace period) before the next time
	# is never in the way of it: Forbid then skips nothing.
	w.cronJob.concurrencyPolicy == "Forbid"
	w.job.activeDeadlineSeconds != null
	w.job.activeDeadlineSeconds + stop_seconds(w) < p
	not late_starts(w)
} else := min([times_in(w, l, p) + 1, times_in(w, l + sd, p)]) if {
	w.cronJob.concurrencyPolicy == "Forbid"
	sd := w.cronJob.startingDeadlineSeconds
	sd != null
} else := times_in(w, l, p) + 1 if {
	w.cronJob.concurrencyPolicy == "Forbid"
} else := times_in(w, l, p)

# The most schedule times in a closed window of length l. From the schedule's real times when
# it is irregular: runSpans[k − 1] is the shortest time from a time to the k-th after it, so a
# window shorter than it holds at most k times. Otherwise, or for a window longer than every
# span listed, floor(l/p) + 1 from the shortest gap p.
times_in(w, l, p) := n if {
	spans := object.get(w.cronJob, "runSpans", [])
	n := count([s | some s in spans; s <= l]) + 1
	n <= count(spans)
} else := floor(l / p) + 1

# Whether a workload gets the time-aware figure: Jobs and CronJobs the Job controller runs,
# whose numbers the manifest bounds.
time_aware(w) if {
	w.kind in {"Job", "CronJob"}
	job_t(w.job) > 0
	not time_unknown(w)
}

time_unknown(w) if {
	object.get(w, "cronJob", null) != null
	w.cronJob.periodSeconds <= 0
}

time_unknown(w) if {
	w.cronJob.concurrencyPolicy == "Allow"
	w.job.activeDeadlineSeconds == null
}

# The peak, and the facts that set it.
timeline(w) := {"held": held, "facts": facts} if {
	object.get(w, "cronJob", null) == null
	t := run_pods(w)
	on_delete

	# Every pod of the run exists just before it finishes; a TTL only decides how long after.
	held := t
	facts := ["all pods of a run exist when it finishes; a TTL only decides how long after"]
} else := {"held": held, "facts": facts} if {
	object.get(w, "cronJob", null) == null
	t := run_pods(w)
	chain := chain_of(w.job)

	# onCompletion: a pod ended before the window plus what one run creates inside it.
	held := min([t, mid_chain_pack(1, release_window, t, chain)])
	facts := chain_facts(chain)
} else := cron_timeline(w)

chain_facts(chain) := ["pod-failure back-off spaces the pods of a run"] if {
	chain != false
} else := []

# A CronJob. A Replace run whose pods take longer than 30 s to stop is counted two ways, and
# the smaller wins: with their grace period in every window, and as if they stopped within
# 30 s plus the replaced runs' running pods still stopping (long_grace_held).
cron_timeline(w) := tl if {
	stop_seconds(w) > 30
	late_stops(w)
	direct := cron_timeline_core(w)
	short := long_grace_held(w)
	tl := smaller(direct, short)
} else := cron_timeline_core(w)

# When long stops can be counted apart: Replace stops a run at each schedule time; Forbid whose
# only stops are deadlines (one pod at a time under Never) stops runs at least D apart, since
# a stopped run ran D from its start and the next starts after it.
late_stops(w) if w.cronJob.concurrencyPolicy == "Replace"

late_stops(w) if {
	w.cronJob.concurrencyPolicy == "Forbid"
	w.job.activeDeadlineSeconds != null
	job_running(w.job) == 1
	w.job.restartPolicy == "Never"
}

smaller(a, b) := a if a.held <= b.held

smaller(a, b) := b if a.held > b.held

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
long_grace_held(w) := {"held": base.held + extra, "facts": array.concat(base.facts, ["terminationGracePeriodSeconds bounds how long stopped pods hold"]), "stopping": late_stopping(w, extra)} if {
	short := object.union(w, {"job": {"terminationGracePeriodSeconds": 30}, "lateStarts": w.cronJob.concurrencyPolicy == "Forbid"})
	base := cron_timeline_core(short)
	extra := late_pods_per_run(w) * late_runs(w)
}

# How many of the late pods were all running at one moment, W before the peak x: a late pod
# was stopped before x − 30 − W and holds at x, so it had not stopped by x − W (under
# onCompletion a pod holds W after it ends; a replaced run's pods hold W after their deletion,
# which is their end). kube-scheduler counts a pod that is stopping as it counts a running one,
# so a node runs at most its capacity of them at once: a row counts its late pods at most at
# its capacity (model.rego, type_row). Under onDelete a run stopped by its deadline keeps all
# its pods until its TTL, which counts from its stopped pod's end: those late pods need not have
# run together, and none is capped.
late_stopping(w, extra) := 0 if {
	on_delete
	w.job.activeDeadlineSeconds != null
} else := extra

late_runs(w) := floor((stop_seconds(w) - 30) / w.cronJob.periodSeconds) + replaced_extra(w) if {
	w.cronJob.concurrencyPolicy == "Replace"
} else := max([before_131, since_131]) if {
	# The deadline (and the Job's failure, within 30 s) comes before the next time. Before 1.31
	# the failed Job no longer blocks the next run, which starts at its time: stops are p apart.
	# Since 1.31 the Job stays active until its pod has stopped, so the next run starts after
	# that: one pod stops at a time, and the ends of stopped pods are D apart, at most
	# floor(W/D) + 1 of them within W, with the one still stopping.
	d := w.job.activeDeadlineSeconds
	(d + 30) < w.cronJob.periodSeconds
	before_131 := floor((stop_seconds(w) - 30) / w.cronJob.periodSeconds) + 1
	since_131 := floor(release_window / max([1, d])) + 2
} else := floor((stop_seconds(w) - 30) / max([1, w.job.activeDeadlineSeconds])) + 1

late_pods_per_run(w) := run_pods(w) if {
	on_delete
	w.job.activeDeadlineSeconds != null
} else := job_running(w.job)

replaced_extra(w) := 2 if w.job.activeDeadlineSeconds != null

replaced_extra(w) := 1 if w.job.activeDeadlineSeconds == null

# Sequential runs (Forbid, Replace) hold, at a moment x, the pods of the oldest run still
# holding (at most T) and of the runs started since, all inside the window of length l before x
# in which that oldest run can still hold. With activeDeadlineSeconds every run that holds at x
# started inside the window of its deadline, stop and tail before x (deadline_held).
cron_timeline_core(w) := {"held": held, "facts": facts} if {
	w.cronJob.concurrencyPolicy in {"Forbid", "Replace"}
	t := run_pods(w)
	p := w.cronJob.periodSeconds
	chain := chain_of(w.job)
	grace := sequential_grace(w)
	counted := cron_count_held(w, t, p)
	windowed := smaller(sequential_held(w, t, p, chain, grace), deadline_held(w, t, p, chain))
	held := min([counted, windowed.held])
	facts := held_facts(held, counted, windowed.facts)
} else := {"held": held, "facts": facts} if {
	# Allow with activeDeadlineSeconds D: every run holding at x started within D plus its tail.
	t := run_pods(w)
	p := w.cronJob.periodSeconds
	d := w.job.activeDeadlineSeconds
	chain := chain_of(w.job)
	counted := cron_count_held(w, t, p)
	windowed := overlapping_held(w, t, p, d, chain)
	held := min([counted, windowed])
	facts := held_facts(held, counted, ["activeDeadlineSeconds and the schedule bound the runs that overlap"])
}

held_facts(held, counted, windowed) := windowed if {
	held < counted
} else := ["the history limits bound the finished Jobs"]

# How long after its Job finished a sequential run's pods can still be stopping: a pre-1.31 Job
# controller marks a run failed at its deadline (or past its back-off limit) and deletes the
# running pods, which take their grace period, while Forbid starts the next run.
sequential_grace(w) := stop_seconds(w) if {
	stops_running_pods(w)
} else := 0

# Forbid whose deadline ends each run before the next time, or Replace, with a deadline: every
# run holding at x started at its time inside the window of its deadline D, the stop of its
# pods, and how long it can hold after (its TTL and W under onDelete, W under onCompletion).
deadline_held(w, t, p, chain) := {"held": runs * run_held(t, chain), "facts": ["activeDeadlineSeconds and the schedule bound the runs that can hold at once"]} if {
	d := w.job.activeDeadlineSeconds
	d != null
	deadline_separates(w, d, p)
	tail := run_tail(w, 0)
	runs := runs_in(w, (d + stop_seconds(w)) + tail, p)
} else := {"held": 2147483647, "facts": []}

deadline_separates(w, d, p) if {
	w.cronJob.concurrencyPolicy == "Forbid"
	d + stop_seconds(w) < p
	not late_starts(w)
}

deadline_separates(w, _, _) if w.cronJob.concurrencyPolicy == "Replace"

# The count under history limits alone, which bounds both release models (a pod that holds
# under onCompletion holds under onDelete too). At a moment x the ENIs are held by the S + F
# finished Jobs the history keeps, the Jobs deleted within W before x (their cool-down), and the
# runs in flight.
#
# Sequential runs (Forbid, Replace): the history deletes one Job per finish, and the runs that
# finish within W, after the first of them, started inside the window together with the run in
# flight; so the deleted ones are matched by kept ones whose pods, with the run in flight's,
# were created inside the window: (S + F + 1)·T + pack(runs_in(W), W). A TTL deletes on its own
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
cron_count_held(w, t, p) := min([windowed, spaced]) if {
	w.cronJob.concurrencyPolicy in {"Forbid", "Replace"}
	kept := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit

	# A Job deleted while its pods still stop holds until they have stopped, then W.
	l := release_window + sequential_grace(w)
	k := runs_in(w, l, p)
	windowed := ((kept + 1) * t) + pack(k, l, t, chain_of(w.job))
	spaced := spaced_count_held(w, t, p, kept)
} else := ((kept + finishing) + in_flight) * t if {
	kept := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	# Deletions within W, or within W and the stop of pods deleted while they ran.
	finishing := runs_in(w, ((release_window + w.job.activeDeadlineSeconds) + stop_seconds(w)) + stop_seconds(w), p)
	in_flight := runs_in(w, w.job.activeDeadlineSeconds + stop_seconds(w), p)
}

spaced_count_held(w, t, p, kept) := (kept + 1) * t if {
	d := w.job.activeDeadlineSeconds
	d != null
	((d + stop_seconds(w)) + release_window) < p
	not late_starts(w)
} else := 2147483647

# A view of a Forbid CronJob whose stops were shortened to 30 s for counting (long_grace_held):
# its real runs may start late (since 1.31 a stopped run's Job blocks the next until its pod has
# ended, and the next is then the most recent missed time's), so nothing may assume a run
# starts at its time.
late_starts(w) if object.get(w, "lateStarts", false) == true

# How long after it ends (onCompletion) or finishes (onDelete) a run can still hold an ENI:
# a replaced run's pods are deleted at once, the running one within its grace period; under
# onDelete a run that finishes by itself stays until its TTL (without one, only the history
# limits remove it, and the count stays).
run_tail(w, grace) := max([grace, w.job.ttlSecondsAfterFinished]) + release_window if {
	on_delete
	w.job.ttlSecondsAfterFinished != null
} else := grace + release_window if {
	not on_delete
}

sequential_held(w, t, p, chain, grace) := {"held": held, "facts": facts} if {
	l := run_tail(w, grace)
	k := runs_in(w, l, p)
	held := sequential_peak(t, k, l, chain)
	facts := array.concat(tail_facts(w), chain_facts(chain))
} else := {"held": 2147483647, "facts": []}

# Under onDelete the oldest run keeps all its pods until its deletion: T of them. Under
# onCompletion only its pods that ended within W before x still hold, and its pods follow one
# another, so at most one of them was created before the window: the rest are packed with the
# later runs.
sequential_peak(t, k, l, chain) := t + pack(k, l, t, chain) if {
	on_delete
} else := min([t + pack(k, l, t, chain), mid_chain_pack(k + 1, l, t, chain)])

# A pod of a run that ended just before the window, and that run's pods created inside it,
# packed with k − 1 runs started inside it. The run's next pod can come as soon as the ended
# one is seen (the back-off counts from the container's finish, which can be earlier), but its
# later pods cost the next delays, 20 s, 40 s …: the same as a fresh chain with one extra 10 s
# pod, which a budget 10 s larger buys and the count then drops. Under onCompletion a window
# either holds the start of its oldest run (pack(k, l) ≤ this) or cuts one run in the middle.
mid_chain_pack(k, l, t, chain) := pack(k, l + 10, t, chain) if {
	chain
} else := 1 + pack(k, l, t, chain)

tail_facts(w) := ["ttlSecondsAfterFinished and the schedule bound the finished Jobs that still hold"] if {
	on_delete
	w.job.ttlSecondsAfterFinished != null
} else := ["the schedule bounds the runs that end within one release window"]

# A run stopped by its deadline ends when its running pod does, within its grace period.
overlapping_held(w, t, p, d, chain) := runs_in(w, (d + stop_seconds(w)) + tail, p) * per_run if {
	tail := run_tail(w, 0)
	per_run := run_held(t, chain)
} else := 2147483647

# One run's pods holding at once: under onDelete all of them; under onCompletion a pod ended
# before the window plus what the run creates inside it.
run_held(t, _) := t if on_delete

run_held(t, chain) := min([t, mid_chain_pack(1, release_window, t, chain)]) if not on_delete

# The figures of §6 with the time-aware peak: held is the most pods of the workload holding
# ENIs at one moment (terminated or running). For the workloads the timeline covers, all of
# them can be terminated at that moment, so hidden is held too; countHeld is what the count
# of §5 alone gives, heldBy the facts that set held.
with_time(w, n) := object.union(object.union(n, {
	"held": tl.held,
	"retained": retained_value(tl.held),
	"churn": churn_value(tl.held),
	"countHeld": hidden_of(n) + n.active,
	"heldBy": tl.facts,
}), late_stopping_field(tl)) if {
	time_aware(w)
	tl := timeline(w)
} else := object.union(n, {"held": hidden_of(n) + n.active})

# lateStopping, when the timeline counted pods still stopping long after their run (see
# late_stopping): only then, so that other workloads' figures read as before.
late_stopping_field(tl) := {"lateStopping": tl.stopping} if {
	object.get(tl, "stopping", 0) > 0
} else := {}

# ---------------------------------------------------------------------------------------
# Runs that cannot overlap

# A CronJob's pods hold ENIs only while a run is in progress and for a tail after it ends: W
# under onCompletion; under onDelete its TTL and then W (without a TTL only the history limits
# delete a Job, and nothing bounds the tail). With activeDeadlineSeconds D and a schedule that
# repeats weekly in UTC, the pods of the run for schedule time s hold only within
# [s, s + busy], busy = D + the pods' stop (their grace period, at least 30 s) + tail. When the
# run part reaches the schedule's shortest gap a run can still be active at the next time, and
# Forbid starts that one late (up to the run part more), so busy doubles its run part. Two such
# CronJobs whose busy windows never meet never hold at the same moment: a row counts them at the
# largest sum of those busy at one instant, not their sum. This assumes the controller starts
# each run at its time (it requeues itself for it); a missed start after a controller outage is
# outside it, as in docs/model.md §7.
week_seconds := 604800

separable := {w.id: s |
	some i, s in separable_class
	some w in class_members[i]
}

# The same, per class: a class shares its view, and so its schedule and busy window.
separable_class := {i: s |
	some i, v in class_views
	separable_view(v)
	s := separable_windows(v)
}

# Whether a view's runs have busy windows: a schedule of known times in the week, a deadline,
# and figures the timeline bounds. The remedies ask it of a changed view (remedies.rego).
separable_view(v) if {
	count(object.get(object.get(v, "cronJob", {}), "weekTimes", [])) > 0
	v.job.activeDeadlineSeconds != null
	time_aware(v)
}

# A separable CronJob's busy windows: its schedule's times in the week, how long after each
# the run's pods can hold, and, when the windows never meet and a run is one chain of pods,
# its ramp: [offset, pods] steps, the most pods a run can have created that many seconds after
# its time (its first pod at the time, each next one no earlier than the back-off allows, as in
# pack). A pod not created yet holds nothing, so inside its window a CronJob holds at most that
# many; a row's peak then need not count every CronJob at its full figure at once.
separable_windows(v) := {"times": v.cronJob.weekTimes, "busy": busy, "ramp": ramp} if {
	busy := busy_seconds(v)
	ramp := ramp_steps(v, busy)
}

ramp_steps(v, busy) := [[prefix_at(k), k + 1] |
	single_chain(v.job)
	busy < shortest_week_gap(v.cronJob.weekTimes)
	t := run_pods(v)
	some k in upto(ramp_levels(min([t - 1, 6 + ceil(busy / backoff_cap)])))
	prefix_at(k) <= busy
]

ramp_levels(n) := max([0, n])

# The shortest gap between two consecutive times of the week, the last to the first of the next.
shortest_week_gap(times) := min([gap |
	ts := sort(times)
	some k, at in ts
	gap := next_start(ts, k) - at
])

busy_seconds(v) := (run + run_tail(v, 0)) if {
	run := v.job.activeDeadlineSeconds + stop_seconds(v)
	run < v.cronJob.periodSeconds
} else := (2 * (v.job.activeDeadlineSeconds + stop_seconds(v))) + run_tail(v, 0)

# The most the separable contributors of a row hold at one instant: the largest, over the
# starts of their busy windows, of what those busy then hold. Contributors with the same busy
# windows (a class shares its schedule and busy) count together, and each group's windows are
# listed as the instants of the grid they cover, so that a start is looked up in them, not
# compared with every window of every group: 25 hourly CronJobs took 100 s that way.
separated_peak(contributors) := separated_peak_of([[separable[c.id], c.held] | some c in contributors])

# The same from [windows, held] pairs, which the remedies also build for a changed workload.
separated_peak_of(pairs) := busy_peak([{"windows": s, "held": held, "count": n} |
	some [s, held] in {p | some p in pairs}
	n := count([p | some p in pairs; p == [s, held]])
])

# The peak over the instants where what a group holds can rise: the starts of its windows and,
# with a ramp, the steps of the ramp after each start. Between two such instants nothing rises,
# so the most is at one of them.
busy_peak(groups) := max(array.concat([0], [total |
	step := busy_grid(groups)
	period := busy_period(groups)
	covered := [busy_starts(g.windows, step, period) | some g in groups]
	some t in {x |
		some g in groups
		some at in g.windows.times
		at < period
		some o in ramp_offsets(g.windows)
		x := (at + o) % period
	}
	total := sum([held | some j, g in groups; held := group_holds(g, covered[j], t, step, period)])
]))

ramp_offsets(windows) := {0} | {o | some [o, _] in object.get(windows, "ramp", [])}

# What a group holds at instant t of the period: nothing outside its windows; inside the window
# that started tau seconds ago, its figure, or its ramp's pods at tau when that is smaller. The
# window is found at the grid instant at or before t: a window starts on the grid, so one that
# covers t covers that instant too, and windows (cut where the next starts) do not meet.
group_holds(g, starts, t, step, period) := object.get(g, "count", 1) * min([g.held, ramp_at(g.windows, tau)]) if {
	w := starts[t - (t % step)]
	tau := ((t - w[0]) + period) % period
	tau <= w[1]
}

ramp_at(windows, tau) := max([p | some [o, p] in windows.ramp; o <= tau]) if {
	count(object.get(windows, "ramp", [])) > 0
} else := 2147483647

# The grid the schedule times lie on: a minute for cron schedules; the tests' times may be
# finer. Every start and every instant listed is on it, so an instant t on the grid is in
# [at, at + busy] exactly when it is one of at, at + step, … up to at + busy; an instant off
# the grid (a ramp's step) is looked up at the grid instant before it (group_holds).
busy_grid(groups) := 60 if {
	every g in groups {
		every t in g.windows.times {
			t % 60 == 0
		}
	}
} else := 10 if {
	every g in groups {
		every t in g.windows.times {
			t % 10 == 0
		}
	}
} else := 1

# The shortest of an hour, a day and the week after which every group's schedule repeats:
# what is busy then repeats too, so one period of starts and instants decides (an hourly
# schedule is looked at once, not 168 times).
busy_period(groups) := min(array.concat([week_seconds], [p |
	some p in [3600, 86400]
	every g in groups {
		repeats_every(g.windows.times, p)
	}
]))

repeats_every(times, p) if {
	at := {t | some t in times}
	every t in times {
		(t + p) % week_seconds in at
	}
}

# The instants of one period (on the grid) a separable CronJob's busy windows cover, each with
# the start of its window and how far that window reaches: the windows of the starts in the
# first period, taken modulo the period, cover what all of them do, since the schedule repeats.
# A window is cut where the next one starts, which covers the rest: their union is the same,
# no two meet, and a group lists at most a period's grid.
busy_starts(s, step, period) := {x: [at, reach] |
	times := sort(s.times)
	reaches := {k: min([s.busy, next_start(times, k) - at - 1]) | some k, at in times; at < period}

	# Most windows of a schedule reach as far: their offsets are listed once.
	offsets := {r: upto(floor(r / step)) | some r in reaches}
	some k, at in times
	at < period
	reach := reaches[k]
	some j in offsets[reach]
	x := (at + (j * step)) % period
}

# The integers 0 … n (n below a million), digit by digit: the policies' sandbox refuses
# numbers.range, which builds a collection of any size.
upto(n) := {j |
	some a in digits
	a * 100000 <= n
	some b in digits
	x := (a * 100000) + (b * 10000)
	x <= n
	some c in digits
	y := x + (c * 1000)
	y <= n
	some d in digits
	z := y + (d * 100)
	z <= n
	some e in digits
	u := z + (e * 10)
	u <= n
	some f in digits
	j := u + f
	j <= n
}

digits := [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]

next_start(times, k) := times[k + 1] if {
	k + 1 < count(times)
} else := times[0] + week_seconds
