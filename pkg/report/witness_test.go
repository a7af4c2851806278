package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
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

// TestSharedTrajectoryWrittenOnce: two ENI001s whose witnesses share a trajectory (the same
// workloads exceed two node groups) name one id, the JSON and SARIF tables hold it once, and
// Markdown charts it once.
func TestSharedTrajectoryWrittenOnce(t *testing.T) {
	shared := &findings.WitnessTrajectory{Runs: []findings.WitnessRun{{Workload: "CronJob/ns/a@x.yaml:1", Pods: []findings.WitnessPod{{Created: 0, Ended: 5, HoldsAtPeak: true}}}},
		Events: []findings.WitnessEvent{{At: 10, Event: "the played workloads hold 1 branch ENIs", Held: 1}}}
	own := &findings.WitnessTrajectory{Runs: []findings.WitnessRun{}, Events: []findings.WitnessEvent{}}
	eni001 := func(group string, tr *findings.WitnessTrajectory) findings.Finding {
		return findings.Finding{Rule: "ENI001", Severity: findings.Error, Location: inventory.Position{File: "x.yaml", Line: 1, Column: 1},
			Details: map[string]any{"nodeGroup": group, "instanceType": "m5.large"},
			Witness: &findings.Witness{ENIRelease: "onDelete", Bound: 2, Reached: 1, BranchInterfaces: 1, At: 10, Trajectory: tr}}
	}
	r := sample()
	r.Findings = []findings.Finding{eni001("a", shared), eni001("b", own), eni001("c", shared)}
	var j bytes.Buffer
	if err := (JSON{}).Write(&j, r); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Findings []struct {
			Witness struct {
				Trajectory string `json:"trajectory"`
			} `json:"witness"`
		} `json:"findings"`
		Trajectories []findings.TrajectoryRecord `json:"trajectories"`
	}
	if err := json.Unmarshal(j.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range back.Findings {
		ids = append(ids, f.Witness.Trajectory)
	}
	if strings.Join(ids, ",") != "t1,t2,t1" || len(back.Trajectories) != 2 || back.Trajectories[0].ID != "t1" || len(back.Trajectories[0].Runs) != 1 {
		t.Errorf("ids %v, table %+v", ids, back.Trajectories)
	}
	var s bytes.Buffer
	if err := (SARIF{}).Write(&s, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(s.String(), `"holdsAtPeak"`); n != 1 {
		t.Errorf("SARIF writes the shared trajectory's pod %d times", n)
	}
	var m bytes.Buffer
	if err := (Markdown{}).Write(&m, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(m.String(), "```mermaid"); n != 2 {
		t.Errorf("%d charts for two trajectories", n)
	}
	if !strings.Contains(m.String(), "its trajectory is the one charted for a m5.large above") {
		t.Errorf("the third finding does not point to the chart:\n%s", m.String())
	}
}
