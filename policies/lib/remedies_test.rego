package eni.remedies_test

import data.eni.fixtures as fx
import data.eni.model
import data.eni.remedies

m5large := [fx.node_group("default", ["m5.large"])]

test_duration_text if {
	remedies.duration_text(30) == "30 (30 s)"
	remedies.duration_text(120) == "120 (2 min)"
	remedies.duration_text(3600) == "3600 (1 h)"
	remedies.duration_text(86400) == "86400 (1 d)"
	remedies.duration_text(90) == "90 (90 s)"
}

test_below_a_value_set if {
	remedies.below([30, 60, 120], 100) == [30, 60]
	remedies.below([30, 60, 120], null) == [30, 60, 120]
}

# Keeping k finished Jobs lowers the successful ones first.
test_history_limits_keep_the_failed_first if {
	w := {"cronJob": {"successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1}}
	remedies.history_limits(w, {"history": 2}) == {"successfulJobsHistoryLimit": 1, "failedJobsHistoryLimit": 1}
	remedies.history_limits(w, {"history": 1}) == {"successfulJobsHistoryLimit": 0, "failedJobsHistoryLimit": 1}
}

# A row evaluated again with no change is the row: the re-evaluation adds nothing of its own.
# Checked on the seed, on a Job beside a Deployment, and on CronJobs the row counts by their
# busy windows (separable: a schedule, a deadline, a TTL).
test_row_after_no_change_is_the_row if {
	invs := [
		fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], m5large),
		fx.inventory([fx.job("batch", {"completions": 3}), fx.deployment("api", 2, 1)], [fx.sgp_all], m5large),
		fx.inventory([
			fx.cronjob("a", {"schedule": "0 * * * *", "periodSeconds": 3600, "weekTimes": [0, 3600, 7200]}, {"ttlSecondsAfterFinished": 60, "activeDeadlineSeconds": 600}),
			fx.cronjob("b", {"schedule": "30 * * * *", "periodSeconds": 3600, "weekTimes": [1800, 5400, 9000]}, {"ttlSecondsAfterFinished": 60, "activeDeadlineSeconds": 600}),
		], [fx.sgp_all], m5large),
	]
	every inv in invs {
		rows_unchanged with input as inv
	}
}

rows_unchanged if {
	count(model.rows) > 0
	every row in model.rows {
		every c in row.contributors {
			same_row(row, c)
		}
	}
}

same_row(row, c) if {
	w := model.contributor_workload(c)
	v := remedies.changed_view(w, {})
	after := remedies.row_after(row, c, w, v, model.numbers_of(v))
	after == {"held": row.held, "hidden": row.hidden, "active": row.active, "demand": row.demand}
}

# Every remedy ENI001 lists clears its node group when evaluated again (the Go tests apply
# them to files and check again).
test_every_remedy_clears if {
	inv := fx.inventory([fx.cronjob("seed", {}, {})], [fx.sgp_all], m5large)
	fixes := remedies.by_group[m5large[0].id] with input as inv
	count(fixes) >= 2
	every fix in [x | some x in fixes; x.lever != "instance-type"] {
		fix.demandAfter <= 9
	}
}
