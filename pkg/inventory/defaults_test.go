package inventory

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ip(n int) *int       { return &n }
func sp(s string) *string { return &s }
func bp(b bool) *bool     { return &b }

func TestJobDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   DeclaredJob
		want JobSpec
	}{
		{"all defaults", DeclaredJob{},
			JobSpec{Parallelism: 1, Completions: ip(1), BackoffLimit: 6, CompletionMode: "NonIndexed", ManagedBy: "kubernetes.io/job-controller", RestartPolicy: "Never", TerminationGracePeriodSeconds: 30,
				Defaulted: []string{"parallelism", "completions", "backoffLimit", "completionMode", "managedBy"}}},
		{"completions only", DeclaredJob{Completions: ip(5)},
			JobSpec{Parallelism: 1, Completions: ip(5), BackoffLimit: 6, CompletionMode: "NonIndexed", ManagedBy: "kubernetes.io/job-controller", RestartPolicy: "Never", TerminationGracePeriodSeconds: 30,
				Defaulted: []string{"parallelism", "backoffLimit", "completionMode", "managedBy"}}},
		{"work queue: parallelism only leaves completions nil", DeclaredJob{Parallelism: ip(4)},
			JobSpec{Parallelism: 4, Completions: nil, BackoffLimit: 6, CompletionMode: "NonIndexed", ManagedBy: "kubernetes.io/job-controller", RestartPolicy: "Never", TerminationGracePeriodSeconds: 30,
				Defaulted: []string{"backoffLimit", "completionMode", "managedBy"}}},
		{"backoffLimitPerIndex makes backoffLimit MaxInt32", DeclaredJob{Completions: ip(3), CompletionMode: sp("Indexed"), BackoffLimitPerIndex: ip(1)},
			JobSpec{Parallelism: 1, Completions: ip(3), BackoffLimit: MaxInt32, BackoffLimitPerIndex: ip(1), CompletionMode: "Indexed", ManagedBy: "kubernetes.io/job-controller", RestartPolicy: "Never", TerminationGracePeriodSeconds: 30,
				Defaulted: []string{"parallelism", "backoffLimit", "managedBy"}}},
		{"declared values win", DeclaredJob{Parallelism: ip(2), Completions: ip(2), BackoffLimit: ip(0), Suspend: bp(true), TTLSecondsAfterFinished: ip(60),
			ManualSelector: bp(true), ManagedBy: sp("example.com/x"), RestartPolicy: sp("OnFailure"), CompletionMode: sp("NonIndexed"), PodFailurePolicyIgnore: true,
			TerminationGracePeriodSeconds: ip(3600), PodActiveDeadlineSeconds: ip(900)},
			JobSpec{Parallelism: 2, Completions: ip(2), BackoffLimit: 0, Suspend: true, TTLSecondsAfterFinished: ip(60), ManualSelector: true, ManagedBy: "example.com/x",
				RestartPolicy: "OnFailure", CompletionMode: "NonIndexed", PodFailurePolicyIgnore: true,
				TerminationGracePeriodSeconds: 3600, PodActiveDeadlineSeconds: ip(900), Defaulted: []string{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, JobDefaults(tc.in)); diff != "" {
				t.Errorf("JobDefaults (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCronJobDefaults(t *testing.T) {
	got := CronJobDefaults(DeclaredCronJob{Schedule: "*/5 * * * *"})
	want := CronJobSpec{Schedule: "*/5 * * * *", PeriodSeconds: 300, EvenGaps: true, ConcurrencyPolicy: "Allow", SuccessfulJobsHistoryLimit: 3, FailedJobsHistoryLimit: 1,
		Defaulted: []string{"concurrencyPolicy", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got = CronJobDefaults(DeclaredCronJob{Schedule: "not a schedule", ConcurrencyPolicy: sp("Forbid"), SuccessfulJobsHistoryLimit: ip(0), FailedJobsHistoryLimit: ip(0)})
	if got.ScheduleError == "" || got.PeriodSeconds != 0 || got.ConcurrencyPolicy != "Forbid" || got.SuccessfulJobsHistoryLimit != 0 || len(got.Defaulted) != 0 {
		t.Errorf("bad schedule: %+v", got)
	}
}

func TestShortestGap(t *testing.T) {
	tests := []struct {
		schedule, tz string
		want         int
		wantErr      bool
	}{
		{"* * * * *", "", 60, false},
		{"*/5 * * * *", "", 300, false},
		{"0,10 * * * *", "", 600, false},
		{"0 * * * *", "", 3600, false},
		{"@hourly", "", 3600, false},
		{"@daily", "", 86400, false},
		{"0 0 * * 1-5", "", 86400, false},
		{"30 23 * * *", "", 86400, false},
		{"0 0 1 * *", "", 28 * 86400, false},
		{"59 23 * * 5,6", "", 86400, false},
		// robfig/cron, which the CronJob controller also uses, fires at 02:00 CEST and again at
		// 02:00 CET on the night the clocks go back: the shortest gap is one hour.
		{"0 2 * * *", "Europe/Berlin", 3600, false},
		{"0 0 * * *", "Mars/Olympus", 0, true},
		{"61 * * * *", "", 0, true},
		{"", "", 0, true},
	}
	for _, tc := range tests {
		got, err := ShortestGap(tc.schedule, tc.tz)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ShortestGap(%q, %q) = %d, %v; want %d, err %v", tc.schedule, tc.tz, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestDeploymentSurge(t *testing.T) {
	tests := []struct {
		replicas int
		strategy string
		surge    *string
		want     int
		wantErr  bool
	}{
		{2, "", nil, 1, false},
		{4, "RollingUpdate", nil, 1, false},
		{5, "RollingUpdate", nil, 2, false},
		{0, "", nil, 0, false},
		{10, "RollingUpdate", sp("3"), 3, false},
		{10, "RollingUpdate", sp("50%"), 5, false},
		{10, "Recreate", sp("50%"), 0, false},
		{10, "", sp("x%"), 0, true},
		{10, "", sp("lots"), 0, true},
	}
	for _, tc := range tests {
		got, err := DeploymentSurge(tc.replicas, tc.strategy, tc.surge)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("DeploymentSurge(%d, %q, %v) = %d, %v; want %d", tc.replicas, tc.strategy, tc.surge, got, err, tc.want)
		}
	}
}

func FuzzShortestGap(f *testing.F) {
	for _, s := range []string{"*/5 * * * *", "@hourly", "0 0 29 2 *", "CRON_TZ=Asia/Tokyo 0 9 * * 1-5", "0 0 30 2 *"} {
		f.Add(s, "")
	}
	f.Add("0 2 * * *", "Europe/Berlin")
	f.Fuzz(func(t *testing.T, schedule, tz string) {
		gap, err := ShortestGap(schedule, tz)
		if err == nil && gap < 60 {
			t.Fatalf("ShortestGap(%q, %q) = %d: cron cannot fire more often than once a minute", schedule, tz, gap)
		}
		// The real-time spans start at the shortest gap and grow; a witness's times stay in
		// their span and limit.
		if spans := RunSpans(schedule, tz); len(spans) > 0 {
			if spans[0] != gap || len(spans) > maxRunSpans || !slices.IsSorted(spans) {
				t.Fatalf("RunSpans(%q, %q) = %v, shortest gap %d", schedule, tz, spans, gap)
			}
		}
		times := ScheduleTimes(schedule, tz, 86400, 100)
		if len(times) > 100 || !slices.IsSorted(times) || (len(times) > 0 && (times[0] < 0 || times[len(times)-1] >= 86400)) {
			t.Fatalf("ScheduleTimes(%q, %q) = %v", schedule, tz, times)
		}
		week, ok := WeekTimes(schedule, tz)
		if !ok {
			return
		}
		if err != nil || len(week) == 0 || len(week) > maxWeekTimes {
			t.Fatalf("WeekTimes(%q, %q) = %d times, ShortestGap error %v", schedule, tz, len(week), err)
		}
		for i, at := range week {
			if at < 0 || at >= weekSeconds || (i > 0 && at-week[i-1] < gap) {
				t.Fatalf("WeekTimes(%q, %q) = %v: not inside one week %d s apart", schedule, tz, week, gap)
			}
		}
	})
}

func TestWeekTimes(t *testing.T) {
	cases := []struct {
		schedule, zone string
		want           []int
	}{
		{"0 2 * * *", "", []int{7200, 93600, 180000, 266400, 352800, 439200, 525600}},
		{"30 3 * * 1", "UTC", []int{12600}},
		{"@weekly", "", []int{518400}}, // Sunday 00:00; the week starts on a Monday
		{"0 2 1 * *", "", nil},         // monthly: not the same every week
		{"0 2 * * *", "Europe/Berlin", nil},
		{"CRON_TZ=UTC 0 2 * * *", "", nil},
		{"*/30 * * * *", "", nil}, // 336 a week: more than hourly
		{"not a schedule", "", nil},
	}
	for _, c := range cases {
		got, ok := WeekTimes(c.schedule, c.zone)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("WeekTimes(%q, %q) = %v, %v; want %v", c.schedule, c.zone, got, ok, c.want)
		}
	}
}

// TestRunSpans: the shortest time from a firing to the k-th after it, from the schedule's
// real times; nil for a regular schedule, where k times the shortest gap is exact.
func TestRunSpans(t *testing.T) {
	tests := []struct {
		schedule string
		want     []int
	}{
		{"*/5 * * * *", nil},
		{"@daily", nil},
		// Twice a night an hour apart: two runs within an hour, a third only a day later.
		{"0 1,2 * * *", []int{3600, 86400, 90000}},
		// Weekdays at 03:00: the weekend makes no gap shorter than a day.
		{"0 3 * * 1-5", []int{86400, 172800, 259200, 345600, 604800}},
	}
	for _, tc := range tests {
		got := RunSpans(tc.schedule, "")
		if tc.want == nil {
			if got != nil {
				t.Errorf("%s: %v, want nil", tc.schedule, got)
			}
			continue
		}
		if len(got) < len(tc.want) {
			t.Fatalf("%s: %v, want a prefix %v", tc.schedule, got, tc.want)
		}
		if !slices.Equal(got[:len(tc.want)], tc.want) {
			t.Errorf("%s: %v, want a prefix %v", tc.schedule, got[:len(tc.want)], tc.want)
		}
	}
}
