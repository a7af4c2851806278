package eni.rules.eni003_test

import data.eni.fixtures as fx
import data.eni.rules.eni003

test_fires_worked_example_3 if {
	w := fx.job("j", {"completions": 5, "ttlSecondsAfterFinished": 60})
	fs := eni003.finding with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
	some f in fs
	f.severity == "error"
	f.details.T == 11
	f.details.everywhere
}

test_fires_warning_when_only_some_types if {
	w := fx.job("j", {"completions": 5})
	fs := eni003.finding with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large", "m5.xlarge"])])
	some f in fs
	f.severity == "warning"
	not f.details.everywhere
}

test_fires_warning_on_completion if {
	w := fx.job("j", {"completions": 5})
	fs := eni003.finding with input as fx.on_completion(fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large"])]))
	some f in fs
	f.severity == "warning"
}

test_quiet_on_m5_xlarge if {
	w := fx.job("j", {"completions": 5})
	count(eni003.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.xlarge"])])
}

test_quiet_at_capacity if {
	w := fx.job("j", {"completions": 3})
	count(eni003.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
}

# completions 5 + backoffLimit 6 = 11 on m5.large (9): backoffLimit 4 makes one run fit.
test_fix_lowers_backoff_to_fit if {
	w := fx.job("j", {"completions": 5})
	fs := eni003.finding with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
	some f in fs
	f.details.fixes == [{
		"workload": w.id,
		"change": "lower backoffLimit of Job default/j from 6 to 4 (one run then holds at most 9)",
		"field": "spec.backoffLimit",
		"lever": "backoff",
		"set": [{"field": "spec.backoffLimit", "value": 4}],
	}]
}

# completions alone above B: no backoffLimit fits.
test_no_fix_when_completions_exceed if {
	w := fx.job("j", {"completions": 12})
	fs := eni003.finding with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large"])])
	some f in fs
	f.details.fixes == []
}
