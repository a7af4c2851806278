# The branch-ENI model, §6 and §6a of docs/model.md: what each workload contributes on one
# node (running, hidden and held pods), and the classes: a workload's placement key and its
# numbers view, all that the rows need of it.
package eni.model

# ---------------------------------------------------------------------------------------
# §6 What each workload contributes on one node

# numbers[id]: the per-workload figures every rule and report uses.
_numbers := {id: numbers_of(v) | some id, v in _numbers_views}

numbers_of(v) := _with_time(v, _workload_numbers(v))

# One workload's numbers, for the rules that start from a workload: the same evaluation as its
# class's (OPA caches numbers_of by view).
numbers_of_workload(w) := numbers_of(numbers_view(w))

# Workloads that start runs of a Job template on their own: CronJobs and KEDA ScaledJobs.
_runs_jobs(w) if w.cronJob != null

_runs_jobs(w) if is_scaled_job(w)

is_scaled_job(w) if object.get(w, "scaledJob", null) != null

_workload_numbers(w) := n if {
	is_scaled_job(w)
	t := job_t(w.job)
	pe := _job_running(w.job)
	a := w.scaledJob.maxReplicaCount
	k := _scaled_job_kept(w)
	n := {
		"T": t,
		"running": pe,
		"A": a,
		"K": k,
		"retainedFinished": k * t,
		"retainedInFlight": a * (t - pe),
		"retained": _retained_value((k * t) + (a * (t - pe))),
		# onCompletion: a pod holds W after it ends, whoever deletes it. The Jobs that ended
		# in [x − W, x] or are alive at x were created at one of the n polls in that window or
		# alive at its start: at most A each, (n + 1)·A Jobs of T pods, A·Pe of them running.
		"churn": _churn_value(((_scaled_job_polls(w) * a) * t) + (a * (t - pe))),
		"active": a * pe,
		"bounded": count(_unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	w.cronJob != null
	t := job_t(w.job)
	pe := _job_running(w.job)
	a := _cron_active_runs(w)
	k := _cron_kept(w)
	n := {
		"T": t,
		"running": pe,
		"A": a,
		"K": k,
		"retainedFinished": k * t,
		"retainedInFlight": a * (t - pe),
		"retained": _retained_value((k * t) + (a * (t - pe))),
		"churn": _churn_value(_cron_churn(w, a, t, pe)),
		"active": a * pe,
		"bounded": count(_unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	w.job != null
	t := job_t(w.job)
	pe := _job_running(w.job)

	# A run that nothing repeats (a Job, a Spark driver, an Argo workflow's template) has all
	# its T pods when it finishes, with or without a TTL: a TTL (ttlStrategy, timeToLiveSeconds,
	# podGC deleting each pod as it completes) only decides how long they stay after, and a
	# deleted pod's ENI still goes through the cool-down.
	n := {
		"T": t,
		"running": pe,
		"retainedFinished": t,
		"retainedInFlight": 0,
		"retained": _retained_value(t),
		"churn": _churn_value(t),
		"active": 0,
		"bounded": count(_unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	_spark_executors(w)
	kept := _executors_kept(w)
	n := {
		"retained": _retained_value(kept),
		"churn": _churn_value(kept),
		"active": w.replicas,
		"bounded": count(_unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	_terminating_pod(w)
	n := {
		"T": 1,
		"running": 1,
		"retainedFinished": 1,
		"retainedInFlight": 0,
		"retained": _retained_value(1),
		"churn": _churn_value(1),
		"active": 0,
		"bounded": true,
	}
} else := {
	"retained": 0,
	"churn": 0,
	"active": _steady_pods(w),
	"bounded": true,
}

# The executors of a Spark application: running pods Spark deletes when they end
# (spark.kubernetes.executor.deleteOnTermination), executor.instances of them, or
# dynamicAllocation.maxExecutors.
_spark_executors(w) if object.get(w, "spark", {}).role == "executor"

spark_driver(w) if object.get(w, "spark", {}).role == "driver"

# Executors that end and stay (deleteOnTermination false): at least one set of them; failed
# executors Spark replaces add more, so the figure is a lower bound (ENI005).
_executors_kept(w) := w.replicas if {
	w.spark.keepsExecutors
} else := 0

# Where a TTL goes: the Job spec's ttlSecondsAfterFinished, or the field the kind has instead
# (a SparkApplication's spec.timeToLiveSeconds).
ttl_path(w) := w.ttlPath if {
	object.get(w, "ttlPath", "") != ""
} else := job_field(w, "ttlSecondsAfterFinished")

ttl_name(w) := "timeToLiveSeconds" if {
	spark_driver(w)
} else := "ttlStrategy" if {
	argo(w)
} else := "ttlSecondsAfterFinished"

# The pods of one template of an Argo Workflow or CronWorkflow.
argo(w) if object.get(w, "argo", null) != null

# A bare Pod with restartPolicy Never or OnFailure ends Succeeded or Failed, and nothing
# deletes it: like a Job without TTL, its one pod keeps its ENI (onDelete) or churns once
# (onCompletion). Counted in that state, which is worse than running: the scheduler counts a
# running pod.
_terminating_pod(w) if {
	w.kind == "Pod"
	object.get(w.pod, "restartPolicy", "Always") in {"Never", "OnFailure"}
}

_retained_value(v) := v if {
	on_delete
} else := 0

_churn_value(v) := 0 if {
	on_delete
} else := v

# Non-terminal pods of a long-running workload in steady state, rollout surge included.
_steady_pods(w) := w.replicas + object.get(w, "maxSurge", 0) if {
	w.kind == "Deployment"
} else := w.replicas if {
	w.kind in {"ReplicaSet", "StatefulSet", "ReplicationController"}
} else := 1

# hidden(w): terminated pods holding ENIs that the scheduler does not count.
hidden_of(n) := n.retained if {
	on_delete
} else := n.churn

# ---------------------------------------------------------------------------------------
# §6a Classes: what the rows need of a workload is its placement key and its numbers view, and
# workloads that share both (every CronJob of a chart, the replicas of a team's template) add
# the same figures on the same rows. Each ENI workload is classified in one pass; numbers,
# contributions, key totals and the rules' decisions are worked out once per class and
# multiplied by its members; only findings and the workloads table fan out to the workloads.
# The cost follows the workloads once and the classes for the rest (docs/architecture.md).

# [workload, class] of every ENI workload, in one pass. The engine groups the workloads into
# classes before the evaluation (pkg/rules/classes.go): input.classes lists each class's
# [placement key, numbers fields, restart policy] in the order a set of them sorts, and
# input.classOf names each workload's class by its position there. An input without them (the
# policies' tests) is grouped here: a workload's class is then its key itself, numbers_view in
# parts, written inline (a function call per workload costs as much as the rest of the pass).
_classified := _partition_list("classified") if _partitioned
else := [[w, c] | some w in eni_workloads; c := input.classOf[w.id]] if _engine_classes
else := [[w, [[w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations], object.filter(w, numbers_fields), object.get(w.pod, "restartPolicy", "Always")]] |
	some w in eni_workloads
]

_engine_classes if input.classOf

# The classes of the ENI workloads, as classified names them, in a fixed order (a set of the
# engine's positions sorts as a set of the keys does); a class is named by its position here.
_class_refs := {c | some c in _partition_list("classes")} if _partitioned
else := {c | some [_, c] in _classified}

_class_ref_list := [c | some c in _class_refs]

# The distinct classes, [placement key, numbers fields, restart policy].
class_list := [_class_key(c) | some c in _class_ref_list]

_class_key(c) := input.classes[c] if _engine_classes
else := c

# The numbers view of each class (numbers_view).
class_views := {i: object.union(f, {"pod": {"restartPolicy": r}}) | some i, [_, f, r] in class_list}

# The workloads of each class, in the order they were read (OPA indexes the comprehension on
# the class).
class_members := {i: _class_members_of(c) | some i, c in _class_ref_list}

_class_members_of(c) := [w | some p in input.partitions; some w in object.get(p.members, [c], [])] if _partitioned
else := _members_by_class[c]

# The workloads of each class computed here, by class.
_members_by_class := {c: ws |
	some c in _class_refs
	ws := [w | some [w, cc] in _classified; cc == c]
}

# The workloads that request vpc.amazonaws.com/pod-eni by hand (ENI008).
hand_requests := _partition_list("handRequests") if _partitioned
else := [w | some w in input.workloads; count(w.pod.podEniRequests) > 0]
