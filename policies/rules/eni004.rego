# METADATA
# title: SGP pods may land only on instance types without ENI trunking
# description: |
#   Instance types without trunking support (every t2, t3, t3a and t4g size, all Xen types such
#   as m4 and c4, and a few others) advertise no vpc.amazonaws.com/pod-eni capacity. The
#   scheduler never places an SGP pod on them: when those are the only nodes a workload may use,
#   its pods stay Pending with "Insufficient vpc.amazonaws.com/pod-eni". When a node group mixes
#   such types with trunking ones, nodes of the first kind add no capacity for these pods.
# custom:
#   id: ENI004
#   severity: error
#   numbers: |
#     The eligible instance types of each node group the workload may land on, with their
#     branch interfaces (0 without trunking).
#   remediation: |
#     Use trunking-compatible types (m5, m6i, c6i, r6i, m7g, …; `eni-lint limits TYPE` tells),
#     or point the workload's nodeSelector or affinity at a node group that has them. In a mixed
#     group, drop the types without trunking or do not count on them for SGP pods.
#   otherModel: |
#     The same under both release models: this is about capacity 0, not about release timing.
#   details:
#     - {key: instanceTypes, type: array, about: "the types the workload may land on, none with trunking"}
#     - {key: nodeGroup, type: string, about: "for the mixed-group warning: the node group"}
#     - {key: withoutTrunking, type: array, about: "for the mixed-group warning: its types without trunking"}
#     - {key: withTrunking, type: array, about: "for the mixed-group warning: its types with trunking"}
package eni.rules.eni004

import data.eni.model

# Types without trunking are rare in SGP clusters; when no node group has one, nothing here can
# fire, and the per-workload checks are skipped.
groups_with_non_trunking := {g |
	some g in input.nodeGroups
	some t in g.instanceTypes
	t.known
	not t.trunking
}

# For each mixed group and placement key that lands on both kinds of its types: the names of
# each kind, computed once per key instead of once per workload.
mixed_on := {[g.id, k]: [without, trunked] |
	some g in mixed_candidates
	some k, ps in model.key_placements
	here := [p.type | some p in ps; p.group.id == g.id; p.type.known]
	without := sort({t.name | some t in here; not t.trunking})
	trunked := sort({t.name | some t in here; t.trunking})
	count(without) > 0
	count(trunked) > 0
}

# Karpenter launches only trunking types for pods that request vpc.amazonaws.com/pod-eni, so
# a pool's types without trunking are no waste for them: only other groups count as mixed.
mixed_candidates := {g | some g in groups_with_non_trunking; not g.picksTrunkingTypes}

finding contains f if {
	count(groups_with_non_trunking) > 0
	some k, facts in model.key_facts
	count(facts.known) > 0
	facts.trunking == 0
	facts.unknown == 0
	some i in model.key_classes[k]
	some w in model.class_members[i]
	types := sort({p.type.name | some p in facts.known})
	f := model.finding(
		"ENI004", "",
		sprintf("%s may only land on instance types without ENI trunking (%s): its pods stay Pending with Insufficient vpc.amazonaws.com/pod-eni", [
			model.describe(w), concat(", ", types),
		]),
		w, [model.placement_path(w)],
		{"instanceTypes": types},
	)
}

finding contains f if {
	some g in mixed_candidates
	some k, facts in model.key_facts
	g.id in facts.groupIds
	[without, trunked] := mixed_on[[g.id, k]]
	some i in model.key_classes[k]
	some w in model.class_members[i]
	f := model.finding(
		"ENI004", "warning",
		sprintf("node group %q mixes instance types without ENI trunking (%s) with trunking ones (%s): nodes of the first kind add no capacity for %s", [
			g.name, concat(", ", without), concat(", ", trunked), model.describe(w),
		]),
		w, [model.placement_path(w)],
		{"nodeGroup": g.name, "withoutTrunking": without, "withTrunking": trunked},
	)
}
