# The branch-ENI model, §5 of docs/model.md: the terminated pods one Job run leaves (T) and
# the finished Jobs a CronJob or an operator keeps (A, K).
package eni.model

# ---------------------------------------------------------------------------------------
# §5 Terminated pods per Job run (T) and per CronJob (A, K)

# The fields that decide T, for locating findings about it.
t_paths(w) := [job_field(w, "completions"), job_field(w, "backoffLimit"), w.jobSpecPath] if {
	w.job.completions != null
} else := [job_field(w, "parallelism"), job_field(w, "backoffLimit"), w.jobSpecPath]

# T: the most terminated pods one run can have at once. Under restartPolicy Never every failure
# is a new pod (completions + backoffLimit). Under OnFailure a failing container restarts in its
# pod, which stays: a run makes a new pod only when one is disrupted (evicted, its node lost),
# which the controllers do not do on their own. The verdict counts what they do (docs/model.md
# §5): settings.disruptions pods disrupted per run (--disruptions, default 0), each replaced,
# at most backoffLimit of them.
job_t(job) := 0 if {
	job.suspend
} else := 0 if {
	job.completions == 0
} else := 0 if {
	job.parallelism == 0
} else := min([job.completions * (job.backoffLimitPerIndex + 1), job.completions + job.backoffLimit]) if {
	job.completionMode == "Indexed"
	job.backoffLimitPerIndex != null
	job.completions != null
} else := job.completions + _replacements(job) if {
	job.completions != null
} else := job.parallelism + _replacements(job)

# The pods a run creates to replace failed ones: every failure under Never; under OnFailure the
# disrupted pods only.
_replacements(job) := min([_disruptions, job.backoffLimit]) if {
	job.restartPolicy == "OnFailure"
} else := job.backoffLimit

_disruptions := object.get(_settings, "disruptions", 0)

# Pe: pods of one run that run at once (the Job controller never runs more than the
# completions still missing).
_job_running(job) := 0 if {
	job_t(job) == 0
} else := min([job.parallelism, job.completions]) if {
	job.completions != null
} else := job.parallelism

# Reasons a workload's retention has no bound from its manifest (§5), each with its field.
_unbounded_reasons(w) := reasons if {
	reasons := _unbounded_of[w.id]
} else := _unbounded_reasons_of(numbers_view(w))

# Computed once per ENI workload: numbers, ENI005 and the workloads table all ask.
_unbounded_of := {id: _unbounded_reasons_of(v) | some id, v in _numbers_views}

# Each ENI workload's view, built once: numbers and _unbounded_of both call with it.
_numbers_views := {w.id: numbers_view(w) | some w in eni_workloads}

# What a workload's numbers and unbounded reasons are made of: its kind, its controllers'
# fields and the paths findings name, without its identity, labels or placement. The §5 and
# §6 functions are called with this view, so workloads that share it (the CronJobs of one
# chart, every Deployment with the same replicas) share one evaluation through OPA's function
# cache: the cost follows the distinct shapes, not the workloads.
numbers_view(w) := object.union(object.filter(w, numbers_fields), {"pod": {"restartPolicy": object.get(w.pod, "restartPolicy", "Always")}})

numbers_fields := {
	"kind", "job", "cronJob", "scaledJob", "spark", "replicas", "maxSurge", "unbounded",
	"ttlPath", "jobSpecPath", "podPath", "argo",
}

_unbounded_reasons_of(w) := [r | some r in ((_unbounded_candidates(w) | _controller_unbounded(w)) | _loader_unbounded(w))]

# Reasons the loader found in the manifest (Argo: withParam, templateRef, retries without a
# limit, recursion).
_loader_unbounded(w) := {r |
	some u in object.get(w, "unbounded", [])
	r := {"reason": u.reason, "paths": [u.path]}
}

# What controllers leave unbounded: a KEDA ScaledJob with the custom scaling strategy deducts
# only a share of the running Jobs; Spark executors kept or without maxExecutors.
_controller_unbounded(w) := (({r |
	_spark_executors(w)
	w.spark.keepsExecutors
	r := {
		"reason": "spark.kubernetes.executor.deleteOnTermination is false: executors that end stay, and each failed one Spark replaces adds one more",
		"paths": [w.ttlPath, "spec"],
	}
} | {r |
	_spark_executors(w)
	w.spark.unboundedExecutors
	r := {
		"reason": "dynamicAllocation is enabled without maxExecutors, which Spark defaults to infinity: the executors have no bound",
		"paths": [sprintf("%s.dynamicAllocation", [split(w.podPath, ".executor")[0]]), "spec"],
	}
}) | {r |
	is_scaled_job(w)
	w.scaledJob.scalingStrategy == "custom"
	object.get(w.scaledJob, "runningJobPercentage", null) == null
	r := {
		"reason": "scalingStrategy custom without customScalingRunningJobPercentage: KEDA starts up to maxReplicaCount Jobs per polling interval whatever already runs, so running Jobs have no bound",
		"paths": ["spec.scalingStrategy"],
	}
}) | {r |
	is_scaled_job(w)
	w.scaledJob.scalingStrategy == "custom"
	w.scaledJob.runningJobPercentage < 1
	r := {
		"reason": sprintf("scalingStrategy custom with customScalingRunningJobPercentage %v: KEDA deducts only that share of the running Jobs, so running Jobs can pass maxReplicaCount without bound", [w.scaledJob.runningJobPercentage]),
		"paths": ["spec.scalingStrategy.customScalingRunningJobPercentage", "spec.scalingStrategy"],
	}
}

_unbounded_candidates(w) := (({r |
	w.job.podFailurePolicyIgnore
	r := {
		"reason": "spec.podFailurePolicy has an Ignore rule: ignored failures do not count against backoffLimit, and their pods are kept",
		"paths": [job_field(w, "podFailurePolicy")],
	}
} | {r |
	w.job.manualSelector
	r := {
		"reason": "spec.manualSelector is true: the Job adopts every pod its selector matches",
		"paths": [job_field(w, "manualSelector")],
	}
}) | {r |
	w.job.managedBy != "kubernetes.io/job-controller"
	r := {
		"reason": sprintf("spec.managedBy is %q: another controller decides how many pods it creates", [w.job.managedBy]),
		"paths": [job_field(w, "managedBy")],
	}
}) | {r |
	w.cronJob.concurrencyPolicy == "Allow"
	w.job.activeDeadlineSeconds == null
	r := {
		"reason": "concurrencyPolicy Allow without activeDeadlineSeconds: runs can pile up without limit",
		"paths": ["spec.concurrencyPolicy", "spec"],
	}
}

# A: Jobs of a CronJob running at once. Unbounded cases use 1, a lower bound, and say so.
_cron_active_runs(w) := 1 if {
	w.cronJob.concurrencyPolicy in {"Forbid", "Replace"}
} else := ceil(w.job.activeDeadlineSeconds / w.cronJob.periodSeconds) + 1 if {
	w.job.activeDeadlineSeconds != null
	w.cronJob.periodSeconds > 0
} else := 1

# K: finished Jobs a CronJob keeps.
# A ScheduledSparkApplication's operator deletes the runs past its history limits only when it
# starts the next run (kubeflow/spark-operator internal/controller/scheduledsparkapplication,
# checkAndUpdatePastRuns after startNextRun): under onDelete the finished runs it deletes then
# hold their ENIs for the cool-down W (to deletion + W included) while new runs start. A start
# deletes at most the A runs alive after the start before, and n = floor(W / p) + 1 starts fall
# in [x − W, x]: beside the S + F kept and the A alive, K = S + F + n·A. A timeToLiveSeconds t
# deletes a run t after it ends, and its driver holds W more: the runs that ended in
# [x − t − W, x], one per start there, and the A alive at its start: K at most
# A + floor((t + W) / p) + 1. The simulator plays the operator (pkg/simulate).
_cron_kept(w) := min([(s_plus_f + (_spark_starts(w) * _cron_active_runs(w))), (_cron_active_runs(w) + floor((w.job.ttlSecondsAfterFinished + release_window) / w.cronJob.periodSeconds)) + 1]) if {
	spark_driver(w)
	on_delete
	s_plus_f := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	w.job.ttlSecondsAfterFinished != null
	w.cronJob.periodSeconds > 0
} else := (w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit) + (_spark_starts(w) * _cron_active_runs(w)) if {
	spark_driver(w)
	on_delete
} else := min([s_plus_f, _cron_active_runs(w) + ceil(w.job.ttlSecondsAfterFinished / w.cronJob.periodSeconds)]) if {
	s_plus_f := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	w.job.ttlSecondsAfterFinished != null
	w.cronJob.periodSeconds > 0
} else := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit

# The pods that end within W beside the A·Pe running, under onCompletion, of a workload with
# runs on a schedule that the timeline does not count (§5a counts CronJobs): a
# ScheduledSparkApplication's driver holds W after it ends, and the runs that ended in
# [x − W, x] or are alive were started at one of the n starts in that window or alive at its
# start: (n + A)·T pods.
_cron_churn(w, a, t, pe) := ((_spark_starts(w) + a) * t) - (a * pe) if {
	spark_driver(w)
} else := a * t

# K of a KEDA ScaledJob under onDelete: the finished Jobs that hold beside the A alive. KEDA
# polls every pollingInterval p: it creates Jobs up to maxReplicaCount A alive, then deletes
# the finished ones past the history limits, the first completed first (RequestJobScale, then
# cleanUp; kedacore/keda pkg/scaling/executor/scale_jobs.go at 7f17c10). The Jobs alive after a
# poll are at most A, so a poll deletes at most A, and a deleted Job's pods hold W more (to
# x = deletion + W included): at a moment x the S + F kept, the A alive after the last poll
# (finished since, or running), and the Jobs deleted at the n polls in [x − W − stop, x], A
# each (a deleted pod still stopping holds W after its end): K = S + F + n·A, n =
# floor((W + stop) / p) + 1. With a TTL t a finished Job is deleted t after it ends and holds
# W more: the Jobs that finished in [x − t − W − stop, x] or are alive were created at one of
# the polls in that window, A each, or alive at its start, A more: K is at most
# A·(floor((t + W + stop) / p) + 1). The simulator plays ScaledJobs (pkg/simulate).
_scaled_job_kept(w) := min([limits, a * (floor(((w.job.ttlSecondsAfterFinished + release_window) + _late_stop(w)) / w.scaledJob.pollingInterval) + 1)]) if {
	a := w.scaledJob.maxReplicaCount
	limits := (w.scaledJob.successfulJobsHistoryLimit + w.scaledJob.failedJobsHistoryLimit) + (_scaled_job_polls(w) * a)
	w.job.ttlSecondsAfterFinished != null
} else := (w.scaledJob.successfulJobsHistoryLimit + w.scaledJob.failedJobsHistoryLimit) + (_scaled_job_polls(w) * w.scaledJob.maxReplicaCount)

# The starts of a ScheduledSparkApplication inside one release window, its ends included, the
# window widened by how long a deleted run's pods may take to stop (_late_stop: Replace deletes
# the run before, whose driver then stops within its grace period).
_spark_starts(w) := floor((release_window + _late_stop(w)) / max([1, w.cronJob.periodSeconds])) + 1

# How long after its run's Job is gone a pod may still be stopping: its stop (_stop_seconds)
# when Replace deletes a run that still runs, else 0. A Job that deletes its own running pods
# (a deadline, the back-off limit passed with pods running, an OnFailure pod past
# backoffLimit) is finished only once they have stopped, since Kubernetes 1.31 (every EKS
# version today: docs/model.md §5a), so neither Forbid's next run nor the history, a TTL, or
# KEDA's and the Spark operator's clean-ups find one of its pods stopping.
_late_stop(w) := _stop_seconds(w) if {
	object.get(object.get(w, "cronJob", {}), "concurrencyPolicy", "") == "Replace"
} else := 0

# The polls of a ScaledJob inside one release window, its ends included (KEDA deletes finished
# Jobs only, whose pods have stopped: _late_stop).
_scaled_job_polls(w) := floor((release_window + _late_stop(w)) / max([1, w.scaledJob.pollingInterval])) + 1

# Whether the CronJob numbers needed the schedule's period and did not have it.
period_needed_but_unknown(w) if {
	w.cronJob != null
	w.cronJob.periodSeconds == 0
	_needs_period(w)
}

_needs_period(w) if {
	w.cronJob.concurrencyPolicy == "Allow"
	w.job.activeDeadlineSeconds != null
}

_needs_period(w) if w.job.ttlSecondsAfterFinished != null
