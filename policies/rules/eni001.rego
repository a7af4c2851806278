# METADATA
# title: Branch ENIs can be exceeded on a node
# description: |
#   Pods selected by a SecurityGroupPolicy each hold a branch ENI, and a node has a fixed number
#   of them (m5.large: 9). kube-scheduler stops counting a pod's vpc.amazonaws.com/pod-eni
#   request as soon as the pod reaches Succeeded or Failed, but the pod still holds its ENI:
#   until the pod is deleted (eniRelease onDelete) or for the cool-down window after it ends
#   (eniRelease onCompletion). The scheduler then places new SGP pods on a node whose ENIs are
#   all taken, and they wait in ContainerCreating with "failed to assign an IP address to
#   container".
#
#   For every instance type a workload may land on, eni-lint adds up hidden (terminated pods
#   still holding ENIs, which the scheduler does not see) and active (non-terminal SGP pods,
#   at most the capacity B, since the scheduler stops there). When demand = hidden + min(active,
#   B) exceeds B, the ENIs can run out. The worst case puts all of them on one node, and
#   nothing prevents it.
# custom:
#   id: ENI001
#   severity: error
#   numbers: |
#     B: branch interfaces of the binding instance type (the smallest trunking type of the node
#     group), limited by the group's maxPods when set. hidden: the sum of retained (onDelete)
#     or churn (onCompletion) over the workloads that may land there: Jobs, CronJobs, KEDA
#     ScaledJobs (up to maxReplicaCount runs, their history limits), Spark drivers, bare Pods
#     that end. active: non-terminal SGP pods in steady state (CronJob and ScaledJob A x
#     running, Deployment replicas + maxSurge with replicas raised to an HPA's or KEDA
#     ScaledObject's maximum, Spark executors, …). demand = hidden + min(active, B).
#   remediation: |
#     Lower what terminated pods hold: give Jobs a ttlSecondsAfterFinished (onDelete), keep fewer
#     finished Jobs per CronJob (successfulJobsHistoryLimit + failedJobsHistoryLimit), lower
#     backoffLimit so a run leaves fewer failed pods, or use an instance type with more branch
#     interfaces. The finding lists the changes that each alone would make the node fit,
#     smallest first.
#   otherModel: |
#     Under onDelete, hidden counts every finished pod a Job or CronJob keeps (finished Jobs x
#     T, plus the failed pods of runs in flight); a TTL removes a standalone Job's share. Under
#     onCompletion, hidden counts only pods that can end inside one cool-down window (a run's T
#     per concurrent run); TTL and history limits do not matter, fewer pods per run do.
package eni.rules.eni001

import data.eni.model

finding contains f if {
	some g in input.nodeGroups
	exceeding := [r | some r in model.rows; r.nodeGroupId == g.id; r.verdict == "exceeds"]
	count(exceeding) > 0

	# The binding type: the smallest capacity, then the largest overshoot.
	order := sort([[r.branchInterfaces, r.branchInterfaces - r.demand, model.type_label(r)] | some r in exceeding])
	row := [r | some r in exceeding; model.type_label(r) == order[0][2]][0]
	top := sort([[0 - c.hidden, c.id] | some c in row.contributors; c.hidden > 0])[0][1]
	w := model.workload_by_id[top]
	fixes := fix_options(row)
	others := [model.type_label(r) | some r in exceeding; model.type_label(r) != model.type_label(row)]
	shown := [c | some c in row.contributors; c.hidden + c.active > 0]

	f := model.finding(
		"ENI001", "",
		message(g, row, w, fixes, others),
		w, model.retention_paths(w),
		object.union(variant_details(row), {
			"nodeGroup": g.name,
			"nodeGroupLocation": g.location,
			"instanceType": row.instanceType,
			"branchInterfaces": row.branchInterfaces,
			"hidden": row.hidden,
			"active": row.active,
			"demand": row.demand,
			"atLeast": row.atLeast,
			"alsoExceeding": others,
			"contributors": shown,
			"otherContributors": row.nonZeroContributors - count(shown),
			"fixes": fixes,
		}),
	)
}

# The variant of the row, in the details only when the pool lists the type more than once.
variant_details(row) := {"variant": row.variant} if {
	row.variant != ""
} else := {}

message(g, row, w, fixes, others) := sprintf("%s in node group %q: %s%d branch ENIs can be in use where %d exist (%d held by terminated pods the scheduler no longer counts + %d running). %s holds the most: %d.%s%s%s", [
	model.type_label(row),
	g.name,
	at_least(row),
	row.demand,
	row.branchInterfaces,
	row.hidden,
	row.demand - row.hidden,
	model.describe(w),
	model.hidden_of(model.numbers[w.id]),
	scaled(row),
	fix_sentence(fixes),
	also(others),
])

# Running pods an autoscaler decides: the count is its maximum, not the target's replicas,
# and the message says so.
scaled(row) := "" if {
	count(scaled_contributors(row)) == 0
} else := sprintf(" Running pods counted at their autoscaler's maximum: %s.", [concat(", ", scaled_contributors(row))])

scaled_contributors(row) := [sprintf("%s %d (%s %s)", [model.describe(w), c.active, w.scaledBy.kind, w.scaledBy.name]) |
	some c in row.contributors
	c.active > 0
	w := model.workload_by_id[c.id]
	w.scaledBy
]

at_least(row) := "at least " if {
	row.atLeast
} else := ""

also(others) := "" if {
	count(others) == 0
} else := sprintf(" Also exceeded on %s.", [concat(", ", others)])

# The fixes themselves are details.fixes: every report lists them, one per line or bullet,
# after the message. The message only says when there is none.
fix_sentence(fixes) := "" if {
	count(fixes) > 0
} else := " No single change fits; combine the fixes in `eni-lint explain ENI001`."

# Every single change that alone makes the row fit, in the order a platform engineer would
# try them: retention first, then retries, then a larger instance type.
fix_options(row) := array.concat(
	array.concat(array.concat(ttl_fixes(row), scaled_job_ttl_fixes(row)), history_fixes(row)),
	array.concat(backoff_fixes(row), type_fixes(row)),
)

# A KEDA ScaledJob's finished Jobs with a TTL of one polling interval: at most 2 x
# maxReplicaCount of them are kept (model.scaled_job_kept).
scaled_job_ttl_fixes(row) := [fix |
	model.on_delete
	some c in candidates(row)
	w := model.workload_by_id[c.id]
	model.is_scaled_job(w)
	w.job.ttlSecondsAfterFinished == null
	n := model.numbers[c.id]
	kept := min([n.K, 2 * n.A])
	frees := (n.K - kept) * n.T
	frees >= excess(row)
	fix := {
		"workload": c.id,
		"change": sprintf("set spec.jobTargetRef.ttlSecondsAfterFinished to %d (the polling interval) on %s (frees %d)", [w.scaledJob.pollingInterval, model.describe(w), frees]),
		"field": model.job_field(w, "ttlSecondsAfterFinished"),
	}
]

excess(row) := row.demand - row.branchInterfaces

# Only a contributor that holds at least the excess can free enough with a change of its own:
# a TTL frees what it holds, fewer kept Jobs or a lower backoffLimit free part of it. So the
# fixes look at those, however many contributors the row has.
candidates(row) := model.row_contributors_holding(row, excess(row))

ttl_fixes(row) := [fix |
	model.on_delete
	some c in candidates(row)
	w := model.workload_by_id[c.id]
	standalone_run(w)
	w.job.ttlSecondsAfterFinished == null
	c.hidden >= excess(row)
	fix := {
		"workload": c.id,
		"change": sprintf("set %s on %s (frees %d)", [model.ttl_path(w), model.describe(w), c.hidden]),
		"field": model.ttl_path(w),
	}
]

history_fixes(row) := [fix |
	model.on_delete
	some c in candidates(row)
	w := model.workload_by_id[c.id]
	w.kind == "CronJob"
	n := model.numbers[c.id]
	n.T > 0
	fewer := ceil(excess(row) / n.T)
	fewer <= n.K
	fix := {
		"workload": c.id,
		"change": sprintf("keep at most %d finished Jobs of %s (successfulJobsHistoryLimit + failedJobsHistoryLimit = %d, now %d kept)", [n.K - fewer, model.describe(w), n.K - fewer, n.K]),
		"field": "spec.successfulJobsHistoryLimit",
	}
]

# Each unit of backoffLimit adds one pod to T, so it adds (K + A) to a CronJob's retained
# pods, 1 to a Job's, and A to a CronJob's churn.
backoff_weight(w, n) := n.K + n.A if {
	model.on_delete
	model.runs_jobs(w)
} else := n.A if {
	model.runs_jobs(w)
} else := 1

backoff_fixes(row) := [fix |
	some c in candidates(row)
	c.hidden > 0
	w := model.workload_by_id[c.id]
	w.job != null
	w.job.backoffLimitPerIndex == null
	n := model.numbers[c.id]
	lower := ceil(excess(row) / backoff_weight(w, n))
	lower <= w.job.backoffLimit
	fix := {
		"workload": c.id,
		"change": sprintf("lower backoffLimit of %s from %d to %d", [model.describe(w), w.job.backoffLimit, w.job.backoffLimit - lower]),
		"field": model.job_field(w, "backoffLimit"),
	}
]

type_fixes(row) := [fix |
	family := split(row.instanceType, ".")[0]
	bigger := [s |
		some s in object.get(input.instanceFamilies, family, [])
		s.branchInterfaces >= row.hidden + row.active
		s.branchInterfaces > row.branchInterfaces
	]
	count(bigger) > 0
	fix := {
		"change": type_change(row, bigger[0]),
		"instanceType": bigger[0].name,
	}
]

# A Karpenter pool picks its types at launch: the fix is a narrower pool, not a type swap.
# EKS Auto Mode's built-in pools cannot be changed: the fix is a custom pool.
type_change(row, bigger) := sprintf("narrow NodePool %q so that it launches no type below %s (%d branch interfaces), e.g. with a karpenter.k8s.aws/instance-cpu or instance-size requirement", [row.nodeGroup, bigger.name, bigger.branchInterfaces]) if {
	row.pool == "karpenter"
} else := sprintf("narrow NodePool %q so that it launches no type below %s (%d branch interfaces), e.g. with an eks.amazonaws.com/instance-cpu or instance-size requirement", [row.nodeGroup, bigger.name, bigger.branchInterfaces]) if {
	row.pool == "auto-mode"
} else := sprintf("run these pods on a custom NodePool that launches no type below %s (%d branch interfaces): the built-in %q pool cannot be changed", [bigger.name, bigger.branchInterfaces, row.nodeGroup]) if {
	row.pool == "auto-mode-built-in"
} else := sprintf("use %s (%d branch interfaces) instead of %s in node group %q", [bigger.name, bigger.branchInterfaces, row.instanceType, row.nodeGroup])

# A run that nothing repeats: a Job, or a SparkApplication's driver.
standalone_run(w) if w.kind == "Job"

standalone_run(w) if {
	model.spark_driver(w)
	object.get(w, "cronJob", null) == null
}

standalone_run(w) if {
	model.argo(w)
	object.get(w, "cronJob", null) == null
}
