package eni.rules.eni008_test

import data.eni.fixtures as fx
import data.eni.rules.eni008

test_fires_host_network if {
	w := fx.with_pod(fx.deployment("d", 1, 0), {"hostNetwork": true})
	fs := eni008.finding with input as fx.inventory([w], [fx.sgp_all], [])
	some f in fs
	contains(f.message, "hostNetwork")
}

test_fires_windows if {
	w := fx.with_pod(fx.deployment("d", 1, 0), {"nodeSelector": {"kubernetes.io/os": "windows"}})
	count(eni008.finding) == 1 with input as fx.inventory([w], [fx.sgp_all], [])
}

test_fires_hand_written_request if {
	req := {"container": "app", "field": "requests", "value": "1", "location": fx.loc(20)}
	w := fx.with_pod(fx.deployment("d", 1, 0), {"podEniRequests": [req]})
	fs := eni008.finding with input as fx.inventory([w], [], [])
	some f in fs
	f.location.line == 20
	f.object.name == "d"
}

test_quiet_fargate if {
	w := fx.with_pod(fx.deployment("d", 1, 0), {"labels": {"sgp": "yes", "eks.amazonaws.com/fargate-profile": "fp"}})
	count(eni008.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], [])
}

test_quiet_normal_pod if {
	count(eni008.finding) == 0 with input as fx.inventory([fx.deployment("d", 1, 0)], [fx.sgp_all], [])
}
