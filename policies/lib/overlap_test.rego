package eni.model_test

import data.eni.fixtures as fx
import data.eni.model

# --- onCompletion: CronJobs whose runs cannot overlap (§5a) ---

# 25 nightly backups every 20 minutes from 00:00, each stopped by a 600 s deadline: a run
# holds within 600 + 30 + 90 = 720 s of its time, so no two hold at once and the row
# counts one of them, not all 25. One run alone holds 4: the deadline ends it long before the
# next time, so only its own pods count, and the back-off spaces them (0, 11, 32, 73 s) so that
# no more than 4 end within 90 s of each other.
nightly(i) := fx.cronjob(sprintf("backup-%02d", [i]), {
	"schedule": "", "periodSeconds": 86400,
	"weekTimes": week_times(i * 1200),
}, {"activeDeadlineSeconds": 600})

week_times(at) := [x | some d in [0, 1, 2, 3, 4, 5, 6]; x := at + (d * 86400)]

test_nightly_backups_do_not_add_up if {
	slots := [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
	inv := fx.on_completion(fx.inventory([nightly(i) | some i in slots], [fx.sgp_all], [fx.node_group("default", ["m5.large"])]))
	rows := model.rows with input as inv
	rows[0].held == 4
	rows[0].hidden == 4
	rows[0].demand == 4
	rows[0].verdict == "fits"
	rows[0].scheduleSeparated.saved == 96
	count(rows[0].scheduleSeparated.workloads) == 25
}

# Two backups 10 minutes apart overlap (busy 720 s > 600 s): they add up.
test_overlapping_backups_add_up if {
	a := nightly(0)
	b := object.union(nightly(1), {"cronJob": object.union(nightly(1).cronJob, {"weekTimes": [600]})})
	inv := fx.on_completion(fx.inventory([a, b], [fx.sgp_all], [fx.node_group("default", ["m5.large"])]))
	rows := model.rows with input as inv
	rows[0].held == 8
}

# Under onDelete without a TTL the schedules do not separate anything: finished Jobs stay until
# the history deletes them.
test_no_separation_on_delete_without_ttl if {
	inv := fx.inventory([nightly(0), nightly(1)], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows := model.rows with input as inv
	not rows[0].scheduleSeparated
}

# With a TTL a finished Job is deleted TTL after it ends: six backups 4 h apart with a 300 s TTL
# hold within 600 + 30 + 300 + 90 s of their times, never together. Each alone is one run's
# pods, 6: the next run of the same CronJob comes a day later, and the back-off lets a run
# create its 7th pod only 636 s after it starts, past its 600 s deadline (78 before, the sum of
# 7 + a 6-pod catch-up each).
backup_with_ttl(i) := object.union(nightly(i), {
	"cronJob": {"weekTimes": week_times(i * 14400)},
	"job": {"ttlSecondsAfterFinished": 300},
})

test_ttl_separates_on_delete if {
	inv := fx.inventory([backup_with_ttl(i) | some i in [0, 1, 2, 3, 4, 5]], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows := model.rows with input as inv
	count(rows[0].scheduleSeparated.workloads) == 6
	rows[0].held == 6
	rows[0].demand == 6
	rows[0].verdict == "fits"
}

# A replaced run's pod with a long grace period keeps its ENI while it stops: every 5 minutes,
# Replace, grace 3600 s. Counted as if pods stopped within 30 s (7) plus one running pod per run
# replaced in the 3570 s before (12): 19, where the issue's simulator reached 17; before, 7.
test_long_grace_replace_is_counted if {
	cj := fx.cronjob("sync", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600})
	inv := fx.on_completion(fx.inventory([cj], [fx.sgp_all], []))
	model._numbers[cj.id].held == 19 with input as inv
}

# Of those 19, the 12 replaced runs' pods still stopping were all running one W before the
# peak, and an m5.large runs at most 9 SGP pods at once: its row counts 7 + 9 = 16. An
# m5.xlarge (18) counts all 19. Two such CronJobs on one m5.large: 7 + 7 + 9 = 23, not 38.
test_long_grace_stopping_pods_count_at_the_nodes_capacity if {
	cj := fx.cronjob("sync", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600})
	inv := fx.on_completion(fx.inventory([cj], [fx.sgp_all], [fx.node_group("ng", ["m5.large", "m5.xlarge"])]))
	model._numbers[cj.id].lateStopping == 12 with input as inv
	rows := model.rows with input as inv
	[large] := [r | some r in rows; r.instanceType == "m5.large"]
	large.held == 16
	large.demand == 16
	large.lateStopping == {"pods": 12, "overCapacity": 3}
	[xlarge] := [r | some r in rows; r.instanceType == "m5.xlarge"]
	xlarge.demand == 19
	xlarge.lateStopping == {"pods": 12, "overCapacity": 0}
	model.demand_on(large, 18) == 19
	model.demand_on(large, 38) == 19
	other := fx.cronjob("other", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600})
	both := fx.on_completion(fx.inventory([cj, other], [fx.sgp_all], [fx.node_group("ng", ["m5.large"])]))
	[row] := model.rows with input as both
	row.demand == 23
}

# Under onDelete a run stopped by its deadline keeps all its pods until its TTL, which counts
# from its stopped pod's end: its late pods need not have run together, and none is capped.
test_deadline_stopped_runs_under_on_delete_are_not_capped if {
	cj := fx.cronjob("sync", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600, "activeDeadlineSeconds": 120, "ttlSecondsAfterFinished": 60})
	inv := fx.inventory([cj], [fx.sgp_all], [fx.node_group("ng", ["m5.large"])])
	not model._numbers[cj.id].lateStopping with input as inv
	[row] := model.rows with input as inv
	not row.lateStopping
}

# OnFailure pods restart in place: without disruptions a run leaves its one pod (T = 1, where
# Never leaves completions + backoffLimit = 7). With --disruptions 6 each disrupted pod is
# replaced after the same back-off: a single-pod Job then chains like restartPolicy Never.
test_on_failure_chains if {
	never := fx.job("never", {})
	onfail := fx.job("onfail", {"restartPolicy": "OnFailure"})
	inv := fx.on_completion(fx.inventory([never, onfail], [fx.sgp_all], []))
	model._numbers[onfail.id].T == 1 with input as inv
	model._numbers[onfail.id].held == 1 with input as inv
	model._numbers[never.id].T == 7 with input as inv
	disrupted := object.union(inv, {"settings": object.union(inv.settings, {"disruptions": 6})})
	model._numbers[never.id].held == model._numbers[onfail.id].held with input as disrupted
	model._numbers[onfail.id].held < 7 with input as disrupted
	model._numbers[onfail.id].T == 7 with input as disrupted
}

# --- Runs in a window (§5a) ---

# Forbid starts a skipped time late (two runs in the 150 s tail: 7 + 8); Replace starts every
# run at its time, and deletes the run at the next one, so a run creates at most 5 pods in its
# 300 s (one run in the tail: 5 + 4, its 5th pod would come at 154 s); Forbid whose
# startingDeadlineSeconds is shorter than what the catch-up needs starts every run at its time
# too (7 + 4).
test_runs_in_a_window_by_policy if {
	forbid := fx.cronjob("f", {}, {"ttlSecondsAfterFinished": 60})
	replace := fx.cronjob("r", {"concurrencyPolicy": "Replace"}, {"ttlSecondsAfterFinished": 60})
	deadline := fx.cronjob("d", {"startingDeadlineSeconds": 60}, {"ttlSecondsAfterFinished": 60})
	inv := fx.inventory([forbid, replace, deadline], [fx.sgp_all], [])
	model._numbers[forbid.id].held == 15 with input as inv
	model._numbers[replace.id].held == 9 with input as inv
	model._numbers[deadline.id].held == 11 with input as inv
}

# Runs in a window from the schedule's real times: twice a night an hour apart ("0 1,2 * * *"),
# a 2-hour TTL, a 10-minute deadline. The window of a run (600 + 30 + 7200 + 90 s) holds two
# schedule times, not the three its shortest gap (3600 s) would allow: 2 runs of 6 (the
# deadline comes before the 7th pod's back-off ends), not 3.
test_runs_in_a_window_from_the_real_times if {
	cron := {"periodSeconds": 3600, "runSpans": [3600, 86400, 90000]}
	spec := {"activeDeadlineSeconds": 600, "ttlSecondsAfterFinished": 7200}
	irregular := fx.cronjob("twice", cron, spec)
	regular := fx.cronjob("hourly", {"periodSeconds": 3600}, spec)
	inv := fx.inventory([irregular, regular], [fx.sgp_all], [])
	model._numbers[irregular.id].held == 12 with input as inv
	model._numbers[regular.id].held == 18 with input as inv
}

# A single chain stopped by its deadline creates only the pods the back-off allows before it:
# 0 and 11 s within a 30 s deadline (the third would come at 32 s: each pod runs a second before
# its 10 s and 20 s back-offs), so 2 of backoffLimit 6's 7.
test_a_deadline_caps_a_chain if {
	short := fx.job("short", {"activeDeadlineSeconds": 30})
	long := fx.job("long", {"activeDeadlineSeconds": 3600})
	inv := fx.inventory([short, long], [fx.sgp_all], [])
	model._numbers[short.id].held == 2 with input as inv
	model._numbers[long.id].held == 7 with input as inv
}

# Forbid with a 300 s deadline every 10 minutes and a one-hour grace period: the Job blocks the
# next run until its pod has stopped (Kubernetes 1.31), so no pod of a run holds past its Job's
# finish, and the runs holding at x are the one in flight (its pod may still be stopping: the
# first pod of its chain in the pack) and those that ended within W, started since the oldest
# of them ended: the window of W with no grace, 9 (pack(3, 100) under onCompletion). Counted
# as if pods stopped in 30 s but runs could start late, plus the late pods, it is 12; every
# window counted with the grace gave about 45, and 16 when a Job stopped by its deadline was
# finished at once (before 1.31) and stopped pods piled up one per 600 s. A 700 s deadline
# (past the next time) is the same: 9, where the late pods, 700 s apart, gave 16.
test_long_grace_forbid_is_counted_by_its_deadline if {
	cj := fx.cronjob("sync", {"periodSeconds": 600}, {"activeDeadlineSeconds": 300, "terminationGracePeriodSeconds": 3600})
	long := fx.cronjob("long", {"periodSeconds": 600}, {"activeDeadlineSeconds": 700, "terminationGracePeriodSeconds": 3600})
	inv := fx.on_completion(fx.inventory([cj, long], [fx.sgp_all], []))
	model._numbers[cj.id].held == 9 with input as inv
	model._numbers[long.id].held == 9 with input as inv
}

# Replace caps a run's pods at what the back-off lets it create before the next time: only for
# restartPolicy Never and a schedule whose every gap is its period, in UTC.
test_replace_caps_a_runs_pods_by_its_period if {
	every5 := fx.cronjob("r5", {"concurrencyPolicy": "Replace"}, {})
	zoned := fx.cronjob("rz", {"concurrencyPolicy": "Replace", "timeZone": "Europe/Berlin"}, {})
	irregular := fx.cronjob("ri", {"concurrencyPolicy": "Replace", "runSpans": [300, 900]}, {})
	hourly := fx.cronjob("rh", {"concurrencyPolicy": "Replace", "periodSeconds": 3600}, {})
	onfailure := fx.cronjob("ro", {"concurrencyPolicy": "Replace"}, {"restartPolicy": "OnFailure"})
	inv := fx.inventory([every5, zoned, irregular, hourly, onfailure], [fx.sgp_all], [])
	model._run_pods(every5) == 5 with input as inv
	model._run_pods(zoned) == 7 with input as inv
	model._run_pods(irregular) == 7 with input as inv
	model._run_pods(hourly) == 7 with input as inv
	model._run_pods(onfailure) == 1 with input as inv # restarts in place: one pod a run
	disrupted := object.union(inv, {"settings": object.union(inv.settings, {"disruptions": 6})})
	model._run_pods(onfailure) == 7 with input as disrupted
}

# A TTL deletes only Jobs the history kept, so it adds nothing to the count's S + F plus the
# runs finishing in the window: every 5 minutes, Forbid, a 240 s deadline (5 pods a run), a 1 h
# TTL, history 3/1: (3 + 1 + 1)·5 + the pods of the run started after the window's first
# finish. That finish comes at least 300 − (240 + 30) = 30 s before the next time, so the run
# has 60 s of the 90 s window: 3 pods, 28, which the witness reaches (the TTL counted on top gave
# 39, and the whole window 29).
test_a_ttl_deletes_only_kept_jobs if {
	cj := fx.cronjob("reports", {}, {"activeDeadlineSeconds": 240, "ttlSecondsAfterFinished": 3600})
	inv := fx.inventory([cj], [fx.sgp_all], [])
	model._numbers[cj.id].held == 28 with input as inv
}

# Without a deadline, or with one that leaves no gap before the next time (290 s + the 30 s
# stop), a finish can come just before the next time: the whole window, and its catch-up.
test_a_finish_without_deadline_opens_the_whole_window if {
	cj := fx.cronjob("reports", {}, {"ttlSecondsAfterFinished": 3600})
	model._started_after_first_finish(cj, 90, 7, 300) == model._runs_pack(cj, 2, 90, 7, model._chain_of(cj.job), 300)
	long := fx.cronjob("long", {}, {"activeDeadlineSeconds": 290})
	model._started_after_first_finish(long, 90, 7, 300) == model._runs_pack(long, 2, 90, 7, model._chain_of(long.job), 300)
}

# A window a deadline ends falls before its end: the pod deleted at D is gone once it has
# stopped, so past D + tail a run of one pod at a time holds one pod fewer under onDelete (its
# other pods hold through the TTL from the Job's finish) and only that pod under onCompletion.
# Two daily CronJobs, D = 600, TTL 300: the first's window is 1,020 s under onDelete, and the
# second starts 1,000 s after it, past 990: at 1,011 s 5 + 2 = 7, not 6 + 2. Under onCompletion
# the window is 720 s and the first holds 4 at most (its pods within W), and the second starts
# 700 s after it, past 690: 1 + 2 at 711 s, so the row is the first alone, 4, not 4 + 2.
daily_at(name, at) := fx.cronjob(name, {"schedule": "", "periodSeconds": 86400, "weekTimes": week_times(at)}, {"activeDeadlineSeconds": 600, "ttlSecondsAfterFinished": 300})

test_a_deadline_window_falls_before_its_end if {
	on_delete := fx.inventory([daily_at("a", 0), daily_at("b", 1000)], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows := model.rows with input as on_delete
	rows[0].held == 7
	on_completion := fx.on_completion(fx.inventory([daily_at("a", 0), daily_at("b", 700)], [fx.sgp_all], [fx.node_group("default", ["m5.large"])]))
	completion_rows := model.rows with input as on_completion
	completion_rows[0].held == 4
}
