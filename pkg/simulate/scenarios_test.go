package simulate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

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
	tries := testtool.Size(50, 300)
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
			w, why := FromInventory(iw)
			if why != "" || w.CronJob && w.Policy == "Allow" && w.Deadline < 0 {
				continue // not played, or its figure is a lower bound (ENI005)
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
