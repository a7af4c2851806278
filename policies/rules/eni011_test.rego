package eni.rules.eni011_test

import data.eni.fixtures as fx
import data.eni.rules.eni011

test_fires_without_node_groups if {
	fs := eni011.finding with input as fx.inventory([fx.job("j", {"completions": 3})], [fx.sgp_all], [])
	count(fs) == 1
	some f in fs
	f.details.workloads == 1
	f.details.maxDemand == 9
}

test_quiet_with_a_node_group if {
	count(eni011.finding) == 0 with input as fx.inventory([fx.job("j", {"completions": 3})], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
}

test_quiet_without_branch_eni_workloads if {
	count(eni011.finding) == 0 with input as fx.inventory([], [fx.sgp_all], [])
}
