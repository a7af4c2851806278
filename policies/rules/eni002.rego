# METADATA
# title: SGP-selected Job or CronJob without ttlSecondsAfterFinished
# description: |
#   A Job's finished pods stay until the Job is deleted. Without ttlSecondsAfterFinished a
#   standalone Job is never deleted automatically, so all of its terminated pods keep holding
#   branch ENIs when ENIs are released only on pod deletion. A CronJob's finished Jobs are
#   bounded by its history limits, but a TTL in the job template lets them go sooner. A TTL
#   does not lower a Job's peak (all its pods exist when it finishes, docs/model.md §5a): it
#   ends how long they hold ENIs after that.
# custom:
#   id: ENI002
#   severity: warning
#   numbers: |
#     T, the terminated pods one run can leave: completions + backoffLimit (work queue:
#     parallelism + backoffLimit; Indexed with backoffLimitPerIndex L: min(C x (L+1), C + B)).
#   remediation: |
#     Set spec.ttlSecondsAfterFinished on the Job (for a CronJob,
#     spec.jobTemplate.spec.ttlSecondsAfterFinished; for a KEDA ScaledJob,
#     spec.jobTargetRef.ttlSecondsAfterFinished, whose default history limits keep 100 + 100
#     Jobs) to the time you need to read its logs and status, for example 600. A Spark
#     application's driver pod stays until spec.timeToLiveSeconds deletes the application.
#   otherModel: |
#     Severity info under onCompletion: the controller releases a terminated pod's ENI after the
#     cool-down whatever the TTL, so the TTL only keeps the API tidy.
#   details:
#     - {key: T, type: integer, about: "terminated pods one run leaves"}
#     - {key: retained, type: integer, about: "terminated pods the workload keeps"}
#     - {key: fixes, type: array, about: "the TTL `eni-lint fix` writes (`fixTtlSeconds`, 600 unless set); none for Argo"}
#     - {key: remainingExcess, type: object, about: "when the TTL leaves an ENI001: `{nodeGroup, instanceType, demandAfter, branchInterfaces, remedy}`; added by the engine"}
package eni.rules.eni002

import data.eni.model
import data.eni.remedies

finding contains f if {
	not model.fan_out_apart
	# Decided per class (the view holds the Job spec), then one finding per member.
	some i, v in model.class_views
	v.job != null
	v.job.ttlSecondsAfterFinished == null
	n := model.class_numbers[i]
	some w in model.class_members[i]
	f := model.finding(
		"ENI002", severity,
		message(w, n),
		w, [model.ttl_path(w), w.jobSpecPath],
		{"T": n.T, "retained": n.retained, "fixes": ttl_fixes(w)},
	)
}

# The TTL `eni-lint fix` writes: the run's fixTtlSeconds (600 unless set), the time a platform
# team typically keeps a finished Job for its logs. Argo's ttlStrategy is an object of its own
# and gets no fix.
ttl_fixes(w) := [] if {
	model.argo(w)
} else := [{
	"workload": w.id,
	"change": sprintf("set %s: %s on %s", [model.ttl_path(w), remedies.duration_text(fix_ttl), model.describe(w)]),
	"field": model.ttl_path(w),
	"lever": "ttl",
	"set": [{"field": model.ttl_path(w), "value": fix_ttl}],
}]

fix_ttl := object.get(input.settings, "fixTtlSeconds", 600)

severity := "warning" if {
	model.on_delete
} else := "info"

message(w, n) := sprintf("%s has no ttlSecondsAfterFinished: its up to %d terminated pods keep their branch ENIs until someone deletes the Job", [model.describe(w), n.T]) if {
	model.on_delete
	w.kind == "Job"
} else := sprintf("%s: the workflow has no ttlStrategy or podGC OnPodCompletion: its %d finished pods of this template keep their branch ENIs until someone deletes the Workflow", [model.describe(w), n.T]) if {
	model.on_delete
	model.argo(w)
	object.get(w, "cronJob", null) == null
} else := sprintf("%s: the workflows have no ttlStrategy or podGC OnPodCompletion: the CronWorkflow keeps %d finished workflows, whose %d pods of this template hold branch ENIs until the history limits remove them", [model.describe(w), n.K, n.retainedFinished]) if {
	model.on_delete
	model.argo(w)
} else := sprintf("%s has no spec.timeToLiveSeconds: its finished driver pod keeps its branch ENI until someone deletes the SparkApplication", [model.describe(w)]) if {
	model.on_delete
	model.spark_driver(w)
	object.get(w, "cronJob", null) == null
} else := sprintf("%s has no spec.template.timeToLiveSeconds: it keeps %d finished runs, whose driver pods hold branch ENIs until the run history limits remove them", [model.describe(w), n.K]) if {
	model.on_delete
	model.spark_driver(w)
} else := sprintf("%s has no ttlSecondsAfterFinished in its job template: it keeps %d finished Jobs, whose %d terminated pods hold branch ENIs until the history limits remove them", [model.describe(w), n.K, n.retainedFinished]) if {
	model.on_delete
} else := sprintf("%s has no %s: up to %d terminated pods per run stay in the API; under onCompletion their branch ENIs are freed after the cool-down, so this is housekeeping", [model.describe(w), model.ttl_name(w), n.T])
