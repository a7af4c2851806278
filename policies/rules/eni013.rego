# METADATA
# title: The same object is defined more than once
# description: |
#   Two definitions of one object (kind, namespace and name), for example the same Deployment
#   built by two kustomize overlays, or a manifest next to the chart that renders it, cannot both
#   exist in one cluster. eni-lint counts the object once on a node, with the definition that
#   needs the most branch ENIs, so that two overlays of one CronJob do not double its demand. A
#   SecurityGroupPolicy, ServiceAccount or Namespace defined twice is one object too: each
#   definition is read, so a pod any of them selects is counted. A
#   Karpenter or EKS Auto Mode NodePool is cluster-scoped: two definitions of one name in a
#   cluster are one pool, and each definition is checked, since either may be the one applied.
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
#   details:
#     - {key: definitions, type: array, about: "each definition, `{location, builtBy?}`"}
#     - {key: counted, type: string, about: "the id of the definition the rows count"}
#     - {key: nodeGroup, type: string, about: "for duplicated node groups: the node group"}
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

# A SecurityGroupPolicy, ServiceAccount or Namespace defined more than once: one object in a
# cluster. Each definition is read, so a pod any of them selects is counted; the finding is
# made once, on the first definition.
finding contains f if {
	some obj in array.concat(array.concat(input.securityGroupPolicies, input.serviceAccounts), object.get(input, "namespaces", []))
	defs := object.get(obj, "duplicates", [])
	count(defs) > 1
	obj.firstDefinition
	f := model.finding(
		"ENI013", "",
		sprintf("%s %s is defined %d times (%s): one object in a cluster, whichever definition is applied last; each is read, so a pod any of them selects is counted. If they are applied to one cluster, keep one; if they are alternatives for different clusters, say which files each cluster holds (clusters: in .eni-lint.yaml)", [
			obj.kind, qualified(obj), count(defs), concat(", ", [place(x) | some x in defs]),
		]),
		obj, ["metadata.name", "metadata"],
		{"definitions": defs},
	)
}

qualified(obj) := sprintf("%s/%s", [obj.namespace, obj.name]) if {
	obj.namespace != ""
} else := obj.name

# A NodePool (or Provisioner) defined twice in one cluster: cluster-scoped, so one object,
# whichever definition was applied last. Each definition stays a node group, since either may
# be the one in the cluster; the finding is made once, on the first definition.
finding contains f if {
	some g in input.nodeGroups
	defs := object.get(g, "duplicates", [])
	count(defs) > 1
	first := sort([sprintf("%s:%09d", [d.location.file, d.location.line]) | some d in defs])[0]
	first == sprintf("%s:%09d", [g.location.file, g.location.line])
	f := object.union(model.finding_at(
		"ENI013", "",
		sprintf("node pool %q is defined %d times in one cluster (%s): one object, whichever definition is applied last; each is checked as a node group, since either may be the one running. If they are applied to one cluster, keep one; if they are alternatives for different clusters, say which files each cluster holds (clusters: in .eni-lint.yaml)", [
			g.name, count(defs), concat(", ", [place(d) | some d in defs]),
		]),
		g.location,
		{"definitions": defs, "nodeGroup": g.name},
	), {"object": model.object_ref(g)})
}

place(d) := sprintf("%s:%d as built by %s", [d.location.file, d.location.line, d.builtBy]) if {
	object.get(d, "builtBy", "") != ""
} else := sprintf("%s:%d", [d.location.file, d.location.line])
