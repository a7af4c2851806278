package eni.model_test

import data.eni.fixtures as fx
import data.eni.model

# Every 10 minutes under Forbid with a 600 s TTL: the oldest run's 7 pods hold through its TTL
# and W (690 s), and three runs start inside that window (two times and a catch-up). Packed
# side by side their chains make 16 pods in 690 s, but the third run is for the window's second
# time, 600 s in at the earliest: it makes 4 pods in the last 90 s at most, and the first two
# 6 + 5 before it (or 6 + 6 with 3 in the rest): 15, so 22, which a witness reaches
# (terraform-self-managed-dynamic).
test_the_last_run_starts_at_its_time if {
	w := fx.cronjob("every-10", {"periodSeconds": 600}, {"ttlSecondsAfterFinished": 600})
	inv := fx.inventory([w], [fx.sgp_all], [])
	chain := model._chain_of(w.job)
	model._pack(3, 690, 7, chain) == 16
	model._runs_pack(w, 3, 690, 7, chain, 600) == 15
	model._numbers[w.id].held == 22 with input as inv
}

# When the last run's time leaves it room for a whole chain the packing is unchanged: the seed
# with a 60 s TTL, two runs in 150 s (a time and a catch-up), 7 + 8 = 15.
test_runs_with_room_pack_as_before if {
	w := fx.cronjob("seed", {}, {"ttlSecondsAfterFinished": 60})
	chain := model._chain_of(w.job)
	model._runs_pack(w, 2, 150, 7, chain, 300) == model._pack(2, 150, 7, chain)
	model._numbers[w.id].held == 15 with input as fx.inventory([w], [fx.sgp_all], [])
}

# An irregular schedule pins the last run by its real spans: "0 1,2 * * *" with a one-hour TTL
# (L = 3,690 s) has its two times an hour apart, so the third run started in the window (the
# catch-up first) has 90 s: 4 pods, the first two 7 each: 7 + 18 = 25, where the side-by-side
# packing gave 7 + 21.
test_irregular_spans_pin_the_last_run if {
	cron := {"periodSeconds": 3600, "runSpans": [3600, 86400, 90000]}
	w := fx.cronjob("twice", cron, {"ttlSecondsAfterFinished": 3600})
	chain := model._chain_of(w.job)
	model._pack(3, 3690, 7, chain) == 21
	model._numbers[w.id].held == 25 with input as fx.inventory([w], [fx.sgp_all], [])
}

# Parallel runs and runs of several chains keep the side-by-side packing.
test_only_single_chains_are_pinned if {
	parallel := fx.cronjob("parallel", {"periodSeconds": 600}, {"ttlSecondsAfterFinished": 600, "parallelism": 3, "completions": 3})
	model._runs_pack(parallel, 3, 690, 9, model._chain_of(parallel.job), 600) == model._pack(3, 690, 9, model._chain_of(parallel.job))
	several := fx.cronjob("several", {"periodSeconds": 600}, {"ttlSecondsAfterFinished": 600, "completions": 3})
	model._runs_pack(several, 3, 690, 9, model._chain_of(several.job), 600) == model._pack(3, 690, 9, model._chain_of(several.job))
}

# A failed OnFailure Job keeps only its disrupted pods: its run fails by the B-th container
# restart, and the Job controller deletes the pod still running then. Hourly, history 3/1:
# without disruptions 3·1 + 1·0 + 1 + the 2 pods of runs in W = 6; with 6 disruptions a run,
# 3·7 + 1·6 + 7 + 6 = 40 (Never, whose failed Job keeps all 7: 41).
test_a_failed_onfailure_job_keeps_its_disrupted_pods if {
	onfailure := fx.cronjob("sync", {"periodSeconds": 3600}, {"restartPolicy": "OnFailure"})
	never := fx.cronjob("never", {"periodSeconds": 3600}, {})
	inv := fx.inventory([onfailure, never], [fx.sgp_all], [])
	model._numbers[onfailure.id].held == 6 with input as inv
	disrupted := object.union(inv, {"settings": object.union(inv.settings, {"disruptions": 6})})
	model._numbers[onfailure.id].held == 40 with input as disrupted
	model._numbers[never.id].held == 41 with input as disrupted
}

# With a TTL the history count's kept Jobs must all have finished within TTL + W: every
# 5 minutes, TTL 1800, history 3/1: 7 + pack(4, 1890) + pack(2, 90) = 7 + 25 + 6 = 38, not
# (3 + 1 + 1)·7 + 6 = 41 (helm-values-repeated-key's witness reaches 38).
test_a_ttl_limits_the_kept_jobs if {
	w := fx.cronjob("cleanup", {}, {"ttlSecondsAfterFinished": 1800})
	model._ttl_count_held(w, 7, 300, 6) == 38 with input as fx.inventory([w], [fx.sgp_all], [])
	model._numbers[w.id].held == 38 with input as fx.inventory([w], [fx.sgp_all], [])
}

# Allow every minute with D = 900, a 60 s TTL and T = 7: 19 runs hold inside D + stop + TTL + W
# (1,080 s). With every gap 60 s the run for the last time started under 60 s ago and has at
# most 3 pods (0, 11, 32 s), the one before it 4, … up to the 14th (840 s, 7); the 5 older ones
# 7 each: 80 + 35 = 115, where T per run gave 133. Without even gaps (an irregular schedule may
# have paused for hours before its last time) every run keeps T.
test_overlapping_runs_hold_what_their_age_allows if {
	cron := {"periodSeconds": 60, "concurrencyPolicy": "Allow", "evenGaps": true}
	w := fx.cronjob("every-minute", cron, {"activeDeadlineSeconds": 900, "ttlSecondsAfterFinished": 60})
	chain := model._chain_of(w.job)
	model._aged_runs_held(w, 19, 7, 7, chain, 900, 60) == 115
	uneven := fx.cronjob("every-minute", {"periodSeconds": 60, "concurrencyPolicy": "Allow"}, {"activeDeadlineSeconds": 900, "ttlSecondsAfterFinished": 60})
	model._aged_runs_held(uneven, 19, 7, 7, chain, 900, 60) == 133
	model._numbers[w.id].held == 115 with input as fx.inventory([w], [fx.sgp_all], [])
}

# Pods run side by side (parallelism 3): a run's age does not space them, and each keeps T.
test_parallel_runs_keep_t_whatever_their_age if {
	cron := {"periodSeconds": 60, "concurrencyPolicy": "Allow", "evenGaps": true}
	w := fx.cronjob("parallel", cron, {"activeDeadlineSeconds": 900, "parallelism": 3, "completions": 3})
	model._aged_runs_held(w, 19, 9, 9, model._chain_of(w.job), 900, 60) == 171
}

# The history count under Allow: every minute with D = 900, no TTL, history 2/0 and T = 4. A
# finished Job that holds was kept at the window's start or finished inside it, and the runs
# finishing inside W (90 s) and those in flight are different runs, all started within
# W + D + stop (1,020 s): 18 of them, so 2·4 + 18·4 = 80, where counting the finishing and
# the in-flight runs apart gave 8 + (18 + 16)·4 = 144 (the simulator's search reaches 71).
test_allow_counts_finishing_and_running_runs_once if {
	cron := {"periodSeconds": 60, "concurrencyPolicy": "Allow", "successfulJobsHistoryLimit": 2, "failedJobsHistoryLimit": 0}
	w := fx.cronjob("every-minute", cron, {"activeDeadlineSeconds": 900, "backoffLimit": 3})
	model._numbers[w.id].held == 80 with input as fx.inventory([w], [fx.sgp_all], [])
}
