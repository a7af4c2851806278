# METADATA
# title: Security groups for Pods used, but pod ENIs never enabled
# description: |
#   Pods get branch ENIs only on nodes where the VPC CNI runs with ENABLE_POD_ENI=true (it is
#   false by default). When the scanned code configures the VPC CNI (an aws_eks_addon for
#   vpc-cni, the EKS module's vpc-cni add-on) and defines SecurityGroupPolicies, but no
#   configuration enables pod ENIs, the policies have no effect: pods get node security groups.
#   The setting may live outside the scanned files, so this is information, not an error.
# custom:
#   id: ENI010
#   severity: info
#   numbers: |
#     The VPC CNI settings found and the SecurityGroupPolicies defined.
#   remediation: |
#     Set ENABLE_POD_ENI to "true" in the vpc-cni add-on's configuration_values, for example
#     jsonencode({ env = { ENABLE_POD_ENI = "true" } }), or scan the code that does.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: cniSettings, type: integer, about: "how many CNI settings were found"}
package eni.rules.eni010

import data.eni.model

finding contains f if {
	count(input.securityGroupPolicies) > 0
	settings := object.get(input, "cniSettings", [])
	count(settings) > 0
	count([s | some s in settings; s.enablePodEni == true]) == 0
	f := model.finding_at(
		"ENI010", "",
		sprintf("SecurityGroupPolicies are defined (%d), but the VPC CNI configuration here (%s) never sets ENABLE_POD_ENI=true, so no pod gets a branch ENI from it", [
			count(input.securityGroupPolicies), concat(", ", sort({s.source | some s in settings})),
		]),
		settings[0].location,
		{"cniSettings": count(settings)},
	)
}
