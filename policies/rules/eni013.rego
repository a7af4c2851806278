# METADATA
# title: The same object is defined more than once
# description: |
#   Two definitions of one object (kind, namespace and name), for example the same Deployment
#   built by two kustomize overlays, or a manifest next to the chart that renders it, cannot both
#   exist in one cluster. eni-lint counts the object once on a node, with the definition that
#   needs the most branch ENIs, so that two overlays of one CronJob do not double its demand.
# custom:
#   id: ENI013
#   severity: info
#   numbers: |
#     Where each definition is, and which one the per-instance-type rows count.
#   remediation: |
#     Nothing to fix if the definitions are for different clusters or environments (overlays); if
#     both are applied to one cluster, the last one applied wins, and you should keep one.
#   otherModel: |
#     The same under both release models.
package eni.rules.eni013

import data.eni.model

finding contains f if {
	some w in model.duplicated_definitions
	not w.id in model.outranked
	where := [place(d) | some d in w.duplicates]
	f := model.finding(
		"ENI013", "",
		sprintf("%s is defined %d times (%s): one object in a cluster, so the rows count it once, with this definition, the one that needs the most branch ENIs", [
			model.describe(w), count(w.duplicates), concat(", ", where),
		]),
		w, ["metadata.name", "metadata"],
		{"definitions": w.duplicates, "counted": w.id},
	)
}

place(d) := sprintf("%s:%d as built by %s", [d.location.file, d.location.line, d.builtBy]) if {
	object.get(d, "builtBy", "") != ""
} else := sprintf("%s:%d", [d.location.file, d.location.line])
