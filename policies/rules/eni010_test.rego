package eni.rules.eni010_test

import data.eni.fixtures as fx
import data.eni.rules.eni010

addon(enabled) := {"source": "terraform:aws_eks_addon", "location": fx.loc(3), "enablePodEni": enabled, "branchEniCooldownSeconds": null}

test_fires_when_never_enabled if {
	inv := object.union(fx.inventory([], [fx.sgp_all], []), {"cniSettings": [addon(null)]})
	some f in eni010.finding with input as inv
	f.location.line == 3
}

test_fires_when_disabled if {
	inv := object.union(fx.inventory([], [fx.sgp_all], []), {"cniSettings": [addon(false)]})
	count(eni010.finding) == 1 with input as inv
}

test_quiet_when_enabled if {
	inv := object.union(fx.inventory([], [fx.sgp_all], []), {"cniSettings": [addon(null), addon(true)]})
	count(eni010.finding) == 0 with input as inv
}

test_quiet_without_cni_settings if {
	count(eni010.finding) == 0 with input as fx.inventory([], [fx.sgp_all], [])
}
