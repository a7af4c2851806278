# METADATA
# title: SecurityGroupPolicy that does nothing
# description: |
#   The VPC resource controller ignores a SecurityGroupPolicy with neither podSelector nor
#   serviceAccountSelector, or with no security group IDs. A policy that applies but selects no
#   workload in the scanned files may target workloads elsewhere, or may be a leftover.
# custom:
#   id: ENI007
#   severity: info
#   numbers: |
#     None.
#   remediation: |
#     Add a selector and spec.securityGroups.groupIds, or delete the policy. If it selects
#     workloads kept in another folder, scan that folder too so the verdicts include them.
#   otherModel: |
#     The same under both release models.
package eni.rules.eni007

import data.eni.model

finding contains f if {
	some sgp in input.securityGroupPolicies
	reason := model.sgp_ignored_reason(sgp)
	f := model.finding(
		"ENI007", "",
		sprintf("SecurityGroupPolicy %s/%s is ignored by the VPC resource controller: %s", [sgp.namespace, sgp.name, reason]),
		sgp, ["spec.securityGroups", "spec", "metadata.name"],
		{"reason": reason},
	)
}

used := {s.id |
	some sel in model.distinct_selections
	some s in array.concat(sel.matched, sel.unknownSA)
}

finding contains f if {
	some sgp in model.matchable_sgps
	not sgp.id in used
	f := model.finding(
		"ENI007", "",
		sprintf("SecurityGroupPolicy %s/%s selects no workload in the scanned files", [sgp.namespace, sgp.name]),
		sgp, ["spec.podSelector", "spec.serviceAccountSelector", "spec"],
		{},
	)
}
