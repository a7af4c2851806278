package eni.rules.eni002_test

import data.eni.fixtures as fx
import data.eni.rules.eni002

test_fires_job_without_ttl if {
	fs := eni002.finding with input as fx.inventory([fx.job("j", {"completions": 3})], [fx.sgp_all], [])
	some f in fs
	f.severity == "warning"
	f.details.T == 9
	f.paths == ["spec.ttlSecondsAfterFinished", "spec"]
}

test_fires_cronjob_without_ttl if {
	fs := eni002.finding with input as fx.inventory([fx.cronjob("c", {}, {})], [fx.sgp_all], [])
	some f in fs
	f.paths == ["spec.jobTemplate.spec.ttlSecondsAfterFinished", "spec.jobTemplate.spec"]
	f.details.retained == 41
}

test_fires_as_info_on_completion if {
	fs := eni002.finding with input as fx.on_completion(fx.inventory([fx.job("j", {})], [fx.sgp_all], []))
	some f in fs
	f.severity == "info"
}

test_quiet_with_ttl if {
	count(eni002.finding) == 0 with input as fx.inventory([fx.job("j", {"ttlSecondsAfterFinished": 0})], [fx.sgp_all], [])
}

test_quiet_not_selected if {
	count(eni002.finding) == 0 with input as fx.inventory([fx.job("j", {})], [], [])
}

test_quiet_for_deployments if {
	count(eni002.finding) == 0 with input as fx.inventory([fx.deployment("d", 3, 1)], [fx.sgp_all], [])
}

# A Job that a Fargate profile runs holds no node branch ENI: nothing to warn about.
test_quiet_on_fargate if {
	w := object.union(fx.job("j", {"completions": 3}), {"fargate": {"profile": "batch", "location": {"file": "main.tf", "line": 9, "column": 1}}})
	count(eni002.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], [])
}

test_fix_sets_the_ttl if {
	fs := eni002.finding with input as fx.inventory([fx.cronjob("c", {}, {})], [fx.sgp_all], [])
	some f in fs
	f.details.fixes[0].set == [{"field": "spec.jobTemplate.spec.ttlSecondsAfterFinished", "value": 600}]
	f.details.fixes[0].lever == "ttl"
}

test_fix_ttl_follows_the_setting if {
	inv := fx.inventory([fx.job("j", {})], [fx.sgp_all], [])
	fs := eni002.finding with input as object.union(inv, {"settings": {"fixTtlSeconds": 300}})
	some f in fs
	f.details.fixes[0].set == [{"field": "spec.ttlSecondsAfterFinished", "value": 300}]
}
