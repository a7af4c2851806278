# METADATA
# title: A Terraform plan disagrees with the code it replaces
# description: |
#   A Terraform plan (or state) replaces the static evaluation of its root module: its node
#   groups are the ones checked. Where the code, evaluated by eni-lint, gives other instance
#   types, or declares a node group the plan does not have, the plan was made with variable
#   values eni-lint was not given (the pipeline's -var or tfvars), or it is older than the code
#   (committed, or made from another commit or environment), or eni-lint read the code wrong. The verdict uses the plan's values; this finding puts the difference on the
#   code's line, so that a stale plan cannot pass a change unseen.
# custom:
#   id: ENI014
#   severity: warning
#   numbers: |
#     The plan file, the resource address, and the instance types the code and the plan give.
#   remediation: |
#     Make the plan from the commit being checked (terraform plan -out plan.out && terraform
#     show -json plan.out > plan.json in the same job), or delete a plan committed to the
#     repository. When the pipeline's variables make the difference, give eni-lint the same
#     values (--var-file, --var) so that the code agrees, or accept the finding in the config.
#     If the plan is current and made with the same values, the difference is a bug of
#     eni-lint's: report it with the resource.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: plan, type: string, about: "the plan file"}
#     - {key: address, type: string, about: "the node group's resource or module instance"}
#     - {key: codeTypes, type: array, about: "the instance types the code gives"}
#     - {key: planTypes, type: array, about: "the instance types the plan gives"}
#     - {key: onlyInCode, type: boolean, about: "the plan has no such node group"}
package eni.rules.eni014

import data.eni.model

finding contains f if {
	some d in input.planDisagreements
	f := model.finding_at(
		"ENI014", "",
		message(d),
		d.location,
		{"plan": d.plan, "address": d.address, "codeTypes": d.codeTypes, "planTypes": d.planTypes, "onlyInCode": d.onlyInCode},
	)
}

message(d) := sprintf("node group %s is declared here but not in the Terraform plan %s, which replaces this root's evaluation: the plan was made with other variable values, or is older than the code; the plan's node groups are the ones checked", [d.address, d.plan]) if {
	d.onlyInCode
} else := sprintf("the Terraform plan %s gives node group %s the instance types %s, where the code gives %s: the plan was made with variable values eni-lint was not given (--var, --var-file), or is older than the code, or eni-lint read the code wrong; the plan's types are the ones checked", [
	d.plan, d.address, types(d.planTypes), types(d.codeTypes),
])

types(ts) := "none it can name" if {
	count(ts) == 0
} else := concat(", ", ts)
