package report

import (
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

func ip(i int) *int { return &i }

// TestWitnessGantt: one section per run holding at the peak, one bar per pod that holds, the
// peak as a critical bar, and labels without the characters Mermaid's gantt grammar reads
// (a workload name is input). mermaid 11's parser accepted this shape (checked by hand with
// mermaid.parse under jsdom).
func TestWitnessGantt(t *testing.T) {
	w := &findings.Witness{ENIRelease: "onDelete", Bound: 3, Reached: 2, BranchInterfaces: 1, At: 100,
		Trajectory: &findings.WitnessTrajectory{Runs: []findings.WitnessRun{{Workload: "CronJob/ns/a:b#c;d@x.yaml:1", Scheduled: 0, Start: 0, Finish: 50, Pods: []findings.WitnessPod{
			{Created: 0, Ended: 10, Released: ip(150), HoldsAtPeak: true, Failed: true},
			{Created: 20, Ended: 30, Released: ip(60)},
			{Created: 40, Ended: 50, HoldsAtPeak: true},
		}}}}}
	got := witnessGantt(w)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	want := []string{
		"```mermaid", "gantt", "  title 2 branch ENIs held where 1 exist (onDelete)", "  dateFormat X", "  axisFormat %H:%M:%S",
		"  section CronJob/ns/a.b c d run for Mon 00.00.00",
		"  pod 1 failed :0, 150", "  pod 3 succeeded :40, 160",
		"  section peak", "  2 held :crit, 100, 101", "```",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if s := WitnessSummary(w); !strings.HasPrefix(s, "at most 3; a trajectory reaching 2 at Mon 00:01:40 under onDelete") {
		t.Errorf("summary %q", s)
	}
	if s := WitnessSummary(&findings.Witness{NotSearched: "not searched: budget"}); s != "not searched: budget" {
		t.Errorf("summary %q", s)
	}
}
