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
#     When the message names namespaces whose workloads carry the selected labels, the
#     workloads were read in another namespace than the policy's: a chart installed with a
#     release namespace eni-lint did not read (helmfile, Argo CD) lands in `default`; give
#     the namespace with `namespace:` on its `charts:` entry in .eni-lint.yaml, or --namespace.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: reason, type: string, about: "why the controller ignores the policy"}
#     - {key: nearNamespaces, type: array, about: "when it selects nothing: the other namespaces whose workloads carry the labels its podSelector asks for"}
package eni.rules.eni007

import data.eni.model
import data.eni.selectors

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
	near := near_namespaces(sgp)
	f := model.finding(
		"ENI007", "",
		sprintf("SecurityGroupPolicy %s/%s selects no workload in the scanned files%s", [sgp.namespace, sgp.name, near_hint(near)]),
		sgp, ["spec.podSelector", "spec.serviceAccountSelector", "spec"],
		{"nearNamespaces": near},
	)
}

# A policy selects pods of its own namespace only. When workloads of other namespaces carry
# the labels its podSelector asks for, the likely miss is a namespace (a chart rendered into
# `default` because the namespace its installer sets was not read): those namespaces are
# named. The workloads are found through the policy's anchor label (model.sgp_anchors), so the
# hint costs a lookup per policy, not a pass over every workload.
unused_anchors := {a |
	some sgp in model.matchable_sgps
	not sgp.id in used
	some a in model.sgp_anchors(sgp)
}

# The workloads that carry an anchor label of an unused policy, by anchor: one pass over the
# workloads' labels, a set lookup each.
anchored_workloads := [[[k, v], w] |
	some w in input.workloads
	some k, v in w.pod.labels
	[k, v] in unused_anchors
]

workloads_by_anchor := {a: ws |
	some a in unused_anchors
	ws := [w | some [a2, w] in anchored_workloads; a2 == a]
}

near_namespaces(sgp) := sort({w.namespace |
	some a in model.sgp_anchors(sgp)
	some w in workloads_by_anchor[a]
	w.namespace != sgp.namespace
	selectors.selector_matches(sgp.podSelector, w.pod.labels)
}) if {
	model.sgp_anchors(sgp)
} else := []

near_hint(near) := "" if {
	count(near) == 0
} else := sprintf("; workloads in namespace %s carry the labels it selects: a policy selects pods of its own namespace only (is a namespace missing, as when a chart's release namespace is not read?)", [concat(", ", near)])
