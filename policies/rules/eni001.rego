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
#     The finding lists remedies: small sets of changes to one of the workloads that hold the
#     most, each proved by evaluating the model again with it applied (demand N of B), in the order
#     of what they cost the workload's owner. First a CronJob's ttlSecondsAfterFinished, alone
#     or with an activeDeadlineSeconds, concurrencyPolicy Forbid or startingDeadlineSeconds
#     (the TTL only removes finished Jobs; when none fits alone the message says why); then one
#     change of the deadline or schedule; then history limits (successful Jobs first, a failed
#     one kept); then a lower backoffLimit (a failed run is retried fewer times); last an
#     instance type with more branch interfaces (an infrastructure change). Durations are
#     values people write (30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 6, 12 h, 1, 2, 7 d), the largest
#     that fits, with the exact limit after it. A TTL does not lower a standalone Job's peak:
#     all of its pods exist when it finishes. `eni-lint fix` writes the first remedy, never a
#     backoffLimit or history limit of 0 unless --prefer names that lever.
#   otherModel: |
#     Under onDelete, a pod holds its ENI from its creation until W after it is deleted: a
#     CronJob's finished Jobs hold until their TTL or the history limits delete them, plus W.
#     Under onCompletion, only until W after it ends: a CronJob holds what its runs can create
#     within one window (three runs at most for schedules at least W apart, when a skipped run
#     catches up); TTL and history limits do not matter, fewer pods per run and the back-off do.
#   details:
#     - {key: nodeGroup, type: string, about: "the node group of the binding row"}
#     - {key: nodeGroupLocation, type: object, about: "where the node group is declared (`{file, line, column}`)"}
#     - {key: instanceType, type: string, about: "the binding instance type: the smallest capacity, then the largest overshoot"}
#     - {key: variant, type: string, about: "the pool, when the type is listed per launch-time label; absent otherwise"}
#     - {key: branchInterfaces, type: integer, about: "branch ENIs one node of the type has"}
#     - {key: hidden, type: integer, about: "pods that hold a branch ENI while kube-scheduler no longer counts them"}
#     - {key: active, type: integer, about: "pods kube-scheduler counts"}
#     - {key: demand, type: integer, about: "min(held, hidden + min(active, branchInterfaces)): the row's figure"}
#     - {key: atLeast, type: boolean, about: "a contributor has no bound, so the figures are lower bounds"}
#     - {key: alsoExceeding, type: array, about: "the other types of the group that exceed"}
#     - {key: contributors, type: array, about: "as in `instanceTypes`: the 20 that hold the most, only those that hold any"}
#     - {key: otherContributors, type: integer, about: "how many more hold some"}
#     - {key: unlistedContributors, type: array, about: "the contributors past the 20, for the witness search, which removes them", internal: true}
#     - {key: fixes, type: array, about: "the remedies, cheapest first, each `{change, rank, lever, levers, set?, field?, workload?, demandAfter?, frees?, instanceType?}` and each proved to fit (docs/json-report.md says more)"}
#     - {key: ttlChecks, type: array, about: "for listed contributors without a TTL, what ENI002's TTL leaves: `{workload, ttl, demandAfter, atLeast, remedy}`"}
package eni.rules.eni001

import data.eni.model
import data.eni.remedies

finding contains f if {
	some g in input.nodeGroups
	exceeding := remedies.exceeding_of[g.id]

	# The binding type: the smallest capacity, then the largest overshoot.
	row := remedies.binding_row(exceeding)
	top := sort([[0 - c.hidden, c.id] | some c in row.contributors; c.hidden > 0])[0][1]
	w := model.top_workloads[top]
	fixes := remedies.by_group[g.id]
	others := [model.type_label(r) | some r in exceeding; model.type_label(r) != model.type_label(row)]
	shown := [c | some c in row.contributors; c.hidden + c.active > 0]

	# The node group is the finding's row object: an ignore comment above it (a Terraform
	# aws_eks_node_group) suppresses the finding as one on the workload does.
	f := object.union(model.finding(
		"ENI001", "",
		message(g, row, exceeding, w, fixes, others),
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
			"ttlChecks": ttl_checks(row, exceeding, shown, fixes),
		}),
	), {"rowObjects": [g.id]})
}

# What ENI002's own change (the TTL `eni-lint fix` writes) leaves of this finding, for each
# listed contributor ENI002 warns about: the engine adds it to that warning, which then does
# not promise more than it does (pkg/rules, remaining.go).
ttl_checks(row, rows, shown, fixes) := [check |
	some c in shown
	w := model.contributor_workload(c)
	w.job != null
	w.job.ttlSecondsAfterFinished == null
	not model.argo(w)
	ctx := {"row": row, "rows": rows, "c": c, "w": w}
	after := remedies.outcome(ctx, {"ttl": remedies.fix_ttl})
	not after.clears
	check := {
		"workload": w.id,
		"ttl": remedies.fix_ttl,
		"demandAfter": after.demand,
		"atLeast": after.bounded == false,
		"remedy": first_or_empty([fix.change | some fix in fixes; fix.workload == w.id; "ttl" in fix.levers]),
	}
]

first_or_empty(list) := list[0] if {
	count(list) > 0
} else := ""

# The variant of the row, in the details only when the pool lists the type more than once.
variant_details(row) := {"variant": row.variant} if {
	row.variant != ""
} else := {}

message(g, row, rows, w, fixes, others) := sprintf("%s in node group %q: %s%d branch ENIs can be in use where %d exist (%d held by terminated pods the scheduler no longer counts + %d running). %s holds the most: %d.%s%s%s%s%s", [
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
	stopping(row),
	ttl_sentence(row, rows, w, fixes),
	fix_sentence(fixes),
	also(others),
])

# Under onDelete a CronJob's TTL is the first lever a platform engineer reaches for: when no TTL
# alone of the CronJob that holds the most fits, the message says why, in the model's terms.
ttl_sentence(row, rows, w, fixes) := sentence if {
	remedies.ttl_lever(w)
	not ttl_alone_for(fixes, w.id)
	some c in row.contributors
	c.id == w.id
	ctx := {"row": row, "rows": rows, "c": c, "w": w}
	sentence := ttl_reason(ctx)
} else := ""

ttl_alone_for(fixes, id) if {
	some fix in fixes
	fix.workload == id
	fix.levers == ["ttl"]
}

shortest_ttl := remedies.durations[0]

ttl_reason(ctx) := sprintf(" No ttlSecondsAfterFinished alone fits %s: with concurrencyPolicy Allow and no activeDeadlineSeconds a run can last for days and every run started meanwhile keeps its pods, so nothing bounds what it holds until a deadline does.", [model.describe(ctx.w)]) if {
	ctx.w.cronJob.concurrencyPolicy == "Allow"
	ctx.w.job.activeDeadlineSeconds == null
} else := sprintf(" No ttlSecondsAfterFinished alone fits %s: even %d s leaves %d. A run has no activeDeadlineSeconds, so it can last for days; when it ends, the run for the time it skipped starts at once (concurrencyPolicy Forbid) and the next scheduled one follows, and the pods of the runs that end within the TTL plus the %d s cool-down after deletion hold their ENIs together.", [model.describe(ctx.w), shortest_ttl, remedies.demand_after(ctx, {"ttl": shortest_ttl}), model.release_window]) if {
	ctx.w.cronJob.concurrencyPolicy == "Forbid"
	ctx.w.job.activeDeadlineSeconds == null
} else := sprintf(" No ttlSecondsAfterFinished alone fits %s: even %d s leaves %d, because a deleted Job's ENIs stay %d s in cool-down and the runs started in that time hold more.", [model.describe(ctx.w), shortest_ttl, remedies.demand_after(ctx, {"ttl": shortest_ttl}), model.release_window])

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

# Pods still stopping long after their runs count at most at the node's capacity
# (the model's _type_row): the message says so when that counted fewer.
stopping(row) := "" if {
	object.get(row, ["lateStopping", "overCapacity"], 0) == 0
} else := sprintf(" Of the pods still stopping long after their runs (terminationGracePeriodSeconds), %d are counted: they were all running at one moment, and the node runs at most %d SGP pods at once.", [
	row.lateStopping.pods - row.lateStopping.overCapacity,
	row.branchInterfaces,
])

at_least(row) := "at least " if {
	row.atLeast
} else := ""

also(others) := "" if {
	count(others) == 0
} else := sprintf(" Also exceeded on %s.", [concat(", ", others)])

# The remedies themselves are details.fixes: every report lists them, one per line or bullet,
# after the message. The message only says when there is none.
fix_sentence(fixes) := "" if {
	count(fixes) > 0
} else := " No change of one workload fits; combine the remedies in `eni-lint explain ENI001`."
