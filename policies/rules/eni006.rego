# METADATA
# title: Something the verdict needs is unknown
# description: |
#   eni-lint never guesses a number it needs. When an input is missing or cannot be read, it
#   reports what is unknown and which input would decide it: an instance type that is not in its
#   table, a serviceAccountSelector whose ServiceAccount manifest is not among the scanned files,
#   a selector the API would reject, a CronJob schedule it cannot parse when the numbers depend on
#   it, an SGP workload that none of the declared node groups admits, or Kubernetes objects or
#   node groups that the infrastructure code declares in a way only Terraform can evaluate
#   (a templatefile() outside the tree, documents from a data source, a chart from a
#   repository, which is only info unless its values give pods labels a policy of the tree
#   selects, a module folder that is not in the tree). A node group known
#   to launch nothing (an EKS Auto Mode NodePool that admits only sizes Auto Mode never
#   launches) is info: no workload lands on it, and one that has nowhere else to go is reported.
# custom:
#   id: ENI006
#   severity: warning
#   numbers: |
#     None: the finding says what is missing; the workload or type is left out of the sums it
#     cannot be placed in, and the report says so.
#   remediation: |
#     Provide the missing input: add the instance type under `limits:` in .eni-lint.yaml, scan
#     the folder holding the ServiceAccount manifest, fix the selector or schedule, or declare the
#     node group the workload runs on.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: nodeGroup, type: string, about: "the node group whose type is unknown, or that launches nothing"}
#     - {key: instanceType, type: string, about: "the type that is not in the instance table, or cannot be known"}
#     - {key: unknown, type: string, about: "why the value cannot be known from the code"}
#     - {key: source, type: string, about: "for objects the infrastructure declares but eni-lint cannot read: what declares them"}
#     - {key: selectedBy, type: array, about: "for an unread chart: the policies whose selectors its pods' labels match"}
#     - {key: securityGroupPolicy, type: string, about: "the policy whose serviceAccountSelector needs a ServiceAccount nobody scanned"}
#     - {key: serviceAccount, type: string, about: "that ServiceAccount"}
#     - {key: field, type: string, about: "the selector the API would reject (`podSelector` or `serviceAccountSelector`)"}
#     - {key: expression, type: integer, about: "the index of its rejected matchExpressions entry"}
#     - {key: schedule, type: string, about: "a schedule whose period cannot be worked out"}
#     - {key: launchesNothing, type: string, about: "why the node group launches no node"}
package eni.rules.eni006

import data.eni.model
import data.eni.selectors

# Instance types that cannot be known statically (Terraform: a data source, a variable
# without value), with the input that would decide them.
finding contains f if {
	some g in input.nodeGroups
	some t in g.instanceTypes
	not t.known
	t.unknownReason
	f := with_group(g, model.finding_at(
		"ENI006", "",
		sprintf("the instance types of node group %q cannot be known from the code: %s. They are left out of the checks; %s", [g.name, t.unknownReason, unknown_hint(t.unknownReason)]),
		type_location(g, t),
		{"nodeGroup": g.name, "instanceType": t.name, "unknown": t.unknownReason},
	))
}

# A hint that can work: a variable without a value can be given one; a data source, an
# attribute the provider sets or a module eni-lint does not evaluate has no value before
# Terraform runs, so only declaring the node group helps.
unknown_hint(reason) := "give the variable a value (--var NAME=VALUE or a tfvars file), or declare the node group (--node-group, or nodeGroups in .eni-lint.yaml)" if {
	contains(reason, "(no default")
} else := "declare the node group (--node-group, or nodeGroups in .eni-lint.yaml): that value exists only when Terraform runs" if {
	regex.match(`a data source|set by the provider|is not evaluated`, reason)
} else := "declare the node group (--node-group, or nodeGroups in .eni-lint.yaml)"

# Kubernetes objects the infrastructure code declares but that cannot be read statically: any
# of them may be a Job or a SecurityGroupPolicy, so the verdict may miss it.
finding contains f if {
	some u in object.get(input, "unresolvedObjects", [])
	selecting := selecting_policies(u)
	count(selecting) == 0
	f := model.finding_at(
		"ENI006", object.get(u, "severity", ""),
		unresolved_message(u),
		u.location,
		{"source": u.source, "unknown": u.reason},
	)
}

# A chart that is not read, whose values give pods labels a policy of the tree selects: its pods
# hold branch ENIs and are not counted, so it is a warning whatever the chart's own severity.
finding contains f if {
	some u in object.get(input, "unresolvedObjects", [])
	selecting := selecting_policies(u)
	count(selecting) > 0
	f := model.finding_at(
		"ENI006", "",
		sprintf("%s; its values give pods labels that SecurityGroupPolicy %s selects, so those pods hold branch ENIs that are not counted", [unresolved_message(u), concat(", ", sort(selecting))]),
		u.location,
		{"source": u.source, "unknown": u.reason, "selectedBy": sort(selecting)},
	)
}

# The applied policies that select pods of an unread chart: in the release's namespace (any,
# when it is not known), a podSelector that admits the labels the release's values give, or
# an empty podSelector in the release's own namespace, which selects every pod there.
selecting_policies(u) := {sprintf("%s/%s", [s.namespace, s.name]) |
	some s in model.applied_sgps
	s.podSelector != null
	selects_release_pods(s, u)
}

selects_release_pods(s, u) if {
	labels := object.get(u, "podLabels", {})
	is_object(labels)
	count(labels) > 0
	object.get(u, "namespace", "") in {"", s.namespace}
	not selectors.selector_is_empty(s.podSelector)
	selectors.selector_matches(s.podSelector, labels)
}

selects_release_pods(s, u) if {
	object.get(u, "namespace", "") != ""
	u.namespace == s.namespace
	selectors.selector_is_empty(s.podSelector)
}

unresolved_message(u) := sprintf("%s cannot be read from the code: %s. The node groups it declares are left out, and so are Jobs, CronJobs or SecurityGroupPolicies; declare its node groups (--node-group, nodeGroups in .eni-lint.yaml) and scan its manifests", [u.source, u.reason]) if {
	u.module
} else := sprintf("%s: %s", [u.source, u.reason]) if {
	u.pods
} else := sprintf("%s declares Kubernetes objects that cannot be read from the code: %s. A Job, CronJob or SecurityGroupPolicy among them is left out of the checks; render them into a file eni-lint scans, or pipe them in (eni-lint check -)", [u.source, u.reason])

# Findings about a node group name it, so that an ignore comment on its code can suppress them.
with_group(g, f) := object.union(f, {"object": model.object_ref(g)}) if {
	g.id
} else := f

# An instance type the limits table does not know.
finding contains f if {
	some g in input.nodeGroups
	some t in g.instanceTypes
	not t.known
	not t.unknownReason
	f := with_group(g, model.finding_at(
		"ENI006", "",
		sprintf("instance type %q of node group %q is not in eni-lint's instance table: its branch-ENI capacity is unknown and it is left out of the checks. Add it under limits: in .eni-lint.yaml (branchInterfaces, trunking)", [t.name, g.name]),
		type_location(g, t),
		{"nodeGroup": g.name, "instanceType": t.name},
	))
}

type_location(g, t) := t.location if {
	t.location.line > 0
} else := g.location

# A serviceAccountSelector that needs the labels of a ServiceAccount nobody scanned.
finding contains f if {
	some id, sel in model.selection
	some sgp in sel.unknownSA
	count(sel.matched) == 0
	w := model.workload_by_id[id]
	f := model.finding(
		"ENI006", "",
		sprintf("whether SecurityGroupPolicy %s/%s selects %s depends on the labels of ServiceAccount %s/%s, which is not in the scanned files; it is not counted. Scan the ServiceAccount's manifest to decide", [
			sgp.namespace, sgp.name, model.describe(w), w.namespace, w.pod.serviceAccountName,
		]),
		w, [model.pod_field(w, "spec.serviceAccountName"), model.pod_field(w, "spec.serviceAccount"), model.pod_field(w, "spec")],
		{"securityGroupPolicy": sgp.name, "serviceAccount": w.pod.serviceAccountName},
	)
}

# A selector the API would reject: the controller treats it as matching nothing.
finding contains f if {
	some sgp in input.securityGroupPolicies
	[field, i, msg] := model.sgp_selector_error(sgp)
	f := model.finding(
		"ENI006", "",
		sprintf("SecurityGroupPolicy %s/%s: spec.%s.matchExpressions[%d]: %s; the controller treats the selector as matching nothing", [
			sgp.namespace, sgp.name, field, i, msg,
		]),
		sgp, [sprintf("spec.%s.matchExpressions[%d]", [field, i]), sprintf("spec.%s", [field])],
		{"field": field, "expression": i},
	)
}

# A schedule eni-lint cannot parse, when the CronJob's numbers depend on its period.
finding contains f if {
	some i, v in model.class_views
	v.cronJob.periodSeconds == 0
	model.period_needed_but_unknown(v)
	some w in model.class_members[i]
	f := model.finding(
		"ENI006", "",
		sprintf("%s: cannot work out the schedule's period (%s); its active and kept Jobs are counted without it", [model.describe(w), w.cronJob.scheduleError]),
		w, ["spec.schedule", "spec"],
		{"schedule": w.cronJob.schedule},
	)
}

# An SGP workload that none of the declared node groups admits.
finding contains f if {
	count(input.nodeGroups) > 0
	some k, facts in model.key_facts
	facts.count == 0
	some i in model.key_classes[k]
	some w in model.class_members[i]
	f := model.finding(
		"ENI006", "",
		sprintf("%s may land on none of the declared node groups (%s): its nodeSelector, affinity or tolerations match none of them%s, so its branch ENIs are not counted anywhere. Declare the node group it runs on", [
			model.describe(w), concat(", ", sort([g.name | some g in input.nodeGroups])), idle_note,
		]),
		w, [model.placement_path(w)],
		{},
	)
}

# Node groups known to launch nothing (an EKS Auto Mode pool that admits only types Auto Mode
# never launches). They have no instance types; named where a workload lands nowhere.
idle_groups := sort([g.name | some g in input.nodeGroups; object.get(g, "launchesNothing", "") != ""])

idle_note := sprintf(" (%s launches no node)", [idle_groups[0]]) if {
	count(idle_groups) == 1
} else := sprintf(" (%s launch no node)", [concat(", ", idle_groups)]) if {
	count(idle_groups) > 1
} else := ""

# A node group that launches nothing: info, since no pod lands there; a workload that has
# nowhere else to go gets the finding above.
finding contains f if {
	some g in input.nodeGroups
	reason := object.get(g, "launchesNothing", "")
	reason != ""
	f := with_group(g, model.finding_at(
		"ENI006", "info",
		sprintf("node group %q launches no node: %s. No workload lands on it", [g.name, reason]),
		g.location,
		{"nodeGroup": g.name, "launchesNothing": reason},
	))
}
