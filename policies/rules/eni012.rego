# METADATA
# title: SGP pods may land on EKS Auto Mode nodes
# description: |
#   EKS Auto Mode does not run the VPC resource controller and VPC CNI that security groups for
#   Pods are built on. The EKS user guide ("Assign security groups to individual Pods in EKS
#   Auto Mode") says Auto Mode supports SecurityGroupPolicy only on clusters running Kubernetes
#   1.36 or later, through Dynamic Resource Allocation (DRA) and branch network interfaces on
#   the node's trunk interface; earlier Auto Mode clusters do not support it, so these pods get
#   no security groups of their own there. The guide does not say when a finished pod's branch
#   interface is released, nor how DRA counts it, so the per-type numbers for these nodes use
#   the instance type's branch interfaces and the release model of this run, which are
#   assumptions, not documented facts.
# custom:
#   id: ENI012
#   severity: warning
#   numbers: |
#     The Auto Mode node pool, the SGP workloads that may land on it, and the instance types
#     they are judged on there.
#   remediation: |
#     On Kubernetes 1.36 or later, check the pods' ResourceClaims and branch interfaces after a
#     Job finishes to confirm how long they are held. Before 1.36, keep SGP pods off Auto Mode
#     nodes (a nodeSelector or affinity on managed node groups or Karpenter nodes), or accept
#     that they run with the node's security groups.
#   otherModel: |
#     The same under both release models: the warning is about which mechanism applies.
#   details:
#     - {key: nodeGroup, type: string, about: "the Auto Mode pool"}
#     - {key: workloads, type: array, about: "ids of the SGP workloads that may land on it"}
#     - {key: instanceTypes, type: array, about: "its trunking type entries"}
package eni.rules.eni012

import data.eni.model

finding contains f if {
	some g in input.nodeGroups
	g.autoMode
	count(g.instanceTypes) > 0
	gid := g.id
	keys := [k | some [pg, _, k] in model.key_on; pg == gid]
	here := sort({id | some k in keys; some id in model.key_ids[k]})
	count(here) > 0
	first := model.workload_by_id[here[0]]
	types := sort({t.name | some t in g.instanceTypes; t.known; t.trunking})
	f := with_group(g, model.finding_at(
		"ENI012", "",
		sprintf("%s may land on EKS Auto Mode node pool %q: Auto Mode supports security groups for Pods only on Kubernetes 1.36 or later, through Dynamic Resource Allocation; before that these pods get no security groups of their own there. The numbers for this pool assume the instance types' branch interfaces and the %s release model, which the Auto Mode guide does not document", [
			who(first, count(here)), g.name, input.settings.eniRelease,
		]),
		g.location,
		{"nodeGroup": g.name, "workloads": here, "instanceTypes": types},
	))
}

who(w, 1) := model.describe(w)

who(w, n) := sprintf("%s and %s", [model.describe(w), model.plural(n - 1, "other SGP workload")]) if n > 1

with_group(g, f) := object.union(f, {"object": model.object_ref(g)})
