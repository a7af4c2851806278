package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestBusyPeakMatchesItsDefinition checks the schedule separation's peak (timeline.rego
// busy_peak: per period, with each group's windows as instants looked up) against its
// definition, computed here by comparing every start with every window: the most held at
// once, over the starts of the busy windows, by the CronJobs busy then. Random groups of real
// schedules (hourly, every few hours, daily, weekdays, irregular lists) and busy spans from a
// minute to more than a day, so that windows cross hours, days and the week's end.
func TestBusyPeakMatchesItsDefinition(t *testing.T) {
	modules, err := Modules(false)
	if err != nil {
		t.Fatal(err)
	}
	opts := []func(*rego.Rego){rego.Query("x := data.eni.model.busy_peak(input.groups)"), rego.Capabilities(Capabilities())}
	for _, m := range modules {
		opts = append(opts, rego.ParsedModule(m))
	}
	q, err := rego.New(opts...).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	schedules := []func(r *rand.Rand) string{
		func(r *rand.Rand) string { return fmt.Sprintf("%d * * * *", r.IntN(60)) },
		func(r *rand.Rand) string {
			return fmt.Sprintf("%d,%d */%d * * *", r.IntN(30), 30+r.IntN(30), 2+r.IntN(4))
		},
		func(r *rand.Rand) string { return fmt.Sprintf("%d */%d * * *", r.IntN(60), 2+r.IntN(6)) },
		func(r *rand.Rand) string { return fmt.Sprintf("%d %d * * *", r.IntN(60), r.IntN(24)) },
		func(r *rand.Rand) string { return fmt.Sprintf("%d %d * * 1-5", r.IntN(60), r.IntN(24)) },
		func(r *rand.Rand) string { return fmt.Sprintf("%d %d,%d * * *", r.IntN(60), r.IntN(12), 12+r.IntN(12)) },
		func(r *rand.Rand) string { return fmt.Sprintf("%d 23 * * 0", r.IntN(60)) },
		func(r *rand.Rand) string { return fmt.Sprintf("%d %d-%d * * *", r.IntN(60), r.IntN(12), 12+r.IntN(12)) },
	}
	busy := []int{60, 600, 1020, 3599, 3600, 7300, 40000, 90000, 700000}
	rng := rand.New(rand.NewPCG(5, 30))
	periodic := 0
	for i := range 60 {
		var groups []any
		type group struct {
			times      []int
			busy, held int
		}
		var gs []group
		for range 1 + rng.IntN(6) {
			times, ok := inventory.WeekTimes(schedules[rng.IntN(len(schedules))](rng), "")
			if !ok {
				t.Fatal("a test schedule does not repeat weekly")
			}
			g := group{times, busy[rng.IntN(len(busy))] + rng.IntN(60), 1 + rng.IntN(9)}
			gs = append(gs, g)
			groups = append(groups, map[string]any{"windows": map[string]any{"times": g.times, "busy": g.busy}, "held": g.held})
		}
		want := 0
		for _, a := range gs {
			for _, start := range a.times {
				total := 0
				for _, b := range gs {
					for _, at := range b.times {
						if (start-at+604800)%604800 <= b.busy {
							total += b.held
							break
						}
					}
				}
				want = max(want, total)
			}
		}
		if len(gs[0].times) >= 24 {
			periodic++
		}
		input, err := ast.InterfaceToValue(map[string]any{"groups": groups})
		if err != nil {
			t.Fatal(err)
		}
		rs, err := q.Eval(context.Background(), rego.EvalParsedInput(input))
		if err != nil || len(rs) != 1 {
			t.Fatalf("case %d: %v (%d results)", i, err, len(rs))
		}
		got, err := rs[0].Bindings["x"].(interface{ Int64() (int64, error) }).Int64()
		if err != nil {
			t.Fatal(err)
		}
		if int(got) != want {
			t.Fatalf("case %d: busy_peak %d, by definition %d, groups %v", i, got, want, groups)
		}
	}
	if periodic < 10 {
		t.Fatalf("only %d cases start with a schedule that repeats within a day", periodic)
	}
}
