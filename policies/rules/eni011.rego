# METADATA
# title: Workloads hold branch ENIs, but no node group with a known capacity is
# description: |
#   Every verdict compares what workloads need with what a node can give. When the scanned
#   pods hold branch ENIs but no node group is known (none given on the command line or in the
#   config, none declared by the scanned Terraform, eksctl or Karpenter), no capacity can be
#   checked and an exhaustion would pass unseen. The same holds for a workload whose every
#   node group has instance types that cannot be known from the code (a data source, a
#   variable set by the pipeline) or that eni-lint's table does not have: ENI006 says what is
#   unknown, and this rule says that no verdict was made. That is a failed gate, not a clean one.
# custom:
#   id: ENI011
#   severity: error
#   numbers: |
#     How many workloads hold branch ENIs, and the largest demand of one of them on a node; for
#     a workload with only unknown capacity, the node groups and how many workloads share them.
#   remediation: |
#     Give the node groups the pods run on: --node-group NAME=TYPE[,TYPE…] (repeatable),
#     nodeGroups: in .eni-lint.yaml, the Action's node-groups input, or scan the Terraform,
#     eksctl ClusterConfig or Karpenter NodePools that declare them. Where the types exist only
#     when Terraform runs, give eni-lint the plan: `terraform plan -out plan.out && terraform
#     show -json plan.out > plan.json`, then `eni-lint check --terraform-plan plan.json`. For a
#     type the table lacks, add it under limits: in .eni-lint.yaml. To accept an unknown
#     capacity on purpose, set this rule's severity in the config's rules: section.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: workloads, type: integer, about: "how many workloads hold branch ENIs"}
#     - {key: maxDemand, type: integer, about: "the largest demand of one of them on a node"}
#     - {key: nodeGroups, type: array, about: "for a placement key whose node groups all have unknown capacity: those node groups"}
package eni.rules.eni011

import data.eni.model

finding contains f if {
	count(input.nodeGroups) == 0
	workloads := model.eni_workloads
	count(workloads) > 0
	first := sort([w.id | some w in workloads])[0]
	some w in workloads
	w.id == first
	demand := max([d | some n in model.class_numbers; d := n.held])
	f := model.finding(
		"ENI011", "",
		sprintf("workloads that hold branch ENIs: %d (%s needs up to %d on one node), but no node group is known, so no capacity is checked: give them with --node-group NAME=TYPE, nodeGroups: in .eni-lint.yaml or the Action's node-groups input, or scan the Terraform, eksctl or Karpenter that declares them", [
			count(workloads), model.describe(w), demand,
		]),
		w, [w.podPath],
		{"workloads": count(workloads), "maxDemand": demand},
	)
}

# A placement key whose every landing place has an unknown capacity: its workloads get no
# verdict. One finding per key, on its first workload (by id), with how many share it.
finding contains f if {
	count(input.nodeGroups) > 0
	some k, facts in model.key_facts
	facts.count > 0
	count(facts.known) == 0
	ids := sort(model.key_ids[k])
	count(ids) > 0
	w := model.workload_by_id[ids[0]]
	groups := facts.groupNames
	f := model.finding(
		"ENI011", "",
		sprintf("%s holds branch ENIs, but every node group it may land on (%s) has instance types whose capacity is unknown, so no capacity is checked%s: %s", [
			model.describe(w), concat(", ", groups), others(count(ids) - 1), way_out(k),
		]),
		w, [model.placement_path(w)],
		{"workloads": count(ids), "nodeGroups": groups, "maxDemand": max([model.class_numbers[i].held | some i in model.key_classes[k]])},
	)
}

others(0) := ""

others(n) := sprintf(" (nor for the %s landing there too)", [model.plural(n, "other workload")]) if n > 0

# Types only Terraform knows: the plan is the way out; types the table lacks: limits:.
way_out(k) := "these types exist only when Terraform runs: give eni-lint the plan (terraform plan -out plan.out && terraform show -json plan.out > plan.json, then --terraform-plan plan.json), or declare the node group with --node-group or nodeGroups: in .eni-lint.yaml" if {
	some p in model.key_placements[k]
	p.type.unknownReason
} else := "add the types under limits: in .eni-lint.yaml (branchInterfaces, trunking), or declare the node group with --node-group"
