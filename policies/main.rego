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

# One entry per ENI workload: what its class shares (numbers, hidden, unbounded, placement),
# worked out once per class, and what is its own.
workloads := [entry |
	some i, ws in model.class_members
	shared := class_entry[i]
	some w in ws
	entry := object.union(shared, {
		"id": w.id,
		"kind": w.kind,
		"namespace": w.namespace,
		"name": w.name,
		"selectedBy": object.get(model.selection, [w.id, "names"], []),
		"handRequested": count(w.pod.podEniRequests) > 0,
		"scaledBy": object.get(w, "scaledBy", null),
	})
]

class_entry := {i: {
	"numbers": n,
	"hidden": model.class_contribution[i].hidden,
	"unbounded": [r.reason | some r in model.class_unbounded[i]],
	"placementKey": model.placement_key_index[model.class_list[i][0]],
} |
	some i, n in model.class_numbers
}
