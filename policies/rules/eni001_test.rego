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
	f.details.hidden == 41
	f.details.active == 1
	f.details.demand == 41
	f.paths == ["spec.jobTemplate.spec.ttlSecondsAfterFinished", "spec.jobTemplate.spec"] # where a TTL would go
	f.object.name == "seed"
	count(f.details.fixes) > 0
}

test_fires_seed_with_ttl_still_exceeds if {
	w := fx.cronjob("seed", {}, {"ttlSecondsAfterFinished": 60})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	f.details.hidden == 15 # 7 of the oldest run + 8 packed into its 150 s tail (docs/model.md §5a)
	f.details.demand == 15
	some fix in f.details.fixes
	fix.change == "lower spec.jobTemplate.spec.backoffLimit from 6 to 2 (a failed run is retried fewer times) on CronJob default/seed (demand 9 of 9; frees 6)"
	not ttl_fix(f) # it has a TTL, and even 30 s leaves 14: the cool-down holds a deleted Job's ENIs 90 s
	contains(f.message, "No ttlSecondsAfterFinished alone fits CronJob default/seed: even 30 s leaves 14. A run has no activeDeadlineSeconds")

	# The first remedy is the one change of the deadline, in a value a person writes.
	f.details.fixes[0].change == "set spec.jobTemplate.spec.activeDeadlineSeconds: 120 (2 min) on CronJob default/seed (demand 8 of 9; frees 7); any activeDeadlineSeconds up to 269 s fits"
	f.details.fixes[0].set == [{"field": "spec.jobTemplate.spec.activeDeadlineSeconds", "value": 120}]
}

# The seed without a TTL: no TTL alone fits, so the first remedy is a TTL with a deadline, the
# pair with the longest deadline (TTL 600 s leaves a run 1 min, 300 s leaves it 2).
test_seed_first_remedy_is_a_ttl_with_a_deadline if {
	fs := eni001.finding with input as fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], m5large)
	some f in fs
	f.details.fixes[0].levers == ["deadline", "ttl"]
	f.details.fixes[0].set == [
		{"field": "spec.jobTemplate.spec.ttlSecondsAfterFinished", "value": 300},
		{"field": "spec.jobTemplate.spec.activeDeadlineSeconds", "value": 120},
	]
	f.details.fixes[0].demandAfter == 8
	count(f.details.fixes) >= 2
}

test_fires_job_and_deployment if {
	fs := eni001.finding with input as fx.inventory([fx.job("batch", {"completions": 3}), fx.deployment("api", 2, 1)], [fx.sgp_all], m5large)
	some f in fs
	f.details.demand == 12
	f.object.name == "batch"
	some fix in f.details.fixes
	fix.change == "lower spec.backoffLimit from 6 to 3 (a failed run is retried fewer times) on Job default/batch (demand 9 of 9; frees 3)"
	not ttl_fix(f) # all 9 pods exist when the Job finishes, whatever its TTL
	not contains(f.message, "ttlSecondsAfterFinished") # the fixes are details, listed by every report
}

# Under onDelete a TTL does not lower a standalone Job's peak: its pods all exist when it ends.
test_fires_job_with_ttl_too if {
	fs := eni001.finding with input as fx.inventory([fx.job("batch", {"completions": 3, "ttlSecondsAfterFinished": 60}), fx.deployment("api", 2, 1)], [fx.sgp_all], m5large)
	count(fs) == 1
}

ttl_fix(f) if {
	some fix in f.details.fixes
	contains(fix.change, "ttlSecondsAfterFinished")
}

# A TTL that fits is the largest one: a CronJob every hour with a TTL fits up to where the
# next run's pods would overlap the finished run's tail.
test_ttl_fix_is_the_largest_that_fits if {
	w := fx.cronjob("hourly", {"schedule": "0 * * * *", "periodSeconds": 3600, "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1}, {"backoffLimit": 2})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	f.details.demand == 21 # no TTL: (4 kept + 1 in flight) x T = 3, + 6 created in one 90 s window
	some fix in f.details.fixes

	# With a TTL below 3600 - 90 the finished run is gone before a third run can start: the
	# largest round value below that, and the exact limit in words.
	fix.change == "set spec.jobTemplate.spec.ttlSecondsAfterFinished: 1800 (30 min) on CronJob default/hourly (demand 9 of 9; frees 12); any TTL up to 3509 s fits"
	f.details.fixes[0] == fix
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
	# Three runs can end inside one window (a skipped time catches up); one pod at a time, so
	# their 15 chains (5 completions each) pay the back-off: 15 free pods and 9 more 11 s
	# steps (a 10 s delay after a pod of at least 1 s) in the 100 s window, 24 (33 when counted
	# without the back-off).
	f.details.hidden == 24
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

# A deadline that ends every run before the next time leaves Forbid nothing to catch up:
# every 5 minutes, TTL 60, backoffLimit 3 holds 4 + 8 = 12; with activeDeadlineSeconds below
# 270 one run fewer fits in the tail: 4 + 4 = 8.
test_deadline_fix_separates_runs if {
	w := fx.cronjob("every5", {}, {"ttlSecondsAfterFinished": 60, "backoffLimit": 3})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	f.details.demand == 12
	some fix in f.details.fixes
	fix.change == "set spec.jobTemplate.spec.activeDeadlineSeconds: 120 (2 min) on CronJob default/every5 (demand 8 of 9; frees 4); any activeDeadlineSeconds up to 269 s fits"
}

# `eni-lint fix` writes what a fix sets: each fix names its lever and the fields with their
# new values, in the manifest's own paths.
test_fixes_say_what_they_set if {
	w := fx.cronjob("seed", {}, {"ttlSecondsAfterFinished": 60})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	some fix in f.details.fixes
	fix.lever == "backoff"
	fix.set == [{"field": "spec.jobTemplate.spec.backoffLimit", "value": 2}]
	some other in f.details.fixes
	other.lever == "instance-type"
	not other.set
}

# A history fix sets only the limits that change, lowers the successful ones first, and keeps
# a failed Job: the evidence of a failure.
test_history_fix_sets_only_changed_limits if {
	w := fx.cronjob("hourly", {"schedule": "0 * * * *", "periodSeconds": 3600, "successfulJobsHistoryLimit": 10, "failedJobsHistoryLimit": 1}, {"backoffLimit": 1})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	some fix in f.details.fixes
	fix.lever == "history"
	fix.set == [{"field": "spec.successfulJobsHistoryLimit", "value": 0}]
	fix.change == "keep 1 finished Job (successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 1) on CronJob default/hourly (demand 8 of 9; frees 20)"

	# A TTL alone fits too, and comes first.
	f.details.fixes[0].levers == ["ttl"]
}

# Keeping no failed Job would fit (3 + 1 kept, T = 3: even 1 leaves 12), but is not offered.
test_history_fix_keeps_a_failed_job if {
	w := fx.cronjob("hourly", {"schedule": "0 * * * *", "periodSeconds": 3600, "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1}, {"backoffLimit": 2})
	fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
	some f in fs
	not "history" in {fix.lever | some fix in f.details.fixes}
}

# Every duration a remedy offers is a value of the ladder people write.
test_remedy_durations_are_round if {
	ws := [
		fx.cronjob("seed", {}, {}),
		fx.cronjob("every5", {}, {"ttlSecondsAfterFinished": 60, "backoffLimit": 3}),
		fx.cronjob("hourly", {"schedule": "0 * * * *", "periodSeconds": 3600}, {"backoffLimit": 2}),
	]
	every w in ws {
		fs := eni001.finding with input as fx.inventory([w], [fx.sgp_all], m5large)
		every f in fs {
			every fix in f.details.fixes {
				every s in [s | some s in object.get(fix, "set", []); endswith(s.field, "Seconds")] {
					s.value in data.eni.remedies.durations
				}
			}
		}
	}
}

# Every minute, Allow, OnFailure, no deadline (the shape of a workshop's cleanup CronJob), with
# --disruptions 6 (each retry a new pod, as Never): no TTL, schedule or retry change alone fits,
# nor a TTL with a deadline; fewer retries with a TTL and a deadline does, and is offered at
# rank 5 with all three changes. Without disruptions the CronJob leaves one pod a run and fits.
test_backoff_with_ttl_and_deadline_when_nothing_smaller_fits if {
	w := fx.cronjob("cleanup", {"schedule": "*/1 * * * *", "periodSeconds": 60, "concurrencyPolicy": "Allow"}, {"restartPolicy": "OnFailure"})
	inv := fx.inventory([w], [fx.sgp_all], m5large)
	count(eni001.finding) == 0 with input as inv
	fs := eni001.finding with input as object.union(inv, {"settings": object.union(inv.settings, {"disruptions": 6})})
	some f in fs
	some fix in f.details.fixes
	fix.rank == 5
	fix.levers == ["backoff", "deadline", "ttl"]
	fix.demandAfter <= 9
	not "ttl" in {x.lever | some x in f.details.fixes} # no TTL pair alone
}
