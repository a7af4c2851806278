# METADATA
# title: SGP workloads must name an owning team
# description: |
#   An example of a custom rule. Every workload whose pods hold branch ENIs must carry a
#   `team` label on its pod template, so the platform team knows whom to call when a node runs
#   out of ENIs. Custom rules read the same inventory as the built-in ones, may use the model
#   (data.eni.model), and run in the same sandbox: no network, no environment, no clock.
# custom:
#   id: ORG001
#   severity: warning
#   numbers: |
#     None.
#   remediation: |
#     Add `team: <name>` to the pod template's labels.
#   otherModel: |
#     The same under both release models.
package eni.rules.org001

import data.eni.model

finding contains f if {
	some w in model.eni_workloads
	not w.pod.labels.team
	f := model.finding(
		"ORG001", "",
		sprintf("%s holds branch ENIs but its pods have no team label", [model.describe(w)]),
		w, [model.pod_field(w, "metadata.labels"), model.pod_field(w, "metadata"), w.podPath],
		{},
	)
}
