package eni.rules.eni012_test

import data.eni.fixtures as fx
import data.eni.rules.eni012

auto_pool(name, types) := object.union(fx.node_group(name, types), {"autoMode": true, "picksTrunkingTypes": true})

test_fires_for_sgp_pods_on_auto_mode if {
	fs := eni012.finding with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], [auto_pool("general-purpose", ["m5.large"])])
	count(fs) == 1
	some f in fs
	f.details.nodeGroup == "general-purpose"
	f.details.workloads == ["CronJob/default/seed"]
	contains(f.message, "Kubernetes 1.36")
}

test_counts_the_others if {
	ws := [fx.cronjob("a", {}, {}), fx.deployment("b", 1, 0)]
	fs := eni012.finding with input as fx.inventory(ws, [fx.sgp_all], [auto_pool("p", ["m5.large"])])
	some f in fs
	contains(f.message, "and 1 other SGP workload")
}

test_quiet_on_other_groups if {
	count(eni012.finding) == 0 with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], [fx.node_group("mng", ["m5.large"])])
}

# Pods kept off the Auto Mode pool by a selector raise nothing.
test_quiet_when_pods_avoid_the_pool if {
	w := fx.with_pod(fx.cronjob("seed", {}, {}), {"nodeSelector": {"eks.amazonaws.com/nodegroup": "mng"}})
	count(eni012.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], [auto_pool("p", ["m5.large"]), fx.node_group("mng", ["m5.large"])])
}
