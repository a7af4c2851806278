package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/audit"
)

var auditData = filepath.Join("..", "..", "testdata", "audit")

func TestAudit(t *testing.T) {
	exhausted := filepath.Join(auditData, "exhausted", "snapshot.json")
	mixed := filepath.Join(auditData, "mixed", "snapshot.json")
	manifests := filepath.Join(auditData, "exhausted", "manifests")
	type node struct {
		name, verdict             string
		running, held, byFinished int
	}
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		nodes  []node
		stdout []string
		check  func(t *testing.T, r audit.Report)
	}{
		{
			name: "7 finished pods of a CronJob and 2 running on m5.large: exhausted", args: []string{"audit", exhausted}, code: 1,
			nodes:  []node{{"ip-10-0-1-10.ec2.internal", audit.Exhausted, 2, 9, 7}},
			stdout: []string{"scheduler: 2 of 9 used; ENIs: 9 of 9 held", "CronJob billing/db-report: 7", "ENI002: set spec.jobTemplate.spec.ttlSecondsAfterFinished"},
			check: func(t *testing.T, r audit.Report) {
				if len(r.Owners) != 1 || r.Owners[0].Kind != "CronJob" || r.Owners[0].Holding != 7 || r.Owners[0].Rule != "ENI002" {
					t.Errorf("owners %+v", r.Owners)
				}
			},
		},
		{
			name: "the same read as YAML", args: []string{"audit", filepath.Join(auditData, "exhausted", "snapshot.yaml")}, code: 1,
			nodes: []node{{"ip-10-0-1-10.ec2.internal", audit.Exhausted, 2, 9, 7}},
		},
		{
			name: "onCompletion an hour later: released", args: []string{"audit", exhausted, "--eni-release", "onCompletion", "--at", "2026-12-01T10:07:00Z"}, code: 0,
			nodes:  []node{{"ip-10-0-1-10.ec2.internal", audit.OK, 2, 2, 0}},
			stdout: []string{"whose ENIs the controller has freed"},
			check: func(t *testing.T, r audit.Report) {
				if r.Nodes[0].Released != 7 || len(r.Owners) != 0 {
					t.Errorf("released %d owners %+v", r.Nodes[0].Released, r.Owners)
				}
			},
		},
		{
			name: "onCompletion at the snapshot's own time: the last ones still hold", args: []string{"audit", exhausted, "--eni-release", "onCompletion"}, code: 0,
			// finished 09:01…09:07, newest time stamp 09:07, cool-down 60 s: the pod that ended at 09:07 holds.
			nodes: []node{{"ip-10-0-1-10.ec2.internal", audit.OK, 2, 3, 1}},
		},
		{
			name: "fail-on exhausted does not fail on at risk", args: []string{"audit", mixed, "--fail-on", "none"}, code: 0,
		},
		{
			name: "a waiting pod, at risk, no trunking, unknown capacity", args: []string{"audit", mixed}, code: 1,
			nodes: []node{
				{"node-a", audit.Waiting, 3, 9, 7},
				{"node-b", audit.AtRisk, 12, 17, 5},
				{"node-d", audit.Unknown, 0, 1, 1},
				{"node-c", audit.OK, 0, 0, 0},
			},
			stdout: []string{"failed to assign an IP address to container", "capacity from instance table", "Job billing/migrate: 5", "set spec.ttlSecondsAfterFinished"},
		},
		{
			name: "model check: observed 9 within the static bound", args: []string{"audit", exhausted, "--", manifests}, code: 1,
			stdout: []string{"node ip-10-0-1-10.ec2.internal (m5.large)  9         44"},
			check: func(t *testing.T, r audit.Report) {
				mc := r.ModelCheck
				if mc == nil || len(mc.Nodes) != 1 || mc.Nodes[0].Observed != 9 || mc.Nodes[0].Bound != 44 || len(mc.AboveBound) != 0 {
					t.Fatalf("model check %+v", mc)
				}
				for _, w := range mc.Workloads {
					if w.Name == "db-report" && (w.Observed != 7 || w.Bound != 41) {
						t.Errorf("CronJob %+v", w)
					}
				}
			},
		},
		{
			name: "stdin", args: []string{"audit", "-"}, stdin: `{"kind":"List","items":[{"kind":"Node","metadata":{"name":"n","labels":{"node.kubernetes.io/instance-type":"m5.large"}}}]}`, code: 0,
			nodes: []node{{"n", audit.OK, 0, 0, 0}},
		},
		{name: "a missing snapshot", args: []string{"audit", filepath.Join(auditData, "nope.json")}, code: 2},
		{name: "a truncated snapshot", args: []string{"audit", "-"}, stdin: `{"kind":"List","items":[{"kind":"Node","metadata":{"name":"n"`, code: 2, stdout: []string{"the JSON ends early"}},
		{name: "--timeout stops the reading with a located error", args: []string{"audit", exhausted, "--timeout", "1ns"}, code: 2, stdout: []string{"snapshot.json:1", "stopped after --timeout 1ns"}},
		{name: "bad fail-on", args: []string{"audit", exhausted, "--fail-on", "loud"}, code: 2},
		{name: "bad at", args: []string{"audit", exhausted, "--at", "yesterday"}, code: 2},
		{name: "no snapshot before --", args: []string{"audit", "--", manifests}, code: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Flags go right after the command: what follows -- is manifests.
			with := func(flags ...string) []string {
				return append(append([]string{tc.args[0]}, flags...), tc.args[1:]...)
			}
			code, stdout, stderr := run(t, tc.stdin, nil, with("--no-color")...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.code, stdout, stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if tc.nodes == nil && tc.check == nil {
				return
			}
			_, js, _ := run(t, tc.stdin, nil, with("--format", "json")...)
			var r audit.Report
			if err := json.Unmarshal([]byte(js), &r); err != nil {
				t.Fatalf("%v\n%s", err, js)
			}
			if r.SchemaVersion != audit.SchemaVersion {
				t.Errorf("schema %q", r.SchemaVersion)
			}
			for i, want := range tc.nodes {
				if i >= len(r.Nodes) {
					t.Fatalf("%d nodes, want %d", len(r.Nodes), len(tc.nodes))
				}
				n := r.Nodes[i]
				if n.Name != want.name || n.Verdict != want.verdict || n.Running != want.running || n.Held != want.held || n.HeldByFinished != want.byFinished {
					t.Errorf("node %d: %s %s running %d held %d by finished %d, want %+v", i, n.Name, n.Verdict, n.Running, n.Held, n.HeldByFinished, want)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}
