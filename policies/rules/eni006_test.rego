package eni.rules.eni006_test

import data.eni.fixtures as fx
import data.eni.rules.eni006

test_fires_unknown_instance_type if {
	g := object.union(fx.node_group("g", []), {"instanceTypes": [fx.unknown_instance("z9.large")]})
	fs := eni006.finding with input as fx.inventory([], [], [g])
	some f in fs
	f.details.instanceType == "z9.large"
	f.location.line == 4
}

sa_sgp := object.union(fx.sgp("by-sa", null), {"serviceAccountSelector": {"matchLabels": {"db": "yes"}, "matchExpressions": []}})

test_fires_missing_service_account if {
	w := fx.with_pod(fx.job("j", {}), {"serviceAccountName": "app"})
	fs := eni006.finding with input as fx.inventory([w], [sa_sgp], [])
	some f in fs
	f.details.serviceAccount == "app"
}

test_quiet_default_service_account if {
	# Kubernetes creates `default` without labels, so the selector is decidable: no match.
	w := fx.job("j", {})
	count(eni006.finding) == 0 with input as fx.inventory([w], [sa_sgp], [])
}

test_fires_invalid_selector if {
	bad := fx.sgp("bad", {"matchLabels": {}, "matchExpressions": [{"key": "a", "operator": "In", "values": []}]})
	fs := eni006.finding with input as fx.inventory([], [bad], [])
	some f in fs
	f.details.field == "podSelector"
}

test_fires_no_node_group_admits if {
	w := fx.with_pod(fx.job("j", {}), {"nodeSelector": {"team": "x"}})
	fs := eni006.finding with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
	count(fs) == 1
}

test_fires_unparsable_schedule_when_needed if {
	w := fx.cronjob("c", {"periodSeconds": 0, "scheduleError": "bad"}, {"ttlSecondsAfterFinished": 60})
	count(eni006.finding) == 1 with input as fx.inventory([w], [fx.sgp_all], [])
}

test_quiet_all_known if {
	count(eni006.finding) == 0 with input as fx.inventory([fx.job("j", {})], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
}

test_unknown_types_hint_fits_the_blocker if {
	by_var := object.union(fx.node_group("v", []), {"instanceTypes": [{"name": "(unknown)", "known": false, "unknownReason": "instance_types depends on var.types (no default, and no value in tfvars or --var)"}]})
	by_data := object.union(fx.node_group("d", []), {"instanceTypes": [{"name": "(unknown)", "known": false, "unknownReason": "instance_types depends on data.aws_ssm_parameter.t.value (a data source, read only when Terraform runs)"}]})
	fs := eni006.finding with input as fx.inventory([], [], [by_var, by_data])
	some fv in fs
	fv.details.nodeGroup == "v"
	contains(fv.message, "--var NAME=VALUE")
	some fd in fs
	fd.details.nodeGroup == "d"
	contains(fd.message, "exists only when Terraform runs")
	not contains(fd.message, "--var")
}

test_fires_unresolved_object if {
	inv := object.union(fx.inventory([], [], []), {"unresolvedObjects": [{
		"source": "kubectl_manifest.sgp",
		"location": {"file": "main.tf", "line": 3, "column": 15},
		"reason": "yaml_body depends on templatefile() (a function eni-lint does not evaluate)",
	}]})
	fs := eni006.finding with input as inv
	some f in fs
	f.details.source == "kubectl_manifest.sgp"
	f.location.line == 3
	contains(f.message, "templatefile()")
}

test_unresolved_module_says_to_declare_its_node_groups if {
	inv := object.union(fx.inventory([], [], []), {"unresolvedObjects": [{
		"source": "module.nodes",
		"module": true,
		"location": {"file": "main.tf", "line": 1, "column": 1},
		"reason": "its source \"./modules/nodes\" is not a folder here",
	}]})
	some f in eni006.finding with input as inv
	startswith(f.message, "module.nodes cannot be read from the code")
	contains(f.message, "--node-group")
}

test_unresolved_object_keeps_its_severity if {
	inv := object.union(fx.inventory([], [], []), {"unresolvedObjects": [{
		"source": "helm_release.karpenter",
		"location": {"file": "main.tf", "line": 3, "column": 11},
		"reason": "the chart karpenter from oci://public.ecr.aws/karpenter is not a folder of the tree",
		"severity": "info",
	}]})
	some f in eni006.finding with input as inv
	f.severity == "info"
}

test_unresolved_object_inside_a_module_is_an_object if {
	inv := object.union(fx.inventory([], [], []), {"unresolvedObjects": [{
		"source": "module.addons.kubernetes_namespace_v1.irsa",
		"location": {"file": "main.tf", "line": 5, "column": 1},
		"reason": "metadata.name depends on var.ns",
	}]})
	some f in eni006.finding with input as inv
	startswith(f.message, "module.addons.kubernetes_namespace_v1.irsa declares Kubernetes objects")
}

test_group_that_launches_nothing_is_info_and_named_where_a_workload_lands_nowhere if {
	idle := object.union(fx.node_group("small", []), {"launchesNothing": "its requirements admit only instance types EKS Auto Mode never launches (t3.small)"})
	w := fx.with_pod(fx.job("j", {}), {"nodeSelector": {"karpenter.sh/nodepool": "small"}})
	fs := eni006.finding with input as fx.inventory([w], [fx.sgp_all], [idle])
	count(fs) == 2
	some info in fs
	info.severity == "info"
	info.details.nodeGroup == "small"
	contains(info.message, "launches no node")
	some nowhere in fs
	nowhere.severity == ""
	contains(nowhere.message, "(small launches no node)")
}

remote_chart(labels, ns) := {
	"source": "helm_release.app", "location": {"file": "main.tf", "line": 3, "column": 1}, "severity": "info",
	"reason": "the chart app from oci://example is not a folder of the tree, and charts are not downloaded",
	"namespace": ns, "podLabels": labels,
}

db_sgp(ns, selector) := object.union(fx.sgp("db", selector), {"namespace": ns})

test_remote_chart_whose_values_give_selected_labels_is_a_warning if {
	u := remote_chart({"access-db": "true"}, "apps")
	fs := eni006.finding with input as object.union(fx.inventory([], [db_sgp("apps", {"matchLabels": {"access-db": "true"}, "matchExpressions": []})], []), {"unresolvedObjects": [u]})
	count(fs) == 1
	some f in fs
	f.severity == ""
	f.details.selectedBy == ["apps/db"]
	contains(f.message, "SecurityGroupPolicy apps/db selects")
}

test_remote_chart_stays_info_when_no_policy_selects_its_labels if {
	u := remote_chart({"access-db": "true"}, "apps")
	other_ns := db_sgp("batch", {"matchLabels": {"access-db": "true"}, "matchExpressions": []})
	other_label := db_sgp("apps", {"matchLabels": {"access-cache": "true"}, "matchExpressions": []})
	fs := eni006.finding with input as object.union(fx.inventory([], [other_ns, other_label], []), {"unresolvedObjects": [u]})
	count(fs) == 1
	some f in fs
	f.severity == "info"
}

test_remote_chart_in_a_namespace_an_empty_selector_covers_is_a_warning if {
	u := object.remove(remote_chart({}, "apps"), ["podLabels"])
	fs := eni006.finding with input as object.union(fx.inventory([], [db_sgp("apps", {"matchLabels": {}, "matchExpressions": []})], []), {"unresolvedObjects": [u]})
	some f in fs
	f.severity == ""
}
