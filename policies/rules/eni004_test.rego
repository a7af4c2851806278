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
