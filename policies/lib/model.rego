# METADATA
# title: The branch-ENI model
# description: |
#   Everything the rules share: which workloads get a branch ENI (SecurityGroupPolicy
#   selection), where they may land (node groups), how many terminated pods each keeps (T, K,
#   A), and the per-instance-type arithmetic (hidden, active, demand). docs/model.md is the
#   contract this file implements; the section numbers below refer to it.
package eni.model

import data.eni.selectors

settings := input.settings

on_delete if settings.eniRelease == "onDelete"

# ---------------------------------------------------------------------------------------
# Locations

# Findings name the fields they are about as a list of paths, most precise first; eni-lint
# reports the position of the first one the manifest has, else the document's.

under(base, field) := field if {
	base == ""
} else := concat(".", [base, field])

job_field(w, field) := under(w.jobSpecPath, field)

pod_field(w, field) := under(w.podPath, field)

object_ref(o) := {"id": o.id, "kind": o.kind, "namespace": object.get(o, "namespace", ""), "name": o.name}

# ---------------------------------------------------------------------------------------
# §3 Which pods get a branch ENI

# Why the controller ignores a policy; undefined when it applies it.
sgp_ignored_reason(sgp) := "it has neither spec.podSelector nor spec.serviceAccountSelector" if {
	sgp.podSelector == null
	sgp.serviceAccountSelector == null
} else := "it lists no spec.securityGroups.groupIds" if {
	count(sgp.groupIds) == 0
}

applied_sgps := [s | some s in input.securityGroupPolicies; not sgp_ignored_reason(s)]

# Policies whose selectors the API accepts; the controller treats an invalid selector as
# matching nothing (ENI006 reports it). Checked once per policy, not once per workload.
matchable_sgps := [s | some s in applied_sgps; not sgp_selector_error(s)]

# The first invalid selector of a policy: [field, expression index, reason].
sgp_selector_error(sgp) := ["podSelector", i, msg] if {
	sgp.podSelector != null
	[i, msg] := selectors.selector_error(sgp.podSelector)
} else := ["serviceAccountSelector", i, msg] if {
	sgp.serviceAccountSelector != null
	[i, msg] := selectors.selector_error(sgp.serviceAccountSelector)
}

# Selection of every workload: the policies that select it and those that cannot be decided.
# A selection depends only on the namespace, the pod labels that the namespace's policies
# test, and the ServiceAccount when a policy there selects by it: selection_of is called with
# exactly those, so workloads that agree on them (every replica of a chart, every workload of
# a namespace without policies on their labels) share one evaluation through OPA's function
# cache. The cost follows the distinct selections, not the workloads.
selection := object.union_n([p.selection | some p in input.partitions]) if partitioned
else := {id: result | some [id, result] in selection_entries}

selection_entries contains [w.id, result] if {
	some w in input.workloads
	ns := w.namespace
	keys := selector_keys[ns]
	labels := object.filter(w.pod.labels, keys)
	result := selection_of(ns, labels, selection_account(ns, w.pod.serviceAccountName))
}

# The label keys the policies of each namespace test (matchLabels and matchExpressions of
# their podSelectors): no other label can change which of them select a pod.
selector_keys := {ns: keys |
	some ns in {s.namespace | some s in matchable_sgps}
	keys := {k |
		some s in matchable_sgps
		s.namespace == ns
		s.podSelector != null
		some k in selector_label_keys(s.podSelector)
	}
}

selector_label_keys(sel) := {k | some k, _ in object.get(sel, "matchLabels", {})} | {r.key | some r in object.get(sel, "matchExpressions", [])}

# The ServiceAccount name matters only where a policy selects by ServiceAccount.
selection_account(ns, name) := name if {
	ns in namespaces_with_sa_selectors
} else := ""

selection_of(ns, labels, sa_name) := result if {
	# The policies that can select these labels: those anchored on one of the pod's labels
	# (a matchLabels entry, looked up directly) and those that need a full evaluation, in
	# the order they were read. The pod's own labels need nothing else; the ServiceAccount is
	# looked up only for the policies that pass.
	anchored := [[i, s] | some lk, lv in labels; some [i, s] in sgp_index[[ns, lk, lv]]]
	on_key := [[i, s] | some lk, _ in labels; some [i, s] in sgp_key_index[[ns, lk]]]
	others := [[i, s] | some [sns, i, s] in unanchored_sgps; sns == ns]
	candidates := [s | some [_, s] in sort(array.concat(array.concat(anchored, on_key), others))]
	count(candidates) > 0
	pod_ok := [s | some s in candidates; admitted_by_pod_selector(s, labels)]
	count(pod_ok) > 0
	sa := service_account_selection(ns, sa_name, pod_ok)
	result := object.union(sa, {"names": sort([s.name | some s in sa.matched])})
}

# Which of the policies whose podSelector admits a pod also admit its ServiceAccount. Most
# namespaces have no policy with a serviceAccountSelector: there, nothing is looked up.
service_account_selection(ns, sa_name, pod_ok) := {"matched": pod_ok, "unknownSA": []} if {
	not ns in namespaces_with_sa_selectors
} else := result if {
	sa := service_account(object.get(object.get(service_account_labels, ns, {}), sa_name, []), sa_name)
	states := [[s, st] | some s in pod_ok; st := service_account_state(s, sa)]
	result := {
		"matched": [s | some [s, st] in states; st == "match"],
		"unknownSA": [s | some [s, st] in states; st == "unknown-sa"],
	}
}

namespaces_with_sa_selectors := {s.namespace | some s in matchable_sgps; s.serviceAccountSelector != null}

# The labels of the ServiceAccounts of each namespace, by name (a list: a repository may
# declare one twice).
service_account_labels := {ns: by_name |
	some ns in {sa.namespace | some sa in input.serviceAccounts}
	in_namespace := [sa | some sa in input.serviceAccounts; sa.namespace == ns]
	by_name := {name: [sa.labels | some sa in in_namespace; sa.name == name] | some name in {sa.name | some sa in in_namespace}}
}

# A policy whose podSelector has matchLabels selects only pods that carry its first entry
# (matchLabels are ANDed): it is indexed by namespace and that label, so a workload looks up
# the policies of its own labels instead of testing every policy of its namespace. Without
# matchLabels, a matchExpressions `In` selects only pods with one of its values for its key:
# the policy is indexed under each of them; an `Exists` only pods with its key: the policy is
# indexed by the key (sgp_key_index). Only policies with neither (NotIn and DoesNotExist
# alone, or no podSelector) are tested one by one. Each entry keeps the policy's position, so
# that the matched policies stay in the order they were read.
sgp_anchors(s) := {[k, s.podSelector.matchLabels[k]]} if {
	s.podSelector != null
	keys := [k | some k, _ in object.get(s.podSelector, "matchLabels", {})]
	count(keys) > 0
	k := keys[0]
} else := {[r.key, v] | some v in r.values} if {
	s.podSelector != null
	ins := [r | some r in object.get(s.podSelector, "matchExpressions", []); r.operator == "In"]
	count(ins) > 0
	r := ins[0]
}

sgp_key_anchor(s) := r.key if {
	s.podSelector != null
	not sgp_anchors(s)
	exists := [r | some r in object.get(s.podSelector, "matchExpressions", []); r.operator == "Exists"]
	count(exists) > 0
	r := exists[0]
}

anchored_sgps := [[[s.namespace, a[0], a[1]], i, s] |
	some i, s in matchable_sgps
	some a in sgp_anchors(s)
]

key_anchored_sgps := [[[s.namespace, k], i, s] |
	some i, s in matchable_sgps
	k := sgp_key_anchor(s)
]

unanchored_sgps := [[s.namespace, i, s] |
	some i, s in matchable_sgps
	not sgp_anchors(s)
	not sgp_key_anchor(s)
]

# A policy that selects on one label and nothing else admits every pod its index entry found:
# the lookup was the whole test.
only_anchor := {s.id |
	some s in matchable_sgps
	s.podSelector != null
	count(object.get(s.podSelector, "matchLabels", {})) == 1
	count(object.get(s.podSelector, "matchExpressions", [])) == 0
}

admitted_by_pod_selector(s, _) if s.id in only_anchor

admitted_by_pod_selector(s, labels) if {
	not s.id in only_anchor
	pod_selector_admits(s, labels)
}

sgp_index := {key: entries |
	some [key, _, _] in anchored_sgps
	entries := [[i, s] | some [k, i, s] in anchored_sgps; k == key]
}

sgp_key_index := {key: entries |
	some [key, _, _] in key_anchored_sgps
	entries := [[i, s] | some [k, i, s] in key_anchored_sgps; k == key]
}

# The ServiceAccount a workload's pods run as: its labels, or unknown. The `default`
# ServiceAccount is created by Kubernetes in every namespace without labels, so a missing
# manifest for it is not an unknown.
service_account(found, name) := {"known": true, "labels": found[0]} if {
	count(found) > 0
} else := {"known": true, "labels": {}} if {
	name == "default"
} else := {"known": false, "labels": {}}

# A policy without podSelector leaves the decision to its serviceAccountSelector (AND).
pod_selector_admits(sgp, _) if sgp.podSelector == null

pod_selector_admits(sgp, labels) if selectors.selector_matches(sgp.podSelector, labels)

# How a policy whose podSelector admits the pod relates to its ServiceAccount: match,
# nomatch or unknown-sa.
service_account_state(sgp, sa) := "match" if {
	sgp.serviceAccountSelector == null
} else := "match" if {
	selectors.selector_is_empty(sgp.serviceAccountSelector)
} else := "unknown-sa" if {
	not sa.known
} else := "match" if {
	selectors.selector_matches(sgp.serviceAccountSelector, sa.labels)
} else := "nomatch"

# Pods an SGP selects that still get no branch ENI (§3), and the field that says so.
no_branch_eni_reason(w) := [sprintf("Fargate profile %q runs its pods, and Fargate gives them their security groups without a node branch ENI", [w.fargate.profile]), pod_field(w, "metadata")] if {
	w.fargate
} else := ["hostNetwork pods never get a branch ENI", pod_field(w, "spec.hostNetwork")] if {
	w.pod.hostNetwork
} else := ["pods for Windows nodes get no branch ENI", pod_field(w, sprintf("spec.nodeSelector.%s", [key]))] if {
	some key in ["kubernetes.io/os", "beta.kubernetes.io/os"]
	w.pod.nodeSelector[key] == "windows"
} else := ["Fargate pods get their security groups without a node branch ENI", pod_field(w, "metadata.labels.eks.amazonaws.com/fargate-profile")] if {
	w.pod.labels["eks.amazonaws.com/fargate-profile"]
}

# Workloads whose pods hold branch ENIs: selected by a policy (the webhook injects the
# request) or requesting vpc.amazonaws.com/pod-eni themselves, and not exempt (exempt_ids).
# The tests are written inline: a function call per workload costs more than the rest of this
# pass (docs/architecture.md).
eni_workloads := partition_list("eniWorkloads") if partitioned
else := eni_workloads_here

eni_workloads_here := [w |
	some w in input.workloads

	# In branch_eni_requesters, tested without building it: selected by a policy, or
	# requesting the ENI by hand.
	count(object.get(selection, [w.id, "matched"], [])) + count(w.pod.podEniRequests) > 0
	not w.id in exempt_ids_here
]

# The per-workload tables (eni_workload_ids, branch_eni_requesters, numbers, unbounded_of,
# placements, contributions, workload_by_id) stay for tests and custom rules, which may use the
# model (docs/guide.md); the built-in rules work per class and a run builds none of them.
eni_workload_ids := {w.id | some w in eni_workloads}

# The workloads whose pods get no branch ENI whatever selects them (the tests of
# no_branch_eni_reason, in its order), by id: a pass per field test, each a few microseconds
# a workload, where a function call per workload would cost more. eni_workloads leaves them
# out; ENI008 reports the selected ones.
exempt_ids := {id | some id in partition_list("exemptIds")} if partitioned
else := exempt_ids_here

exempt_ids_here := ((({w.id | some w in input.workloads; w.fargate} | {w.id | some w in input.workloads; w.pod.hostNetwork}) | {w.id | some w in input.workloads; w.pod.nodeSelector["kubernetes.io/os"] == "windows"}) | {w.id | some w in input.workloads; w.pod.nodeSelector["beta.kubernetes.io/os"] == "windows"}) | {w.id | some w in input.workloads; w.pod.labels["eks.amazonaws.com/fargate-profile"]}

# The workloads that ask for a branch ENI: a policy selects them, or they request it by hand.
branch_eni_requesters := selected_ids | {w.id | some w in input.workloads; count(w.pod.podEniRequests) > 0}

selected_ids := {id | some id, sel in selection; count(sel.matched) > 0}

# The distinct selections: many workloads share one (selection_of), and what is asked of all
# selections together (which policies select anything) is asked once per distinct one.
distinct_selections := {sel | some sel in partition_list("distinctSelections")} if partitioned
else := {sel | some sel in selection}

is_job_like(w) if w.job != null

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
} else := job.completions + replacements(job) if {
	job.completions != null
} else := job.parallelism + replacements(job)

# The pods a run creates to replace failed ones: every failure under Never; under OnFailure the
# disrupted pods only.
replacements(job) := min([disruptions, job.backoffLimit]) if {
	job.restartPolicy == "OnFailure"
} else := job.backoffLimit

disruptions := object.get(settings, "disruptions", 0)

# Pe: pods of one run that run at once (the Job controller never runs more than the
# completions still missing).
job_running(job) := 0 if {
	job_t(job) == 0
} else := min([job.parallelism, job.completions]) if {
	job.completions != null
} else := job.parallelism

# Reasons a workload's retention has no bound from its manifest (§5), each with its field.
unbounded_reasons(w) := reasons if {
	reasons := unbounded_of[w.id]
} else := unbounded_reasons_of(numbers_view(w))

# Computed once per ENI workload: numbers, ENI005 and the workloads table all ask.
unbounded_of := {id: unbounded_reasons_of(v) | some id, v in numbers_views}

# Each ENI workload's view, built once: numbers and unbounded_of both call with it.
numbers_views := {w.id: numbers_view(w) | some w in eni_workloads}

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

unbounded_reasons_of(w) := [r | some r in ((unbounded_candidates(w) | controller_unbounded(w)) | loader_unbounded(w))]

# Reasons the loader found in the manifest (Argo: withParam, templateRef, retries without a
# limit, recursion).
loader_unbounded(w) := {r |
	some u in object.get(w, "unbounded", [])
	r := {"reason": u.reason, "paths": [u.path]}
}

# What controllers leave unbounded: a KEDA ScaledJob with the custom scaling strategy deducts
# only a share of the running Jobs; Spark executors kept or without maxExecutors.
controller_unbounded(w) := (({r |
	spark_executors(w)
	w.spark.keepsExecutors
	r := {
		"reason": "spark.kubernetes.executor.deleteOnTermination is false: executors that end stay, and each failed one Spark replaces adds one more",
		"paths": [w.ttlPath, "spec"],
	}
} | {r |
	spark_executors(w)
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

unbounded_candidates(w) := (({r |
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
cron_active_runs(w) := 1 if {
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
cron_kept(w) := min([(s_plus_f + (spark_starts(w) * cron_active_runs(w))), (cron_active_runs(w) + floor((w.job.ttlSecondsAfterFinished + release_window) / w.cronJob.periodSeconds)) + 1]) if {
	spark_driver(w)
	on_delete
	s_plus_f := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	w.job.ttlSecondsAfterFinished != null
	w.cronJob.periodSeconds > 0
} else := (w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit) + (spark_starts(w) * cron_active_runs(w)) if {
	spark_driver(w)
	on_delete
} else := min([s_plus_f, cron_active_runs(w) + ceil(w.job.ttlSecondsAfterFinished / w.cronJob.periodSeconds)]) if {
	s_plus_f := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	w.job.ttlSecondsAfterFinished != null
	w.cronJob.periodSeconds > 0
} else := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit

# The pods that end within W beside the A·Pe running, under onCompletion, of a workload with
# runs on a schedule that the timeline does not count (§5a counts CronJobs): a
# ScheduledSparkApplication's driver holds W after it ends, and the runs that ended in
# [x − W, x] or are alive were started at one of the n starts in that window or alive at its
# start: (n + A)·T pods.
cron_churn(w, a, t, pe) := ((spark_starts(w) + a) * t) - (a * pe) if {
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
scaled_job_kept(w) := min([limits, a * (floor(((w.job.ttlSecondsAfterFinished + release_window) + late_stop(w)) / w.scaledJob.pollingInterval) + 1)]) if {
	a := w.scaledJob.maxReplicaCount
	limits := (w.scaledJob.successfulJobsHistoryLimit + w.scaledJob.failedJobsHistoryLimit) + (scaled_job_polls(w) * a)
	w.job.ttlSecondsAfterFinished != null
} else := (w.scaledJob.successfulJobsHistoryLimit + w.scaledJob.failedJobsHistoryLimit) + (scaled_job_polls(w) * w.scaledJob.maxReplicaCount)

# The starts of a ScheduledSparkApplication inside one release window, its ends included, the
# window widened by how long a deleted run's pods may take to stop (late_stop: Replace deletes
# the run before, whose driver then stops within its grace period).
spark_starts(w) := floor((release_window + late_stop(w)) / max([1, w.cronJob.periodSeconds])) + 1

# How long after its Job is done a pod may still be stopping: its stop (stop_seconds) when
# something deletes pods while they run (Replace; a deadline; a Job failed by its back-off
# limit with other pods running, or under OnFailure with its container restarting), else 0.
late_stop(w) := stop_seconds(w) if {
	deletes_running_pods(w)
} else := 0

deletes_running_pods(w) if object.get(object.get(w, "cronJob", {}), "concurrencyPolicy", "") == "Replace"

deletes_running_pods(w) if w.job.activeDeadlineSeconds != null

deletes_running_pods(w) if job_running(w.job) > 1

deletes_running_pods(w) if w.job.restartPolicy == "OnFailure"

# The polls of a ScaledJob inside one release window, its ends included, the window widened by
# how long a pod deleted while it runs may take to stop (late_stop: before Kubernetes 1.31 a Job
# that deletes its running pods is finished at once).
scaled_job_polls(w) := floor((release_window + late_stop(w)) / max([1, w.scaledJob.pollingInterval])) + 1

# Whether the CronJob numbers needed the schedule's period and did not have it.
period_needed_but_unknown(w) if {
	w.cronJob != null
	w.cronJob.periodSeconds == 0
	needs_period(w)
}

needs_period(w) if {
	w.cronJob.concurrencyPolicy == "Allow"
	w.job.activeDeadlineSeconds != null
}

needs_period(w) if w.job.ttlSecondsAfterFinished != null

# ---------------------------------------------------------------------------------------
# §6 What each workload contributes on one node

# numbers[id]: the per-workload figures every rule and report uses.
numbers := {id: numbers_of(v) | some id, v in numbers_views}

numbers_of(v) := with_time(v, workload_numbers(v))

# One workload's numbers, for the rules that start from a workload: the same evaluation as its
# class's (OPA caches numbers_of by view).
numbers_of_workload(w) := numbers_of(numbers_view(w))

# Workloads that start runs of a Job template on their own: CronJobs and KEDA ScaledJobs.
runs_jobs(w) if w.cronJob != null

runs_jobs(w) if is_scaled_job(w)

is_scaled_job(w) if object.get(w, "scaledJob", null) != null

workload_numbers(w) := n if {
	is_scaled_job(w)
	t := job_t(w.job)
	pe := job_running(w.job)
	a := w.scaledJob.maxReplicaCount
	k := scaled_job_kept(w)
	n := {
		"T": t,
		"running": pe,
		"A": a,
		"K": k,
		"retainedFinished": k * t,
		"retainedInFlight": a * (t - pe),
		"retained": retained_value((k * t) + (a * (t - pe))),
		# onCompletion: a pod holds W after it ends, whoever deletes it. The Jobs that ended
		# in [x − W, x] or are alive at x were created at one of the n polls in that window or
		# alive at its start: at most A each, (n + 1)·A Jobs of T pods, A·Pe of them running.
		"churn": churn_value(((scaled_job_polls(w) * a) * t) + (a * (t - pe))),
		"active": a * pe,
		"bounded": count(unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	w.cronJob != null
	t := job_t(w.job)
	pe := job_running(w.job)
	a := cron_active_runs(w)
	k := cron_kept(w)
	n := {
		"T": t,
		"running": pe,
		"A": a,
		"K": k,
		"retainedFinished": k * t,
		"retainedInFlight": a * (t - pe),
		"retained": retained_value((k * t) + (a * (t - pe))),
		"churn": churn_value(cron_churn(w, a, t, pe)),
		"active": a * pe,
		"bounded": count(unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	w.job != null
	t := job_t(w.job)
	pe := job_running(w.job)

	# A run that nothing repeats (a Job, a Spark driver, an Argo workflow's template) has all
	# its T pods when it finishes, with or without a TTL: a TTL (ttlStrategy, timeToLiveSeconds,
	# podGC deleting each pod as it completes) only decides how long they stay after, and a
	# deleted pod's ENI still goes through the cool-down.
	n := {
		"T": t,
		"running": pe,
		"retainedFinished": t,
		"retainedInFlight": 0,
		"retained": retained_value(t),
		"churn": churn_value(t),
		"active": 0,
		"bounded": count(unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	spark_executors(w)
	kept := executors_kept(w)
	n := {
		"retained": retained_value(kept),
		"churn": churn_value(kept),
		"active": w.replicas,
		"bounded": count(unbounded_reasons_of(w)) == 0,
	}
} else := n if {
	terminating_pod(w)
	n := {
		"T": 1,
		"running": 1,
		"retainedFinished": 1,
		"retainedInFlight": 0,
		"retained": retained_value(1),
		"churn": churn_value(1),
		"active": 0,
		"bounded": true,
	}
} else := {
	"retained": 0,
	"churn": 0,
	"active": steady_pods(w),
	"bounded": true,
}

# The executors of a Spark application: running pods Spark deletes when they end
# (spark.kubernetes.executor.deleteOnTermination), executor.instances of them, or
# dynamicAllocation.maxExecutors.
spark_executors(w) if object.get(w, "spark", {}).role == "executor"

spark_driver(w) if object.get(w, "spark", {}).role == "driver"

# Executors that end and stay (deleteOnTermination false): at least one set of them; failed
# executors Spark replaces add more, so the figure is a lower bound (ENI005).
executors_kept(w) := w.replicas if {
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
terminating_pod(w) if {
	w.kind == "Pod"
	object.get(w.pod, "restartPolicy", "Always") in {"Never", "OnFailure"}
}

retained_value(v) := v if {
	on_delete
} else := 0

churn_value(v) := 0 if {
	on_delete
} else := v

# Non-terminal pods of a long-running workload in steady state, rollout surge included.
steady_pods(w) := w.replicas + object.get(w, "maxSurge", 0) if {
	w.kind == "Deployment"
} else := w.replicas if {
	w.kind in {"ReplicaSet", "StatefulSet", "ReplicationController"}
} else := 1

# hidden(w): terminated pods holding ENIs that the scheduler does not count.
hidden_of(n) := n.retained if {
	on_delete
} else := n.churn

# ---------------------------------------------------------------------------------------
# §4 Where a pod can land

# The capacity of one instance type in one node group: branch interfaces, limited by the
# group's max pods when it sets them.
capacity(g, t) := min([t.branchInterfaces, g.maxPods]) if {
	g.maxPods != null
	t.trunking
} else := t.branchInterfaces

# Where a workload may land depends only on its placement key: the pod template fields the
# scheduler matches against nodes. Workloads that share a key land on the same (node group,
# type) entries, so placement is evaluated once per key, and a row sums keys, not workloads:
# the cost follows keys x entries, not workloads x entries (docs/architecture.md). A key is
# [nodeSelector, requiredNodeAffinity, tolerations].
placement_key_of := {w.id: [w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations] | some w in eni_workloads}

placement_keys := {k | some [k, _, _] in class_list}

# The keys in a fixed order, and each key's position in it: the report names a workload's
# node groups by the position of its key.
placement_key_list := [k | some k in placement_keys]

placement_key_index := {k: i | some i, k in placement_key_list}

key_placements := {k: key_placements_of(k) | some k in placement_keys}

key_placements_of(k) := [{"group": g, "type": t} |
	pod := {"nodeSelector": k[0], "requiredNodeAffinity": k[1], "tolerations": k[2]}
	some g in input.nodeGroups
	some t in g.instanceTypes
	selectors.admits(pod, t.nodeLabels, g.taints)
]

# Every (node group, instance type) a workload may land on.
placements := {id: key_placements[k] | some id, k in placement_key_of}

# What the rules ask about where a key lands, computed once per key: the node group names,
# the known types, and the capacities of the trunking ones in increasing order.
key_facts := {k: facts |
	some k, ps in key_placements
	known := [p | some p in ps; p.type.known]
	facts := {
		"groupNames": sort({p.group.name | some p in ps}),
		"groupIds": {p.group.id | some p in ps},
		"count": count(ps),
		"known": known,
		"unknown": count(ps) - count(known),
		"trunking": count([p | some p in known; p.type.trunking]),
		"capacities": sort([[b, p.group.name, p.type.name] |
			some p in known
			p.type.trunking
			b := capacity(p.group, p.type)
		]),
	}
}

facts_of(w) := key_facts[placement_key_of[w.id]]

# The ENI workloads of each key, by id.
key_ids := {k: ids | some k in placement_keys; ids := [w.id | some i in key_classes[k]; some w in class_members[i]]}

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
classified := partition_list("classified") if partitioned
else := [[w, c] | some w in eni_workloads; c := input.classOf[w.id]] if engine_classes
else := [[w, [[w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations], object.filter(w, numbers_fields), object.get(w.pod, "restartPolicy", "Always")]] |
	some w in eni_workloads
]

engine_classes if input.classOf

# The classes of the ENI workloads, as classified names them, in a fixed order (a set of the
# engine's positions sorts as a set of the keys does); a class is named by its position here.
class_refs := {c | some c in partition_list("classes")} if partitioned
else := {c | some [_, c] in classified}

class_ref_list := [c | some c in class_refs]

# The distinct classes, [placement key, numbers fields, restart policy].
class_list := [class_key(c) | some c in class_ref_list]

class_key(c) := input.classes[c] if engine_classes
else := c

# The numbers view of each class (numbers_view).
class_views := {i: object.union(f, {"pod": {"restartPolicy": r}}) | some i, [_, f, r] in class_list}

# The workloads of each class, in the order they were read (OPA indexes the comprehension on
# the class).
class_members := {i: class_members_of(c) | some i, c in class_ref_list}

class_members_of(c) := [w | some p in input.partitions; some w in object.get(p.members, [c], [])] if partitioned
else := members_by_class[c]

# The workloads of each class computed here, by class.
members_by_class := {c: ws |
	some c in class_refs
	ws := [w | some [w, cc] in classified; cc == c]
}

# The workloads that request vpc.amazonaws.com/pod-eni by hand (ENI008).
hand_requests := partition_list("handRequests") if partitioned
else := [w | some w in input.workloads; count(w.pod.podEniRequests) > 0]

# ---------------------------------------------------------------------------------------
# Partitions: the per-workload passes (selection, which workloads hold branch ENIs, their
# classes, the exempt, duplicated and hand-requesting ones, ignore entries) depend on a
# workload and the namespace-wide objects only. The engine may evaluate
# `partition` over consecutive slices of input.workloads at once, one per core, and give the
# results to the report evaluation as input.partitions, in order: every rule above then merges
# them instead of passing over the workloads again. The merged values are the ones computed
# without partitions, in the same order (a Go test checks the reports are equal).
partitioned if count(object.get(input, "partitions", [])) > 0

# The findings that fan out to every member of a class (ENI002, ENI003) are evaluated by the
# engine as a query of their own (data.eni.main.fanned_out), on the other core, while the
# report query runs with input.fanOutApart set: those two rules then return nothing there.
fan_out_apart if input.fanOutApart == true

partition := {
	"selection": selection,
	"eniWorkloads": eni_workloads,
	"classified": classified,
	"classes": class_refs,
	"exemptIds": exempt_ids,
	"distinctSelections": distinct_selections,
	"duplicatedDefinitions": duplicated_definitions,
	"ignoreEntries": workload_ignore_entries,
	"handRequests": hand_requests,
	"members": members_by_class,
}

# What the partitions computed under one name, joined in their order.
partition_list(name) := [x | some p in input.partitions; some x in p[name]]

# The class of one workload, for the few paths that start from a workload (duplicates).
class_of(w) := class_index[input.classOf[w.id]] if engine_classes
else := class_index[[[w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations], object.filter(w, numbers_fields), object.get(w.pod, "restartPolicy", "Always")]]

class_index := {c: i | some i, c in class_ref_list}

class_numbers := {i: numbers_of(v) | some i, v in class_views}

class_unbounded := {i: unbounded_reasons_of(v) | some i, v in class_views}

# The classes of each placement key.
key_classes := {k: [i | some i, [kk, _, _] in class_list; kk == k] | some k in placement_keys}

# What one workload of a class adds to a row.
class_contribution := {i: object.union({"hidden": hidden_of(n), "active": n.active, "held": n.held, "bounded": n.bounded}, stopping_of(n)) |
	some i, n in class_numbers
}

# A contribution's late pods that ran together (numbers' lateStopping), only when it has some.
stopping_of(n) := {"stopping": n.lateStopping} if {
	object.get(n, "lateStopping", 0) > 0
} else := {}

# A workload's contribution as rows and ENI001 list it, built only for the workloads listed.
contribution(w, i) := object.union(class_contribution[i], {"id": w.id, "kind": w.kind, "namespace": w.namespace, "name": w.name})

# What each ENI workload adds to a row, by id (the tests and the duplicate ranking look it up).
contributions := {w.id: contribution(w, i) | some i, ws in class_members; some w in ws}

# The same object (kind, namespace, name) defined more than once (two kustomize overlays, a
# manifest and a rendered chart) exists once in a cluster: only its worst definition counts on a
# node, the one that adds the most (then the first id). The others still get their own
# findings about their own fields.
counted_workloads := [w | some w in eni_workloads; not w.id in outranked]

# The definitions another definition of the same object outranks: all but the first of each
# object in the order (most added first, then the smallest id). Sorting each object's
# definitions once keeps a file that repeats one object thousands of times linear-logarithmic
# (comparing every pair was quadratic).
outranked := {w.id |
	some ws in duplicated_objects
	first := sort([[0 - weight(d), d.id] | some d in ws])[0][1]
	some w in ws
	w.id != first
}

duplicated_objects := {[w.kind, w.namespace, w.name]: ws |
	some w in duplicated_definitions
	ws := [d | some d in duplicated_definitions; d.kind == w.kind; d.namespace == w.namespace; d.name == w.name]
}

duplicated_definitions := partition_list("duplicatedDefinitions") if partitioned
else := [w | some w in eni_workloads; count(object.get(w, "duplicates", [])) > 1]

weight(w) := c.hidden + c.active if c := class_contribution[class_of(w)]

# How many contributors a row and ENI001 list; the others are counted (otherContributors),
# and every workload's figures are in the report's workloads once.
top_contributors := 20

# The counted workloads of each class: its members but the definitions another one outranks
# (almost always all of them).
class_counted := class_members if {
	count(outranked) == 0
} else := counted if {
	counted := {i: [w | some w in ws; not w.id in outranked] | some i, ws in class_members}
}

# What a row adds per key: the counted classes' contributions times their counted members.
key_totals := {k: totals |
	some k in placement_keys
	parts := [[c, n] |
		some i in key_classes[k]
		n := count(class_counted[i])
		n > 0
		c := class_contribution[i]
	]
	totals := {
		"hidden": sum([x | some [c, n] in parts; x := c.hidden * n]),
		"active": sum([x | some [c, n] in parts; x := c.active * n]),
		"held": sum([x | some [c, n] in parts; x := c.held * n]),
		"stopping": sum([x | some [c, n, i] in stopping_parts(k); x := c.stopping * n]),
		"unbounded": sum([n | some [c, n] in parts; not c.bounded]),
		"count": sum([n | some [_, n] in parts]),
		"nonZero": sum([n | some [c, n] in parts; c.hidden + c.active > 0]),
		"maxHidden": max(array.concat([0], [c.hidden | some [c, _] in parts])),
		"top": key_top(k),
	}
}

# The classes of a key whose late pods ran together (stopping), but those a row counts by their
# busy windows (separable): the windows already bound those, and capping them as well would
# count a late pod away twice.
stopping_parts(k) := [[c, n, i] |
	some i in key_classes[k]
	c := class_contribution[i]
	c.stopping > 0
	not separable_class[i]
	n := count(class_counted[i])
]

# The counted contributions of a key that hold the most first (hidden, then active, then id),
# at most top_contributors of them (key_top_candidates).
key_top(k) := [contribution(x[4], x[3]) |
	order := sort([[0 - c.hidden, 0 - c.active, w.id, i, w] |
		some [w, i] in key_top_candidates(k)
		c := class_contribution[i]
	])
	some x in array.slice(order, 0, top_contributors)
]

# The counted members of a key that can be among its top contributors: those of the classes
# whose figures (hidden, then active) rank among the first top_contributors classes. A member
# of any other class comes after at least top_contributors others, one of each class ahead of
# it, so only these are ranked one by one.
key_top_candidates(k) := [[w, i] |
	order := sort([[0 - c.hidden, 0 - c.active] |
		some i in key_classes[k]
		count(class_counted[i]) > 0
		c := class_contribution[i]
	])
	last := order[min([count(order), top_contributors]) - 1]
	some i in key_classes[k]
	c := class_contribution[i]
	[0 - c.hidden, 0 - c.active] <= last
	some w in class_counted[i]
]

# The workloads the rows may list as contributors, by id: the rules that start from a listed
# contributor look it up here, not in a table of every workload.
top_workloads := {w.id: w | some k in placement_keys; some [w, _] in key_top_candidates(k)}

# The workload of a contributor a rule starts from.
contributor_workload(c) := w if {
	w := top_workloads[c.id]
} else := workload_by_id[c.id]

# The contributors that hold the most first (hidden, then active, then id), at most
# top_contributors of them.
ranked(contributors) := [x[3] |
	order := sort([[0 - c.hidden, 0 - c.active, c.id, c] | some c in contributors])
	some x in array.slice(order, 0, top_contributors)
]

# Every (row key, placement key) pair. A row is keyed by its node group's id and its type
# entry's key: two groups may share a name (an eksctl group and a Karpenter pool both called
# "default"), and a Karpenter type may appear once per launch-time label variant.
key_on := [[p.group.id, p.type.key, k] |
	some k in placement_keys
	some p in key_placements[k]
]

# The placement keys that land on each row, looked up with a variable bound in the rule body
# so that OPA indexes the comprehension.
row_keys := {[gid, tkey]: ks |
	some g in input.nodeGroups
	some t in g.instanceTypes
	gid := g.id
	tkey := t.key
	ks := [k | some [pg, pt, k] in key_on; pg == gid; pt == tkey]
}

# The per-instance-type table (§6): one row per type entry of every node group.
rows := [row |
	some g in input.nodeGroups
	some t in g.instanceTypes
	row := type_row(g, t, row_keys[[g.id, t.key]])
]

type_row(g, t, ks) := row if {
	b := capacity(g, t)
	summed_hidden := sum([key_totals[k].hidden | some k in ks])
	active := sum([key_totals[k].active | some k in ks])

	# CronJobs whose runs cannot overlap count at their largest sum at one instant
	# (timeline.rego): what that saves comes off hidden and held.
	separated := separated_on(ks)
	saved := sum([c.held | some c in separated]) - separated_peak(separated)

	# Terminated pods plus at most b running ones, and never more than the workloads' peaks
	# added up: the peaks already include their running pods.
	# Late pods still stopping long after their run all ran at one moment (late_stopping): a
	# node runs at most b of them.
	stopping := sum([key_totals[k].stopping | some k in ks])
	over := max([0, stopping - b])
	held := (sum([key_totals[k].held | some k in ks]) - saved) - over
	hidden := (summed_hidden - saved) - over
	demand := row_demand(held, hidden, active, b)
	unbounded := sum([key_totals[k].unbounded | some k in ks])
	contributors := ranked([c | some k in ks; some c in key_totals[k].top])
	row := object.union(object.union(separated_details(separated, saved), stopping_details(stopping, over)), {
		"nodeGroup": g.name,
		"nodeGroupId": g.id,
		"pool": pool_kind(g),
		"nodeGroupLocation": g.location,
		"instanceType": t.name,
		"variant": object.get(t, "variant", ""),
		"known": t.known,
		"trunking": t.trunking,
		"branchInterfaces": b,
		"hidden": hidden,
		"active": active,
		"held": held,
		"demand": demand,
		"atLeast": unbounded > 0,
		"verdict": verdict(t, demand, b, unbounded),
		"contributors": contributors,
		"otherContributors": sum([key_totals[k].count | some k in ks]) - count(contributors),
		"nonZeroContributors": sum([key_totals[k].nonZero | some k in ks]),
		"typeKey": t.key,
	})
}

# The contributors of a row that it does not list, when there are at most witness_unlisted
# of them: ENI001 passes them to the witness search (pkg/witness), which plays them with the
# listed ones (a row of 25 CronJobs is played whole) and drops them from the report. A row
# with more is played by its listed contributors alone, and its witness says how many others
# it leaves out.
witness_unlisted := 100

unlisted_contributors(row, listed) := [] if {
	row.nonZeroContributors - count(listed) < 1
} else := [] if {
	row.nonZeroContributors - count(listed) > witness_unlisted
} else := [contribution(w, i) |
	ids := {c.id | some c in listed}
	some k in row_keys[[row.nodeGroupId, row.typeKey]]
	some i in key_classes[k]
	c := class_contribution[i]
	c.hidden + c.active > 0
	some w in class_counted[i]
	not w.id in ids
]

# The counted contributions of each key that are separable CronJobs (timeline.rego); when none
# is (under onDelete, only CronJobs with a TTL can be), the pass over every member is skipped.
key_separated := {k: [contribution(w, i) |
	some i in key_classes[k]
	separable_class[i]
	some w in class_counted[i]
] | count(separable_class) > 0; some k in placement_keys}

# The separable contributions of a row's keys; row_separated is the same for a row, which the
# remedies evaluate again with one workload changed.
separated_on(ks) := [c | some k in ks; some c in key_separated[k]]

row_separated(row) := separated_on(row_keys[[row.nodeGroupId, row.typeKey]])

# A row's demand on an instance type of b branch interfaces instead of its own: the late pods
# still stopping count at most at b, the running ones too (the instance-type remedy).
demand_on(row, b) := row_demand(held, hidden, row.active, b) if {
	late := row_late(row)
	over := max([0, late.pods - b])
	held := (row.held + late.overCapacity) - over
	hidden := (row.hidden + late.overCapacity) - over
}

# A row's demand (§6): terminated pods plus at most b running ones (the scheduler stops there),
# never more than the workloads' peaks added up.
row_demand(held, hidden, active, b) := min([held, hidden + min([active, b])])

# A row's late pods still stopping, and how many of them it did not count (none of either when
# it has no such pods).
row_late(row) := object.get(row, "lateStopping", {"pods": 0, "overCapacity": 0})

# A row with late pods still stopping says how many, and how many it did not count past the
# node's capacity (the remedies count a changed row again from them).
stopping_details(stopping, over) := {} if {
	stopping == 0
} else := {"lateStopping": {"pods": stopping, "overCapacity": over}}

# A row says which CronJobs it counted by their busy windows, and what that saved.
separated_details(separated, saved) := {} if {
	count(separated) < 2
} else := {"scheduleSeparated": {"workloads": sort([c.id | some c in separated]), "saved": saved}}

# The contributors of a row that hold at least n terminated pods: only they can free enough
# with one change of their own (ENI001's fixes). Keys whose largest share is smaller are not
# scanned.
row_contributors_holding(row, n) := [c |
	some k in row_keys[[row.nodeGroupId, row.typeKey]]
	key_totals[k].maxHidden >= n

	# In the order the workloads were read, key by key, as the fixes are listed.
	some x in sort([[classified_position[w.id], contribution(w, i)] |
		some i in key_classes[k]
		class_contribution[i].hidden >= n
		some w in class_counted[i]
	])
	c := x[1]
]

# Where each ENI workload is in the order they were read.
classified_position := {w.id: j | some j, [w, _] in classified}

# What kind of provisioner a row's group is: "" for node groups with fixed types,
# "karpenter", "auto-mode", or "auto-mode-built-in" (EKS manages those: they cannot be changed).
pool_kind(g) := "auto-mode-built-in" if {
	g.autoMode
	startswith(g.source, "eks-auto-mode:built-in")
} else := "auto-mode" if {
	g.autoMode
} else := "karpenter" if {
	g.picksTrunkingTypes
} else := ""

# How a row's instance type is shown: with its variant when the group lists the type more
# than once.
type_label(row) := row.instanceType if {
	row.variant == ""
} else := sprintf("%s [%s]", [row.instanceType, row.variant])

verdict(t, demand, b, unbounded) := "unknown-type" if {
	not t.known
} else := "no-trunking" if {
	not t.trunking
} else := "exceeds" if {
	demand > b
} else := "unbounded" if {
	unbounded > 0
} else := "fits"

# ---------------------------------------------------------------------------------------
# Helpers the rules share

workload_by_id := {w.id: w | some w in input.workloads}

# Where a finding about a workload's retention points: its TTL, or the Job spec a TTL goes
# into; for long-running workloads, their replicas.
retention_paths(w) := [ttl_path(w), w.jobSpecPath] if {
	w.job != null
} else := ["spec.restartPolicy", "spec"] if {
	terminating_pod(w)
} else := ["spec.replicas", pod_field(w, "spec")]

# The path of the first field of a pod template that decides placement, for findings about
# where a workload may land.
placement_path(w) := pod_field(w, "spec.nodeSelector") if {
	count(w.pod.nodeSelector) > 0
} else := pod_field(w, "spec.affinity.nodeAffinity") if {
	count(w.pod.requiredNodeAffinity) > 0
} else := pod_field(w, "spec.tolerations") if {
	count(w.pod.tolerations) > 0
} else := pod_field(w, "spec")

# A finding as every rule returns it. severity "" means the rule's default from METADATA.
finding(rule, severity, message, obj, paths, details) := {
	"rule": rule,
	"severity": severity,
	"message": message,
	"paths": paths,
	"object": object_ref(obj),
	"details": details,
}

# A finding about something that is not a Kubernetes object (a node group).
finding_at(rule, severity, message, location, details) := {
	"rule": rule,
	"severity": severity,
	"message": message,
	"location": location,
	"details": details,
}

plural(n, word) := sprintf("%d %s", [n, word]) if {
	n == 1
} else := sprintf("%d %ss", [n, word])

describe(w) := sprintf("%s %s", [w.kind, w.name]) if {
	object.get(w, "namespace", "") == ""
} else := sprintf("%s %s/%s", [w.kind, w.namespace, w.name])

# ---------------------------------------------------------------------------------------
# Ignore annotations (eni-lint.io/ignore): which entries suppress, and why others do not

ignore_entries := array.concat(array.concat(workload_ignore_entries, entries_of(input.securityGroupPolicies)), entries_of(input.nodeGroups))

workload_ignore_entries := partition_list("ignoreEntries") if partitioned
else := entries_of(input.workloads)

# The ignore entries of a list of objects. Every object carries its (often empty) ignores: the
# field is read directly, a call per object would cost as much as the pass.
entries_of(objects) := [[obj, ig] | some obj in objects; some ig in obj.ignores]

# Why an entry suppresses nothing; undefined when it is valid.
ignore_problem(ig) := sprintf("cannot be read: %s", [ig.error]) if {
	ig.error != ""
} else := "has no reason, so it suppresses nothing; write RULE: reason" if {
	ig.reason == ""
} else := sprintf("is not allowed: the config forbids inline ignores for %s", [concat(", ", forbidden)]) if {
	forbidden := [r | some r in ig.rules; not inline_allowed(r)]
	count(forbidden) > 0
} else := entry_problem(ig)

# Problems any ignore entry can have, inline or in the config file.
entry_problem(ig) := sprintf("names %s, which is not a rule of this run", [concat(", ", unknown)]) if {
	unknown := [r | some r in ig.rules; r != "*"; not r in settings.ruleIds]
	count(unknown) > 0
} else := sprintf("expired on %s and no longer suppresses anything", [ig.expires]) if {
	ig.expires != ""
	ig.expires < settings.today
}

inline_allowed(rule) if settings.inlineIgnores.rules[rule] == true

inline_allowed(rule) if {
	not has_rule_setting(rule)
	settings.inlineIgnores["default"] == true
}

has_rule_setting(rule) if _ = settings.inlineIgnores.rules[rule]

# Config-file ignores that suppress (by index); the engine matches their paths and objects.
config_ignore_problem(ig) := "has no reason, so it suppresses nothing" if {
	ig.reason == ""
} else := entry_problem(ig)

active_config_ignores := [ig.index |
	some ig in object.get(input, "configIgnores", [])
	not config_ignore_problem(ig)
]

# The entries that suppress: the engine marks the findings they cover.
active_ignores := [{"object": obj.id, "rules": ig.rules, "reason": ig.reason, "expires": ig.expires, "text": ig.text, "path": ig.path, "location": object.get(ig, "location", null), "ref": object_ref(obj)} |
	some [obj, ig] in ignore_entries
	not ignore_problem(ig)
]
