package report

import (
	"fmt"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/witness"
)

// WitnessSummary says what the witness of an ENI001 shows: a trajectory that reaches the
// demand, or the most one reached below it (the gap is how far the bound may be above what the
// controllers can do).
func WitnessSummary(w *findings.Witness) string {
	if w.NotSearched != "" {
		return w.NotSearched
	}
	var notes []string
	if len(w.NotPlayed) > 0 {
		notes = append(notes, count(len(w.NotPlayed), "contributor")+" not played, counted at their figures")
	}
	if w.OtherContributors > 0 {
		notes = append(notes, count(w.OtherContributors, "contributor")+" not listed, neither played nor counted")
	}
	for _, a := range w.Assumes {
		notes = append(notes, "assuming "+a)
	}
	// What the scheduler had to admit: terminated pods are what it no longer counts.
	played := fmt.Sprintf(", with at most %s running at once where the node admits %d", count(w.Running, "pod"), w.RunningLimit)
	if w.RunningLimit < w.BranchInterfaces {
		played = fmt.Sprintf(", with at most %s running at once where the node admits %d, and %d at the peak where it admits %d beside the running pods not played", count(w.Running, "pod"), w.BranchInterfaces, w.RunningAtPeak, w.RunningLimit)
	}
	if w.Running == 0 {
		played = fmt.Sprintf(", every pod ending within the second it starts (the node admits %d running)", w.RunningLimit)
	}
	if len(notes) > 0 {
		played += " (" + strings.Join(notes, "; ") + ")"
	}
	if w.Reached >= w.Bound {
		return fmt.Sprintf("a trajectory of the controllers reaches %d at %s under %s%s", w.Reached, witness.Clock(w.At), w.ENIRelease, played)
	}
	return fmt.Sprintf("at most %d; a trajectory reaching %d at %s under %s was found in %d plays%s", w.Bound, w.Reached, witness.Clock(w.At), w.ENIRelease, w.Plays, played)
}

// witnessTimeline is the events up to the peak, the last n of them, one line each.
func witnessTimeline(w *findings.Witness, n int) []string {
	var lines []string
	if w.Trajectory == nil {
		return nil
	}
	for _, e := range w.Trajectory.Events {
		if e.At > w.At {
			break
		}
		lines = append(lines, fmt.Sprintf("%s  %s (%d held)", witness.Clock(e.At), e.Event, e.Held))
	}
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("… %d earlier events", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return lines
}

// maxGanttPods bounds the chart: GitHub renders it, and a page of bars says as much as more.
const maxGanttPods = 60

// witnessGantt is a Mermaid gantt chart of the hold intervals of the pods holding at the peak,
// one section per run, and the peak as a critical bar.
func witnessGantt(w *findings.Witness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "```mermaid\ngantt\n  title %s\n  dateFormat X\n  axisFormat %%H:%%M:%%S\n",
		mermaidText(fmt.Sprintf("%d branch ENIs held where %d exist (%s)", w.Reached, w.BranchInterfaces, w.ENIRelease)))
	pods := 0
	var runs []findings.WitnessRun
	if w.Trajectory != nil {
		runs = w.Trajectory.Runs
	}
	for _, r := range runs {
		var bars []string
		for i, p := range r.Pods {
			if !p.HoldsAtPeak || pods == maxGanttPods {
				continue
			}
			pods++
			end := w.At + 60
			if p.Released != nil {
				end = *p.Released
			}
			state := "succeeded"
			if p.Failed {
				state = "failed"
			}
			from := p.Created
			if p.Bound != nil {
				from = *p.Bound
			}
			bars = append(bars, fmt.Sprintf("  pod %d %s :%d, %d", i+1, state, from, max(end, from+1)))
		}
		if len(bars) == 0 {
			continue
		}
		name := r.Workload
		if i := strings.IndexByte(name, '@'); i >= 0 {
			name = name[:i]
		}
		fmt.Fprintf(&b, "  section %s\n", mermaidText(fmt.Sprintf("%s run for %s", name, witness.Clock(r.Scheduled))))
		b.WriteString(strings.Join(bars, "\n") + "\n")
	}
	fmt.Fprintf(&b, "  section peak\n  %s :crit, %d, %d\n```\n", mermaidText(fmt.Sprintf("%d held", w.Reached)), w.At, w.At+1)
	return b.String()
}
