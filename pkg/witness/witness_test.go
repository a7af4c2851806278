package witness

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func ip(i int) *int { return &i }

func cronJob(id, schedule string, job inventory.DeclaredJob) inventory.Workload {
	j := inventory.JobDefaults(job)
	forbid := "Forbid"
	c := inventory.CronJobDefaults(inventory.DeclaredCronJob{Schedule: schedule, ConcurrencyPolicy: &forbid})
	return inventory.Workload{Object: inventory.Object{ID: id, Kind: "CronJob"}, Job: &j, CronJob: &c}
}

func finding(demand int, contributors ...map[string]any) findings.Finding {
	var cs []any
	for _, c := range contributors {
		cs = append(cs, c)
	}
	return findings.Finding{Rule: "ENI001", Details: map[string]any{
		"demand": float64(demand), "branchInterfaces": float64(9), "contributors": cs, "otherContributors": float64(0),
	}}
}

// TestAttach: the seed CronJob's witness reaches the model's 41 under onDelete, in a
// trajectory whose pods hold 41 at its peak; a contributor the simulator does not play is named
// and counted at its figure; other rules get no witness.
func TestAttach(t *testing.T) {
	seed := cronJob("CronJob/billing/db-report@cronjob.yaml:1", "*/5 * * * *", inventory.DeclaredJob{})
	deploy := inventory.Workload{Object: inventory.Object{ID: "Deployment/billing/api@d.yaml:1", Kind: "Deployment"}}
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{seed, deploy}}
	fs := []findings.Finding{
		finding(41, map[string]any{"id": seed.ID, "held": float64(41)}),
		finding(44, map[string]any{"id": seed.ID, "held": float64(41)}, map[string]any{"id": deploy.ID, "held": float64(3)}),
		{Rule: "ENI002"},
	}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || w.Bound != 41 || w.Reached != 41 || len(w.NotPlayed) != 0 {
		t.Fatalf("seed witness: %+v", w)
	}
	held := 0
	for _, r := range w.Trajectory.Runs {
		for _, p := range r.Pods {
			if p.HoldsAtPeak {
				held++
			}
		}
	}
	if held != 41 || w.Played[0].HeldAtPeak != 41 {
		t.Errorf("the runs hold %d at the peak, played says %+v", held, w.Played)
	}
	if last := w.Trajectory.Events[len(w.Trajectory.Events)-1]; last.At < w.At {
		t.Errorf("the events end before the peak: %+v", last)
	}
	mixed := fs[1].Witness
	if mixed == nil || len(mixed.NotPlayed) != 1 || mixed.NotPlayed[0].ID != deploy.ID || mixed.Reached != 44 {
		t.Errorf("mixed witness: %+v", mixed)
	}
	// Both play the seed alone: one search, one trajectory, which the report writes once.
	if mixed != nil && mixed.Trajectory != w.Trajectory {
		t.Errorf("findings with the same played workloads have two trajectories")
	}
	if fs[2].Witness != nil {
		t.Errorf("ENI002 got a witness")
	}
}

// TestBudget: findings with the same played workloads share one search; beyond the budget's
// searches a finding says it was not searched.
func TestBudget(t *testing.T) {
	a := cronJob("CronJob/a/a@a.yaml:1", "*/5 * * * *", inventory.DeclaredJob{BackoffLimit: ip(1)})
	b := cronJob("CronJob/a/b@b.yaml:1", "*/5 * * * *", inventory.DeclaredJob{BackoffLimit: ip(1)})
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{a, b}}
	fs := []findings.Finding{
		finding(10, map[string]any{"id": a.ID, "held": float64(10)}),
		finding(10, map[string]any{"id": a.ID, "held": float64(10)}),
		finding(10, map[string]any{"id": b.ID, "held": float64(10)}),
	}
	Attach(fs, inv, Budget{Searches: 1, PodPlays: 10000, TotalPodPlays: 1 << 30, MaxPlays: 100, MinPlays: 10})
	if fs[0].Witness == nil || fs[0].Witness.NotSearched != "" || fs[0].Witness.Plays > 100 {
		t.Fatalf("first finding: %+v", fs[0].Witness)
	}
	if fs[1].Witness == nil || fs[1].Witness.At != fs[0].Witness.At || fs[1].Witness.Reached != fs[0].Witness.Reached {
		t.Errorf("the same workloads should share the search: %+v", fs[1].Witness)
	}
	if fs[2].Witness == nil || fs[2].Witness.NotSearched == "" {
		t.Errorf("the budget allows one search: %+v", fs[2].Witness)
	}
}

// TestHostileBackoffLimit: a backoffLimit of two billion makes T huge; the search still stays
// within its budget (each run's pods are cut at the horizon) and ends.
func TestHostileBackoffLimit(t *testing.T) {
	huge := cronJob("CronJob/a/huge@h.yaml:1", "* * * * *", inventory.DeclaredJob{BackoffLimit: ip(2147483647)})
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{huge}}
	fs := []findings.Finding{finding(1<<30, map[string]any{"id": huge.ID, "held": float64(1 << 30)})}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || (w.NotSearched == "" && w.Reached == 0) {
		t.Fatalf("witness: %+v", w)
	}
}

// TestShare: n clusters evaluated at once split the run's budget, one search each at least.
func TestShare(t *testing.T) {
	b := Budget{Searches: 10, PodPlays: 2_000_000, TotalPodPlays: 6_000_000, MaxPlays: 20000, MinPlays: 200}
	if got := b.Share(1); got != b {
		t.Errorf("Share(1) = %+v", got)
	}
	if got := b.Share(4); got.Searches != 2 || got.TotalPodPlays != 1_500_000 || got.PodPlays != 1_500_000 {
		t.Errorf("Share(4) = %+v", got)
	}
	if got := b.Share(40); got.Searches != 1 || got.TotalPodPlays != 150_000 {
		t.Errorf("Share(40) = %+v", got)
	}
}

// TestNothingPlayedClaimsNothing: a row whose contributors the simulator does not play (a
// Deployment) gets no trajectory and says why, instead of counting their figures as reached.
func TestNothingPlayedClaimsNothing(t *testing.T) {
	api := inventory.Workload{Object: inventory.Object{ID: "Deployment/a/api@a.yaml:1", Kind: "Deployment"}}
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{api}}
	fs := []findings.Finding{finding(12, map[string]any{"id": api.ID, "held": float64(12)})}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || w.Reached != 0 || w.Trajectory != nil || w.NotSearched != "no timeline could be built for Deployment a/api (not a Job or CronJob); the figure is the model's count" {
		t.Fatalf("witness: %+v", w)
	}
}

// TestAllowWithoutDeadlineIsPlayed: an Allow CronJob without a deadline has no bound in time
// (ENI005), and its figure is a lower bound ("at least"): the witness plays it, its runs as
// long as they like, and reaches at least the figure.
func TestAllowWithoutDeadlineIsPlayed(t *testing.T) {
	j := inventory.JobDefaults(inventory.DeclaredJob{})
	allow := inventory.Workload{Object: inventory.Object{ID: "CronJob/a/allow@a.yaml:1", Kind: "CronJob"}, Job: &j,
		CronJob: func() *inventory.CronJobSpec {
			c := inventory.CronJobDefaults(inventory.DeclaredCronJob{Schedule: "* * * * *"})
			return &c
		}()}
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{allow}}
	fs := []findings.Finding{finding(35, map[string]any{"id": allow.ID, "held": float64(35)})}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || w.Trajectory == nil || w.Reached < 35 || w.Running > w.RunningLimit {
		t.Fatalf("witness: %+v", w)
	}
}

// TestRowOfManyCronJobs: 25 CronJobs of one schedule, each with a deadline and a TTL (6 pods a
// run), on a node of 9 branch ENIs. The finding lists 20 and passes the other 5 for the search
// alone: the witness plays all 25 and reaches the row's 150, with never more pods running at
// once than the node admits beside a Deployment's 3 replicas. 150 is what the controllers can
// reach, although at most 9 pods run at a time: a CronJob's pods can end a second after they
// are bound, those that come in the same second waiting their turn to be scheduled, so the
// scheduler's limit on running pods does not bound what terminated pods hold. Every pod of the
// trajectory runs at least a second.
func TestRowOfManyCronJobs(t *testing.T) {
	var ws []inventory.Workload
	var listed, unlisted []map[string]any
	for i := range 25 {
		w := cronJob(fmt.Sprintf("CronJob/staging/job-%02d@j.yaml:%d", i, i+1), "0 * * * *",
			inventory.DeclaredJob{ActiveDeadlineSeconds: ip(600), TTLSecondsAfterFinished: ip(300)})
		ws = append(ws, w)
		c := map[string]any{"id": w.ID, "held": float64(6), "active": float64(1)}
		if i < 19 {
			listed = append(listed, c)
		} else {
			unlisted = append(unlisted, c)
		}
	}
	deploy := inventory.Workload{Object: inventory.Object{ID: "Deployment/staging/api@d.yaml:1", Kind: "Deployment"}}
	ws = append(ws, deploy)
	listed = append(listed, map[string]any{"id": deploy.ID, "held": float64(3), "active": float64(3)})
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: ws}
	f := finding(153, listed...)
	var others []any
	for _, c := range unlisted {
		others = append(others, c)
	}
	f.Details["unlistedContributors"] = others
	f.Details["otherContributors"] = float64(len(unlisted))
	fs := []findings.Finding{f}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || w.NotSearched != "" {
		t.Fatalf("witness: %+v", w)
	}
	if _, left := fs[0].Details["unlistedContributors"]; left {
		t.Error("the unlisted contributors stay in the finding's details")
	}
	if len(w.Played) != 25 || w.OtherContributors != 0 || w.RunningLimit != 6 || w.Running > 6 {
		t.Errorf("played %d, others %d, running %d of %d", len(w.Played), w.OtherContributors, w.Running, w.RunningLimit)
	}
	if w.Reached != 153 {
		t.Errorf("reached %d, want 153 (150 played + the Deployment's 3)", w.Reached)
	}
	if w.RunningAtPeak > w.RunningLimit {
		t.Errorf("%d running at the peak, where the node admits %d beside the Deployment", w.RunningAtPeak, w.RunningLimit)
	}
	for _, r := range w.Trajectory.Runs {
		for _, p := range r.Pods {
			if p.Bound != nil && p.Ended-p.StatusLag < *p.Bound+1 {
				t.Fatalf("a pod that runs less than a second: %+v", p)
			}
		}
	}
}

// A run starts only for a time its schedule fires: a business-hours schedule first fires on
// Monday at 09:00, past the search's first window; its witness played runs "for Mon 00:31:11"
// when the window held none of its times.
func TestRunsAreForTheSchedulesTimes(t *testing.T) {
	const schedule = "*/5 9-17 * * 1-5"
	cj := cronJob("CronJob/a/hours@a.yaml:1", schedule, inventory.DeclaredJob{})
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{cj}}
	fs := []findings.Finding{finding(41, map[string]any{"id": cj.ID, "held": float64(41)})}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || w.Trajectory == nil || len(w.Trajectory.Runs) == 0 {
		t.Fatalf("no trajectory: %+v", w)
	}
	fires := map[int]bool{}
	for _, at := range inventory.ScheduleTimes(schedule, "", maxHorizon, 100000) {
		fires[at] = true
	}
	for _, r := range w.Trajectory.Runs {
		if !fires[r.Scheduled] {
			t.Errorf("a run for %d s, a time %q never fires", r.Scheduled, schedule)
		}
	}
}

// A suspended CronJob counts (it can be resumed or run by hand): its witness plays it and says
// that it assumes so.
func TestSuspendedCronJobIsAssumedResumed(t *testing.T) {
	cj := cronJob("CronJob/a/paused@a.yaml:1", "*/5 * * * *", inventory.DeclaredJob{})
	cj.CronJob.Suspend = true
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{cj}}
	fs := []findings.Finding{finding(41, map[string]any{"id": cj.ID, "held": float64(41)})}
	Attach(fs, inv, DefaultBudget)
	w := fs[0].Witness
	if w == nil || len(w.Assumes) != 1 || !strings.Contains(w.Assumes[0], "CronJob a/paused is resumed") {
		t.Fatalf("witness: %+v", w)
	}
}
