# The time-aware model, continued (docs/model.md §5a): CronJobs whose runs cannot overlap, so
# that the peak of a row is the largest sum over the CronJobs that can hold at one moment.
package eni.model

# ---------------------------------------------------------------------------------------
# Runs that cannot overlap

# A CronJob's pods hold ENIs only while a run is in progress and for a tail after it ends: W
# under onCompletion; under onDelete its TTL and then W (without a TTL only the history limits
# delete a Job, and nothing bounds the tail). With activeDeadlineSeconds D and a schedule that
# repeats weekly in UTC, the pods of the run for schedule time s hold only within
# [s, s + busy], busy = D + the pods' stop (their grace period, at least 30 s) + tail. When the
# run part reaches the schedule's shortest gap a run can still be active at the next time, and
# Forbid starts that one late (up to the run part more), so busy doubles its run part. Two such
# CronJobs whose busy windows never meet never hold at the same moment: a row counts them at the
# largest sum of those busy at one instant, not their sum. This assumes the controller starts
# each run at its time (it requeues itself for it); a missed start after a controller outage is
# outside it, as in docs/model.md §7.
_week_seconds := 604800

separable := {w.id: s |
	some i, s in _separable_class
	some w in class_members[i]
}

# The same, per class: a class shares its view, and so its schedule and busy window.
_separable_class := {i: s |
	some i, v in class_views
	separable_view(v)
	s := separable_windows(v)
}

# Whether a view's runs have busy windows: a schedule of known times in the week, a deadline,
# and figures the timeline bounds. The remedies ask it of a changed view (remedies.rego).
separable_view(v) if {
	count(object.get(object.get(v, "cronJob", {}), "weekTimes", [])) > 0
	v.job.activeDeadlineSeconds != null
	_time_aware(v)
}

# A separable CronJob's busy windows: its schedule's times in the week, how long after each
# the run's pods can hold, and, when the windows never meet and a run is one chain of pods,
# its ramp: [offset, pods] steps, the most pods a run can have created that many seconds after
# its time (its first pod at the time, each next one no earlier than the back-off allows, as in
# pack). A pod not created yet holds nothing, so inside its window a CronJob holds at most that
# many; a row's peak then need not count every CronJob at its full figure at once. And its
# fall: [offset, pods], at most that many after the offset (_window_fall).
separable_windows(v) := {"times": v.cronJob.weekTimes, "busy": busy, "ramp": ramp, "fall": fall} if {
	busy := _busy_seconds(v)
	ramp := _ramp_steps(v, busy)
	fall := _window_fall(v, busy)
}

# The end of a window stopped by a deadline: the window lasts D + stop + tail because the Job
# controller deletes the pod still running at D, which may take its grace period to stop. That
# pod is then gone: its ENI is freed W after it stops, while the run's other pods, ended before
# D, hold through the tail (a TTL from the Job's finish, which waits for the stopped pod). So a
# run of one pod at a time holds all its pods only until D + tail; after that, one fewer under
# onDelete (when the TTL is at least the stop: the others then outlast the stopped one), and
# under onCompletion only the stopped pod (the others ended before D: W after it). Hourly
# CronJobs two minutes apart with D = 600, TTL 300: the first run holds 6 until 990 s and 5 to
# 1,020 s, so nine of them hold 48 at once, not 49 (model-staging-cronjobs-staggered).
_window_fall(v, busy) := [d + _run_tail(v, 0), _run_pods(v) - 1] if {
	d := _fall_deadline(v, busy)
	on_delete
	v.job.ttlSecondsAfterFinished >= _stop_seconds(v)
} else := [d + _run_tail(v, 0), 1] if {
	d := _fall_deadline(v, busy)
	not on_delete
} else := null

_fall_deadline(v, busy) := d if {
	_single_chain(v.job)
	d := v.job.activeDeadlineSeconds
	busy == (d + _stop_seconds(v)) + _run_tail(v, 0)
}

_ramp_steps(v, busy) := [[_prefix_at(k), k + 1] |
	_single_chain(v.job)
	busy < _shortest_week_gap(v.cronJob.weekTimes)
	t := _run_pods(v)
	some k in _upto(_ramp_levels(min([t - 1, 6 + ceil(busy / _backoff_cap)])))
	_prefix_at(k) <= busy
]

_ramp_levels(n) := max([0, n])

# The shortest gap between two consecutive times of the week, the last to the first of the next.
_shortest_week_gap(times) := min([gap |
	ts := sort(times)
	some k, at in ts
	gap := _next_start(ts, k) - at
])

_busy_seconds(v) := (run + _run_tail(v, 0)) if {
	run := v.job.activeDeadlineSeconds + _stop_seconds(v)
	run < v.cronJob.periodSeconds
} else := (2 * (v.job.activeDeadlineSeconds + _stop_seconds(v))) + _run_tail(v, 0)

# The most the separable contributors of a row hold at one instant: the largest, over the
# starts of their busy windows, of what those busy then hold. Contributors with the same busy
# windows (a class shares its schedule and busy) count together, and each group's windows are
# listed as the instants of the grid they cover, so that a start is looked up in them, not
# compared with every window of every group: 25 hourly CronJobs took 100 s that way.
_separated_peak(contributors) := separated_peak_of([[separable[c.id], c.held] | some c in contributors])

# The same from [windows, held] pairs, which the remedies also build for a changed workload.
separated_peak_of(pairs) := _busy_peak([{"windows": s, "held": held, "count": n} |
	some [s, held] in {p | some p in pairs}
	n := count([p | some p in pairs; p == [s, held]])
])

# The peak over the instants where what a group holds can rise: the starts of its windows and,
# with a ramp, the steps of the ramp after each start. Between two such instants nothing rises,
# so the most is at one of them.
_busy_peak(groups) := max(array.concat([0], [total |
	step := _busy_grid(groups)
	period := _busy_period(groups)
	covered := [_busy_starts(g.windows, step, period) | some g in groups]
	some t in {x |
		some g in groups
		some at in g.windows.times
		at < period
		some o in _ramp_offsets(g.windows)
		x := (at + o) % period
	}
	total := sum([held | some j, g in groups; held := _group_holds(g, covered[j], t, step, period)])
]))

_ramp_offsets(windows) := {0} | {o | some [o, _] in object.get(windows, "ramp", [])}

# What a group holds at instant t of the period: nothing outside its windows; inside the window
# that started tau seconds ago, its figure, or its ramp's pods at tau when that is smaller. The
# window is found at the grid instant at or before t: a window starts on the grid, so one that
# covers t covers that instant too, and windows (cut where the next starts) do not meet.
_group_holds(g, starts, t, step, period) := object.get(g, "count", 1) * min([g.held, _ramp_at(g.windows, tau), _fall_at(g.windows, tau)]) if {
	w := starts[t - (t % step)]
	tau := ((t - w[0]) + period) % period
	tau <= w[1]
}

_fall_at(windows, tau) := pods if {
	[after, pods] := object.get(windows, "fall", null)
	tau > after
} else := 2147483647

_ramp_at(windows, tau) := max([p | some [o, p] in windows.ramp; o <= tau]) if {
	count(object.get(windows, "ramp", [])) > 0
} else := 2147483647

# The grid the schedule times lie on: a minute for cron schedules; the tests' times may be
# finer. Every start and every instant listed is on it, so an instant t on the grid is in
# [at, at + busy] exactly when it is one of at, at + step, … up to at + busy; an instant off
# the grid (a ramp's step) is looked up at the grid instant before it (_group_holds).
_busy_grid(groups) := 60 if {
	every g in groups {
		every t in g.windows.times {
			t % 60 == 0
		}
	}
} else := 10 if {
	every g in groups {
		every t in g.windows.times {
			t % 10 == 0
		}
	}
} else := 1

# The shortest of an hour, a day and the week after which every group's schedule repeats:
# what is busy then repeats too, so one period of starts and instants decides (an hourly
# schedule is looked at once, not 168 times).
_busy_period(groups) := min(array.concat([_week_seconds], [p |
	some p in [3600, 86400]
	every g in groups {
		_repeats_every(g.windows.times, p)
	}
]))

_repeats_every(times, p) if {
	at := {t | some t in times}
	every t in times {
		(t + p) % _week_seconds in at
	}
}

# The instants of one period (on the grid) a separable CronJob's busy windows cover, each with
# the start of its window and how far that window reaches: the windows of the starts in the
# first period, taken modulo the period, cover what all of them do, since the schedule repeats.
# A window is cut where the next one starts, which covers the rest: their union is the same,
# no two meet, and a group lists at most a period's grid.
_busy_starts(s, step, period) := {x: [at, reach] |
	times := sort(s.times)
	reaches := {k: min([s.busy, _next_start(times, k) - at - 1]) | some k, at in times; at < period}

	# Most windows of a schedule reach as far: their offsets are listed once.
	offsets := {r: _upto(floor(r / step)) | some r in reaches}
	some k, at in times
	at < period
	reach := reaches[k]
	some j in offsets[reach]
	x := (at + (j * step)) % period
}

# The integers 0 … n (n below a million), digit by digit: the policies' sandbox refuses
# numbers.range, which builds a collection of any size.
_upto(n) := {j |
	some a in _digits
	a * 100000 <= n
	some b in _digits
	x := (a * 100000) + (b * 10000)
	x <= n
	some c in _digits
	y := x + (c * 1000)
	y <= n
	some d in _digits
	z := y + (d * 100)
	z <= n
	some e in _digits
	u := z + (e * 10)
	u <= n
	some f in _digits
	j := u + f
	j <= n
}

_digits := [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]

_next_start(times, k) := times[k + 1] if {
	k + 1 < count(times)
} else := times[0] + _week_seconds
