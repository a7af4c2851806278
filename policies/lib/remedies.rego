# METADATA
# title: eni-lint remedies
# description: |
#   The changes ENI001 offers: small sets of field changes on one contributing workload, each
#   proved by evaluating the model again with the change applied (docs/model.md §6b).
package eni.remedies

import data.eni.model

# ---------------------------------------------------------------------------------------
# A row evaluated again with one workload changed

# What a row would be with workload w's fields changed: the row's sums with w's contribution
# replaced by the model's numbers for the changed view (v, n), and the CronJobs the row counts
# by their busy windows counted again with w as changed. A row w does not land on is as it is.
row_after(row, c, w, v, n) := {"held": held, "hidden": hidden, "active": active, "demand": demand} if {
	lands_on(row, w)
	counted := counted_after(w, v, n)
	separated := model.row_separated(row)
	before := saved_by(pairs_of(separated))
	rest := [x | some x in separated; x.id != w.id]
	after := saved_by(array.concat(pairs_of(rest), counted.pair))
	late := model.row_late(row)
	stopping := (late.pods - stopping_counted(c, w.id)) + counted.stopping
	over := max([0, stopping - row.branchInterfaces]) - late.overCapacity
	held := ((((row.held + before) - c.held) + counted.held) - after) - over
	hidden := ((((row.hidden + before) - c.hidden) + counted.hidden) - after) - over
	active := (row.active - c.active) + counted.active
	demand := model.row_demand(held, hidden, active, row.branchInterfaces)
} else := {"held": row.held, "hidden": row.hidden, "active": row.active, "demand": row.demand}

# What the row counts for w's object after the change. An object defined more than once (two
# overlays build it) is counted once, at its heaviest definition (model.outranked): the other
# definitions stay as they are, and the heaviest of them may then be the one counted.
counted_after(w, v, n) := best if {
	ws := model.duplicated_objects[[w.kind, w.namespace, w.name]]
	mine := {"held": n.held, "hidden": model.hidden_of(n), "active": n.active, "pair": changed_pair(v, n), "stopping": view_stopping(v, n)}
	options := array.concat([[0 - (mine.hidden + mine.active), w.id, mine]], [[0 - (x.hidden + x.active), d.id, object.union(x, {"pair": pairs_of([object.union(x, {"id": d.id})]), "stopping": stopping_counted(x, d.id)})] |
		some d in ws
		d.id != w.id
		x := model.class_contribution[model.class_of(d)]
	])
	best := sort(options)[0][2]
} else := {"held": n.held, "hidden": model.hidden_of(n), "active": n.active, "pair": changed_pair(v, n), "stopping": view_stopping(v, n)}

# The late pods that ran together a row caps (the model's _stopping_parts): a contribution's, unless
# the row counts it by its busy windows; a changed view's, unless it is separable.
stopping_counted(c, id) := 0 if {
	model.separable[id]
} else := object.get(c, "stopping", 0)

view_stopping(v, n) := 0 if {
	model.separable_view(v)
} else := object.get(n, "lateStopping", 0)

lands_on(row, w) if {
	key := [w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations]
	key in model.row_keys[[row.nodeGroupId, row.typeKey]]
}

pairs_of(contributors) := [[model.separable[x.id], x.held] | some x in contributors]

changed_pair(v, n) := [[model.separable_windows(v), n.held]] if {
	model.separable_view(v)
} else := []

# What counting CronJobs by their busy windows saves: their sum less their peak at one instant.
saved_by(pairs) := 0 if {
	count(pairs) == 0
} else := sum([held | some [_, held] in pairs]) - model.separated_peak_of(pairs)

# The changed view of a workload and its numbers: the model's own figures, not a formula of
# this file.
changed_view(w, changes) := object.union(model.numbers_view(w), patch_of(w, changes))

# changes: {"ttl", "deadline", "backoff", "startingDeadline", "history", "forbid"}, each optional.
patch_of(w, changes) := object.union(job_patch(w, changes), cron_patch(w, changes))

job_patch(w, changes) := {"job": object.union(w.job, job_changes(changes))} if {
	w.job != null
} else := {}

job_changes(changes) := {field: changes[key] |
	some key, field in {"ttl": "ttlSecondsAfterFinished", "deadline": "activeDeadlineSeconds", "backoff": "backoffLimit"}
	_ = changes[key]
}

cron_patch(w, changes) := {"cronJob": object.union(w.cronJob, cron_changes(w, changes))} if {
	object.get(w, "cronJob", null) != null
} else := {}

cron_changes(w, changes) := object.union(object.union(
	{"startingDeadlineSeconds": changes.startingDeadline | _ = changes.startingDeadline},
	{"concurrencyPolicy": "Forbid" | changes.forbid == true},
), history_limits(w, changes))

# Keeping k finished Jobs lowers the successful ones first: a failed Job is the evidence of a
# failure, and a CronJob that keeps one keeps at least one (k >= 1, history_remedies).
history_limits(w, changes) := {
	"successfulJobsHistoryLimit": changes.history - failed,
	"failedJobsHistoryLimit": failed,
} if {
	_ = changes.history
	failed := min([changes.history, w.cronJob.failedJobsHistoryLimit])
} else := {}

# Whether a change clears every exceeding row of a node group: the changed workload's numbers
# are bounded (a count that is only a lower bound proves nothing), and each row's demand with
# them is at most its branch interfaces.
clears(ctx, changes) if {
	v := changed_view(ctx.w, changes)
	clears_with(ctx, v, model.numbers_of(v))
}

clears_value(ctx, v, n) := true if {
	clears_with(ctx, v, n)
} else := false

clears_with(ctx, v, n) if {
	n.bounded
	every row in ctx.rows {
		row_after(row, ctx.c, ctx.w, v, n).demand <= row.branchInterfaces
	}
}

# What a change does, from one evaluation of the model: whether it clears the node group, the
# binding row's demand with it, and whether the changed numbers are bounded.
outcome(ctx, changes) := {"clears": clears_value(ctx, v, n), "demand": row_after(ctx.row, ctx.c, ctx.w, v, n).demand, "bounded": n.bounded} if {
	v := changed_view(ctx.w, changes)
	n := model.numbers_of(v)
}

# The binding row's demand with a change, for the numbers a remedy shows.
demand_after(ctx, changes) := row_after(ctx.row, ctx.c, ctx.w, v, model.numbers_of(v)).demand if {
	v := changed_view(ctx.w, changes)
}

frees(ctx, changes) := ctx.c.held - model.numbers_of(changed_view(ctx.w, changes)).held

# ---------------------------------------------------------------------------------------
# Values a person writes

# Durations a person would choose, in seconds: 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 6, 12 h,
# 1, 2, 7 d. A remedy offers the largest of them that fits, and says how far the exact limit
# reaches.
durations := [30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 604800]

# A run needs time for its work: a deadline under a minute would fit by killing it; a starting
# deadline under a minute can miss the schedule (the controller checks every 10 s).
deadline_values := [d | some d in durations; d >= 60]

# The TTLs offered with another change: the TTL `eni-lint fix` writes for ENI002 (600 s unless
# set), then shorter ones.
paired_ttls(w) := [t |
	some t in {t | some t in [fix_ttl, 300, 60, 30]}
	t in ttl_values(w)
]

fix_ttl := object.get(input.settings, "fixTtlSeconds", 600)

# "600 (10 min)": seconds, then the unit a person reads.
duration_text(s) := sprintf("%d (%s)", [s, unit_text(s)])

unit_text(s) := sprintf("%d d", [s / 86400]) if {
	s >= 86400
	s % 86400 == 0
} else := sprintf("%d h", [s / 3600]) if {
	s >= 3600
	s % 3600 == 0
} else := sprintf("%d min", [s / 60]) if {
	s >= 60
	s % 60 == 0
} else := sprintf("%d s", [s])

# The values of a ladder below a ceiling: below the value set (a remedy lowers it), or up to
# the ladder's end when the field is not set.
below(values, current) := [x | some x in values; x < current] if {
	current != null
} else := values

# The largest value of an ascending list for which the change fits, given that the first one
# fits: a bisection on the index, five steps for up to 32 values.
largest_of(ctx, changes, key, values) := values[s5[0]] if {
	s0 := [0, count(values)]
	s1 := list_step(ctx, changes, key, values, s0)
	s2 := list_step(ctx, changes, key, values, s1)
	s3 := list_step(ctx, changes, key, values, s2)
	s4 := list_step(ctx, changes, key, values, s3)
	s5 := list_step(ctx, changes, key, values, s4)
}

list_step(ctx, changes, key, values, [lo, hi]) := [lo, hi] if {
	hi - lo <= 1
} else := [mid, hi] if {
	mid := floor((lo + hi) / 2)
	clears(ctx, object.union(changes, {key: values[mid]}))
} else := [lo, floor((lo + hi) / 2)]

# The largest integer in [lo, hi) for which the change fits, given that lo fits: a bisection
# unrolled to 31 steps, enough for any int32 field (the policies may not use numbers.range).
largest_int(ctx, changes, key, lo, hi) := s31[0] if {
	s0 := [lo, hi]
	s1 := int_step(ctx, changes, key, s0)
	s2 := int_step(ctx, changes, key, s1)
	s3 := int_step(ctx, changes, key, s2)
	s4 := int_step(ctx, changes, key, s3)
	s5 := int_step(ctx, changes, key, s4)
	s6 := int_step(ctx, changes, key, s5)
	s7 := int_step(ctx, changes, key, s6)
	s8 := int_step(ctx, changes, key, s7)
	s9 := int_step(ctx, changes, key, s8)
	s10 := int_step(ctx, changes, key, s9)
	s11 := int_step(ctx, changes, key, s10)
	s12 := int_step(ctx, changes, key, s11)
	s13 := int_step(ctx, changes, key, s12)
	s14 := int_step(ctx, changes, key, s13)
	s15 := int_step(ctx, changes, key, s14)
	s16 := int_step(ctx, changes, key, s15)
	s17 := int_step(ctx, changes, key, s16)
	s18 := int_step(ctx, changes, key, s17)
	s19 := int_step(ctx, changes, key, s18)
	s20 := int_step(ctx, changes, key, s19)
	s21 := int_step(ctx, changes, key, s20)
	s22 := int_step(ctx, changes, key, s21)
	s23 := int_step(ctx, changes, key, s22)
	s24 := int_step(ctx, changes, key, s23)
	s25 := int_step(ctx, changes, key, s24)
	s26 := int_step(ctx, changes, key, s25)
	s27 := int_step(ctx, changes, key, s26)
	s28 := int_step(ctx, changes, key, s27)
	s29 := int_step(ctx, changes, key, s28)
	s30 := int_step(ctx, changes, key, s29)
	s31 := int_step(ctx, changes, key, s30)
}

int_step(ctx, changes, key, [lo, hi]) := [lo, hi] if {
	hi - lo <= 1
} else := [mid, hi] if {
	mid := floor((lo + hi) / 2)
	clears(ctx, object.union(changes, {key: mid}))
} else := [lo, floor((lo + hi) / 2)]

# How far a rounded duration's exact limit reaches: the largest value up to the next one of
# the ladder (or the ceiling) that still fits, said only when it is larger.
exact_limit(ctx, changes, key, value, values, ceiling) := largest_int(ctx, changes, key, value, next_above(values, value, ceiling))

next_above(values, value, ceiling) := min([x | some x in array.concat(values, [ceiling]); x > value]) if {
	ceiling != null
} else := min([x | some x in values; x > value]) if {
	some x in values
	x > value
} else := value + 1
