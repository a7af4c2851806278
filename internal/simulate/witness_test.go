package simulate

import (
	"testing"
)

func withTTL(w Workload, ttl int) Workload {
	w.TTL = ttl
	return w
}

func everyPeriod(period, horizon int) []int {
	var ts []int
	for t := 0; t < horizon; t += period {
		ts = append(ts, t)
	}
	return ts
}

// TestWitnessSearch: the search finds trajectories as high as the model's bound on the worked
// examples, and every trajectory it reports is one the simulator played (its peak is what its
// pods hold at that second).
func TestWitnessSearch(t *testing.T) {
	b := newBound(t)
	plays := 6000
	seed := Workload{CronJob: true, Completions: 1, BackoffLimit: 6, TTL: -1, Deadline: -1, Period: 300, Policy: "Forbid",
		SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1}
	cases := []struct {
		name  string
		ws    []Workload
		m     Model
		plays int
	}{
		{"seed CronJob, onDelete", []Workload{seed}, Model{OnDelete: true, Window: 90}, plays},
		{"seed CronJob, onCompletion", []Workload{seed}, Model{Window: 90}, plays},
		{"seed CronJob, TTL 60", []Workload{withTTL(seed, 60)}, Model{OnDelete: true, Window: 90}, plays},
		{"Replace every 5 minutes, grace 3600 s, onCompletion", []Workload{{CronJob: true, Completions: 1, BackoffLimit: 6, TTL: -1, Deadline: -1,
			Period: 300, Policy: "Replace", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1, Grace: 3600}}, Model{Window: 90}, plays},
		{"two seed CronJobs, onDelete", []Workload{seed, seed}, Model{OnDelete: true, Window: 90}, plays},
		{"a Job and the seed, onDelete", []Workload{{Completions: 3, BackoffLimit: 6, TTL: -1, Deadline: -1, Start: -1}, seed}, Model{OnDelete: true, Window: 90}, plays},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			horizon := 0
			for i := range tc.ws {
				horizon = max(horizon, 16*tc.ws[i].Period)
			}
			for i := range tc.ws {
				if tc.ws[i].CronJob {
					tc.ws[i].Times = everyPeriod(tc.ws[i].Period, horizon)
				}
			}
			bound := 0
			for _, w := range tc.ws {
				bound += b.held(t, w, tc.m)
			}
			got := Search(tc.ws, tc.m, horizon, tc.plays, 0, 1)
			held := 0
			for _, r := range got.Runs {
				for _, p := range r.Pods {
					if p.HoldsAt(got.At) {
						held++
					}
				}
			}
			if held != got.Peak {
				t.Fatalf("the trajectory says %d at %d, its pods hold %d", got.Peak, got.At, held)
			}
			t.Logf("bound %d, witness %d at %d s", bound, got.Peak, got.At)
		})
	}
}
