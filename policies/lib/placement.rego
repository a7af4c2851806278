# The branch-ENI model, §4 of docs/model.md: the node groups a pod can land on (selectors,
# affinity, tolerations, Fargate and Karpenter requirements).
package eni.model

import data.eni.selectors

# ---------------------------------------------------------------------------------------
# §4 Where a pod can land

# The capacity of one instance type in one node group: branch interfaces, limited by the
# group's max pods when it sets them.
_capacity(g, t) := min([t.branchInterfaces, g.maxPods]) if {
	g.maxPods != null
	t.trunking
} else := t.branchInterfaces

# Where a workload may land depends only on its placement key: the pod template fields the
# scheduler matches against nodes. Workloads that share a key land on the same (node group,
# type) entries, so placement is evaluated once per key, and a row sums keys, not workloads:
# the cost follows keys x entries, not workloads x entries (docs/architecture.md). A key is
# [nodeSelector, requiredNodeAffinity, tolerations].
_placement_key_of := {w.id: [w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations] | some w in eni_workloads}

_placement_keys := {k | some [k, _, _] in class_list}

# The keys in a fixed order, and each key's position in it: the report names a workload's
# node groups by the position of its key.
placement_key_list := [k | some k in _placement_keys]

placement_key_index := {k: i | some i, k in placement_key_list}

key_placements := {k: _key_placements_of(k) | some k in _placement_keys}

_key_placements_of(k) := [{"group": g, "type": t} |
	pod := {"nodeSelector": k[0], "requiredNodeAffinity": k[1], "tolerations": k[2]}
	some g in input.nodeGroups
	some t in g.instanceTypes
	selectors.admits(pod, t.nodeLabels, g.taints)
]

# Every (node group, instance type) a workload may land on.
_placements := {id: key_placements[k] | some id, k in _placement_key_of}

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
			b := _capacity(p.group, p.type)
		]),
	}
}

_facts_of(w) := key_facts[_placement_key_of[w.id]]

# The ENI workloads of each key, by id.
key_ids := {k: ids | some k in _placement_keys; ids := [w.id | some i in key_classes[k]; some w in class_members[i]]}
