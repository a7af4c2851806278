package replay

import (
	"slices"
	"strings"
	"testing"
)

func TestFirings(t *testing.T) {
	cases := []struct {
		schedule string
		horizon  int
		want     []int
	}{
		{"*/20 * * * *", 3600, []int{0, 1200, 2400}},
		// Business hours: Monday 09:00 first.
		{"*/30 9-10 * * 1-5", 86400, []int{32400, 34200, 36000, 37800}},
		{"0 0 * * 0", 8 * 86400, []int{6 * 86400}},
		// Day of month and day of week, both restricted, are or-ed: the 2nd (Tuesday) and
		// every Sunday (the 7th).
		{"0 0 2 * 0", 8 * 86400, []int{86400, 6 * 86400}},
		{"7 3,15 * * *", 86400, []int{3*3600 + 420, 15*3600 + 420}},
	}
	for _, tc := range cases {
		got, err := Firings(tc.schedule, tc.horizon)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.schedule, got, err, tc.want)
		}
	}
	for _, bad := range []string{"* * * *", "61 * * * *", "*/0 * * * *", "5-1 * * * *", "@hourly"} {
		if _, err := Firings(bad, 3600); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestCheck: a legal trajectory passes, and each change that breaks one rule of the
// controllers is caught by that rule.
func TestCheck(t *testing.T) {
	spec := Spec{CronJob: true, Schedule: "*/5 * * * *", Policy: "Forbid", StartingDeadline: -1, SuccessfulHistory: 3, FailedHistory: 1,
		Parallelism: 1, Completions: 1, BackoffLimit: 6, TTL: -1, Deadline: -1, Grace: 30}
	m := Model{OnDelete: true, W: 90}
	pod := func(created, finished int, failed bool) Pod {
		return Pod{Created: created, Bound: created, Finished: finished, Ended: finished, Deleted: -1, Released: -1, Failed: failed}
	}
	// The seed's run: three failures 10, 20 and 40 s apart (each pod runs 1 s), then a success.
	base := []Run{{Scheduled: 0, Start: 0, Finish: 74, Deleted: -1, Pods: []Pod{
		pod(0, 1, true), pod(11, 12, true), pod(32, 33, true), pod(73, 74, false)}}}
	if v := Check(spec, m, base, 3600); len(v) != 0 {
		t.Fatalf("legal trajectory: %v", v)
	}
	cases := []struct {
		name   string
		change func(rs []Run)
		rule   string
	}{
		{"a pod that runs 0 s", func(rs []Run) { rs[0].Pods[3].Finished, rs[0].Pods[3].Ended = 73, 73; rs[0].Finish = 73 }, "ran less than a second"},
		{"a replacement within the back-off", func(rs []Run) { rs[0].Pods[1] = pod(10, 12, true) }, "within the back-off"},
		{"a lone pod that succeeds", func(rs []Run) { rs[0].Pods = []Pod{pod(0, 5, false)}; rs[0].Finish = 5 }, ""},
		{"a replacement in the second of the failure", func(rs []Run) {
			rs[0].Pods = []Pod{pod(0, 1, false), pod(1, 2, false)}
			rs[0].Finish = 2
		}, "more pods active"},
		{"a run at a time the schedule never fires", func(rs []Run) { rs[0].Scheduled, rs[0].Start = 31, 31; shift(&rs[0], 31) }, "never fires"},
		{"a Job finished before its pod stopped", func(rs []Run) { rs[0].Finish = 73 }, "finished before its pod stopped"},
		{"a Job that succeeded short of its completions", func(rs []Run) { rs[0].Pods = rs[0].Pods[:3]; rs[0].Finish = 33 }, "succeeded with 0 of 1"},
		{"an ENI freed before its pod is deleted", func(rs []Run) { rs[0].Pods[0].Released = 0 }, "freed before anything deleted"},
		{"a Job deleted by history without newer ones", func(rs []Run) { rs[0].Deleted, rs[0].DeletedBy = 80, "history" }, "history limits"},
		{"a TTL deletion under no TTL", func(rs []Run) { rs[0].Deleted, rs[0].DeletedBy = 80, "ttl" }, "ttlSecondsAfterFinished"},
	}
	for _, tc := range cases {
		rs := []Run{base[0]}
		rs[0].Pods = slices.Clone(base[0].Pods)
		tc.change(rs)
		v := Check(spec, m, rs, 3600)
		if tc.rule == "" {
			if len(v) != 0 {
				t.Errorf("%s: %v", tc.name, v)
			}
			continue
		}
		found := false
		for _, x := range v {
			found = found || strings.Contains(x.Rule, tc.rule)
		}
		if !found {
			t.Errorf("%s: want a violation %q, got %v", tc.name, tc.rule, v)
		}
	}
	// The back-off is capped at 10 minutes: seven failures in a row wait 600 s, not 360.
	long := spec
	long.BackoffLimit = 10
	var pods []Pod
	at := 0
	for n := range 8 {
		pods = append(pods, pod(at, at+1, true))
		at += 1 + backoff(n+1)
	}
	pods[7].Created, pods[7].Bound = pods[6].Finished+360, pods[6].Finished+360
	pods[7].Finished, pods[7].Ended = pods[7].Created+1, pods[7].Created+1
	run := []Run{{Scheduled: 0, Start: 0, Finish: pods[7].Ended, Failed: false, Deleted: -1, Pods: pods}}
	long.Completions = 0
	long.Schedule, long.CronJob = "", false
	found := false
	for _, x := range Check(long, m, run, 1<<20) {
		found = found || strings.Contains(x.Rule, "within the back-off of 600 s")
	}
	if !found {
		t.Errorf("a pod 360 s after the seventh failure: no back-off violation")
	}
	// Parallel: two pods at once where parallelism is 1.
	par := []Run{{Scheduled: 0, Start: 0, Finish: 2, Deleted: -1, Pods: []Pod{pod(0, 1, true), pod(0, 2, false)}}}
	found = false
	for _, x := range Check(spec, m, par, 3600) {
		found = found || strings.Contains(x.Rule, "more pods active than parallelism")
	}
	if !found {
		t.Errorf("two pods at once under parallelism 1: no violation")
	}
}

func shift(r *Run, by int) {
	for i := range r.Pods {
		r.Pods[i].Created += by
		r.Pods[i].Bound += by
		r.Pods[i].Finished += by
		r.Pods[i].Ended += by
	}
	r.Finish += by
}
