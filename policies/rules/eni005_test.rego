package eni.rules.eni005_test

import data.eni.fixtures as fx
import data.eni.rules.eni005

test_fires_pod_failure_policy_ignore if {
	w := fx.job("j", {"podFailurePolicyIgnore": true})
	fs := eni005.finding with input as fx.inventory([w], [fx.sgp_all], [])
	count(fs) == 1
}

test_fires_allow_without_deadline if {
	w := fx.cronjob("c", {"concurrencyPolicy": "Allow"}, {})
	fs := eni005.finding with input as fx.inventory([w], [fx.sgp_all], [])
	some f in fs
	contains(f.message, "concurrencyPolicy Allow")
}

test_fires_managed_by_and_manual_selector if {
	w := fx.job("j", {"managedBy": "example.com/other", "manualSelector": true})
	count(eni005.finding) == 2 with input as fx.inventory([w], [fx.sgp_all], [])
}

test_quiet_allow_with_deadline if {
	w := fx.cronjob("c", {"concurrencyPolicy": "Allow"}, {"activeDeadlineSeconds": 600})
	count(eni005.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], [])
}

test_quiet_defaults if {
	count(eni005.finding) == 0 with input as fx.inventory([fx.job("j", {})], [fx.sgp_all], [])
}

# The Job docs' rule, Ignore on DisruptionTarget alone: info, and the numbers stay bounded.
test_disruption_target_only_is_info if {
	w := fx.job("j", {"podFailurePolicyIgnoreDisruptions": true})
	inv := fx.inventory([w], [fx.sgp_all], [])
	fs := eni005.finding with input as inv
	count(fs) == 1
	some f in fs
	f.severity == "info"
	contains(f.message, "DisruptionTarget")
	data.eni.model._numbers[w.id].bounded with input as inv
}
