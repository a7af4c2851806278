package eni.rules.eni014_test

import data.eni.fixtures as fx
import data.eni.rules.eni014

at := {"file": "infra/main.tf", "line": 12, "column": 1}

test_fires_when_types_differ if {
	inv := object.union(fx.inventory([], [], []), {"planDisagreements": [{
		"plan": "infra/plan.json", "address": "aws_eks_node_group.web", "location": at,
		"codeTypes": ["m5.large"], "planTypes": ["m5.xlarge"], "onlyInCode": false,
	}]})
	fs := eni014.finding with input as inv
	count(fs) == 1
	some f in fs
	f.location == at
	f.details.planTypes == ["m5.xlarge"]
	contains(f.message, "instance types m5.xlarge, where the code gives m5.large")
}

test_fires_for_a_group_only_the_code_declares if {
	inv := object.union(fx.inventory([], [], []), {"planDisagreements": [{
		"plan": "infra/plan.json", "address": "aws_eks_node_group.old", "location": at,
		"codeTypes": ["m4.large"], "planTypes": [], "onlyInCode": true,
	}]})
	fs := eni014.finding with input as inv
	count(fs) == 1
	some f in fs
	contains(f.message, "not in the Terraform plan infra/plan.json")
}

test_quiet_without_a_plan if {
	count(eni014.finding) == 0 with input as fx.inventory([], [], [])
}
