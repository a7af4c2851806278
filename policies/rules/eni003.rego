# METADATA
# title: One Job run can starve itself of branch ENIs
# description: |
#   While a Job runs, its failed and succeeded pods keep their branch ENIs but the scheduler
#   sees only the pods still running (at most parallelism). Just before the run finishes, one
#   run can hold T ENIs at once. When T is larger than a node's branch interfaces, the Job can
#   block itself on a single node: its next pod is scheduled onto a node with no ENI left. A TTL
#   acts only after the Job finishes, so it does not help.
# custom:
#   id: ENI003
#   severity: error
#   numbers: |
#     T (see ENI002) against B, the branch interfaces of each instance type the Job may land on.
#     Error when T > B on every such type; warning when only on some.
#   remediation: |
#     Lower completions or backoffLimit so that completions + backoffLimit <= B, split the work
#     into several Jobs, or run the Job on a larger instance type (m5.xlarge has 18).
#   otherModel: |
#     Warning under onCompletion: terminated pods release their ENI after the cool-down, so the
#     blocked pod waits one or two cool-down periods instead of forever.
#   details:
#     - {key: T, type: integer, about: "terminated pods one run leaves"}
#     - {key: running, type: integer, about: "pods of one run running at once"}
#     - {key: starvingOn, type: array, about: "the types whose branch ENIs one run's T exceeds, each `{nodeGroup, instanceType, branchInterfaces}`; in the JSON report, the id of the list in its `starvations`"}
#     - {key: everywhere, type: boolean, about: "T exceeds every type the workload can land on"}
#     - {key: fixes, type: array, about: "the backoffLimit after which one run fits the smallest type; empty when none does"}
package eni.rules.eni003

import data.eni.model

finding contains f if {
	not model.fan_out_apart
	# The trunking types a placement key may land on, smallest first: a run starves where
	# its T exceeds one. Only the workloads whose T exceeds the smallest are looked at.
	some k, facts in model.key_facts
	targets := facts.capacities
	count(targets) > 0
	some i in model.key_classes[k]
	n := model.class_numbers[i]
	n.T > targets[0][0]
	model.class_views[i].job != null
	starving := [[g, t, b] | some [b, g, t] in targets; n.T > b]
	everywhere := count(starving) == count(targets)
	# Built once per class, before its members: their findings share the one list.
	starving_on := [{"nodeGroup": g, "instanceType": t, "branchInterfaces": b} | some [g, t, b] in starving]
	some w in model.class_members[i]
	f := model.finding(
		"ENI003", severity(everywhere),
		sprintf("one run of %s can hold %d branch ENIs at once (%s), more than %s offers (%d); the scheduler sees at most %d of its pods. %s", [
			model.describe(w), n.T, t_formula(w), where(starving, everywhere), starving[0][2], n.running, advice(w, starving[0][2]),
		]),
		w, model.t_paths(w),
		{"T": n.T, "running": n.running, "starvingOn": starving_on, "everywhere": everywhere, "fixes": backoff_fixes(w, n, targets[0][0])},
	)
}

# The backoffLimit after which one run fits the smallest type it may land on: T is completions
# (or parallelism) + backoffLimit, so the limit drops by the excess. None when even 0 leaves T
# above B, or with backoffLimitPerIndex, whose T has another form.
backoff_fixes(w, n, b) := [{
	"workload": w.id,
	"change": sprintf("lower backoffLimit of %s from %d to %d (one run then holds at most %d)", [model.describe(w), w.job.backoffLimit, limit, b]),
	"field": model.job_field(w, "backoffLimit"),
	"lever": "backoff",
	"set": [{"field": model.job_field(w, "backoffLimit"), "value": limit}],
}] if {
	w.job.backoffLimitPerIndex == null
	limit := b - (n.T - w.job.backoffLimit)
	limit >= 0
	limit < w.job.backoffLimit
} else := []

severity(everywhere) := "error" if {
	everywhere
	model.on_delete
} else := "warning"

where(starving, true) := sprintf("%s in node group %q", [starving[0][1], starving[0][0]]) if {
	count(starving) == 1
} else := sprintf("every type it may land on, the smallest being %s", [smallest(starving)])

where(starving, false) := sprintf("%s in node group %q (it may also land on larger types)", [smallest(starving), starving[0][0]])

smallest(starving) := sort([[b, t] | some [_, t, b] in starving])[0][1]

t_formula(w) := sprintf("completions %d + backoffLimit %d", [w.job.completions, w.job.backoffLimit]) if {
	w.job.completions != null
	w.job.backoffLimitPerIndex == null
} else := sprintf("parallelism %d + backoffLimit %d", [w.job.parallelism, w.job.backoffLimit]) if {
	w.job.completions == null
} else := sprintf("completions %d x (backoffLimitPerIndex %d + 1), at most completions + backoffLimit", [w.job.completions, w.job.backoffLimitPerIndex])

advice(w, b) := sprintf("Keep completions + backoffLimit at or below %d, or use a larger instance type.", [b]) if {
	w.job.completions != null
} else := sprintf("Keep parallelism + backoffLimit at or below %d, or use a larger instance type.", [b])
