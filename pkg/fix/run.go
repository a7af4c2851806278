package fix

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Check runs the check with the workspace's files read instead of the disk's, and returns the
// report and the workloads it evaluated.
type Check func(ctx context.Context, overlay map[string][]byte) (*findings.Report, map[string]inventory.Workload, error)

// CollectWorkloads is an analysis.Options.Workloads hook that gathers the workloads by ID.
func CollectWorkloads() (hook func([]inventory.Workload), result func() map[string]inventory.Workload) {
	var mu sync.Mutex
	all := map[string]inventory.Workload{}
	return func(ws []inventory.Workload) {
			mu.Lock()
			defer mu.Unlock()
			for _, w := range ws {
				all[w.ID] = w
			}
		}, func() map[string]inventory.Workload {
			mu.Lock()
			defer mu.Unlock()
			return all
		}
}

// Outcome is what fix did about one finding.
type Outcome struct {
	Finding findings.Finding
	// Fix is the change chosen (nil when the finding offers none that can be written).
	Fix *Fix
	// Written is set when the change is in the files and the check on them no longer has the
	// finding.
	Written bool
	Files   []string
	// Suggestion is what to change by hand, when the change is not written.
	Suggestion string
	// Why the finding stays, when it does.
	Why string
	// ByOthers is set when the finding went away with the changes made for other findings.
	ByOthers bool
	// Placed are the fields written for the fix's workload: the fix's own, merged with other
	// findings' fixes of the same workload (the smallest value of each field).
	Placed []Field
}

// Result is a whole fix run.
type Result struct {
	Outcomes []Outcome
	// Before and After are the check's reports on the files as they were and as fixed.
	Before, After *findings.Report
	Workspace     *Workspace
}

// Run picks a fix for every ENI001, ENI002 and ENI003 finding, places it, checks the result in
// memory, and keeps what made its finding go away without adding one. ENI003's backoffLimits
// come first (one run that cannot fit any node is about that workload alone); then ENI001's
// first remedy, the one every report shows first; then ENI002's TTLs for the workloads still
// without one, with ENI001 again. A node group still exceeded after a round (its fix was
// refused, or a fix elsewhere changed it) gets another, up to three.
func Run(ctx context.Context, check Check, ws *Workspace, order []string) (*Result, error) {
	before, workloads, err := check(ctx, ws.Overlay())
	if err != nil {
		return nil, err
	}
	return RunFrom(ctx, check, ws, order, before, workloads)
}

// RunFrom is Run after the first check: its report and workloads are given (check already
// ran it, for its own report).
func RunFrom(ctx context.Context, check Check, ws *Workspace, order []string, before *findings.Report, workloads map[string]inventory.Workload) (*Result, error) {
	res := &Result{Before: before, After: before, Workspace: ws}
	if len(before.Errors) > 0 {
		return res, nil // a run that could not read everything has no verdict to fix
	}
	current := before
	done := map[string]int{} // identity → index in outcomes
	var outcomes []Outcome
	phases := [][]string{{"ENI003"}, {"ENI001"}, {"ENI001", "ENI002"}, {"ENI001"}}
	for _, rules := range phases {
		var targets []findings.Finding
		for _, f := range current.Findings {
			if f.Suppressed != nil || !slices.Contains(rules, f.Rule) {
				continue
			}
			if i, seen := done[Identity(f)]; !seen || retry(outcomes[i]) {
				targets = append(targets, f)
			}
		}
		if len(targets) == 0 {
			continue
		}
		next, report, nextWorkloads, round, err := fixRound(ctx, check, ws, current, workloads, targets, order)
		if err != nil {
			return nil, err
		}
		for _, o := range round {
			if i, seen := done[Identity(o.Finding)]; seen {
				outcomes[i] = o
			} else {
				done[Identity(o.Finding)] = len(outcomes)
				outcomes = append(outcomes, o)
			}
		}
		if next != nil {
			ws, current, workloads = next, report, nextWorkloads
		}
	}
	remaining := map[string]bool{}
	for _, f := range current.Findings {
		remaining[Identity(f)] = f.Suppressed == nil
	}
	for _, f := range before.Findings {
		if _, seen := done[Identity(f)]; !seen && f.Suppressed == nil && slices.Contains(Rules, f.Rule) && !remaining[Identity(f)] {
			done[Identity(f)] = len(outcomes)
			outcomes = append(outcomes, Outcome{Finding: f, Written: true, ByOthers: true})
		}
	}
	res.After, res.Workspace, res.Outcomes = current, ws, outcomes
	placeAsBefore(res.Outcomes, before)
	return res, nil
}

// placeAsBefore shows each outcome's finding where it was before any fix (a later round saw
// it on lines an earlier fix moved), and sorts them by file, line and rule.
func placeAsBefore(outcomes []Outcome, before *findings.Report) {
	first := map[string]findings.Finding{}
	for _, f := range before.Findings {
		if _, ok := first[Identity(f)]; !ok {
			first[Identity(f)] = f
		}
	}
	for i := range outcomes {
		if f, ok := first[Identity(outcomes[i].Finding)]; ok {
			outcomes[i].Finding = f
		}
	}
	sort.SliceStable(outcomes, func(i, j int) bool {
		a, b := outcomes[i].Finding.Location, outcomes[j].Finding.Location
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return outcomes[i].Finding.Rule < outcomes[j].Finding.Rule
	})
}

// retry: a finding whose written fix did not make it go away may fit after the next round.
func retry(o Outcome) bool {
	return !o.Written && o.Fix != nil && o.Fix.Lever != LeverInstanceType && o.Suggestion == ""
}

// fixRound places one fix per target, checks, and keeps the fixes whose finding went away;
// when some did not, the round is placed again without them. The workspace comes back nil when
// nothing was kept.
func fixRound(ctx context.Context, check Check, ws *Workspace, report *findings.Report, workloads map[string]inventory.Workload,
	targets []findings.Finding, order []string) (*Workspace, *findings.Report, map[string]inventory.Workload, []Outcome, error) {
	outs := chooseFixes(targets, order)
	preferType := len(order) > 0 && order[0] == LeverInstanceType
	skip := map[int]bool{}
	for attempt := 0; attempt < 3; attempt++ {
		cand := place(ws, workloads, outs, skip)
		if preferType {
			cand = placePreferredTypes(cand, report, outs, skip)
		}
		placed := false
		for i := range outs {
			placed = placed || !skip[i] && len(outs[i].Files) > 0 && outs[i].Suggestion == ""
		}
		if !placed {
			return nil, nil, nil, outs, nil
		}
		after, afterWorkloads, err := check(ctx, cand.Overlay())
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if len(after.Errors) > 0 {
			for i := range outs {
				if !skip[i] && len(outs[i].Files) > 0 {
					outs[i].Why = "the changed files do not load: " + after.Errors[0].Message
					skip[i] = true
				}
			}
			continue
		}
		if !judgeRound(report, after, outs, skip) {
			return cand, after, afterWorkloads, outs, nil
		}
		for i := range outs {
			outs[i].Written = false
		}
	}
	return nil, nil, nil, outs, nil
}

// chooseFixes is each target's outcome before placing: the fix to write, or the one shown and
// why it is not written.
func chooseFixes(targets []findings.Finding, order []string) []Outcome {
	outs := make([]Outcome, len(targets))
	for i, f := range targets {
		fixes := FixesOf(f)
		written, shown := Choose(fixes, order)
		outs[i] = Outcome{Finding: f, Fix: written}
		switch {
		case written != nil:
		case shown != nil:
			outs[i].Fix, outs[i].Suggestion = shown, shown.Change
			outs[i].Why = "an instance type is an infrastructure decision: eni-lint shows it and does not write it"
		case len(fixes) == 0:
			outs[i].Why = "no change of one workload resolves it (eni-lint explain " + f.Rule + " shows what to combine)"
		default:
			// Shown, not placed: an Outcome with a Fix would be written by place.
			outs[i].Suggestion, outs[i].Why = fixes[0].Change, whyNotWritten(fixes[0])
		}
	}
	return outs
}

// placePreferredTypes writes the instance-type fixes when --prefer puts that lever first:
// preferred, it is no longer "an infrastructure decision"; it is written where it can be, and
// the suggestion says why where it cannot.
func placePreferredTypes(cand *Workspace, report *findings.Report, outs []Outcome, skip map[int]bool) *Workspace {
	for i := range outs {
		if !skip[i] && outs[i].Fix != nil && outs[i].Fix.Lever == LeverInstanceType {
			scratch := cand.Clone()
			p := placeInstanceType(scratch, report, outs[i].Finding, outs[i].Fix)
			outs[i].Files, outs[i].Suggestion, outs[i].Why = p.Files, p.Suggestion, ""
			if p.Suggestion == "" {
				cand = scratch
			}
		}
	}
	return cand
}

// judgeRound keeps the placed fixes whose finding went away and that add none; the others are
// skipped with the reason. It reports whether one failed (the round is placed again).
func judgeRound(report, after *findings.Report, outs []Outcome, skip map[int]bool) (failed bool) {
	remaining := map[string]bool{}
	for _, f := range after.Findings {
		if f.Suppressed == nil {
			remaining[Identity(f)] = true
		}
	}
	blame := blameNewFindings(report, after, outs)
	for i := range outs {
		if skip[i] || len(outs[i].Files) == 0 || outs[i].Suggestion != "" {
			continue
		}
		switch {
		case len(blame[i]) > 0:
			outs[i].Why = "the change adds a finding: " + strings.Join(blame[i], "; ")
			skip[i], failed = true, true
		case remaining[Identity(outs[i].Finding)]:
			outs[i].Why = "the finding is still there with the change: the model of the changed files does not fit"
			skip[i], failed = true, true
		default:
			outs[i].Written, outs[i].Why = true, ""
		}
	}
	return failed
}

// blameNewFindings: a finding the changes add is blamed on the fixes of its object; one about
// no object that a fix changed is blamed on every fix of the round.
func blameNewFindings(report, after *findings.Report, outs []Outcome) map[int][]string {
	old := map[string]bool{}
	for _, f := range report.Findings {
		old[Identity(f)] = true
	}
	blame := map[int][]string{}
	for _, f := range after.Findings {
		if f.Suppressed != nil || old[Identity(f)] {
			continue
		}
		what := fmt.Sprintf("%s at %s (%s)", f.Rule, at(f.Location), shorten(f.Message, 100))
		mine := false
		for i := range outs {
			if f.Object != nil && outs[i].Fix != nil && objectOf(outs[i].Fix.Workload) == f.Object.Kind+"/"+f.Object.Namespace+"/"+f.Object.Name {
				blame[i], mine = append(blame[i], what), true
			}
		}
		if !mine {
			for i := range outs {
				blame[i] = append(blame[i], what)
			}
		}
	}
	return blame
}

// place puts every chosen fix not skipped into a copy of the workspace. Fixes of one workload
// merge: each field gets the smallest value asked for, which is the safe side of every lever.
// A workload's fields go in together or not at all, and the workloads of a file in reverse
// order of their documents, so that an insertion never moves a document still to be edited.
func place(ws *Workspace, workloads map[string]inventory.Workload, outs []Outcome, skip map[int]bool) *Workspace {
	cand := ws.Clone()
	values := map[string]map[string]int{}
	users := map[string][]int{}
	for i := range outs {
		o := &outs[i]
		if skip[i] || o.Fix == nil || o.Fix.Lever == LeverInstanceType || len(o.Fix.Set) == 0 {
			continue
		}
		o.Files, o.Suggestion = nil, ""
		if values[o.Fix.Workload] == nil {
			values[o.Fix.Workload] = map[string]int{}
		}
		for _, f := range o.Fix.Set {
			if v, ok := values[o.Fix.Workload][f.Path]; !ok || f.Value < v {
				values[o.Fix.Workload][f.Path] = f.Value
			}
		}
		users[o.Fix.Workload] = append(users[o.Fix.Workload], i)
	}
	ids := make([]string, 0, len(values))
	for id := range values {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := workloads[ids[i]].Locations.At(""), workloads[ids[j]].Locations.At("")
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line > b.Line
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		w, ok := workloads[id]
		var p Placement
		if !ok {
			p.Suggestion = "the workload is not in the check of the changed files"
		} else {
			fields := fieldsOf(values[id])
			scratch := cand.Clone()
			p = placeFields(scratch, w, fields)
			if p.Suggestion == "" {
				cand = scratch
			} else {
				p.Files = nil
			}
		}
		for _, i := range users[id] {
			outs[i].Files, outs[i].Suggestion = p.Files, p.Suggestion
			if ok {
				outs[i].Placed = fieldsOf(values[id])
			}
			if p.Suggestion == "" && len(p.Files) == 0 {
				outs[i].Why = "the files already hold this change"
			}
		}
	}
	return cand
}

// whyNotWritten says why fix leaves the first remedy to the person.
func whyNotWritten(f Fix) string {
	switch {
	case len(f.Unwritable) > 0:
		return "eni-lint writes numbers only, not " + strings.Join(f.Unwritable, ", ")
	case takesAway(f) == "backoff":
		return "backoffLimit: 0 retries nothing; eni-lint writes it only with --prefer backoff"
	case takesAway(f) == "history":
		return "a history limit of 0 keeps no finished Job to read; eni-lint writes it only with --prefer history"
	}
	return "none of its fixes is one eni-lint writes"
}

// objectOf is the kind/namespace/name part of a workload ID.
func objectOf(id string) string { return strings.SplitN(id, "@", 2)[0] }

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func fieldsOf(values map[string]int) []Field {
	fields := make([]Field, 0, len(values))
	for path, v := range values {
		fields = append(fields, Field{Path: path, Value: v})
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Path < fields[j].Path })
	return fields
}

// Describe is a one-line account of an outcome for the summary; preview says nothing is
// written (--dry-run, --check).
func (o Outcome) Describe(preview bool) string {
	f := o.Finding
	head := fmt.Sprintf("%s at %s", f.Rule, at(f.Location))
	if d, _ := f.Exceed(); d.NodeGroup != "" {
		head = fmt.Sprintf("%s (node group %q) at %s", f.Rule, d.NodeGroup, at(f.Location))
	}
	switch {
	case o.ByOthers && preview:
		return fmt.Sprintf("would fix %s: by the changes for the other findings", head)
	case o.ByOthers:
		return fmt.Sprintf("fixed %s: by the changes for the other findings", head)
	case o.Written && preview:
		return fmt.Sprintf("would fix %s: %s", head, o.Fix.Change)
	case o.Written:
		return fmt.Sprintf("fixed %s: %s", head, o.Fix.Change)
	case o.Suggestion != "" && o.Why != "":
		return fmt.Sprintf("not written %s: %s (%s)", head, o.Suggestion, o.Why)
	case o.Suggestion != "":
		return fmt.Sprintf("not written %s: %s", head, o.Suggestion)
	default:
		return fmt.Sprintf("stays %s: %s", head, o.Why)
	}
}

// Trial is one remedy of one finding, placed alone and checked: what the finding promises,
// tested (the CLI's TestEveryRemedyClearsItsFinding).
type Trial struct {
	Finding findings.Finding
	Fix     Fix
	// Placed is false when the remedy could not be written (Why says why): a Helm value, a
	// field that is not a literal; Cleared then says nothing.
	Placed  bool
	Cleared bool
	Why     string
}

// TryEach places every writable remedy of every finding of rules, one at a time, and checks
// the files again with it.
func TryEach(ctx context.Context, check Check, ws *Workspace, before *findings.Report, workloads map[string]inventory.Workload, rules []string) ([]Trial, error) {
	var trials []Trial
	for _, f := range before.Findings {
		if f.Suppressed != nil || !slices.Contains(rules, f.Rule) {
			continue
		}
		for _, fx := range FixesOf(f) {
			if fx.Lever == LeverInstanceType || len(fx.Set) == 0 || len(fx.Unwritable) > 0 {
				continue
			}
			outs := []Outcome{{Finding: f, Fix: &fx}}
			cand := place(ws, workloads, outs, nil)
			tr := Trial{Finding: f, Fix: fx}
			if outs[0].Suggestion != "" || len(outs[0].Files) == 0 {
				tr.Why = outs[0].Suggestion + outs[0].Why
				trials = append(trials, tr)
				continue
			}
			after, _, err := check(ctx, cand.Overlay())
			if err != nil {
				return nil, err
			}
			tr.Placed, tr.Cleared = true, true
			for _, g := range after.Findings {
				if g.Suppressed == nil && Identity(g) == Identity(f) {
					tr.Cleared, tr.Why = false, g.Message
				}
			}
			trials = append(trials, tr)
		}
	}
	return trials, nil
}
