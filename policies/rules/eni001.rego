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
#   at most the capacity B, since the scheduler stops there), never more than the workloads'
#   own peaks added up (held). When demand = min(held, hidden + min(active, B)) exceeds B, the
#   ENIs can run out. The worst case puts all of them on one node, and nothing prevents it.
# custom:
#   id: ENI001
#   severity: error
#   numbers: |
#     B: branch interfaces of the binding instance type (the smallest trunking type of the node
#     group), limited by the group's maxPods when set. held: for Jobs and CronJobs, the most of
#     their pods that can hold ENIs at one moment given the pod-failure back-off, the schedule,
#     TTL, history limits and the release window W (docs/model.md §5a); for the others, their
#     counts: KEDA ScaledJobs (up to maxReplicaCount runs, their history limits), Spark drivers,
#     bare Pods that end, running pods. hidden: the terminated share (for Jobs and CronJobs all
#     of held: at the peak every one of them can be terminated). active: non-terminal SGP pods
#     in steady state (CronJob A x running, Deployment replicas + maxSurge with replicas raised
#     to an HPA's or KEDA ScaledObject's maximum, Spark executors, …). demand = min(held,
#     hidden + min(active, B)).
#   remediation: |
#     Lower what terminated pods hold: lower backoffLimit so a run leaves fewer failed pods, give
#     a CronJob's Jobs a ttlSecondsAfterFinished short enough that finished runs are gone before
#     the next ones pile up (onDelete), keep fewer finished Jobs (successfulJobsHistoryLimit +
#     failedJobsHistoryLimit), give a CronJob an activeDeadlineSeconds that ends each run before
#     the next schedule time, or use an instance type with more branch interfaces. A TTL does
#     not lower a standalone Job's peak: all of its pods exist when it finishes. The finding
#     lists the changes that each alone would make the node fit, each the largest value that
#     fits (the model evaluated again with the change).
#   otherModel: |
#     Under onDelete, a pod holds its ENI from its creation until W after it is deleted: a
#     CronJob's finished Jobs hold until their TTL or the history limits delete them, plus W.
#     Under onCompletion, only until W after it ends: a CronJob holds what its runs can create
#     within one window (three runs at most for schedules at least W apart, when a skipped run
#     catches up); TTL and history limits do not matter, fewer pods per run and the back-off do.
package eni.rules.eni001

import data.eni.model

# The exceeding rows of each node group, grouped once (OPA indexes the inner comprehension on
# the group id): scanning every row for every group was quadratic, 5.7 s at 1,000 groups.
exceeding_rows := [r | some r in model.rows; r.verdict == "exceeds"]

exceeding_of := {gid: rows |
	some gid in {r.nodeGroupId | some r in exceeding_rows}
	rows := [r | some r in exceeding_rows; r.nodeGroupId == gid]
}

finding contains f if {
	some g in input.nodeGroups
	exceeding := exceeding_of[g.id]

	# The binding type: the smallest capacity, then the largest overshoot.
	order := sort([[r.branchInterfaces, r.branchInterfaces - r.demand, model.type_label(r)] | some r in exceeding])
	row := [r | some r in exceeding; model.type_label(r) == order[0][2]][0]
	top := sort([[0 - c.hidden, c.id] | some c in row.contributors; c.hidden > 0])[0][1]
	w := model.top_workloads[top]
	fixes := fix_options(row)
	others := [model.type_label(r) | some r in exceeding; model.type_label(r) != model.type_label(row)]
	shown := [c | some c in row.contributors; c.hidden + c.active > 0]

	# The node group is the finding's row object: an ignore comment above it (a Terraform
	# aws_eks_node_group) suppresses the finding as one on the workload does.
	f := object.union(model.finding(
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
			"unlistedContributors": model.unlisted_contributors(row, shown),
			"fixes": fixes,
		}),
	), {"rowObjects": [g.id]})
}

# The variant of the row, in the details only when the pool lists the type more than once.
variant_details(row) := {"variant": row.variant} if {
	row.variant != ""
} else := {}

message(g, row, w, fixes, others) := sprintf("%s in node group %q: %s%d branch ENIs can be in use where %d exist (%d held by terminated pods the scheduler no longer counts + %d running). %s holds the most: %d.%s%s%s%s", [
	model.type_label(row),
	g.name,
	at_least(row),
	row.demand,
	row.branchInterfaces,
	row.hidden,
	row.demand - row.hidden,
	model.describe(w),
	model.hidden_of(model.numbers_of_workload(w)),
	scaled(row),
	ttl_sentence(row, w, fixes),
	fix_sentence(fixes),
	also(others),
])

# Under onDelete a CronJob's TTL is the first lever a platform engineer reaches for: when no TTL
# of the CronJob that holds the most fits, the message says what even 0 leaves, and why.
ttl_sentence(row, w, fixes) := sprintf(" No ttlSecondsAfterFinished of %s fits: even 0 leaves %d, because a deleted Job's ENIs stay %d s in cool-down and runs started in that time hold more.", [model.describe(w), row.demand - frees(c, w, lever_patch("ttl", w, 0)), model.release_window]) if {
	model.on_delete
	w.kind == "CronJob"
	model.time_aware(w)
	not ttl_fix_for(fixes, w.id)
	some c in row.contributors
	c.id == w.id
} else := ""

ttl_fix_for(fixes, id) if {
	some fix in fixes
	fix.workload == id
	contains(fix.change, "ttlSecondsAfterFinished")
}

# Running pods an autoscaler decides: the count is its maximum, not the target's replicas,
# and the message says so.
scaled(row) := "" if {
	count(scaled_contributors(row)) == 0
} else := sprintf(" Running pods counted at their autoscaler's maximum: %s.", [concat(", ", scaled_contributors(row))])

scaled_contributors(row) := [sprintf("%s %d (%s %s)", [model.describe(w), c.active, w.scaledBy.kind, w.scaledBy.name]) |
	some c in row.contributors
	c.active > 0
	w := model.contributor_workload(c)
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
	array.concat(array.concat(backoff_fixes(row), deadline_fixes(row)), type_fixes(row)),
)

# A KEDA ScaledJob's finished Jobs with a TTL of one polling interval: at most 2 x
# maxReplicaCount of them are kept (model.scaled_job_kept).
scaled_job_ttl_fixes(row) := [fix |
	model.on_delete
	some c in candidates(row)
	w := model.contributor_workload(c)
	model.is_scaled_job(w)
	w.job.ttlSecondsAfterFinished == null
	n := model.numbers_of_workload(w)
	kept := min([n.K, 2 * n.A])
	frees := (n.K - kept) * n.T
	frees >= excess(row)
	fix := {
		"workload": c.id,
		"change": sprintf("set spec.jobTargetRef.ttlSecondsAfterFinished to %d (the polling interval) on %s (frees %d)", [w.scaledJob.pollingInterval, model.describe(w), frees]),
		"field": model.job_field(w, "ttlSecondsAfterFinished"),
		"lever": "ttl",
		"set": [{"field": model.job_field(w, "ttlSecondsAfterFinished"), "value": w.scaledJob.pollingInterval}],
	}
]

excess(row) := row.demand - row.branchInterfaces

# Only a contributor that holds at least the excess can free enough with a change of its own:
# a TTL frees what it holds, fewer kept Jobs or a lower backoffLimit free part of it. So the
# fixes look at those, however many contributors the row has.
candidates(row) := [c |
	some c in model.row_contributors_holding(row, excess(row))
	not separated_in(row, c.id)
]

# A CronJob the row counts by its busy windows (onCompletion) frees an unknown share of what
# it holds there: no change of its own is offered as a fix.
separated_in(row, id) if id in object.get(object.get(row, "scheduleSeparated", {}), "workloads", [])

# What a workload would hold at once with a change applied: the model evaluated again on the
# changed fields, so a fix is offered only when the node then fits, with the numbers it frees.
held_with(w, patch) := model.numbers_of(object.union(model.numbers_view(w), patch)).held

frees(c, w, patch) := c.held - held_with(w, patch)

# The largest value of a lever (ttl, history, backoff) in [lo, hi) for which the row fits,
# given that lo fits and hi does not, and that the figures only grow with the value: a
# bisection unrolled to 31 steps, enough for any int32 field, without builders of unbounded
# size (the policies may not use numbers.range).
largest_fitting(lever, row, c, w, lo, hi) := s31[0] if {
	s0 := [lo, hi]
	s1 := bisect_step(lever, row, c, w, s0)
	s2 := bisect_step(lever, row, c, w, s1)
	s3 := bisect_step(lever, row, c, w, s2)
	s4 := bisect_step(lever, row, c, w, s3)
	s5 := bisect_step(lever, row, c, w, s4)
	s6 := bisect_step(lever, row, c, w, s5)
	s7 := bisect_step(lever, row, c, w, s6)
	s8 := bisect_step(lever, row, c, w, s7)
	s9 := bisect_step(lever, row, c, w, s8)
	s10 := bisect_step(lever, row, c, w, s9)
	s11 := bisect_step(lever, row, c, w, s10)
	s12 := bisect_step(lever, row, c, w, s11)
	s13 := bisect_step(lever, row, c, w, s12)
	s14 := bisect_step(lever, row, c, w, s13)
	s15 := bisect_step(lever, row, c, w, s14)
	s16 := bisect_step(lever, row, c, w, s15)
	s17 := bisect_step(lever, row, c, w, s16)
	s18 := bisect_step(lever, row, c, w, s17)
	s19 := bisect_step(lever, row, c, w, s18)
	s20 := bisect_step(lever, row, c, w, s19)
	s21 := bisect_step(lever, row, c, w, s20)
	s22 := bisect_step(lever, row, c, w, s21)
	s23 := bisect_step(lever, row, c, w, s22)
	s24 := bisect_step(lever, row, c, w, s23)
	s25 := bisect_step(lever, row, c, w, s24)
	s26 := bisect_step(lever, row, c, w, s25)
	s27 := bisect_step(lever, row, c, w, s26)
	s28 := bisect_step(lever, row, c, w, s27)
	s29 := bisect_step(lever, row, c, w, s28)
	s30 := bisect_step(lever, row, c, w, s29)
	s31 := bisect_step(lever, row, c, w, s30)
}

bisect_step(lever, row, c, w, [lo, hi]) := [lo, hi] if {
	hi - lo <= 1
} else := [mid, hi] if {
	mid := floor((lo + hi) / 2)
	lever_fits(lever, row, c, w, mid)
} else := [lo, floor((lo + hi) / 2)]

lever_fits(lever, row, c, w, v) if frees(c, w, lever_patch(lever, w, v)) >= excess(row)

lever_patch("ttl", w, v) := {"job": object.union(w.job, {"ttlSecondsAfterFinished": v})}

lever_patch("backoff", w, v) := {"job": object.union(w.job, {"backoffLimit": v})}

lever_patch("deadline", w, v) := {"job": object.union(w.job, {"activeDeadlineSeconds": v})}

lever_patch("history", w, v) := {"cronJob": object.union(w.cronJob, {
	"successfulJobsHistoryLimit": v - min([v, w.cronJob.failedJobsHistoryLimit]),
	"failedJobsHistoryLimit": min([v, w.cronJob.failedJobsHistoryLimit]),
})}

# TTL: the largest ttlSecondsAfterFinished (up to a day, or below the one set) after which the
# row fits. Under onDelete a TTL frees a CronJob's finished Jobs sooner; a standalone run's
# pods all exist when it finishes, so a TTL does not lower its peak.
ttl_fixes(row) := [fix |
	model.on_delete
	some c in candidates(row)
	w := model.contributor_workload(c)
	w.kind == "CronJob"
	model.time_aware(w)
	hi := ttl_ceiling(w)
	lever_fits("ttl", row, c, w, 0)
	ttl := largest_fitting("ttl", row, c, w, 0, hi)
	fix := {
		"workload": c.id,
		"change": sprintf("set %s to %d or less on %s (frees %d)", [model.ttl_path(w), ttl, model.describe(w), frees(c, w, lever_patch("ttl", w, ttl))]),
		"field": model.ttl_path(w),
		"lever": "ttl",
		"set": [{"field": model.ttl_path(w), "value": ttl}],
	}
]

ttl_ceiling(w) := w.job.ttlSecondsAfterFinished if {
	w.job.ttlSecondsAfterFinished != null
} else := 86401

# History: the most finished Jobs the CronJob may keep (successfulJobsHistoryLimit +
# failedJobsHistoryLimit) for the row to fit.
history_fixes(row) := [fix |
	model.on_delete
	some c in candidates(row)
	w := model.contributor_workload(c)
	w.kind == "CronJob"
	kept := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	kept > 0
	lever_fits("history", row, c, w, 0)
	k := largest_fitting("history", row, c, w, 0, kept)
	fix := {
		"workload": c.id,
		"change": sprintf("keep at most %d finished Jobs of %s (successfulJobsHistoryLimit + failedJobsHistoryLimit = %d, now %d; frees %d)", [k, model.describe(w), k, kept, frees(c, w, lever_patch("history", w, k))]),
		"field": "spec.successfulJobsHistoryLimit",
		"lever": "history",
		"set": history_set(w, lever_patch("history", w, k).cronJob),
	}
]

# The history limits that change, and their new values: a limit left as it is stays out, so
# that `eni-lint fix` writes no line that changes nothing.
history_set(w, limits) := [{"field": sprintf("spec.%s", [name]), "value": limits[name]} |
	some name in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"]
	limits[name] != w.cronJob[name]
]

# activeDeadlineSeconds: the largest deadline for which the row fits. It bounds how long a run
# lasts: under Forbid a run that always ends before the next time leaves no skipped time to
# catch up, and under Allow fewer runs overlap.
deadline_fixes(row) := [fix |
	some c in candidates(row)
	w := model.contributor_workload(c)
	w.kind == "CronJob"
	w.cronJob.concurrencyPolicy in {"Forbid", "Allow"}
	w.cronJob.periodSeconds > 0
	hi := deadline_ceiling(w)
	hi > 0
	lever_fits("deadline", row, c, w, 0)
	d := largest_fitting("deadline", row, c, w, 0, hi)

	# A run needs time for its work: a deadline under a minute would fit by killing it.
	d >= min_deadline_fix
	fix := {
		"workload": c.id,
		"change": sprintf("set %s to %d or less on %s (frees %d)", [model.job_field(w, "activeDeadlineSeconds"), d, model.describe(w), frees(c, w, lever_patch("deadline", w, d))]),
		"field": model.job_field(w, "activeDeadlineSeconds"),
		"lever": "deadline",
		"set": [{"field": model.job_field(w, "activeDeadlineSeconds"), "value": d}],
	}
]

min_deadline_fix := 60

deadline_ceiling(w) := w.job.activeDeadlineSeconds if {
	w.job.activeDeadlineSeconds != null
} else := 604800

# backoffLimit: the largest value below the current one for which the row fits.
backoff_fixes(row) := [fix |
	some c in candidates(row)
	c.hidden > 0
	w := model.contributor_workload(c)
	w.job != null
	w.job.backoffLimitPerIndex == null
	current := w.job.backoffLimit
	current > 0
	lever_fits("backoff", row, c, w, 0)
	b := largest_fitting("backoff", row, c, w, 0, current)
	fix := {
		"workload": c.id,
		"change": sprintf("lower backoffLimit of %s from %d to %d (frees %d)", [model.describe(w), current, b, frees(c, w, lever_patch("backoff", w, b))]),
		"field": model.job_field(w, "backoffLimit"),
		"lever": "backoff",
		"set": [{"field": model.job_field(w, "backoffLimit"), "value": b}],
	}
]

type_fixes(row) := [fix |
	family := split(row.instanceType, ".")[0]
	bigger := [s |
		some s in object.get(input.instanceFamilies, family, [])
		s.branchInterfaces >= min([row.held, row.hidden + row.active])
		s.branchInterfaces > row.branchInterfaces
	]
	count(bigger) > 0
	fix := {
		"change": type_change(row, bigger[0]),
		"instanceType": bigger[0].name,
		"lever": "instance-type",
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
