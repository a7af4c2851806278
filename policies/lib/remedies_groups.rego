# The remedies ENI001 offers for one exceeding node group: each contributor's changes, kept
# only when the row evaluated again with them clears the finding (docs/model.md §6b).
package eni.remedies

import data.eni.model

# ---------------------------------------------------------------------------------------
# The remedies of one node group

# The rows of every exceeding node group, the binding one first (the smallest capacity, then
# the largest overshoot), as ENI001 reports them.
exceeding_rows := [r | some r in model.rows; r.verdict == "exceeds"]

exceeding_of := {gid: rows |
	some gid in {r.nodeGroupId | some r in exceeding_rows}
	rows := [r | some r in exceeding_rows; r.nodeGroupId == gid]
}

binding_row(rows) := [r | some r in rows; model.type_label(r) == order[0][2]][0] if {
	order := sort([[r.branchInterfaces, r.branchInterfaces - r.demand, model.type_label(r)] | some r in rows])
}

# by_group[gid]: the remedies of a node group's ENI001, cheapest for the workload's owner
# first (rank): a TTL alone (it removes only finished Jobs), a TTL with one more change, one
# other change of the schedule or deadline, fewer finished Jobs kept, fewer retries, and last a
# larger instance type (an infrastructure change). At most three of a rank are listed.
by_group := {gid: remedies |
	some gid, rows in exceeding_of
	row := binding_row(rows)
	found := array.concat(workload_remedies(row, rows), type_remedies(row))
	remedies := [x[2] |
		some x in sort([[r.rank, i, r] | some i, r in found])
		count([y | some j, y in found; y.rank == x[0]; j < x[1]]) < 3
	]
}

excess(row) := row.demand - row.branchInterfaces

# Only a contributor that holds at least the excess can free enough with changes of its own.
candidates(row) := model.row_contributors_holding(row, excess(row))

workload_remedies(row, rows) := [r |
	some c in candidates(row)
	w := model.contributor_workload(c)
	ctx := {"row": row, "rows": rows, "c": c, "w": w}
	some r in remedies_of(ctx)
]

remedies_of(ctx) := array.concat(array.concat(early, history_remedies(ctx)), backoff_remedies(ctx, count(early) > 0)) if {
	schedule := schedule_remedies(ctx)
	early := array.concat(array.concat(ttl_remedies_or_pairs(ctx, schedule), scaled_job_remedies(ctx)), schedule)
}

# What a remedy says and sets: its changes as fields of the workload's manifest, the rank that
# orders it, the binding row's demand with it, and what it frees.
remedy(ctx, rank, lever, changes, exact) := r if {
	v := changed_view(ctx.w, changes)
	n := model.numbers_of(v)
	demand := row_after(ctx.row, ctx.c, ctx.w, v, n).demand
	freed := ctx.c.held - n.held
	r := {
		"workload": ctx.w.id,
		"rank": rank,
		"lever": lever,
		"levers": sort([lever_of[k] | some k, _ in changes]),
		"change": change_text(ctx, changes, exact, demand, freed),
		"field": field_of(ctx.w, lever_key[lever]),
		"set": sets(ctx.w, changes),
		"demandAfter": demand,
		"frees": freed,
	}
}

lever_of := {"ttl": "ttl", "deadline": "deadline", "startingDeadline": "starting-deadline", "forbid": "concurrency", "history": "history", "backoff": "backoff"}

lever_key := {v: k | some k, v in lever_of}

field_of(w, "ttl") := model.ttl_path(w)

field_of(w, "deadline") := model.job_field(w, "activeDeadlineSeconds")

field_of(w, "backoff") := model.job_field(w, "backoffLimit")

field_of(_, "startingDeadline") := "spec.startingDeadlineSeconds"

field_of(_, "forbid") := "spec.concurrencyPolicy"

field_of(_, "history") := "spec.successfulJobsHistoryLimit"

# The fields `eni-lint fix` writes, in the order a person reads them. Integers only: the
# concurrency policy is a word, which a remedy says and fix leaves to the person (pkg/fix).
sets(w, changes) := array.concat(array.concat([s |
	some key in ["ttl", "deadline", "startingDeadline", "backoff"]
	_ = changes[key]
	s := {"field": field_of(w, key), "value": changes[key]}
], [{"field": sprintf("spec.%s", [name]), "value": limits[name]} |
	limits := history_limits(w, changes)
	some name in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"]
	limits[name] != w.cronJob[name]
]), [{"field": "spec.concurrencyPolicy", "text": "Forbid"} | changes.forbid == true])

change_text(ctx, changes, exact, demand, freed) := sprintf("%s on %s (demand %d of %d%s)%s", [
	joined_parts(ctx.w, changes),
	model.describe(ctx.w),
	demand,
	ctx.row.branchInterfaces,
	frees_text(freed),
	exact_text(exact),
])

frees_text(freed) := sprintf("; frees %d", [freed]) if {
	freed > 0
} else := ""

exact_text(exact) := "" if {
	exact.limit <= exact.value
} else := sprintf("; any %s up to %d s fits%s", [exact.name, exact.limit, exact.with]) if {
	_ = exact.limit
} else := ""

# The parts of a change joined as a person says them: "set a: 1 and b: 2".
joined_parts(w, changes) := concat(" and ", [t |
	some i, key in [k | some k in ["ttl", "forbid", "startingDeadline", "deadline", "history", "backoff"]; _ = changes[k]]
	t := shortened(i, part_text(w, key, changes))
])

shortened(i, text) := substring(text, 4, -1) if {
	i > 0
	startswith(text, "set ")
} else := text

part_text(w, "ttl", changes) := sprintf("set %s: %s", [field_of(w, "ttl"), duration_text(changes.ttl)])

part_text(w, "deadline", changes) := sprintf("set %s: %s", [field_of(w, "deadline"), duration_text(changes.deadline)])

part_text(_, "startingDeadline", changes) := sprintf("set spec.startingDeadlineSeconds: %s", [duration_text(changes.startingDeadline)])

part_text(_, "forbid", _) := "set spec.concurrencyPolicy: Forbid (a run then waits for the previous one)"

part_text(w, "history", changes) := sprintf("keep %s (%s)", [model.plural(changes.history, "finished Job"), concat(", ", [sprintf("%s: %d", [name, limits[name]]) |
	limits := history_limits(w, changes)
	some name in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"]
])])

part_text(w, "backoff", changes) := sprintf("lower %s from %d to %d (a failed run is retried fewer times)", [field_of(w, "backoff"), w.job.backoffLimit, changes.backoff])

no_exact := {}

# A TTL alone: under onDelete it frees a CronJob's finished Jobs sooner. A standalone run's
# pods all exist when it finishes, so a TTL does not lower its peak, and none is offered.
ttl_remedies(ctx) := [r |
	ttl_lever(ctx.w)
	values := ttl_values(ctx.w)
	count(values) > 0
	clears(ctx, {"ttl": values[0]})
	t := largest_of(ctx, {}, "ttl", values)
	exact := {"name": "TTL", "value": t, "with": "", "limit": exact_limit(ctx, {}, "ttl", t, values, ctx.w.job.ttlSecondsAfterFinished)}
	r := remedy(ctx, 1, "ttl", {"ttl": t}, exact)
]

# A TTL bounds how long a CronJob's finished Jobs stay once the schedule's period is known.
ttl_lever(w) if {
	model.on_delete
	w.kind == "CronJob"
	w.cronJob.periodSeconds > 0
	model.job_t(w.job) > 0
}

ttl_values(w) := below([t | some t in durations; t <= 86400], w.job.ttlSecondsAfterFinished)

# A TTL with one more change, when no TTL alone fits: the largest TTL of paired_ttls with which
# the other change fits, and the largest deadline (or starting deadline) with that TTL.
ttl_pair_remedies(ctx) := array.concat(array.concat(ttl_deadline(ctx), ttl_forbid(ctx)), ttl_starting_deadline(ctx))

# A deadline kills work: of the TTLs with which one fits, the pair with the longest deadline
# is offered, the longer TTL of those with the same. The seed (every 5 minutes, Forbid): TTL
# 600 s leaves 1 min for a run, 300 s leaves 2 min.
ttl_deadline(ctx) := [r |
	values := deadline_values_of(ctx.w)
	r := ttl_and_longest(ctx, {}, "deadline", values, "activeDeadlineSeconds", ctx.w.job.activeDeadlineSeconds)
]

ttl_forbid(ctx) := [r |
	ctx.w.cronJob.concurrencyPolicy != "Forbid"
	pairs := [t | some t in paired_ttls(ctx.w); clears(ctx, {"ttl": t, "forbid": true})]
	count(pairs) > 0
	r := remedy(ctx, 2, "ttl", {"ttl": max(pairs), "forbid": true}, no_exact)
]

ttl_starting_deadline(ctx) := [r |
	ctx.w.cronJob.concurrencyPolicy == "Forbid"
	values := below(deadline_values, ctx.w.cronJob.startingDeadlineSeconds)
	r := ttl_and_longest(ctx, {}, "startingDeadline", values, "startingDeadlineSeconds", ctx.w.cronJob.startingDeadlineSeconds)
]

# The TTL (of paired_ttls) and the largest value of key with which the row fits, the largest
# value first, then the largest TTL; base holds the other changes. Both only grow what is held,
# so the shortest TTL allows the largest value, and the TTL is then the longest that still fits
# with it: a bisection and a few checks, not one bisection per TTL.
ttl_and_longest(ctx, base, key, values, name, ceiling) := r if {
	count(values) > 0
	ttls := sort(paired_ttls(ctx.w))
	count(ttls) > 0
	shortest := object.union(base, {"ttl": ttls[0]})
	clears(ctx, object.union(shortest, {key: values[0]}))
	v := largest_of(ctx, shortest, key, values)
	t := max([x | some x in ttls; clears(ctx, object.union(base, {"ttl": x, key: v}))])
	changes := object.union(base, {"ttl": t})
	exact := {"name": name, "value": v, "with": " with that TTL", "limit": exact_limit(ctx, changes, key, v, values, ceiling)}
	r := remedy(ctx, 2, "ttl", object.union(changes, {key: v}), exact)
}

deadline_values_of(w) := below(deadline_values, w.job.activeDeadlineSeconds)

# The TTL remedies of a CronJob: a TTL alone when one fits, else a TTL with one more change,
# else with two (Forbid and a deadline).
# schedule is the CronJob's schedule_remedies, searched once by remedies_of.
ttl_remedies_or_pairs(ctx, schedule) := alone if {
	alone := ttl_remedies(ctx)
	count(alone) > 0
} else := [] if {
	# A CronJob with a TTL that fits with one change of its schedule or deadline gets that
	# change alone, not one that also shortens its TTL.
	ctx.w.job.ttlSecondsAfterFinished != null
	count(schedule) > 0
} else := pairs if {
	ttl_lever(ctx.w)
	pairs := ttl_pair_remedies(ctx)
	count(pairs) > 0
} else := ttl_triple(ctx) if {
	ttl_lever(ctx.w)
} else := []

ttl_triple(ctx) := [r |
	ctx.w.cronJob.concurrencyPolicy != "Forbid"
	r := ttl_and_longest(ctx, {"forbid": true}, "deadline", deadline_values_of(ctx.w), "activeDeadlineSeconds", ctx.w.job.activeDeadlineSeconds)
]

# One change of how runs are scheduled or how long they may last, for a CronJob: the largest
# activeDeadlineSeconds, Forbid, or the largest startingDeadlineSeconds under Forbid.
schedule_remedies(ctx) := array.concat(array.concat(deadline_remedies(ctx), forbid_remedies(ctx)), starting_deadline_remedies(ctx))

deadline_remedies(ctx) := [r |
	ctx.w.kind == "CronJob"
	values := deadline_values_of(ctx.w)
	count(values) > 0
	clears(ctx, {"deadline": values[0]})
	d := largest_of(ctx, {}, "deadline", values)
	exact := {"name": "activeDeadlineSeconds", "value": d, "with": "", "limit": exact_limit(ctx, {}, "deadline", d, values, ctx.w.job.activeDeadlineSeconds)}
	r := remedy(ctx, 3, "deadline", {"deadline": d}, exact)
]

forbid_remedies(ctx) := [r |
	ctx.w.kind == "CronJob"
	ctx.w.cronJob.concurrencyPolicy != "Forbid"
	clears(ctx, {"forbid": true})
	r := remedy(ctx, 3, "concurrency", {"forbid": true}, no_exact)
]

starting_deadline_remedies(ctx) := [r |
	ctx.w.kind == "CronJob"
	ctx.w.cronJob.concurrencyPolicy == "Forbid"
	values := below(deadline_values, ctx.w.cronJob.startingDeadlineSeconds)
	count(values) > 0
	clears(ctx, {"startingDeadline": values[0]})
	s := largest_of(ctx, {}, "startingDeadline", values)
	r := remedy(ctx, 3, "starting-deadline", {"startingDeadline": s}, no_exact)
]

# Fewer finished Jobs kept (successfulJobsHistoryLimit + failedJobsHistoryLimit), the
# successful ones first; a CronJob that keeps a failed Job keeps one.
history_remedies(ctx) := [r |
	model.on_delete
	ctx.w.kind == "CronJob"
	kept := ctx.w.cronJob.successfulJobsHistoryLimit + ctx.w.cronJob.failedJobsHistoryLimit
	least := min([1, ctx.w.cronJob.failedJobsHistoryLimit])
	kept > least
	clears(ctx, {"history": least})
	k := largest_int(ctx, {}, "history", least, kept)
	r := remedy(ctx, 4, "history", {"history": k}, no_exact)
]

# Fewer retries: the largest backoffLimit below the current one that fits. It changes how a
# failing run behaves, which the remedy says. When no backoffLimit alone fits a CronJob (its
# runs have no bound without a deadline) and no change of its TTL, schedule or deadline does,
# fewer retries with a TTL and a deadline: the largest
# backoffLimit with which the shortest TTL and deadline fit, then the longest deadline and TTL
# with it.
backoff_remedies(ctx, others) := alone if {
	alone := backoff_alone(ctx)
	count(alone) > 0
} else := [] if {
	others # a TTL or schedule remedy fits without touching the retries
} else := backoff_with_ttl(ctx)

backoff_with_ttl(ctx) := [r |
	ttl_lever(ctx.w)
	ctx.w.job.backoffLimitPerIndex == null
	current := ctx.w.job.backoffLimit
	current > 0
	values := deadline_values_of(ctx.w)
	count(values) > 0
	ttls := sort(paired_ttls(ctx.w))
	count(ttls) > 0
	least := {"ttl": ttls[0], "deadline": values[0]}
	clears(ctx, object.union(least, {"backoff": 0}))
	b := largest_int(ctx, least, "backoff", 0, current)
	found := ttl_and_longest(ctx, {"backoff": b}, "deadline", values, "activeDeadlineSeconds", ctx.w.job.activeDeadlineSeconds)
	r := object.union(found, {"rank": 5, "lever": "backoff", "field": field_of(ctx.w, "backoff")})
]

backoff_alone(ctx) := [r |
	ctx.c.hidden > 0
	ctx.w.job != null
	ctx.w.job.backoffLimitPerIndex == null
	current := ctx.w.job.backoffLimit
	current > 0
	clears(ctx, {"backoff": 0})
	b := largest_int(ctx, {}, "backoff", 0, current)
	r := remedy(ctx, 5, "backoff", {"backoff": b}, no_exact)
]

# A KEDA ScaledJob's finished Jobs with a TTL of one polling interval (the model's _scaled_job_kept).
scaled_job_remedies(ctx) := [r |
	model.on_delete
	model.is_scaled_job(ctx.w)
	ctx.w.job.ttlSecondsAfterFinished == null
	p := ctx.w.scaledJob.pollingInterval
	clears(ctx, {"ttl": p})
	r := object.union(remedy(ctx, 1, "ttl", {"ttl": p}, no_exact), {
		"change": sprintf("set %s: %d (the polling interval) on %s (demand %d of %d%s)", [model.ttl_path(ctx.w), p, model.describe(ctx.w), demand_after(ctx, {"ttl": p}), ctx.row.branchInterfaces, frees_text(frees(ctx, {"ttl": p}))]),
	})
]

# The smallest type of the family that holds the demand: an infrastructure change, last.
type_remedies(row) := [fix |
	family := split(row.instanceType, ".")[0]
	bigger := [s |
		some s in object.get(input.instanceFamilies, family, [])
		s.branchInterfaces >= model.demand_on(row, s.branchInterfaces)
		s.branchInterfaces > row.branchInterfaces
	]
	count(bigger) > 0
	fix := {
		"rank": 6,
		"change": type_change(row, bigger[0]),
		"instanceType": bigger[0].name,
		"lever": "instance-type",
	}
]

# A Karpenter pool picks its types at launch: the fix is a narrower pool, not a type swap.
# EKS Auto Mode's built-in pools cannot be changed: the fix is a custom pool.
type_change(row, bigger) := sprintf("narrow NodePool %q so that it launches no type below %s (%d branch interfaces), e.g. with a karpenter.k8s.aws/instance-cpu or instance-size requirement", [row.nodeGroup, bigger.name, bigger.branchInterfaces]) if {
	row.pool == "karpenter"
} else := sprintf("narrow NodePool %q so that it launches no type below %s (%d branch interfaces), e.g. with an eks.amazonaws.com/instance-cpu or instance-size requirement", [row.nodeGroup, bigger.name, bigger.branchInterfaces]) if {
	row.pool == "auto-mode"
} else := sprintf("run these pods on a custom NodePool that launches no type below %s (%d branch interfaces): the built-in %q pool cannot be changed", [bigger.name, bigger.branchInterfaces, row.nodeGroup]) if {
	row.pool == "auto-mode-built-in"
} else := sprintf("use %s (%d branch interfaces) instead of %s in node group %q", [bigger.name, bigger.branchInterfaces, row.instanceType, row.nodeGroup])
