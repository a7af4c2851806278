package witness

import (
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
	for _, r := range w.Runs {
		for _, p := range r.Pods {
			if p.HoldsAtPeak {
				held++
			}
		}
	}
	if held != 41 || w.Played[0].HeldAtPeak != 41 {
		t.Errorf("the runs hold %d at the peak, played says %+v", held, w.Played)
	}
	if last := w.Events[len(w.Events)-1]; last.At < w.At {
		t.Errorf("the events end before the peak: %+v", last)
	}
	mixed := fs[1].Witness
	if mixed == nil || len(mixed.NotPlayed) != 1 || mixed.NotPlayed[0].ID != deploy.ID || mixed.Reached != 44 {
		t.Errorf("mixed witness: %+v", mixed)
	}
	if fs[2].Witness != nil {
		t.Errorf("ENI002 got a witness")
	}
}

// TestBudgetBoundsTheFindings: beyond Budget.Findings, ENI001 findings get no witness.
func TestBudgetBoundsTheFindings(t *testing.T) {
	seed := cronJob("CronJob/a/b@c.yaml:1", "*/5 * * * *", inventory.DeclaredJob{BackoffLimit: ip(1)})
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", WindowSeconds: 90}, Workloads: []inventory.Workload{seed}}
	fs := []findings.Finding{finding(10, map[string]any{"id": seed.ID, "held": float64(10)}), finding(10, map[string]any{"id": seed.ID, "held": float64(10)})}
	Attach(fs, inv, Budget{Findings: 1, PodPlays: 10000, MaxPlays: 100, MinPlays: 10})
	if fs[0].Witness == nil || fs[1].Witness != nil {
		t.Fatalf("want a witness on the first finding only: %v %v", fs[0].Witness != nil, fs[1].Witness != nil)
	}
	if fs[0].Witness.Plays > 100 {
		t.Errorf("%d plays, the budget allows 100", fs[0].Witness.Plays)
	}
}
