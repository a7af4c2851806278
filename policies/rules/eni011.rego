# METADATA
# title: Workloads hold branch ENIs, but no node group is known
# description: |
#   Every verdict compares what workloads need with what a node can give. When the scanned
#   pods hold branch ENIs but no node group is known (none given on the command line or in the
#   config, none declared by the scanned Terraform, eksctl or Karpenter), no capacity can be
#   checked and an exhaustion would pass unseen. That is a failed gate, not a clean one.
# custom:
#   id: ENI011
#   severity: error
#   numbers: |
#     How many workloads hold branch ENIs, and the largest demand of one of them on a node.
#   remediation: |
#     Give the node groups the pods run on: --node-group NAME=TYPE[,TYPE…] (repeatable),
#     nodeGroups: in .eni-lint.yaml, the Action's node-groups input, or scan the Terraform,
#     eksctl ClusterConfig or Karpenter NodePools that declare them. To accept an unknown
#     capacity on purpose, set this rule's severity in the config's rules: section.
#   otherModel: |
#     The same under both release models.
package eni.rules.eni011

import data.eni.model

finding contains f if {
	count(input.nodeGroups) == 0
	workloads := model.eni_workloads
	count(workloads) > 0
	first := sort([w.id | some w in workloads])[0]
	some w in workloads
	w.id == first
	demand := max([d | some n in model.numbers; d := n.held])
	f := model.finding(
		"ENI011", "",
		sprintf("workloads that hold branch ENIs: %d (%s needs up to %d on one node), but no node group is known, so no capacity is checked: give them with --node-group NAME=TYPE, nodeGroups: in .eni-lint.yaml or the Action's node-groups input, or scan the Terraform, eksctl or Karpenter that declares them", [
			count(workloads), model.describe(w), demand,
		]),
		w, [w.podPath],
		{"workloads": count(workloads), "maxDemand": demand},
	)
}
