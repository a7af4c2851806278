package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestBusyPeakMatchesItsDefinition checks the schedule separation's peak (timeline.rego
// busy_peak: per period, with each group's windows as instants looked up) against its
// definition, computed here by comparing every start with every window: the most held at
// once, over the starts of the busy windows and their ramps' steps, by the CronJobs busy then,
// each at its figure or its ramp's pods at that point of its window. Random groups of real
// schedules (hourly, every few hours, daily, weekdays, irregular lists), several CronJobs to a
// group, ramps where windows never meet, and busy spans from a minute to more than a day, so
// that windows cross hours, days and the week's end.
func TestBusyPeakMatchesItsDefinition(t *testing.T) {
	modules, err := Modules(false)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := Compile(modules)
	if err != nil {
		t.Fatal(err)
	}
	q, err := rego.New(rego.Query("x := data.eni.model._busy_peak(input.groups)"), rego.Compiler(comp)).PrepareForEval(context.Background())
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
	periodic, ramped := 0, 0
	cases := testtool.Size(20, 60) // a prefix of the same seeded cases without -tags slow
	for i := range cases {
		var groups []any
		type group struct {
			times             []int
			busy, held, count int
			ramp              [][2]int
		}
		var gs []group
		for range 1 + rng.IntN(6) {
			times, ok := inventory.WeekTimes(schedules[rng.IntN(len(schedules))](rng), "")
			if !ok {
				t.Fatal("a test schedule does not repeat weekly")
			}
			g := group{times: times, busy: busy[rng.IntN(len(busy))] + rng.IntN(60), held: 1 + rng.IntN(9), count: 1 + rng.IntN(3)}
			// A ramp (the back-off's steps, cut at a random T) where windows never meet.
			gap := 604800
			for i, at := range times {
				next := times[0] + 604800
				if i+1 < len(times) {
					next = times[i+1]
				}
				gap = min(gap, next-at)
			}
			ramp := []any{}
			if g.busy < gap && rng.IntN(3) > 0 {
				for k, o := range []int{0, 10, 30, 70, 150, 310, 630, 990}[:1+rng.IntN(8)] {
					if o <= g.busy {
						g.ramp = append(g.ramp, [2]int{o, k + 1})
						ramp = append(ramp, []int{o, k + 1})
					}
				}
			}
			gs = append(gs, g)
			groups = append(groups, map[string]any{"windows": map[string]any{"times": g.times, "busy": g.busy, "ramp": ramp}, "held": g.held, "count": g.count})
		}
		// What a group holds tau seconds into a window: its figure, or its ramp's pods when
		// fewer; each instant is in the window that started last.
		holds := func(g group, t int) int {
			tau := -1
			for _, at := range g.times {
				if d := (t - at + 604800) % 604800; d <= g.busy && (tau < 0 || d < tau) {
					tau = d
				}
			}
			if tau < 0 {
				return 0
			}
			h := g.held
			if len(g.ramp) > 0 {
				pods := 0
				for _, r := range g.ramp {
					if r[0] <= tau {
						pods = r[1]
					}
				}
				h = min(h, pods)
			}
			return g.count * h
		}
		flat := 0
		for _, a := range gs {
			for _, start := range a.times {
				total := 0
				for _, b := range gs {
					b.ramp = nil
					total += holds(b, start)
				}
				flat = max(flat, total)
			}
		}
		want := 0
		for _, a := range gs {
			offsets := []int{0}
			for _, r := range a.ramp {
				offsets = append(offsets, r[0])
			}
			for _, start := range a.times {
				for _, o := range offsets {
					total := 0
					for _, b := range gs {
						total += holds(b, (start+o)%604800)
					}
					want = max(want, total)
				}
			}
		}
		if len(gs[0].times) >= 24 {
			periodic++
		}
		if want < flat {
			ramped++
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
	if periodic < cases/6 || ramped < cases/6 {
		t.Fatalf("only %d cases start with a schedule that repeats within a day, %d have a peak the ramps lower", periodic, ramped)
	}
}
