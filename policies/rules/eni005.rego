# METADATA
# title: Terminated pods of a workload have no bound
# description: |
#   Some Job and CronJob settings leave no upper bound on the terminated pods they keep, so
#   eni-lint cannot give a number: a podFailurePolicy rule with action Ignore (ignored failures
#   do not count against backoffLimit, and their pods stay), manualSelector (the Job adopts any
#   pod its selector matches), a managedBy other than the built-in Job controller, and a CronJob
#   with concurrencyPolicy Allow and no activeDeadlineSeconds (runs can pile up). The figures in
#   the report then use a lower bound and say "at least". An Ignore rule on the DisruptionTarget
#   condition alone (the Job docs' example, in most backup charts) is bounded in practice: only
#   disruptions (preemption, eviction, a lost node) make it replace pods, so it is reported as
#   info and the figures stay bounded.
# custom:
#   id: ENI005
#   severity: warning
#   numbers: |
#     The lower bound used instead: T from completions and backoffLimit, one concurrent CronJob
#     run.
#   remediation: |
#     Bound the workload: set activeDeadlineSeconds on the job template or use concurrencyPolicy
#     Forbid or Replace for CronJobs (and ScheduledSparkApplications, whose default is Allow);
#     use Count or FailJob instead of Ignore in podFailurePolicy, or add activeDeadlineSeconds;
#     avoid manualSelector; give a KEDA ScaledJob with the custom scaling strategy
#     customScalingRunningJobPercentage 1, Spark dynamic allocation a maxExecutors, and an Argo
#     template a retryStrategy limit; an Argo withParam or withSequence from a parameter can
#     only be bounded by its workflow's parallelism and a podGC that deletes finished pods.
#   otherModel: |
#     The same under both release models: without a bound neither the retained pods (onDelete)
#     nor the pods ending in one cool-down window (onCompletion) can be counted.
#   details:
#     - {key: reason, type: string, about: "why the count is a lower bound"}
package eni.rules.eni005

import data.eni.model

# Ignore on DisruptionTarget alone: how many pods disruptions replace is not in any manifest,
# but the workload itself cannot make more, so the figure stays and the finding says why.
finding contains f if {
	some i, v in model.class_views
	object.get(object.get(v, "job", {}), "podFailurePolicyIgnoreDisruptions", false)
	some w in model.class_members[i]
	f := model.finding(
		"ENI005", "info",
		sprintf("%s: spec.podFailurePolicy ignores failures with the DisruptionTarget condition: pods that are preempted, evicted or on a lost node are replaced without counting against backoffLimit (a kubelet eviction leaves its Failed pod behind). That is bounded by disruptions, which no manifest states; eni-lint counts the workload as if there were none", [model.describe(w)]),
		w, [model.job_field(w, "podFailurePolicy")],
		{"reason": "podFailurePolicy Ignore on DisruptionTarget only: bounded by disruptions"},
	)
}

finding contains f if {
	some i, reasons in model.class_unbounded
	some r in reasons
	some w in model.class_members[i]
	f := model.finding(
		"ENI005", "",
		sprintf("%s: %s; eni-lint counts it as a lower bound", [model.describe(w), r.reason]),
		w, r.paths,
		{"reason": r.reason},
	)
}
