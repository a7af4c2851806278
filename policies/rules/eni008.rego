# METADATA
# title: Branch ENI expected but not given, or requested by hand
# description: |
#   Some pods that a SecurityGroupPolicy selects never get a branch ENI, so the security groups
#   the policy names do not apply to them: hostNetwork pods, and pods whose nodeSelector asks for
#   Windows nodes. And a manifest should not set vpc.amazonaws.com/pod-eni itself: the VPC
#   resource controller's webhook adds it to the first container of selected pods, and a
#   hand-written value creates ENIs the policy does not describe (a value of 2 creates two).
# custom:
#   id: ENI008
#   severity: warning
#   numbers: |
#     None.
#   remediation: |
#     For hostNetwork or Windows pods, rely on node security groups or another control, and
#     narrow the policy's selector so it does not claim them. Remove vpc.amazonaws.com/pod-eni
#     from container resources and let a SecurityGroupPolicy select the pod.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: securityGroupPolicy, type: string, about: "the policy"}
#     - {key: container, type: string, about: "for a hand-written request: the container"}
#     - {key: field, type: string, about: "for a hand-written request: the field"}
#     - {key: value, type: string, about: "for a hand-written request: the value written"}
package eni.rules.eni008

import data.eni.model

finding contains f if {
	# Selected and exempt: what eni_workloads leaves out of the selected workloads.
	some id in model.exempt_ids
	id in model.selected_ids
	w := model.workload_by_id[id]
	[reason, path] := model.no_branch_eni_reason(w)
	not w.pod.labels["eks.amazonaws.com/fargate-profile"]
	not w.fargate
	sgp := model.selection[w.id].matched[0]
	f := model.finding(
		"ENI008", "",
		sprintf("SecurityGroupPolicy %s/%s selects %s, but %s: the policy's security groups do not apply to it", [
			sgp.namespace, sgp.name, model.describe(w), reason,
		]),
		w, [path, model.pod_field(w, "spec")],
		{"securityGroupPolicy": sgp.name},
	)
}

finding contains f if {
	some w in model.hand_requests
	some r in w.pod.podEniRequests
	f := object.union(
		model.finding_at(
			"ENI008", "",
			sprintf("%s: container %q sets %s vpc.amazonaws.com/pod-eni: %s by hand; let a SecurityGroupPolicy select the pod instead", [
				model.describe(w), r.container, r.field, r.value,
			]),
			r.location,
			{"container": r.container, "field": r.field, "value": r.value},
		),
		{"object": model.object_ref(w)},
	)
}
