# METADATA
# title: eni-lint report
# description: |
#   The one query eni-lint prepares and evaluates: every rule's findings, the per-instance-type
#   table and the per-workload figures, from one evaluation over the whole inventory.
package eni.main

import data.eni.model

report := {
	"findings": findings,
	"rows": model.rows,
	"workloadClasses": workload_classes,
	"selections": model.selection,
	"ignores": model.active_ignores,
	"configIgnores": model.active_config_ignores,
	"placementGroups": [model.key_facts[k].groupNames | some k in model.placement_key_list],
}

# The findings that fan out to every workload of a class, which the engine evaluates at the
# same time as the report (with input.fanOutApart set, the report leaves them out): on a
# monorepo they are a third of the report's evaluation.
fanned_out := array.concat(
	[f | some f in data.eni.rules.eni002.finding],
	[f | some f in data.eni.rules.eni003.finding],
)

# Every package under eni.rules contributes its `finding` set.
findings := [f |
	some rule
	some f in data.eni.rules[rule].finding
]

# The workloads table, by class: what the members of a class share (numbers, hidden,
# unbounded, placement) once, and the ids of its members. The engine writes one entry per
# member with its own identity and selection: a table of every workload built here cost more
# than the rows (docs/architecture.md).
workload_classes := [entry |
	some i, n in model.class_numbers
	entry := {
		"numbers": n,
		"hidden": model.class_contribution[i].hidden,
		"unbounded": [r.reason | some r in model.class_unbounded[i]],
		"placementKey": model.placement_key_index[model.class_list[i][0]],
		"members": [w.id | some w in model.class_members[i]],
	}
]
