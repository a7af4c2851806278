package eni.rules.eni004_test

import data.eni.fixtures as fx
import data.eni.rules.eni004

test_fires_only_non_trunking if {
	fs := eni004.finding with input as fx.inventory([fx.deployment("d", 1, 0)], [fx.sgp_all], [fx.node_group("burst", ["t3.medium"])])
	some f in fs
	f.severity == ""
	f.details.instanceTypes == ["t3.medium"]
}

test_fires_warning_for_mixed_group if {
	fs := eni004.finding with input as fx.inventory([fx.deployment("d", 1, 0)], [fx.sgp_all], [fx.node_group("mixed", ["t3.medium", "m5.large"])])
	some f in fs
	f.severity == "warning"
	f.details.withoutTrunking == ["t3.medium"]
}

test_quiet_trunking_only if {
	count(eni004.finding) == 0 with input as fx.inventory([fx.deployment("d", 1, 0)], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
}

test_quiet_when_selector_avoids_t3 if {
	w := fx.with_pod(fx.deployment("d", 1, 0), {"nodeSelector": {"eks.amazonaws.com/nodegroup": "good"}})
	groups := [fx.node_group("burst", ["t3.medium"]), fx.node_group("good", ["m5.large"])]
	count(eni004.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], groups)
}

# Karpenter launches only trunking types for SGP pods: a pool admitting t3 next to m5 is no
# mixed group for them.
test_quiet_for_pools_that_pick_trunking_types if {
	pool := object.union(fx.node_group("pool", ["t3.medium", "m5.large"]), {"picksTrunkingTypes": true})
	count(eni004.finding) == 0 with input as fx.inventory([fx.deployment("d", 1, 0)], [fx.sgp_all], [pool])
}

# A pool whose types all lack trunking still leaves SGP pods Pending.
test_fires_for_pool_without_trunking if {
	pool := object.union(fx.node_group("burst", ["t3.medium"]), {"picksTrunkingTypes": true})
	fs := eni004.finding with input as fx.inventory([fx.deployment("d", 1, 0)], [fx.sgp_all], [pool])
	count(fs) == 1
}
