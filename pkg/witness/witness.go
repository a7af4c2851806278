// Package witness finds, for every ENI001, a trajectory of the controllers that reaches the
// demand the finding reports: the Job and CronJob contributors are played together on one node
// by the simulator (pkg/simulate) at their schedule's real times, and a bounded,
// deterministic search keeps the trajectory that holds the most ENIs at one second. The finding
// then carries it (findings.Witness); where it stays below the bound, the reporters say by how
// much. It reads the findings and the inventory and writes nothing but the findings' Witness.
package witness

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/simulate"
)

// Budget bounds the search, so that a pull request cannot make it slow: the searches (findings
// whose played contributors are the same share one), the pod-plays (pods created, summed over
// every trajectory) per search and in the whole run.
type Budget struct {
	Searches int
	PodPlays int
	// TotalPodPlays bounds the run: a search that would pass it is not made.
	TotalPodPlays int
	// MaxPlays caps the trajectories per search; MinPlays is tried even when pods are many.
	MaxPlays, MinPlays int
}

// DefaultBudget plays at most 20,000 trajectories and 1.5 million pods per search, 10 searches
// and 4 million pods in a run. A search stops as soon as a trajectory reaches the bound (the
// seed CronJob's does within a tenth of a second, most often).
var DefaultBudget = Budget{Searches: 10, PodPlays: 1_500_000, TotalPodPlays: 4_000_000, MaxPlays: 20000, MinPlays: 200}

// Share is the budget of one of n evaluations of a run (clusters evaluated at once): the run's
// searches and pods split evenly, so that a run's witness work does not grow with its clusters
// and each cluster's report stays the same from run to run.
func (b Budget) Share(n int) Budget {
	if n <= 1 {
		return b
	}
	b.Searches = max(1, b.Searches/n)
	b.TotalPodPlays /= n
	b.PodPlays = min(b.PodPlays, b.TotalPodPlays)
	return b
}

// Horizons: long enough for a schedule's history to fill (16 periods of the slowest CronJob),
// never below an hour nor above 8 days, and at most this many runs of one CronJob.
const (
	minHorizon = 3600
	maxHorizon = 8 * 24 * 3600
	maxRuns    = 400
)

// Attach searches a witness for each ENI001 finding (in order, up to the budget) and sets it.
// Which searches are made, and with what budget, is decided in the findings' order; the
// searches themselves then run at once, one per core, and the witnesses are written in order:
// a report is the same whatever the cores.
func Attach(fs []findings.Finding, inv *inventory.Inventory, b Budget) {
	byID := make(map[string]*inventory.Workload, len(inv.Workloads))
	for i := range inv.Workloads {
		byID[inv.Workloads[i].ID] = &inv.Workloads[i]
	}
	s := &searcher{b: b, byID: byID, release: inv.Settings.ENIRelease, done: map[string]*search{},
		m: simulate.Model{OnDelete: inv.Settings.ENIRelease.OnDelete(), Window: inv.Settings.WindowSeconds, Disruptions: inv.Settings.Disruptions}}
	var plans []*plan
	for i := range fs {
		if fs[i].Rule != "ENI001" || fs[i].Details == nil {
			continue
		}
		plans = append(plans, s.plan(&fs[i]))
		// The unlisted contributors are passed for the search alone: the report lists the
		// contributors that hold the most, and counts the others.
		delete(fs[i].Details, "unlistedContributors")
	}
	s.run()
	for _, p := range plans {
		p.f.Witness = s.finish(p)
	}
}

// search is one trajectory search that findings with the same played contributors share.
type search struct {
	played  []simulate.Workload
	horizon int
	plays   int
	target  int
	// limit is what the node admits running: the smallest of the findings that share the
	// search, so that its trajectory is one each of their nodes allows.
	limit  simulate.Limit
	seed   uint64
	result simulate.Trajectory
	// trajectory is the result as the report writes it, made by the first finding that
	// shows it; held is what each played workload holds at its peak.
	trajectory *findings.WitnessTrajectory
	held       []int
}

// run makes the searches planned, at most one per core at a time.
func (s *searcher) run() {
	fanout.Each(len(s.order), 0, func(i int) {
		x := s.done[s.order[i]]
		x.result = memo.search(x, s.m)
		x.result.Plays = x.plays
	})
}

// searcher keeps the run's budget and the searches made: the rows of several node groups (or
// instance types) that the same workloads exceed share one trajectory.
type searcher struct {
	b        Budget
	byID     map[string]*inventory.Workload
	m        simulate.Model
	release  inventory.Release
	searches int
	podPlays int
	// done holds the searches planned, by their played contributors; order is the order they
	// were planned in.
	done  map[string]*search
	order []string
}

type contributor struct {
	id           string
	held, active int
}

// plan is one finding's witness as far as it can be written before the searches run.
type plan struct {
	f             *findings.Finding
	w             *findings.Witness
	ids           []string
	key           string
	notPlayedHeld int
	bound         int
	limit         simulate.Limit
	// final: the witness is complete (nothing played, or no budget left).
	final bool
}

func (s *searcher) plan(f *findings.Finding) *plan {
	d, _ := f.Exceed()
	bound, capacity, others := d.Demand, d.BranchInterfaces, d.OtherContributors
	w := &findings.Witness{
		ENIRelease: s.release, Bound: bound, BranchInterfaces: capacity,
		Start: inventory.ScheduleStart.Format("2006-01-02T15:04:05Z"), OtherContributors: others,
		Played: []findings.WitnessWorkload{},
	}
	played, ids, notPlayedHeld, notPlayedActive := s.sortContributors(d, w)
	// The scheduler binds a pod while the running pods request fewer branch ENIs than the node
	// has: the workloads not played have their running pods (replicas) there at the peak, and
	// the trajectory takes them to start then (a rollout, a scale-up), after the played pods
	// that had to run before.
	w.RunningLimit = max(0, capacity-notPlayedActive)
	p := &plan{f: f, w: w, ids: ids, notPlayedHeld: notPlayedHeld, bound: bound, limit: simulate.Limit{Running: capacity, AtPeak: w.RunningLimit}}
	if len(played) == 0 {
		// Nothing was played: figures counted by the model are no trajectory, so the witness
		// claims none.
		var why []string
		for _, n := range w.NotPlayed {
			why = append(why, plainName(n.ID)+" ("+strings.TrimSuffix(n.Reason, ": counted at its figure, not played")+")")
		}
		w.NotSearched = "no timeline could be built for " + strings.Join(why, ", ") + "; the figure is the model's count"
		p.final = true
		return p
	}
	played, horizon := scheduled(played)
	p.key = strings.Join(ids, "\x00")
	if x, ok := s.done[p.key]; ok {
		x.limit = simulate.Limit{Running: min(x.limit.Running, p.limit.Running), AtPeak: min(x.limit.AtPeak, p.limit.AtPeak)}
	} else {
		plays, pods := playsFor(played, s.m, horizon, s.b)
		if w.OtherContributors > 0 {
			// Contributors neither played nor counted: no trajectory of this search reaches the
			// bound, so it cannot tell how tight the bound is, only that the node is exceeded and
			// by at least how much; the smallest budget shows that. A full one spent 0.16 s of a
			// 1 s run on the bench's pull-request tree for a few ENIs more (530 of 13,302).
			plays = min(plays, s.b.MinPlays)
		}
		if s.searches == s.b.Searches || s.podPlays+plays*pods > s.b.TotalPodPlays {
			w.NotSearched = fmt.Sprintf("not searched: the run's witness budget (%d searches, %d pod-plays) is spent", s.b.Searches, s.b.TotalPodPlays)
			w.Reached = 0
			p.final = true
			return p
		}
		s.searches++
		s.podPlays += plays * pods
		// Seeded by the workloads, so a report is the same from run to run.
		h := fnv.New64a()
		h.Write([]byte(p.key))
		s.done[p.key] = &search{played: played, horizon: horizon, plays: plays, target: max(1, bound-notPlayedHeld), limit: p.limit, seed: h.Sum64()}
		s.order = append(s.order, p.key)
	}
	return p
}

// sortContributors sorts a finding's contributors into those the simulator plays (their
// simulator form and ids) and those counted at their figures (w.NotPlayed, with what they hold
// and run at the peak).
func (s *searcher) sortContributors(d findings.ExceedDetails, w *findings.Witness) (played []simulate.Workload, ids []string, notPlayedHeld, notPlayedActive int) {
	unlisted := contributors(d.UnlistedContributors)
	w.OtherContributors = max(0, w.OtherContributors-len(unlisted)) // those are played or named below
	for _, c := range append(contributors(d.Contributors), unlisted...) {
		iw := s.byID[c.id]
		if iw == nil {
			w.NotPlayed = append(w.NotPlayed, findings.WitnessWorkload{ID: c.id, HeldAtPeak: c.held, Reason: "not in this cluster's inventory"})
			notPlayedHeld += c.held
			notPlayedActive += c.active
			continue
		}
		sw, why := simulate.FromInventory(*iw)
		if why != "" {
			// Counted as the model counts it: every pod it may hold exists at once (a running
			// replica, a finished bare pod) or, for shapes the simulator does not play, the count.
			w.NotPlayed = append(w.NotPlayed, findings.WitnessWorkload{ID: c.id, HeldAtPeak: c.held, Reason: why + ": counted at its figure, not played"})
			notPlayedHeld += c.held
			notPlayedActive += c.active
			continue
		}
		if iw.CronJob != nil && iw.CronJob.Suspend {
			// The bound counts a suspended CronJob (it can be resumed, or run by hand): the
			// trajectory plays it, and says so.
			w.Assumes = append(w.Assumes, plainName(c.id)+" is resumed (it has spec.suspend: true, and starts no run until then)")
		}
		played = append(played, sw)
		ids = append(ids, c.id)
	}
	return played, ids, notPlayedHeld, notPlayedActive
}

// scheduled is the horizon the search plays, and the played CronJobs with their schedule
// times over it.
func scheduled(played []simulate.Workload) ([]simulate.Workload, int) {
	horizon := minHorizon
	for _, sw := range played {
		horizon = max(horizon, 16*sw.Period)
		if sw.CronJob && sw.Schedule != "" {
			// A schedule that first fires late in the week (*/5 9-17 * * 1-5: Monday 09:00) is
			// played from its first times on, not from a window that holds none of them.
			if first := inventory.ScheduleTimes(sw.Schedule, sw.Timezone, maxHorizon, 1); len(first) == 1 {
				horizon = max(horizon, first[0]+16*sw.Period)
			}
		}
	}
	horizon = min(horizon, maxHorizon)
	for i := range played {
		if !played[i].CronJob {
			continue
		}
		played[i].Times = inventory.ScheduleTimes(played[i].Schedule, played[i].Timezone, horizon, maxRuns)
		if played[i].Times == nil && played[i].Schedule != "" {
			// Runs only at the schedule's real times: none fires in the window, so none is
			// played (the simulator's slots drawn from the period are for schedule-less tests).
			played[i].Times = []int{}
		}
	}
	return played, horizon
}

// finish writes a planned witness from its search's trajectory.
func (s *searcher) finish(p *plan) *findings.Witness {
	w := p.w
	if p.final {
		return w
	}
	x := s.done[p.key]
	t := x.result
	w.Plays, w.At, w.Running, w.RunningAtPeak = t.Plays, t.At, t.Running, t.RunningAtPeak
	if t.Running > w.BranchInterfaces || t.RunningAtPeak > w.RunningLimit {
		// Every trajectory found had more pods running at once than the node admits: none is
		// one the controllers and the scheduler can produce, so none is reported as reached.
		w.NotSearched = fmt.Sprintf("no trajectory found in %d plays keeps at most %d played pods running at once and %d at the peak, as the node admits; the best had %d and %d", t.Plays, w.BranchInterfaces, w.RunningLimit, t.Running, t.RunningAtPeak)
		w.Running, w.RunningAtPeak, w.At = 0, 0, 0
		return w
	}
	if notPlayedActive := w.BranchInterfaces - w.RunningLimit; notPlayedActive > 0 {
		w.Assumes = append(w.Assumes, fmt.Sprintf("the %s of the contributors not played start at the peak (a rollout or a scale-up), leaving room for %d played pods running then", countOf(notPlayedActive, "running pod", "running pods"), w.RunningLimit))
	}
	if x.trajectory == nil {
		x.trajectory, x.held = trajectory(t, p.ids)
	}
	w.Trajectory = x.trajectory
	for i, id := range p.ids {
		w.Played = append(w.Played, findings.WitnessWorkload{ID: id, HeldAtPeak: x.held[i]})
	}
	// What is not played counts only up to the bound (the row caps running pods at B); a
	// played peak above the bound stays visible, as it would be a hole in the model.
	w.Reached = t.Peak + min(p.notPlayedHeld, max(0, p.bound-t.Peak))
	return w
}

// trajectory writes a search's trajectory once for the findings that share it: its runs, its
// events, and what each played workload holds at the peak.
func trajectory(t simulate.Trajectory, ids []string) (*findings.WitnessTrajectory, []int) {
	out := &findings.WitnessTrajectory{Runs: []findings.WitnessRun{}}
	held := make([]int, len(ids))
	for _, r := range t.Runs {
		wr := findings.WitnessRun{Workload: ids[r.Workload], Scheduled: r.Scheduled, Start: r.Start, Finish: r.Finish,
			Failed: r.Failed, Deleted: optional(r.Deleted), DeletedBy: r.DeletedBy, Pods: []findings.WitnessPod{}}
		for _, p := range r.Pods {
			holds := p.HoldsAt(t.At)
			if holds {
				held[r.Workload]++
			}
			wr.Pods = append(wr.Pods, findings.WitnessPod{Created: p.Created, Bound: optional(p.Bound), Ended: p.Ended,
				StatusLag: max(0, p.Ended-p.Finished), Failed: p.Failed,
				Deleted: optional(p.Deleted), Released: optional(p.Released), HoldsAtPeak: holds})
		}
		out.Runs = append(out.Runs, wr)
	}
	out.Events = events(out.Runs, t.At, t.Peak)
	return out, held
}

// playsFor spends the budget: one trajectory tells how many pods a play creates. A step of
// the search replays one workload but merges the hold intervals of all of them.
func playsFor(ws []simulate.Workload, m simulate.Model, horizon int, b Budget) (plays, pods int) {
	for _, r := range simulate.Sample(ws, m, horizon, 0).Runs {
		pods += len(r.Pods)
	}
	// The recorded runs are only those holding at the peak; a play creates more.
	pods = max(pods*4, 1)
	return max(b.MinPlays, min(b.MaxPlays, b.PodPlays/pods)), pods
}

// events lists, in time order, the runs' starts, finishes and deletions, and the peak at at,
// each with the ENIs the played workloads hold right after it.
func events(runs []findings.WitnessRun, at, peak int) []findings.WitnessEvent {
	out := []findings.WitnessEvent{}
	name := func(id string) string {
		if i := strings.IndexByte(id, '@'); i >= 0 {
			return id[:i]
		}
		return id
	}
	for _, r := range runs {
		if strings.HasPrefix(r.Workload, "Pod/") && len(r.Pods) == 1 {
			// A bare pod: no run, no Job; it is created, ends, and nothing deletes it.
			p := r.Pods[0]
			outcome := "succeeds"
			if p.Failed {
				outcome = "fails"
			}
			out = append(out, findings.WitnessEvent{At: p.Created, Workload: r.Workload, Event: name(r.Workload) + ": the pod is created"},
				findings.WitnessEvent{At: p.Ended, Workload: r.Workload, Event: fmt.Sprintf("%s: the pod %s%s", name(r.Workload), outcome, lags(r.Pods))})
			continue
		}
		out = append(out, findings.WitnessEvent{At: r.Start, Workload: r.Workload,
			Event: fmt.Sprintf("%s: the run for %s starts", name(r.Workload), Clock(r.Scheduled))})
		outcome := "succeeds"
		if r.Failed {
			outcome = "fails"
		}
		out = append(out, findings.WitnessEvent{At: r.Finish, Workload: r.Workload,
			Event: fmt.Sprintf("%s: the run for %s %s after %d pods%s", name(r.Workload), Clock(r.Scheduled), outcome, len(r.Pods), lags(r.Pods))})
		if r.Deleted != nil {
			out = append(out, findings.WitnessEvent{At: *r.Deleted, Workload: r.Workload,
				Event: fmt.Sprintf("%s: the Job of the run for %s is deleted (%s)", name(r.Workload), Clock(r.Scheduled), deletedBy(r.DeletedBy))})
		}
	}
	// The peak is the played workloads': a finding's reached adds what it counts for the
	// contributors not played, and its branch ENIs are its node's.
	out = append(out, findings.WitnessEvent{At: at, Event: fmt.Sprintf("the played workloads hold %d branch ENIs", peak)})
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	for i := range out {
		out[i].Held = heldAt(runs, out[i].At)
	}
	return out
}

// lags says what a run's pods assume beyond the controllers' own timing: pods that waited
// Pending for the node to have a branch ENI free, and ends the kubelet reported late.
func lags(pods []findings.WitnessPod) string {
	var pending, late, mostPending, mostLate int
	for _, p := range pods {
		if p.Bound != nil && *p.Bound > p.Created {
			pending++
			mostPending = max(mostPending, *p.Bound-p.Created)
		}
		if p.StatusLag > 0 {
			late++
			mostLate = max(mostLate, p.StatusLag)
		}
	}
	var parts []string
	if pending > 0 {
		parts = append(parts, fmt.Sprintf("%s waited up to %d s to be scheduled", countOf(pending, "pod", "pods"), mostPending))
	}
	if late > 0 {
		parts = append(parts, fmt.Sprintf("the kubelet reported %s up to %d s late", countOf(late, "pod's end", "pods' ends"), mostLate))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// countOf is "1 pod" or "n pods": one and many as written.
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func deletedBy(by string) string {
	switch by {
	case "ttl":
		return "ttlSecondsAfterFinished"
	case "history":
		return "history limit"
	case "replaced":
		return "replaced by the next run"
	}
	return by
}

func heldAt(runs []findings.WitnessRun, t int) int {
	n := 0
	for _, r := range runs {
		for _, p := range r.Pods {
			if p.Bound != nil && *p.Bound <= t && (p.Released == nil || t <= *p.Released) {
				n++
			}
		}
	}
	return n
}

// Clock is a time of the trajectory as the weekday and time of day of the reference week
// (Start is a Monday 00:00 UTC), the way a schedule reads.
func Clock(t int) string {
	return inventory.ScheduleStart.Add(time.Duration(t) * time.Second).Format("Mon 15:04:05")
}

func optional(v int) *int {
	if v < 0 {
		return nil
	}
	return &v
}

func contributors(list []findings.Contributor) []contributor {
	var out []contributor
	for _, c := range list {
		if c.ID != "" {
			out = append(out, contributor{c.ID, c.Held, c.Active})
		}
	}
	return out
}

// plainName is a workload ID as messages name it: "CronJob default/report" for
// "CronJob/default/report@file:line".
func plainName(id string) string {
	id = id[:max(0, strings.IndexByte(id+"@", '@'))]
	kind, rest, ok := strings.Cut(id, "/")
	if !ok {
		return id
	}
	return kind + " " + rest
}
