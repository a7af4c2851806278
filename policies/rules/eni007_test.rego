package eni.rules.eni007_test

import data.eni.fixtures as fx
import data.eni.rules.eni007

test_fires_policy_without_selector if {
	sgp := object.union(fx.sgp_all, {"podSelector": null})
	fs := eni007.finding with input as fx.inventory([], [sgp], [])
	some f in fs
	contains(f.message, "neither")
}

test_fires_policy_without_groups if {
	sgp := object.union(fx.sgp_all, {"groupIds": []})
	fs := eni007.finding with input as fx.inventory([fx.job("j", {})], [sgp], [])
	some f in fs
	contains(f.message, "groupIds")
}

test_fires_policy_selecting_nothing if {
	fs := eni007.finding with input as fx.inventory([], [fx.sgp_all], [])
	some f in fs
	contains(f.message, "selects no workload")
}

test_quiet_policy_in_use if {
	count(eni007.finding) == 0 with input as fx.inventory([fx.job("j", {})], [fx.sgp_all], [])
}

# The workload that carries the selected labels is in another namespace: the message names it.
test_names_the_namespace_of_a_near_miss if {
	sgp := fx.sgp("x", {"matchLabels": {"sgp": "yes"}, "matchExpressions": []})
	w := object.union(fx.job("j", {}), {"namespace": "release-ns"})
	fs := eni007.finding with input as fx.inventory([w], [sgp], [])
	some f in fs
	contains(f.message, "workloads in namespace release-ns carry the labels it selects")
	f.details.nearNamespaces == ["release-ns"]
}

test_no_hint_without_a_near_miss if {
	fs := eni007.finding with input as fx.inventory([], [fx.sgp_all], [])
	some f in fs
	not contains(f.message, "namespace")
}
