package simulate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/eni-lint/eni-lint/internal/replay"
	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// legalSchedules are the schedules the legality property draws from: regular ones, business
// hours that first fire late on Monday, daily and weekly ones, lists.
var legalSchedules = []string{"*/5 * * * *", "*/10 * * * *", "0 * * * *", "*/5 9-17 * * 1-5", "30 1 * * *",
	"0 */2 * * *", "15,45 * * * *", "0 0 * * 0", "*/15 8-18 * * 1-5", "7 3,15 * * *", "*/2 * * * *"}

// randomLegalWorkload draws a Job or CronJob of any shape the witness plays: pods one at a time
// or in parallel, a work queue or completions, Never or OnFailure, grace periods of 0 and more.
func randomLegalWorkload(rng *rand.Rand) Workload {
	w := Workload{
		CronJob:      rng.IntN(5) != 0,
		Parallelism:  []int{1, 1, 2, 3, 5}[rng.IntN(5)],
		Completions:  []int{1, 1, 0, 3, 6}[rng.IntN(5)],
		BackoffLimit: rng.IntN(7),
		TTL:          []int{-1, -1, 0, 60, 300}[rng.IntN(5)],
		Deadline:     []int{-1, -1, 120, 600}[rng.IntN(4)],
		Policy:       []string{"Forbid", "Forbid", "Replace", "Allow"}[rng.IntN(4)],
		Grace:        []int{0, 30, 30, 90}[rng.IntN(4)],
		OnFailure:    rng.IntN(5) == 0,
		Start:        -1,
	}
	w.SuccessfulHistory, w.FailedHistory = rng.IntN(4), rng.IntN(3)
	if !w.CronJob && rng.IntN(2) == 0 {
		// A KEDA ScaledJob: Jobs of the template at each poll, up to maxReplicaCount alive.
		w.KEDA, w.Poll, w.MaxJobs = true, []int{10, 30, 30, 60}[rng.IntN(4)], 1+rng.IntN(4)
		w.Period = w.Poll
	}
	if w.CronJob && rng.IntN(5) == 0 {
		// A ScheduledSparkApplication's driver: one pod a run, the operator's schedule and
		// history (a driver that fails fails its run: restartPolicy Never).
		w.Spark, w.Parallelism, w.Completions, w.BackoffLimit, w.OnFailure = true, 1, 1, 0, false
	}
	w.StartingDeadline = []int{-1, -1, 0, 30, 600}[rng.IntN(5)]
	if w.CronJob {
		w.Schedule = legalSchedules[rng.IntN(len(legalSchedules))]
		gap, err := inventory.ShortestGap(w.Schedule, "")
		if err != nil {
			panic(err)
		}
		w.Period = gap
	}
	return w
}

// TestWitnessesAreLegal is the legality property: for random workloads of every shape the
// witness plays, together on one node, every run of the trajectory a search finds passes an
// independent replay (internal/replay: the Job, CronJob and TTL controllers' rules written
// from their code, and its own cron reader), under both release models.
func TestWitnessesAreLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 49))
	cases := testtool.Size(40, 400)
	if *long {
		cases = 3000
	}
	for n := range cases {
		ws := make([]Workload, 1+rng.IntN(3))
		horizon := 3600
		for i := range ws {
			ws[i] = randomLegalWorkload(rng)
			if ws[i].CronJob {
				first := inventory.ScheduleTimes(ws[i].Schedule, "", 8*86400, 1)
				horizon = max(horizon, first[0]+16*ws[i].Period)
			}
		}
		horizon = min(horizon, 8*86400)
		for i := range ws {
			if ws[i].CronJob {
				ws[i].Times = inventory.ScheduleTimes(ws[i].Schedule, "", horizon, 400)
			}
		}
		m := Model{OnDelete: n%2 == 0, Window: 90}
		got := Search(ws, m, horizon, 60, 0, NoLimit, uint64(n))
		byWorkload := make([][]replay.Run, len(ws))
		for _, r := range got.AllRuns {
			byWorkload[r.Workload] = append(byWorkload[r.Workload], replayRun(r))
		}
		for i, w := range ws {
			for k, v := range replay.Check(replaySpec(w), replay.Model{OnDelete: m.OnDelete, W: m.Window}, byWorkload[i], horizon) {
				if k == 3 {
					t.Errorf("…")
					break
				}
				w.Times = nil
				t.Errorf("case %d (onDelete %v), workload %+v: %s\n%s", n, m.OnDelete, w, v, describe(byWorkload[i], v.Run))
			}
		}
		if t.Failed() {
			return
		}
	}
}

// TestSteadyScriptsAreLegal: every trajectory of the hostile start's steady scripts (the Forbid
// history chain, Adversary.Steady) passes the independent replay, for random workloads of every
// shape (the scripts play the Forbid CronJobs of one chain; the others keep their outcome),
// under both release models.
func TestSteadyScriptsAreLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 41))
	for n := range testtool.Size(40, 400) {
		w := randomLegalWorkload(rng)
		if !w.CronJob {
			continue
		}
		w.Policy = "Forbid"
		horizon := min(8*86400, inventory.ScheduleTimes(w.Schedule, "", 8*86400, 1)[0]+16*w.Period)
		w.Times = inventory.ScheduleTimes(w.Schedule, "", horizon, 400)
		m := Model{OnDelete: n%2 == 0, Window: 90}
		if w.OnFailure {
			// With disruptions assumed the scripts play OnFailure too, each failure a new pod.
			m.Disruptions = max(1, w.BackoffLimit)
		}
		ws := []Workload{w}
		if n%3 == 0 {
			// A second CronJob every hour: the scripts then also end both long runs before
			// a time both schedules fire at (Steady.Target).
			hourly := w
			hourly.Schedule, hourly.Period = "0 * * * *", 3600
			hourly.Times = inventory.ScheduleTimes(hourly.Schedule, "", horizon, 400)
			ws = append(ws, hourly)
		}
		scripts := steadyScripts(ws, m, minSteadyPlays)
		if steadyShape(w, m) && len(scripts) == 0 {
			t.Fatalf("case %d: no script for %+v", n, w)
		}
		for _, script := range scripts {
			for i, w := range ws {
				adv := hostile(horizon, false, w)
				adv.Steady = &script[i]
				one := &state{plays: []played{playOne(w, m, choice{adv: adv, tape: &tape{fresh: rand.New(zeros{})}})}}
				got := record(jointPeak{}, one.owned())
				var runs []replay.Run
				for _, r := range got.AllRuns {
					runs = append(runs, replayRun(r))
				}
				for _, v := range replay.Check(replaySpec(w), replay.Model{OnDelete: m.OnDelete, W: m.Window}, runs, horizon) {
					w.Times = nil
					t.Fatalf("case %d (onDelete %v), script %+v, workload %+v: %s\n%s", n, m.OnDelete, script[i], w, v, describe(runs, v.Run))
				}
			}
		}
	}
}

func replaySpec(w Workload) replay.Spec {
	return replay.Spec{CronJob: w.CronJob, Schedule: w.Schedule, Policy: w.Policy, StartingDeadline: w.StartingDeadline,
		SuccessfulHistory: w.SuccessfulHistory, FailedHistory: w.FailedHistory, Parallelism: w.Parallelism,
		Completions: w.Completions, BackoffLimit: w.BackoffLimit, TTL: w.TTL, Deadline: w.Deadline, Grace: w.Grace, OnFailure: w.OnFailure,
		Spark: w.Spark, KEDA: w.KEDA, Poll: w.Poll, MaxJobs: w.MaxJobs}
}

func replayRun(r RunRecord) replay.Run {
	out := replay.Run{Scheduled: r.Scheduled, Start: r.Start, Finish: r.Finish, Failed: r.Failed, Deleted: r.Deleted, DeletedBy: r.DeletedBy}
	for _, p := range r.Pods {
		out.Pods = append(out.Pods, replay.Pod{Created: p.Created, Bound: p.Bound, Finished: p.Finished, Ended: p.Ended,
			Deleted: p.Deleted, Released: p.Released, Failed: p.Failed})
	}
	return out
}

func describe(runs []replay.Run, i int) string {
	if i < 0 || i >= len(runs) {
		return ""
	}
	return fmt.Sprintf("%+v", runs[i])
}

// TestReplayCatchesTheStrongAdversary: the soundness tests' adversary (the 6-minute back-off
// cap, which backoffLimit 8 reaches) is stronger than the controllers, and the
// replay says so; the same workload played as a witness is legal. The property above could
// not fail otherwise.
func TestReplayCatchesTheStrongAdversary(t *testing.T) {
	w := Workload{CronJob: true, Completions: 1, BackoffLimit: 8, TTL: -1, Deadline: -1, Period: 300, Policy: "Forbid",
		SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1, Grace: 30, Schedule: "*/5 * * * *", Start: -1}
	w.Times = inventory.ScheduleTimes(w.Schedule, "", 7200, 400)
	m := Model{OnDelete: true, Window: 90}
	for _, tc := range []struct {
		adv   Adversary
		legal bool
	}{
		{Adversary{FailShare: 1, Horizon: 7200, Cut: true}, false},
		{hostile(7200, false, w), true},
	} {
		s := &sim{w: w, m: m, a: tc.adv, rng: rand.New(rand.NewPCG(1, 2))}
		s.play()
		var owned []ownedRun
		for _, r := range s.runs {
			owned = append(owned, ownedRun{0, r})
		}
		var runs []replay.Run
		for _, r := range record(jointPeak{}, owned).AllRuns {
			runs = append(runs, replayRun(r))
		}
		v := replay.Check(replaySpec(w), replay.Model{OnDelete: true, W: 90}, runs, 7200)
		if tc.legal != (len(v) == 0) {
			t.Errorf("legal %v: %d violations, first %v", tc.legal, len(v), v[:min(1, len(v))])
		}
	}
}
