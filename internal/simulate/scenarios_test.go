package simulate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// fromInventory is the simulator's form of a Job or CronJob the loader read, when the
// simulator plays its shape: one pod at a time, restartPolicy Never, no per-index back-off, no
// Ignore rules, the Job controller, a known schedule; ok is false otherwise (with why).
func fromInventory(w inventory.Workload) (Workload, string) {
	j := w.Job
	if j == nil || (w.Kind != "Job" && w.Kind != "CronJob") {
		return Workload{}, "not a Job or CronJob"
	}
	completions := 0
	if j.Completions != nil {
		completions = *j.Completions
	}
	switch {
	case j.Parallelism != 1 && completions != 1:
		return Workload{}, "parallel pods"
	case j.BackoffLimitPerIndex != nil, j.RestartPolicy != "Never", j.Suspend, j.PodFailurePolicyIgnore,
		j.ManualSelector, j.ManagedBy != "kubernetes.io/job-controller":
		return Workload{}, "a shape the simulator does not play"
	}
	out := Workload{Completions: completions, BackoffLimit: j.BackoffLimit, TTL: -1, Deadline: -1, StartingDeadline: -1}
	if j.TTLSecondsAfterFinished != nil {
		out.TTL = *j.TTLSecondsAfterFinished
	}
	if j.ActiveDeadlineSeconds != nil {
		out.Deadline = *j.ActiveDeadlineSeconds
	}
	if c := w.CronJob; c != nil {
		if c.PeriodSeconds <= 0 || (c.ConcurrencyPolicy == "Allow" && out.Deadline < 0) {
			return Workload{}, "no bound in time"
		}
		out.CronJob, out.Period, out.Policy = true, c.PeriodSeconds, c.ConcurrencyPolicy
		out.SuccessfulHistory, out.FailedHistory = c.SuccessfulJobsHistoryLimit, c.FailedJobsHistoryLimit
		if c.StartingDeadlineSeconds != nil {
			out.StartingDeadline = *c.StartingDeadlineSeconds
		}
	}
	return out, ""
}

// TestTightnessOnScenarios prints, for every Job and CronJob of the plain manifests under
// testdata/scenarios that the simulator plays, the model's bound beside the best peak the
// search finds, under both release models (go test -v; -sim.long searches longer). It fails
// only if a trajectory beats the bound.
func TestTightnessOnScenarios(t *testing.T) {
	b := newBound(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scenarios", "*", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	sort.Strings(files)
	tries := 300
	if *long {
		tries = 20000
	}
	rng := rand.New(rand.NewPCG(7, 7))
	seen := map[string]bool{}
	var lines []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		frag := kubernetes.Load(file, data, kubernetes.Options{DefaultNamespace: "default"})
		for _, iw := range frag.Workloads {
			w, why := fromInventory(iw)
			if why != "" {
				continue
			}
			key := fmt.Sprintf("%+v", w)
			if seen[key] {
				continue
			}
			seen[key] = true
			name := filepath.Base(filepath.Dir(file)) + ": " + iw.Kind + " " + iw.Name
			for _, m := range []Model{{OnDelete: true, Window: 90}, {Window: 90}} {
				limit, best := b.held(t, w, m), 0
				for range tries {
					a := randomAdversary(rng, w)
					best = max(best, Peak(w, m, a, rng))
				}
				if best > limit {
					t.Fatalf("%s under %+v: simulated %d, bound %d", name, m, best, limit)
				}
				lines = append(lines, fmt.Sprintf("%-70s onDelete=%-5v bound %4d  best found %4d", name, m.OnDelete, limit, best))
			}
		}
	}
	if len(lines) == 0 {
		t.Fatal("no scenario workload the simulator plays")
	}
	t.Log("\n" + strings.Join(lines, "\n"))
}
