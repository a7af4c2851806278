# The branch-ENI model's per-workload passes, which the engine may evaluate over slices of
# input.workloads (partitions), and the rows per node group and instance type built from them.
package eni.model

# ---------------------------------------------------------------------------------------
# Partitions: the per-workload passes (selection, which workloads hold branch ENIs, their
# classes, the exempt, duplicated and hand-requesting ones, ignore entries) depend on a
# workload and the namespace-wide objects only. The engine may evaluate
# `partition` over consecutive slices of input.workloads at once, one per core, and give the
# results to the report evaluation as input.partitions, in order: every rule above then merges
# them instead of passing over the workloads again. The merged values are the ones computed
# without partitions, in the same order (a Go test checks the reports are equal).
_partitioned if count(object.get(input, "partitions", [])) > 0

# The findings that fan out to every member of a class (ENI002, ENI003) are evaluated by the
# engine as a query of their own (data.eni.main.fanned_out), on the other core, while the
# report query runs with input.fanOutApart set: those two rules then return nothing there.
fan_out_apart if input.fanOutApart == true

partition := {
	"selection": selection,
	"eniWorkloads": eni_workloads,
	"classified": _classified,
	"classes": _class_refs,
	"exemptIds": exempt_ids,
	"distinctSelections": distinct_selections,
	"duplicatedDefinitions": duplicated_definitions,
	"ignoreEntries": _workload_ignore_entries,
	"handRequests": hand_requests,
	"members": _members_by_class,
}

# What the partitions computed under one name, joined in their order.
_partition_list(name) := [x | some p in input.partitions; some x in p[name]]

# The class of one workload, for the few paths that start from a workload (duplicates).
class_of(w) := _class_index[input.classOf[w.id]] if _engine_classes
else := _class_index[[[w.pod.nodeSelector, w.pod.requiredNodeAffinity, w.pod.tolerations], object.filter(w, numbers_fields), object.get(w.pod, "restartPolicy", "Always")]]

_class_index := {c: i | some i, c in _class_ref_list}

class_numbers := {i: numbers_of(v) | some i, v in class_views}

class_unbounded := {i: _unbounded_reasons_of(v) | some i, v in class_views}

# The classes of each placement key.
key_classes := {k: [i | some i, [kk, _, _] in class_list; kk == k] | some k in _placement_keys}

# What one workload of a class adds to a row.
class_contribution := {i: object.union({"hidden": hidden_of(n), "active": n.active, "held": n.held, "bounded": n.bounded}, _stopping_of(n)) |
	some i, n in class_numbers
}

# A contribution's late pods that ran together (numbers' lateStopping), only when it has some.
_stopping_of(n) := {"stopping": n.lateStopping} if {
	object.get(n, "lateStopping", 0) > 0
} else := {}

# A workload's contribution as rows and ENI001 list it, built only for the workloads listed.
_contribution(w, i) := object.union(class_contribution[i], {"id": w.id, "kind": w.kind, "namespace": w.namespace, "name": w.name})

# What each ENI workload adds to a row, by id (the tests and the duplicate ranking look it up).
_contributions := {w.id: _contribution(w, i) | some i, ws in class_members; some w in ws}

# The same object (kind, namespace, name) defined more than once (two kustomize overlays, a
# manifest and a rendered chart) exists once in a cluster: only its worst definition counts on a
# node, the one that adds the most (then the first id). The others still get their own
# findings about their own fields.
_counted_workloads := [w | some w in eni_workloads; not w.id in outranked]

# The definitions another definition of the same object outranks: all but the first of each
# object in the order (most added first, then the smallest id). Sorting each object's
# definitions once keeps a file that repeats one object thousands of times linear-logarithmic
# (comparing every pair was quadratic).
outranked := {w.id |
	some ws in duplicated_objects
	first := sort([[0 - _weight(d), d.id] | some d in ws])[0][1]
	some w in ws
	w.id != first
}

duplicated_objects := {[w.kind, w.namespace, w.name]: ws |
	some w in duplicated_definitions
	ws := [d | some d in duplicated_definitions; d.kind == w.kind; d.namespace == w.namespace; d.name == w.name]
}

duplicated_definitions := _partition_list("duplicatedDefinitions") if _partitioned
else := [w | some w in eni_workloads; count(object.get(w, "duplicates", [])) > 1]

_weight(w) := c.hidden + c.active if c := class_contribution[class_of(w)]

# How many contributors a row and ENI001 list; the others are counted (otherContributors),
# and every workload's figures are in the report's workloads once.
_top_contributors := 20

# The counted workloads of each class: its members but the definitions another one outranks
# (almost always all of them).
_class_counted := class_members if {
	count(outranked) == 0
} else := counted if {
	counted := {i: [w | some w in ws; not w.id in outranked] | some i, ws in class_members}
}

# What a row adds per key: the counted classes' contributions times their counted members.
_key_totals := {k: totals |
	some k in _placement_keys
	parts := [[c, n] |
		some i in key_classes[k]
		n := count(_class_counted[i])
		n > 0
		c := class_contribution[i]
	]
	totals := {
		"hidden": sum([x | some [c, n] in parts; x := c.hidden * n]),
		"active": sum([x | some [c, n] in parts; x := c.active * n]),
		"held": sum([x | some [c, n] in parts; x := c.held * n]),
		"stopping": sum([x | some [c, n, i] in _stopping_parts(k); x := c.stopping * n]),
		"unbounded": sum([n | some [c, n] in parts; not c.bounded]),
		"count": sum([n | some [_, n] in parts]),
		"nonZero": sum([n | some [c, n] in parts; c.hidden + c.active > 0]),
		"maxHidden": max(array.concat([0], [c.hidden | some [c, _] in parts])),
		"top": _key_top(k),
	}
}

# The classes of a key whose late pods ran together (stopping), but those a row counts by their
# busy windows (separable): the windows already bound those, and capping them as well would
# count a late pod away twice.
_stopping_parts(k) := [[c, n, i] |
	some i in key_classes[k]
	c := class_contribution[i]
	c.stopping > 0
	not _separable_class[i]
	n := count(_class_counted[i])
]

# The counted contributions of a key that hold the most first (hidden, then active, then id),
# at most _top_contributors of them (_key_top_candidates).
_key_top(k) := [_contribution(x[4], x[3]) |
	order := sort([[0 - c.hidden, 0 - c.active, w.id, i, w] |
		some [w, i] in _key_top_candidates(k)
		c := class_contribution[i]
	])
	some x in array.slice(order, 0, _top_contributors)
]

# The counted members of a key that can be among its top contributors: those of the classes
# whose figures (hidden, then active) rank among the first _top_contributors classes. A member
# of any other class comes after at least _top_contributors others, one of each class ahead of
# it, so only these are ranked one by one.
_key_top_candidates(k) := [[w, i] |
	order := sort([[0 - c.hidden, 0 - c.active] |
		some i in key_classes[k]
		count(_class_counted[i]) > 0
		c := class_contribution[i]
	])
	last := order[min([count(order), _top_contributors]) - 1]
	some i in key_classes[k]
	c := class_contribution[i]
	[0 - c.hidden, 0 - c.active] <= last
	some w in _class_counted[i]
]

# The workloads the rows may list as contributors, by id: the rules that start from a listed
# contributor look it up here, not in a table of every workload.
top_workloads := {w.id: w | some k in _placement_keys; some [w, _] in _key_top_candidates(k)}

# The workload of a contributor a rule starts from.
contributor_workload(c) := w if {
	w := top_workloads[c.id]
} else := workload_by_id[c.id]

# The contributors that hold the most first (hidden, then active, then id), at most
# _top_contributors of them.
_ranked(contributors) := [x[3] |
	order := sort([[0 - c.hidden, 0 - c.active, c.id, c] | some c in contributors])
	some x in array.slice(order, 0, _top_contributors)
]

# Every (row key, placement key) pair. A row is keyed by its node group's id and its type
# entry's key: two groups may share a name (an eksctl group and a Karpenter pool both called
# "default"), and a Karpenter type may appear once per launch-time label variant.
key_on := [[p.group.id, p.type.key, k] |
	some k in _placement_keys
	some p in key_placements[k]
]

# The placement keys that land on each row, looked up with a variable bound in the rule body
# so that OPA indexes the comprehension.
row_keys := {[gid, tkey]: ks |
	some g in input.nodeGroups
	some t in g.instanceTypes
	gid := g.id
	tkey := t.key
	ks := [k | some [pg, pt, k] in key_on; pg == gid; pt == tkey]
}

# The per-instance-type table (§6): one row per type entry of every node group.
rows := [row |
	some g in input.nodeGroups
	some t in g.instanceTypes
	row := _type_row(g, t, row_keys[[g.id, t.key]])
]

_type_row(g, t, ks) := row if {
	b := _capacity(g, t)
	summed_hidden := sum([_key_totals[k].hidden | some k in ks])
	active := sum([_key_totals[k].active | some k in ks])

	# CronJobs whose runs cannot overlap count at their largest sum at one instant
	# (timeline.rego): what that saves comes off hidden and held.
	separated := _separated_on(ks)
	saved := sum([c.held | some c in separated]) - _separated_peak(separated)

	# Terminated pods plus at most b running ones, and never more than the workloads' peaks
	# added up: the peaks already include their running pods.
	# Late pods still stopping long after their run all ran at one moment (_late_stopping): a
	# node runs at most b of them.
	stopping := sum([_key_totals[k].stopping | some k in ks])
	over := max([0, stopping - b])
	held := (sum([_key_totals[k].held | some k in ks]) - saved) - over
	hidden := (summed_hidden - saved) - over
	demand := row_demand(held, hidden, active, b)
	unbounded := sum([_key_totals[k].unbounded | some k in ks])
	contributors := _ranked([c | some k in ks; some c in _key_totals[k].top])
	row := object.union(object.union(_separated_details(separated, saved), _stopping_details(stopping, over)), {
		"nodeGroup": g.name,
		"nodeGroupId": g.id,
		"pool": _pool_kind(g),
		"nodeGroupLocation": g.location,
		"instanceType": t.name,
		"variant": object.get(t, "variant", ""),
		"known": t.known,
		"trunking": t.trunking,
		"branchInterfaces": b,
		"hidden": hidden,
		"active": active,
		"held": held,
		"demand": demand,
		"atLeast": unbounded > 0,
		"verdict": _verdict(t, demand, b, unbounded),
		"contributors": contributors,
		"otherContributors": sum([_key_totals[k].count | some k in ks]) - count(contributors),
		"nonZeroContributors": sum([_key_totals[k].nonZero | some k in ks]),
		"typeKey": t.key,
	})
}

# The contributors of a row that it does not list, when there are at most _witness_unlisted
# of them: ENI001 passes them to the witness search (pkg/witness), which plays them with the
# listed ones (a row of 25 CronJobs is played whole) and drops them from the report. A row
# with more is played by its listed contributors alone, and its witness says how many others
# it leaves out.
_witness_unlisted := 100

unlisted_contributors(row, listed) := [] if {
	row.nonZeroContributors - count(listed) < 1
} else := [] if {
	row.nonZeroContributors - count(listed) > _witness_unlisted
} else := [_contribution(w, i) |
	ids := {c.id | some c in listed}
	some k in row_keys[[row.nodeGroupId, row.typeKey]]
	some i in key_classes[k]
	c := class_contribution[i]
	c.hidden + c.active > 0
	some w in _class_counted[i]
	not w.id in ids
]

# The counted contributions of each key that are separable CronJobs (timeline.rego); when none
# is (under onDelete, only CronJobs with a TTL can be), the pass over every member is skipped.
_key_separated := {k: [_contribution(w, i) |
	some i in key_classes[k]
	_separable_class[i]
	some w in _class_counted[i]
] | count(_separable_class) > 0; some k in _placement_keys}

# The separable contributions of a row's keys; row_separated is the same for a row, which the
# remedies evaluate again with one workload changed.
_separated_on(ks) := [c | some k in ks; some c in _key_separated[k]]

row_separated(row) := _separated_on(row_keys[[row.nodeGroupId, row.typeKey]])

# A row's demand on an instance type of b branch interfaces instead of its own: the late pods
# still stopping count at most at b, the running ones too (the instance-type remedy).
demand_on(row, b) := row_demand(held, hidden, row.active, b) if {
	late := row_late(row)
	over := max([0, late.pods - b])
	held := (row.held + late.overCapacity) - over
	hidden := (row.hidden + late.overCapacity) - over
}

# A row's demand (§6): terminated pods plus at most b running ones (the scheduler stops there),
# never more than the workloads' peaks added up.
row_demand(held, hidden, active, b) := min([held, hidden + min([active, b])])

# A row's late pods still stopping, and how many of them it did not count (none of either when
# it has no such pods).
row_late(row) := object.get(row, "lateStopping", {"pods": 0, "overCapacity": 0})

# A row with late pods still stopping says how many, and how many it did not count past the
# node's capacity (the remedies count a changed row again from them).
_stopping_details(stopping, over) := {} if {
	stopping == 0
} else := {"lateStopping": {"pods": stopping, "overCapacity": over}}

# A row says which CronJobs it counted by their busy windows, and what that saved.
_separated_details(separated, saved) := {} if {
	count(separated) < 2
} else := {"scheduleSeparated": {"workloads": sort([c.id | some c in separated]), "saved": saved}}

# The contributors of a row that hold at least n terminated pods: only they can free enough
# with one change of their own (ENI001's fixes). Keys whose largest share is smaller are not
# scanned.
row_contributors_holding(row, n) := [c |
	some k in row_keys[[row.nodeGroupId, row.typeKey]]
	_key_totals[k].maxHidden >= n

	# In the order the workloads were read, key by key, as the fixes are listed.
	some x in sort([[_classified_position[w.id], _contribution(w, i)] |
		some i in key_classes[k]
		class_contribution[i].hidden >= n
		some w in _class_counted[i]
	])
	c := x[1]
]

# Where each ENI workload is in the order they were read.
_classified_position := {w.id: j | some j, [w, _] in _classified}

# What kind of provisioner a row's group is: "" for node groups with fixed types,
# "karpenter", "auto-mode", or "auto-mode-built-in" (EKS manages those: they cannot be changed).
_pool_kind(g) := "auto-mode-built-in" if {
	g.autoMode
	startswith(g.source, "eks-auto-mode:built-in")
} else := "auto-mode" if {
	g.autoMode
} else := "karpenter" if {
	g.picksTrunkingTypes
} else := ""

# How a row's instance type is shown: with its variant when the group lists the type more
# than once.
type_label(row) := row.instanceType if {
	row.variant == ""
} else := sprintf("%s [%s]", [row.instanceType, row.variant])

_verdict(t, demand, b, unbounded) := "unknown-type" if {
	not t.known
} else := "no-trunking" if {
	not t.trunking
} else := "exceeds" if {
	demand > b
} else := "unbounded" if {
	unbounded > 0
} else := "fits"
