package eni.rules.eni001_test

import data.eni.fixtures as fx
import data.eni.rules.eni001

m5large := [fx.node_group("default", ["m5.large"])]

test_fires_on_the_seed if {
	fs := eni001.finding with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], m5large)
	count(fs) == 1
	some f in fs
	f.rule == "ENI001"
	f.details.instanceType == "m5.large"
	f.details.branchInterfaces == 9
	f.details.hidden == 34
	f.details.active == 1
	f.details.demand == 35
	f.paths == ["spec.jobTemplate.spec.ttlSecondsAfterFinished", "spec.jobTemplate.spec"] # where a TTL would go
	f.object.name == "seed"
	count(f.details.fixes) > 0
}

test_fires_seed_with_ttl_still_exceeds if {
	w := fx.cronjob("seed", {}, {"ttlSecondsAfterFinished": 60})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	f.details.hidden == 20 # K=2 x 7 + 6 in flight
	f.details.demand == 21
}

test_fires_job_and_deployment if {
	fs := eni001.finding with input as fx.inventory([fx.job("batch", {"completions": 3}), fx.deployment("api", 2, 1)], [fx.sgp_all], m5large)
	some f in fs
	f.details.demand == 12
	f.object.name == "batch"
	some fix in f.details.fixes
	contains(fix.change, "set spec.ttlSecondsAfterFinished on Job default/batch")
	not contains(f.message, "ttlSecondsAfterFinished") # the fixes are details, listed by every report
}

test_quiet_job_with_ttl if {
	fs := eni001.finding with input as fx.inventory([fx.job("batch", {"completions": 3, "ttlSecondsAfterFinished": 60}), fx.deployment("api", 2, 1)], [fx.sgp_all], m5large)
	count(fs) == 0
}

test_quiet_seed_with_ttl_and_backoff if {
	w := fx.cronjob("seed", {}, {"ttlSecondsAfterFinished": 60, "backoffLimit": 2})
	count(eni001.finding) == 0 with input as fx.inventory([w], [fx.sgp_all], m5large)
}

test_quiet_without_node_groups if {
	count(eni001.finding) == 0 with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], [])
}

test_quiet_when_not_selected if {
	sgp := fx.sgp("other", {"matchLabels": {"app": "other"}, "matchExpressions": []})
	count(eni001.finding) == 0 with input as fx.inventory([fx.cronjob("seed", {}, {})], [sgp], m5large)
}

test_quiet_on_completion_for_the_seed if {
	inv := fx.on_completion(fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], m5large))
	count(eni001.finding) == 0 with input as inv
}

test_fires_on_completion_with_churn if {
	w := fx.cronjob("burst", {}, {"completions": 5})
	inv := fx.on_completion(fx.inventory([w], [fx.sgp_all], m5large))
	some f in eni001.finding with input as inv
	f.details.hidden == 11 # A x T = 1 x (5 + 6)
}

test_binding_type_is_the_smallest if {
	fs := eni001.finding with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], [fx.node_group("mixed", ["m5.xlarge", "m5.large"])])
	some f in fs
	f.details.instanceType == "m5.large"
	f.details.alsoExceeding == ["m5.xlarge"]
}

test_suggests_a_larger_type if {
	fs := eni001.finding with input as fx.inventory([fx.job("batch", {"completions": 3}), fx.deployment("api", 2, 1)], [fx.sgp_all], m5large)
	some f in fs
	some fix in f.details.fixes
	fix.instanceType == "m5.xlarge"
}

# A Deployment an autoscaler scales is counted at its maximum, and the message names it.
test_fires_names_the_autoscaler if {
	dep := object.union(fx.deployment("api", 12, 3), {"scaledBy": {"kind": "HorizontalPodAutoscaler", "name": "api", "maxReplicas": 12}})
	fs := eni001.finding with input as fx.inventory([fx.cronjob("seed", {}, {}), dep], [fx.sgp_all], [fx.node_group("default", ["m5.2xlarge"])])
	some f in fs
	f.details.active == 16
	contains(f.message, "Running pods counted at their autoscaler's maximum: Deployment default/api 15 (HorizontalPodAutoscaler api)")
}
