package simulate

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// The sweeps below are seeded; a plain go test runs a prefix of each, -tags slow (.ci/run)
// the size they were written for, and -sim.long longer still.
var long = flag.Bool("sim.long", false, "search longer: more workloads and more trajectories per workload")

// bound evaluates the model's numbers for one workload: the Rego function the rows use.
type bound struct{ q, separated, windows rego.PreparedEvalQuery }

// shared is the one bound the tests of this package use: preparing the queries compiles every
// policy, which costs more than most of the tests.
var shared struct {
	once sync.Once
	b    *bound
	err  error
}

func newBound(t testing.TB) *bound {
	shared.once.Do(func() { shared.b, shared.err = prepareBound() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.b
}

func prepareBound() (*bound, error) {
	modules, err := rules.Modules(false)
	if err != nil {
		return nil, err
	}
	opts := []func(*rego.Rego){nil, rego.Capabilities(rules.Capabilities())} // the query first
	for _, m := range modules {
		opts = append(opts, rego.ParsedModule(m))
	}
	var failed error
	prepare := func(query string) rego.PreparedEvalQuery {
		opts[0] = rego.Query(query)
		q, err := rego.New(opts...).PrepareForEval(context.Background())
		if err != nil && failed == nil {
			failed = err
		}
		return q
	}
	q := prepare("x := data.eni.model.numbers_of(input.w)")
	// As a row counts them: the separable ones at their peak together, the others summed; the
	// windows are either each view's separable windows or (windows alone, what tells two
	// CronJobs apart) the same without their ramps and falls.
	row := `s := {id: %s | some id, v in input.views}
		all := [{"id": id, "held": data.eni.model.numbers_of(v).held} | some id, v in input.views]
		cs := [c | some c in all; s[c.id]]
		x := (sum([c.held | some c in all]) - sum([c.held | some c in cs])) + data.eni.model._separated_peak(cs) with data.eni.model.separable as s`
	separated := prepare(fmt.Sprintf(row, "data.eni.model.separable_windows(v)"))
	windows := prepare(fmt.Sprintf(row, `object.remove(data.eni.model.separable_windows(v), {"ramp", "fall"})`))
	return &bound{q, separated, windows}, failed
}

func optional(v int) any {
	if v < 0 {
		return nil
	}
	return v
}

// view is the numbers view (policies/lib/terminated.rego, numbers_view) of a workload.
func view(w Workload) map[string]any {
	var completions any = w.Completions
	if w.Completions == 0 {
		completions = nil
	}
	v := map[string]any{
		"kind": "Job",
		"job": map[string]any{
			"parallelism": max(1, w.Parallelism), "completions": completions, "backoffLimit": w.BackoffLimit,
			"backoffLimitPerIndex": nil, "completionMode": "NonIndexed", "suspend": false,
			"ttlSecondsAfterFinished": optional(w.TTL), "activeDeadlineSeconds": optional(w.Deadline),
			"manualSelector": false, "managedBy": "kubernetes.io/job-controller",
			"podFailurePolicyIgnore": false, "restartPolicy": restartPolicy(w), "defaulted": []any{},
			"terminationGracePeriodSeconds": max(30, w.Grace), "podActiveDeadlineSeconds": nil,
		},
		"cronJob": nil, "replicas": 0, "jobSpecPath": "spec", "podPath": "spec.template",
		"pod": map[string]any{"restartPolicy": restartPolicy(w)},
	}
	if w.CronJob && w.Schedule != "" {
		defer func() {
			v["cronJob"].(map[string]any)["runSpans"] = inventory.RunSpans(w.Schedule, "")
			v["cronJob"].(map[string]any)["evenGaps"] = inventory.EvenGaps(w.Schedule, w.Timezone)
		}()
	}
	if w.CronJob {
		v["kind"] = "CronJob"
		v["jobSpecPath"] = "spec.jobTemplate.spec"
		v["cronJob"] = map[string]any{
			"schedule": "", "periodSeconds": w.Period, "concurrencyPolicy": w.Policy,
			"successfulJobsHistoryLimit": w.SuccessfulHistory, "failedJobsHistoryLimit": w.FailedHistory,
			"suspend": false, "defaulted": []any{}, "startingDeadlineSeconds": optional(w.StartingDeadline),
		}
		if w.Schedule == "" && evenlySpaced(w.Times, w.Period) {
			// Times one period apart: runs of a schedule whose every gap is the period, some of
			// them not played (as if suspended).
			v["cronJob"].(map[string]any)["evenGaps"] = true
		}
		if w.Schedule == "" && w.Times == nil {
			// The simulator draws gaps of at least Period, some longer: an irregular schedule
			// whose shortest span over k runs is k·Period, as the loader would list it.
			spans := make([]any, 32)
			for k := range spans {
				spans[k] = (k + 1) * w.Period
			}
			v["cronJob"].(map[string]any)["runSpans"] = spans
		}
	}
	if w.Spark {
		// A ScheduledSparkApplication's driver, as the loader reads it.
		v["kind"] = "ScheduledSparkApplication"
		v["spark"] = map[string]any{"role": "driver", "restartPolicy": "Never"}
	}
	if w.KEDA {
		v["kind"] = "ScaledJob"
		v["jobSpecPath"] = "spec.jobTargetRef"
		v["scaledJob"] = map[string]any{
			"maxReplicaCount": w.MaxJobs, "successfulJobsHistoryLimit": w.SuccessfulHistory,
			"failedJobsHistoryLimit": w.FailedHistory, "pollingInterval": w.Poll,
			"scalingStrategy": "default", "runningJobPercentage": nil,
		}
	}
	return v
}

// evenlySpaced reports whether times are at least two, each period after the one before.
func evenlySpaced(times []int, period int) bool {
	for i := 1; i < len(times); i++ {
		if times[i]-times[i-1] != period {
			return false
		}
	}
	return len(times) > 1 && period > 0
}

func release(m Model) string {
	if m.OnDelete {
		return "onDelete"
	}
	return "onCompletion"
}

func restartPolicy(w Workload) string {
	if w.OnFailure {
		return "OnFailure"
	}
	return "Never"
}

func (b *bound) held(t testing.TB, w Workload, m Model) int {
	input := map[string]any{
		"settings": map[string]any{"eniRelease": release(m), "cooldownSeconds": m.Window - 30, "windowSeconds": m.Window, "disruptions": m.Disruptions},
		"w":        view(w),
	}
	rs, err := b.q.Eval(context.Background(), rego.EvalParsedInput(mustValue(t, input)))
	if err != nil || len(rs) != 1 {
		t.Fatalf("evaluating %+v: %v (%d results)", w, err, len(rs))
	}
	n := rs[0].Bindings["x"].(map[string]any)
	h, err := n["held"].(interface{ Int64() (int64, error) }).Int64()
	if err != nil {
		t.Fatal(err)
	}
	return int(h)
}

func mustValue(t testing.TB, v any) ast.Value {
	val, err := ast.InterfaceToValue(v)
	if err != nil {
		t.Fatal(err)
	}
	return val
}

// randomWorkload draws a Job or CronJob the simulator plays: one pod at a time, completions 1
// (a chain), a work queue, or 2-3 completions (counted without the back-off), a quarter of
// them with pods in parallel.
func randomWorkload(rng *rand.Rand) Workload {
	w := Workload{
		CronJob:      rng.IntN(4) != 0,
		Completions:  []int{1, 1, 1, 0, 2, 3}[rng.IntN(6)],
		BackoffLimit: rng.IntN(8),
		TTL:          []int{-1, -1, 0, 10, 60, 100, 300, 900}[rng.IntN(8)],
		Deadline:     -1,
		Period:       []int{60, 120, 300, 600, 3600}[rng.IntN(5)],
		Policy:       []string{"Forbid", "Forbid", "Replace", "Allow"}[rng.IntN(4)],
	}
	w.SuccessfulHistory, w.FailedHistory = rng.IntN(4), rng.IntN(3)
	w.StartingDeadline = []int{-1, -1, -1, 0, 10, 100, 3600}[rng.IntN(7)]
	if w.Policy == "Allow" || rng.IntN(3) == 0 {
		w.Deadline = []int{30, 100, 300, 900}[rng.IntN(4)]
	}
	// Mostly the default grace period; sometimes one longer than the period or the deadline.
	w.Grace = []int{0, 0, 0, 0, 10, 90, 120, 600, 3600}[rng.IntN(9)]
	w.OnFailure = rng.IntN(4) == 0
	if rng.IntN(4) == 0 {
		// Pods in parallel (counted without the back-off: every run's T at once).
		w.Parallelism = []int{2, 3, 5}[rng.IntN(3)]
	}
	if w.CronJob && rng.IntN(3) == 0 {
		// A regular schedule: every gap is Period (no runSpans in the model's input).
		w.Times = everyPeriod(w.Period, 12*max(w.Period, 300))
	}
	return w
}

func randomAdversary(rng *rand.Rand, w Workload) Adversary {
	scale := []int{0, 5, 30, 120, 2 * w.Period, 2 * w.stop()}[rng.IntN(6)]
	latency := []int{0, 0, 5, 60}[rng.IntN(4)]
	return Adversary{
		MaxRun: scale, MaxLag: []int{0, 0, 10, 60}[rng.IntN(4)], MaxLatency: latency,
		Horizon: 12 * max(w.Period, 300), FailShare: []float64{0.5, 0.8, 0.95, 1}[rng.IntN(4)],
	}
}

// TestBoundIsNeverBelowTheSimulation is the soundness property: for random workloads and
// adversaries, no simulated trajectory holds more ENIs at once than the model's bound. Seeded,
// so a failure reproduces; -sim.long searches longer.
func TestBoundIsNeverBelowTheSimulation(t *testing.T) {
	workloads, trajectories := testtool.Size(150, 1500), 40
	if *long {
		workloads, trajectories = 20000, 400
	}
	checkBoundsHold(t, randomWorkload, workloads, trajectories, rand.New(rand.NewPCG(14, 2026)))
}

// checkBoundsHold plays workloads drawn by next, each under both release models and two
// windows with trajectories random adversaries, and fails at the first trajectory that holds
// more ENIs at once than the model's bound.
func checkBoundsHold(t *testing.T, next func(*rand.Rand) Workload, workloads, trajectories int, rng *rand.Rand) {
	b := newBound(t)
	for i := range workloads {
		w := next(rng)
		for _, m := range []Model{{OnDelete: true, Window: 90}, {OnDelete: false, Window: 90}, {OnDelete: true, Window: 60}, {OnDelete: false, Window: 60}} {
			limit := b.held(t, w, m)
			for range trajectories {
				a := randomAdversary(rng, w)
				if got := Peak(w, m, a, rng); got > limit {
					t.Fatalf("workload %d %+v under %+v, adversary %+v: simulated %d pods holding at once, bound %d", i, w, m, a, got, limit)
				}
			}
		}
	}
}

// TestOnDeleteIsTheWorstCase: the onDelete bound is never below the onCompletion one.
func TestOnDeleteIsTheWorstCase(t *testing.T) {
	b := newBound(t)
	rng := rand.New(rand.NewPCG(6, 1))
	for range testtool.Size(300, 3000) {
		w := randomWorkload(rng)
		del, comp := b.held(t, w, Model{OnDelete: true, Window: 90}), b.held(t, w, Model{Window: 90})
		if del < comp {
			t.Fatalf("%+v: onDelete %d < onCompletion %d", w, del, comp)
		}
	}
}

// TestSeedPeakIsReached: the seed CronJob with a 60 s TTL reaches the bound the report shows,
// through the catch-up of a skipped schedule time (docs/model.md §5a).
func TestSeedPeakIsReached(t *testing.T) {
	seed := Workload{CronJob: true, Completions: 1, BackoffLimit: 6, TTL: 60, Deadline: -1, Period: 300, Policy: "Forbid", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1}
	m := Model{OnDelete: true, Window: 90}
	b := newBound(t)
	if got := b.held(t, seed, m); got != 15 {
		t.Fatalf("bound %d, want 15", got)
	}
	if got := seedTrajectory(); got != 15 {
		t.Fatalf("the hand-built trajectory reaches %d, want 15", got)
	}
}

// TestSeedWithoutTTLReachesTheBound: the seed CronJob without a TTL reaches its bound, 41, by
// a hand-built trajectory the random search rarely finds: four finished Jobs of 7 pods kept,
// two older ones deleted by the history limits within the last 90 s (still in cool-down),
// the run that finished 90 s ago, and two runs started since (3 pods each).
func TestSeedWithoutTTLReachesTheBound(t *testing.T) {
	seed := Workload{CronJob: true, Completions: 1, BackoffLimit: 6, TTL: -1, Deadline: -1, Period: 300, Policy: "Forbid", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1}
	if got := newBound(t).held(t, seed, Model{OnDelete: true, Window: 90}); got != 41 {
		t.Fatalf("bound %d, want 41", got)
	}
	s := &sim{w: seed, m: Model{OnDelete: true, Window: 90}}
	seven := func(start int) []int { // six failures and a success, back-off apart
		return []int{start, start + 10, start + 30, start + 70, start + 150, start + 310, start + 630}
	}
	mk := func(created []int, finish int, failed bool) *run {
		r := &run{start: created[0], finish: finish, failed: failed, deletedAt: -1}
		for _, c := range created {
			r.pods = append(r.pods, &pod{created: c, ended: c, release: -1})
		}
		r.pods[len(r.pods)-1].ended = finish
		return r
	}
	s.runs = []*run{
		mk(seven(1000), 1630, false), // deleted when r1 finishes
		mk(seven(3000), 3630, false), // deleted when r2 finishes
		mk(seven(5000), 5630, false),
		mk(seven(7000), 7630, true),
		mk(seven(9280), 9910, false),              // r1: skipped the 9630 time, finishes 90 s before x = 10000
		mk([]int{9910, 9920, 9940}, 9940, false),  // r2: the 9630 time, caught up
		mk([]int{9940, 9950, 9970}, 20000, false), // r3: the 9930 time, caught up; in flight
	}
	s.history()
	s.releaseAll()
	if got := s.peak(); got != 41 {
		t.Fatalf("the hand-built trajectory reaches %d, want 41", got)
	}
}

// seedTrajectory builds the trajectory of docs/model.md §5a by hand: a 7-pod run ends at 599,
// the run for the skipped 300 s time starts at once and fails 3 pods then succeeds (599-669),
// the run for 600 starts at 669 and has 4 pods by 739; at 749 all 15 hold.
func seedTrajectory() int {
	s := &sim{w: Workload{CronJob: true, TTL: 60, SuccessfulHistory: 3, FailedHistory: 1}, m: Model{OnDelete: true, Window: 90}}
	mk := func(start int, created []int, finish int, failed bool) *run {
		r := &run{start: start, finish: finish, failed: failed, deletedAt: -1}
		for _, c := range created {
			r.pods = append(r.pods, &pod{created: c, ended: c, release: -1})
		}
		r.pods[len(r.pods)-1].ended = finish
		return r
	}
	s.runs = []*run{
		mk(-31, []int{-31, -21, -1, 39, 119, 279, 599}, 599, true),
		mk(599, []int{599, 609, 629, 669}, 669, false),
		mk(669, []int{669, 679, 699, 739}, 2000, false),
	}
	s.history()
	s.releaseAll()
	return s.peak()
}

// TestTightness prints, for the scenarios of the model's worked examples, the bound and the
// best peak the search finds (run with -v; -sim.long searches longer).
func TestTightness(t *testing.T) {
	b := newBound(t)
	scenarios := map[string]Workload{
		"seed CronJob":                 {CronJob: true, Completions: 1, BackoffLimit: 6, TTL: -1, Deadline: -1, Period: 300, Policy: "Forbid", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1},
		"seed CronJob, TTL 60":         {CronJob: true, Completions: 1, BackoffLimit: 6, TTL: 60, Deadline: -1, Period: 300, Policy: "Forbid", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1},
		"seed CronJob, TTL 60, B 2":    {CronJob: true, Completions: 1, BackoffLimit: 2, TTL: 60, Deadline: -1, Period: 300, Policy: "Forbid", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1},
		"Job, completions 3":           {Completions: 3, BackoffLimit: 6, TTL: -1, Deadline: -1},
		"Job, completions 1, TTL 60":   {Completions: 1, BackoffLimit: 6, TTL: 60, Deadline: -1},
		"hourly Allow, deadline 900 s": {CronJob: true, Completions: 1, BackoffLimit: 3, TTL: 300, Deadline: 900, Period: 3600, Policy: "Allow", SuccessfulHistory: 3, FailedHistory: 1, StartingDeadline: -1},
	}
	tries := testtool.Size(1000, 3000)
	if *long {
		tries = 100000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, w := range scenarios {
		for _, m := range []Model{{OnDelete: true, Window: 90}, {Window: 90}} {
			best := 0
			for range tries {
				best = max(best, Peak(w, m, randomAdversary(rng, w), rng))
			}
			t.Log(fmt.Sprintf("%-30s onDelete=%-5v bound %3d, best simulated %3d", name, m.OnDelete, b.held(t, w, m), best))
		}
	}
}

// separatedPeak is the row's figure for CronJobs whose runs a schedule separates
// (policies/lib/overlap.rego, _separated_peak), from their numbers views.
func (b *bound) separatedPeak(t testing.TB, ws []Workload, m Model) int {
	return b.peak(t, b.separated, ws, m)
}

// windowsPeak is separatedPeak by the busy windows alone: the CronJobs it counts at less than
// their sum are those whose windows never meet.
func (b *bound) windowsPeak(t testing.TB, ws []Workload, m Model) int {
	return b.peak(t, b.windows, ws, m)
}

func (b *bound) peak(t testing.TB, q rego.PreparedEvalQuery, ws []Workload, m Model) int {
	views := map[string]any{}
	for i, w := range ws {
		v := view(w)
		v["cronJob"].(map[string]any)["weekTimes"] = w.Times
		views[fmt.Sprint(i)] = v
	}
	input := map[string]any{
		"settings": map[string]any{"eniRelease": release(m), "cooldownSeconds": m.Window - 30, "windowSeconds": m.Window, "disruptions": m.Disruptions},
		"views":    views,
	}
	rs, err := q.Eval(context.Background(), rego.EvalParsedInput(mustValue(t, input)))
	if err != nil || len(rs) != 1 {
		t.Fatalf("evaluating %+v: %v (%d results)", ws, err, len(rs))
	}
	h, err := rs[0].Bindings["x"].(interface{ Int64() (int64, error) }).Int64()
	if err != nil {
		t.Fatal(err)
	}
	return int(h)
}

// dailyCronJobs draws n daily CronJobs with deadlines, each run within half an hour of
// midnight (10 s apart), over three days.
func dailyCronJobs(rng *rand.Rand, n int) []Workload {
	return dailyCronJobsWithin(rng, n, 180)
}

// dailyCronJobsWithin draws them within spread·10 s of midnight.
func dailyCronJobsWithin(rng *rand.Rand, n, spread int) []Workload {
	ws := make([]Workload, n)
	for i := range ws {
		w := randomWorkload(rng)
		w.CronJob, w.Period = true, 86400
		w.Deadline = []int{30, 100, 300, 900}[rng.IntN(4)]
		at := rng.IntN(spread) * 10
		w.Times = []int{at, at + 86400, at + 2*86400}
		ws[i] = w
	}
	return ws
}

// TestSeparatedSchedulesNeverOverlapMore is the soundness property of the schedule separation:
// a few daily CronJobs with deadlines at random times near midnight, played on one node for
// three days with runs started at their times, never hold more at once than the row's figure,
// ramps included.
func TestSeparatedSchedulesNeverOverlapMore(t *testing.T) {
	b := newBound(t)
	cases, trajectories := testtool.Size(40, 300), 30
	if *long {
		cases, trajectories = 5000, 300
	}
	rng := rand.New(rand.NewPCG(3, 14))
	for i := range cases {
		// Under onDelete only CronJobs with a TTL are separable; the others count in full.
		m := Model{Window: 90, OnDelete: i%2 == 1}
		ws := dailyCronJobs(rng, 2+rng.IntN(3))
		limit := b.separatedPeak(t, ws, m)
		neverAboveOverDays(t, rng, ws, m, limit, trajectories)
	}

}

// neverAboveOverDays plays the workloads together for three days, runs started at their times,
// and fails when a trajectory holds more than limit at once. The first trajectory is the most
// hostile (pods fail as they start, as early as the back-off allows: what the ramps are made
// of), the others random.
func neverAboveOverDays(t *testing.T, rng *rand.Rand, ws []Workload, m Model, limit, trajectories int) {
	t.Helper()
	for n := range trajectories {
		a := randomAdversary(rng, ws[0])
		if n == 0 {
			// Stronger than a witness's hostile start: pods that end within the second they
			// start, the 6-minute back-off cap.
			a = Adversary{FailShare: 1}
		}
		a.StartLatency, a.Horizon = 0, 3*86400
		if got := PeakAll(ws, m, a, rng); got > limit {
			t.Fatalf("%+v: simulated %d pods holding at once, the row counts %d", ws, got, limit)
		}
	}
}

// TestRampsAreSound plays CronJobs whose ramps decide the row's peak: daily, a single chain
// of pods, deadlines and start times a few minutes apart, so that one's window ends while
// another still creates its pods. No trajectory holds more than the row's figure, including
// the ones whose pods fail as they start and come as early as the back-off allows, which the
// ramps are made of (a ramp one pod short fails here).
func TestRampsAreSound(t *testing.T) {
	b := newBound(t)
	cases, trajectories := testtool.Size(32, 150), 20
	if *long {
		cases, trajectories = 2000, 200
	}
	// The cases have their own source, so that what the simulator draws while playing them
	// does not change which cases are made.
	rng, play := rand.New(rand.NewPCG(17, 4)), rand.New(rand.NewPCG(17, 5))
	ramped := 0
	for i := range cases {
		m := Model{Window: 90, OnDelete: i%2 == 1}
		ws := dailyCronJobsWithin(rng, 2+rng.IntN(4), 40)
		for j := range ws {
			ws[j].Completions = []int{0, 1}[rng.IntN(2)]
			ws[j].Deadline = 30 + 10*rng.IntN(60)
			ws[j].TTL = []int{0, 10, 60, 300}[rng.IntN(4)]
			ws[j].Grace = []int{0, 0, 0, 90}[rng.IntN(4)]
		}
		limit := b.separatedPeak(t, ws, m)
		if limit < b.windowsPeak(t, ws, m) {
			ramped++
		}
		neverAboveOverDays(t, play, ws, m, limit, trajectories)
	}
	if ramped < cases/8 {
		t.Fatalf("the ramps lower only %d of %d peaks: the test does not exercise them", ramped, cases)
	}
}

// TestSeparatedPairsNeverOverlap checks the separation itself: whenever the busy windows alone
// count two CronJobs at less than their sum, no trajectory has pods of both holding at the same
// second. (The ramps lower a peak further without keeping the pods apart.)
func TestSeparatedPairsNeverOverlap(t *testing.T) {
	b := newBound(t)
	cases, trajectories := testtool.Size(60, 400), 40
	if *long {
		cases, trajectories = 5000, 400
	}
	rng := rand.New(rand.NewPCG(9, 9))
	separated := 0
	for i := range cases {
		m := Model{Window: 90, OnDelete: i%2 == 1}
		ws := dailyCronJobs(rng, 2)
		sum := b.held(t, ws[0], m) + b.held(t, ws[1], m)
		if b.windowsPeak(t, ws, m) >= sum {
			continue
		}
		separated++
		for range trajectories {
			a := randomAdversary(rng, ws[0])
			a.StartLatency, a.Horizon, a.MaxRun = 0, 3*86400, []int{0, 60, 1000, 100000}[rng.IntN(4)]
			if Overlap(ws[0], ws[1], m, a, rng) {
				t.Fatalf("%+v and %+v are counted apart, but their pods hold at the same time", ws[0], ws[1])
			}
		}
	}
	if separated < cases/4 {
		t.Fatalf("only %d of %d pairs were separated: the test does not exercise the separation", separated, cases)
	}
}

// TestIrregularSchedulesAreSound: for schedules whose gaps differ (the model then counts runs
// in a window from their real times, runSpans), trajectories played at those times never hold
// more than the bound.
func TestIrregularSchedulesAreSound(t *testing.T) {
	b := newBound(t)
	schedules := []string{"0 1,2 * * *", "0,10 * * * *", "*/20 8-9 * * *", "0 3 * * 1-5", "5,10,50 * * * *", "0 0,6,7 * * *"}
	workloads, trajectories := testtool.Size(30, 200), 30
	if *long {
		workloads, trajectories = 3000, 200
	}
	rng := rand.New(rand.NewPCG(21, 12))
	tighter := 0
	defer func() {
		// The test must exercise the real times: some of the bounds have to depend on them
		// (6 of 60 with this seed, 46 of 400 with -tags slow).
		if tighter < workloads/25 {
			t.Errorf("only %d of %d bounds are tighter for the real times", tighter, 2*workloads)
		}
	}()
	for range workloads {
		w := randomWorkload(rng)
		w.CronJob, w.Schedule = true, schedules[rng.IntN(len(schedules))]
		if rng.IntN(2) == 0 {
			// Windows long enough to hold several of the real times: since the stops of
			// Kubernetes before 1.31 are no longer counted, a TTL is what makes them so.
			w.TTL = []int{1800, 3600, 7200}[rng.IntN(3)]
		}
		p, err := inventory.ShortestGap(w.Schedule, "")
		if err != nil {
			t.Fatal(err)
		}
		w.Period = p
		horizon := 3 * 86400
		w.Times = inventory.ScheduleTimes(w.Schedule, "", horizon, 1000)
		for _, m := range []Model{{OnDelete: true, Window: 90}, {Window: 90}} {
			limit := b.held(t, w, m)
			regular := w
			regular.Schedule = ""
			if limit < b.held(t, regular, m) {
				tighter++
			}
			for range trajectories {
				a := randomAdversary(rng, w)
				a.Horizon = horizon
				if got := Peak(w, m, a, rng); got > limit {
					t.Fatalf("%+v under %+v, adversary %+v: simulated %d pods holding at once, bound %d", w, m, a, got, limit)
				}
			}
		}
	}
}

// randomOperatorWorkload draws a workload another controller runs: a KEDA ScaledJob (Jobs of
// the template at each poll, up to maxReplicaCount alive, the clean-up after) or a
// ScheduledSparkApplication's driver (the Spark operator's schedule and history).
func randomOperatorWorkload(rng *rand.Rand) Workload {
	w := Workload{
		Completions: 1, Parallelism: 1, BackoffLimit: rng.IntN(4), Deadline: -1, StartingDeadline: -1, Start: -1,
		TTL: []int{-1, -1, 0, 10, 30, 60, 100, 300}[rng.IntN(8)], Grace: 30,
	}
	w.SuccessfulHistory, w.FailedHistory = rng.IntN(6), rng.IntN(4)
	if rng.IntN(2) == 0 {
		w.KEDA, w.Poll, w.MaxJobs = true, []int{10, 15, 30, 30, 60, 120}[rng.IntN(6)], 1+rng.IntN(5)
		w.Period = w.Poll
		if rng.IntN(3) == 0 {
			w.Completions, w.Parallelism = 1+rng.IntN(3), 1+rng.IntN(2)
		}
		return w
	}
	w.CronJob, w.Spark, w.BackoffLimit = true, true, 0
	w.Period = []int{60, 120, 300, 900}[rng.IntN(4)]
	w.Policy = []string{"Forbid", "Forbid", "Replace", "Allow"}[rng.IntN(4)]
	if w.Policy == "Allow" {
		w.Deadline = []int{30, 100, 300}[rng.IntN(3)]
	}
	return w
}

// TestOperatorBoundsAreSound is the soundness property for the workloads other controllers
// run (KEDA ScaledJobs, ScheduledSparkApplication drivers): no simulated trajectory holds more
// ENIs at once than the model's bound.
func TestOperatorBoundsAreSound(t *testing.T) {
	workloads, trajectories := testtool.Size(60, 600), 40
	if *long {
		workloads, trajectories = 4000, 300
	}
	checkBoundsHold(t, randomOperatorWorkload, workloads, trajectories, rand.New(rand.NewPCG(15, 2026)))
}
