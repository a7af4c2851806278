# Runs of a schedule inside a window (docs/model.md §5a): how many pods they can create in it
# when each run starts no earlier than its schedule time, for runs that follow one another and
# for runs that overlap.
package eni.model

# The most pods k runs of a CronJob whose runs follow one another (Forbid, Replace) create
# inside a window of length l, each run one chain. Each run is for its own schedule time and
# starts no earlier than it, and at most one of them is for a time before the window (Forbid's
# catch-up). So the j-th of them is for the (j − 1)-th time inside the window at the earliest,
# which comes at least _span(j − 2) after the window opens, and its pods are created in the
# window's rest. Packing every chain against the whole window ignores that: every 10 minutes
# under Forbid, with a 690 s tail (TTL 600 and W), three runs of 7 pods pack 6 + 6 + 4 = 16
# side by side, but the third run's time comes 600 s into the window, which leaves it 90 s
# (4 pods) and the first two 617 s before its 4th pod (6 + 5): 15. Runs whose room fits a whole
# chain are packed as before (the first free of them).
_runs_pack(w, k, l, t, chain, p) := max(array.concat([_pack(free, l, t, chain)], [n |
	some d in _upto((k - free) - 1)
	n := _pinned_pack(w, (free + 1) + d, l, t, chain, p)
])) if {
	chain.segments == 1
	free := _unpinned_runs(k, l, min([t, chain.cap]), p)
	free < k
} else := _pack(k, l, t, chain)

# How many runs can start inside the window with room for a whole chain of c pods left to the
# last of them.
_unpinned_runs(k, l, c, p) := min([k, max([1, 2 + floor((l - _prefix_at(c - 1)) / p)])])

# j runs, the last of which has v pods (from its time to the window's end) and the others the
# window up to its v-th pod's creation. None when the j-th run's time cannot be in the window.
_pinned_pack(w, j, l, t, chain, p) := max([n |
	room := l - _span(w, j - 2, p)
	room >= 0
	some i in _upto(min([min([t, chain.cap]) - 1, 6 + ceil(room / _capped_step)]))
	_prefix_at(i) <= room
	n := (i + 1) + _pack(j - 1, l - _prefix_at(i), t, chain)
])

# The shortest time from a schedule time to the m-th after it: from the schedule's real times
# when it is irregular (runSpans), otherwise m shortest gaps.
_span(_, m, _) := 0 if m <= 0

_span(w, m, p) := s if {
	m > 0
	spans := object.get(w.cronJob, "runSpans", [])
	m <= count(spans)
	s := max([m * p, spans[m - 1]])
} else := m * p if m > 0

# The history count when a TTL deletes the finished Jobs too (Forbid, onDelete): every Job that
# holds at x finished within TTL + W before it. Of them, the first to finish (R1) holds at most
# T; the runs that finish within W after the first of them, and the run in flight, started
# inside W (the count's pack, after_first); and the rest are at most S + F runs (the kept ones
# and those the history deleted within W, less the runs finishing within W, which each deleted
# one), all started after R1 finished under Forbid: packed into TTL + W, not counted at T each.
# Every 5 minutes with TTL 1800, history 3/1: 7 + pack(4, 1890) + pack(2, 90) = 7 + 25 + 6 =
# 38, where (S + F + 1)·T + 6 is 41: a run of 7 pods takes 637 s, and five of them cannot all
# have finished within 1,890 s (helm-values-repeated-key).
_ttl_count_held(w, t, p, after_first) := (t + _runs_pack(w, runs, l, t, chain, p)) + after_first if {
	on_delete
	w.cronJob.concurrencyPolicy == "Forbid"
	w.job.ttlSecondsAfterFinished != null
	runs := w.cronJob.successfulJobsHistoryLimit + w.cronJob.failedJobsHistoryLimit
	l := w.job.ttlSecondsAfterFinished + release_window
	chain := _chain_of(w.job)
} else := 2147483647

# ---------------------------------------------------------------------------------------
# Runs that overlap

# What the k most recent runs of a schedule hold at once, each at most per_run: a run whose
# pods follow one another has created no more than it can since it started, and none after its
# deadline D. When every gap of the schedule is p (evenGaps), the most recent schedule time
# before the moment is less than p before it and the j-th before that (from 0) less than
# (j + 1)·p, so that run has at most pack(1, min((j + 1)·p, D)) pods: every minute with D = 900
# and T = 7, the run for the last time has at most 3 (created at 0, 11 and 32 s), the one
# before it 4, not 7 each. A run that did not start at its time (suspended, or started late)
# only has fewer. The runs older than D count pack(1, D) each, without listing them.
_aged_runs_held(w, k, per_run, t, chain, d, p) := young + ((k - count(ages)) * _capped_run(per_run, d, t, chain)) if {
	chain
	object.get(w.cronJob, "evenGaps", false) == true
	ages := [a | some j in _upto(min([k, ceil(d / p)]) - 1); a := (j + 1) * p; a < d]
	young := sum([_capped_run(per_run, a, t, chain) | some a in ages])
} else := k * per_run

_capped_run(per_run, age, t, chain) := min([per_run, _pack(1, age, t, chain)])
