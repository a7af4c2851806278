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
	"workloads": workloads,
	"ignores": model.active_ignores,
	"configIgnores": model.active_config_ignores,
	"placementGroups": [model.key_facts[k].groupNames | some k in model.placement_key_list],
}

# Every package under eni.rules contributes its `finding` set.
findings := [f |
	some rule
	some f in data.eni.rules[rule].finding
]

workloads := [entry |
	some w in model.eni_workloads
	n := model.numbers[w.id]
	entry := {
		"id": w.id,
		"kind": w.kind,
		"namespace": w.namespace,
		"name": w.name,
		"selectedBy": object.get(model.selection, [w.id, "names"], []),
		"handRequested": count(w.pod.podEniRequests) > 0,
		"numbers": n,
		"hidden": model.contributions[w.id].hidden,
		"unbounded": [r.reason | some r in model.unbounded_of[w.id]],
		"placementKey": model.placement_key_index[model.placement_key_of[w.id]],
		"scaledBy": object.get(w, "scaledBy", null),
	}
]
