package audit

import (
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"testing"
	"time"

	"github.com/eni-lint/eni-lint/pkg/snapshot"
)

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		name                                     string
		known                                    bool
		capacity, running, byRunning, byFinished int
		waiting                                  int
		want                                     string
	}{
		{"unknown capacity", false, 0, 1, 1, 5, 0, Unknown},
		{"the seed: 7 finished + 2 running on 9", true, 9, 2, 2, 7, 0, Exhausted},
		{"a pod already waits", true, 9, 3, 2, 7, 1, Waiting},
		{"one short: the next finished pod exhausts it", true, 9, 2, 2, 6, 0, AtRisk},
		{"busy but counted: 8 running, nothing hidden", true, 9, 8, 8, 0, 0, AtRisk},
		{"full and the scheduler knows it", true, 9, 9, 9, 0, 0, OK},
		{"room left", true, 9, 2, 2, 3, 0, OK},
		{"no trunking", true, 0, 0, 0, 0, 0, OK},
	} {
		n := NodeReport{CapacityKnown: tc.known, Capacity: tc.capacity, Running: tc.running, HeldByRunning: tc.byRunning, HeldByFinished: tc.byFinished, Waiting: tc.waiting}
		n.Held = n.HeldByRunning + n.HeldByFinished
		if got := verdict(n); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestHolds(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	onCompletion := Settings{ENIRelease: "onCompletion", Cooldown: 60 * time.Second}
	for _, tc := range []struct {
		name     string
		s        Settings
		finished time.Time
		want     bool
	}{
		{"onDelete: until deleted", Settings{ENIRelease: "onDelete"}, at.Add(-24 * time.Hour), true},
		{"onCompletion: within the cool-down", onCompletion, at.Add(-30 * time.Second), true},
		{"onCompletion: past it", onCompletion, at.Add(-61 * time.Second), false},
		{"onCompletion: end unknown counts as holding", onCompletion, time.Time{}, true},
	} {
		if got := holds(snapshot.Pod{Phase: "Succeeded", ENIs: 1, Finished: tc.finished}, tc.s, at); got != tc.want {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}

func TestFails(t *testing.T) {
	for _, tc := range []struct {
		verdict, failOn string
		want            bool
	}{
		{AtRisk, AtRisk, true}, {AtRisk, Exhausted, false}, {Exhausted, Exhausted, true}, {Waiting, Waiting, true},
		{Exhausted, Waiting, false}, {Waiting, "none", false}, {Unknown, AtRisk, false}, {OK, AtRisk, false},
	} {
		if got := Fails(tc.verdict, tc.failOn); got != tc.want {
			t.Errorf("%s with fail-on %s: %v", tc.verdict, tc.failOn, got)
		}
	}
}

func TestAdvise(t *testing.T) {
	ttl := 600
	snap := snapshot.New()
	snap.CronJobs["ns/c"] = snapshot.CronJob{Namespace: "ns", Name: "c"}
	snap.CronJobs["ns/d"] = snapshot.CronJob{Namespace: "ns", Name: "d", TTL: &ttl}
	snap.Jobs["ns/j"] = snapshot.Job{Namespace: "ns", Name: "j"}
	for _, tc := range []struct {
		kind, name, release, rule, fix string
	}{
		{"CronJob", "c", "onDelete", "ENI002", "set spec.jobTemplate.spec.ttlSecondsAfterFinished, or keep fewer finished Jobs (successfulJobsHistoryLimit + failedJobsHistoryLimit = 4 now)"},
		{"CronJob", "d", "onDelete", "ENI001", "a shorter spec.jobTemplate.spec.ttlSecondsAfterFinished (now 600 s), or fewer finished Jobs kept (4 now)"},
		{"CronJob", "c", "onCompletion", "ENI001", "fewer pods per run (a lower backoffLimit or fewer completions): under onCompletion each ends holding its ENI for the cool-down"},
		{"Job", "j", "onDelete", "ENI002", "set spec.ttlSecondsAfterFinished: without it the Job and its finished pods stay until deleted by hand"},
		{"Job", "gone", "onDelete", "ENI001", "the Job is not in the snapshot: add jobs to the kubectl command to see its TTL"},
	} {
		o := &OwnerReport{Kind: tc.kind, Namespace: "ns", Name: tc.name}
		advise(snap, o, inventory.Release(tc.release))
		if o.Rule != tc.rule || o.Fix != tc.fix {
			t.Errorf("%s %s %s: %s %q", tc.kind, tc.name, tc.release, o.Rule, o.Fix)
		}
	}
}
