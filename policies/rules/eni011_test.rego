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

unknown_group(name) := object.union(fx.node_group(name, []), {"instanceTypes": [object.union(fx.unknown_instance("(unknown)"), {"unknownReason": "instance_types depends on data.aws_ssm_parameter.type"})]})

test_fires_when_every_landing_group_is_unknown if {
	inv := fx.inventory([fx.job("a", {"completions": 3}), fx.job("b", {"completions": 1})], [fx.sgp_all], [unknown_group("ng")])
	fs := eni011.finding with input as inv
	count(fs) == 1
	some f in fs
	f.details.workloads == 2
	f.details.nodeGroups == ["ng"]
	contains(f.message, "--terraform-plan")
	contains(f.message, "the 1 other workload")
}

test_fires_for_a_type_the_table_lacks if {
	g := object.union(fx.node_group("ng", []), {"instanceTypes": [fx.unknown_instance("z9.large")]})
	fs := eni011.finding with input as fx.inventory([fx.job("a", {"completions": 3})], [fx.sgp_all], [g])
	count(fs) == 1
	some f in fs
	contains(f.message, "limits:")
}

test_quiet_when_one_landing_group_is_known if {
	inv := fx.inventory([fx.job("a", {"completions": 3})], [fx.sgp_all], [unknown_group("ng"), fx.node_group("default", ["m5.large"])])
	count(eni011.finding) == 0 with input as inv
}
