package snapshot

import (
	"strconv"
	"strings"
	"testing"
)

func read(t *testing.T, input string, lim Limits) *Snapshot {
	t.Helper()
	s := New()
	s.Read("s.json", strings.NewReader(input), lim)
	return s
}

const sgpPod = `{"kind":"Pod","metadata":{"name":"p","namespace":"ns","annotations":{"vpc.amazonaws.com/pod-eni":"[{\"eniId\":\"eni-1\"},{\"eniId\":\"eni-2\"}]"},
 "ownerReferences":[{"kind":"ReplicaSet","name":"x"},{"kind":"Job","name":"j","controller":true}]},
 "spec":{"nodeName":"n1","containers":[{"resources":{"requests":{"vpc.amazonaws.com/pod-eni":"1"}}}]},
 "status":{"phase":"Succeeded","conditions":[{"type":"Ready","status":"False","lastTransitionTime":"2026-12-01T09:00:05Z"}],
  "containerStatuses":[{"state":{"terminated":{"finishedAt":"2026-12-01T09:00:00Z"}}}]}}`

func TestRead(t *testing.T) {
	tests := []struct {
		name  string
		input string
		lim   Limits
		nodes int
		pods  int
		errs  []string // substrings of the errors, with their line as "line N:"
		check func(t *testing.T, s *Snapshot)
	}{
		{name: "a List", input: `{"apiVersion":"v1","kind":"List","items":[` + sgpPod + `]}`, pods: 1,
			check: func(t *testing.T, s *Snapshot) {
				p := s.Pods[0]
				if p.ENIs != 2 || p.Requested != 1 || p.Owner != (OwnerRef{"Job", "j"}) || p.Finished.Format("15:04:05") != "09:00:00" || !p.Terminated() {
					t.Errorf("pod %+v", p)
				}
				if s.Latest.Format("15:04:05") != "09:00:05" {
					t.Errorf("latest %v", s.Latest)
				}
			}},
		{name: "items before kind, and an array", input: `[` + sgpPod + `,` + sgpPod + `]`, pods: 2},
		{name: "one object", input: sgpPod, pods: 1},
		{name: "a node with capacity as a number or a string", input: `{"items":[
			{"kind":"Node","metadata":{"name":"a","labels":{"node.kubernetes.io/instance-type":"m5.large"}},"status":{"capacity":{"vpc.amazonaws.com/pod-eni":"9"}}},
			{"kind":"Node","metadata":{"name":"b","labels":{"beta.kubernetes.io/instance-type":"c5.xlarge"}},"status":{"capacity":{"vpc.amazonaws.com/pod-eni":18}}},
			{"kind":"Node","metadata":{"name":"c"},"spec":{"taints":[{"key":"k","value":"v","effect":"NoSchedule"}]}}]}`, nodes: 3,
			check: func(t *testing.T, s *Snapshot) {
				if *s.Nodes[0].PodENI != 9 || *s.Nodes[1].PodENI != 18 || s.Nodes[1].InstanceType != "c5.xlarge" || s.Nodes[2].PodENI != nil || len(s.Nodes[2].Taints) != 1 {
					t.Errorf("nodes %+v", s.Nodes)
				}
			}},
		{name: "pods without SGP are left out", input: `{"items":[{"kind":"Pod","metadata":{"name":"q"},"spec":{"containers":[{"resources":{"requests":{"cpu":"1"}}}]}}]}`,
			check: func(t *testing.T, s *Snapshot) {
				if s.Skipped != 1 || s.Items["Pod"] != 1 {
					t.Errorf("skipped %d items %v", s.Skipped, s.Items)
				}
			}},
		{name: "only IP-assignment events are kept", input: `{"items":[
			{"kind":"Event","involvedObject":{"kind":"Pod","name":"p","namespace":"ns"},"reason":"FailedCreatePodSandBox","message":"… failed to assign an IP address to container","lastTimestamp":"2026-12-01T10:00:00Z"},
			{"kind":"Event","involvedObject":{"kind":"Pod","name":"p","namespace":"ns"},"reason":"Pulled","message":"image pulled"}]}`,
			check: func(t *testing.T, s *Snapshot) {
				if len(s.Events["ns/p"]) != 1 || s.Latest.Hour() != 10 {
					t.Errorf("events %+v latest %v", s.Events, s.Latest)
				}
			}},
		{name: "Jobs and CronJobs", input: `{"items":[
			{"kind":"Job","metadata":{"name":"j","namespace":"ns","ownerReferences":[{"kind":"CronJob","name":"c","controller":true}]},"spec":{"ttlSecondsAfterFinished":60}},
			{"kind":"CronJob","metadata":{"name":"c","namespace":"ns"},"spec":{"successfulJobsHistoryLimit":0,"jobTemplate":{"spec":{"ttlSecondsAfterFinished":30}}}}]}`,
			check: func(t *testing.T, s *Snapshot) {
				j, c := s.Jobs["ns/j"], s.CronJobs["ns/c"]
				if *j.TTL != 60 || j.Owner.Kind != "CronJob" || *c.SuccessfulHistoryLimit != 0 || c.FailedHistoryLimit != nil || *c.TTL != 30 {
					t.Errorf("job %+v cronjob %+v", j, c)
				}
			}},
		{name: "a wrong type is located and the next item is read", input: "{\"items\":[\n{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\",\"labels\":[1]}},\n" + sgpPod + "]}", pods: 1,
			errs: []string{"line 2:", "metadata.labels must be"}},
		{name: "truncated", input: "{\"items\":[\n" + sgpPod[:40], errs: []string{"line 2:", "ends early"}},
		{name: "not JSON inside", input: "{\"items\":[\n{\"kind\": tru}]}", errs: []string{"line 2:", "not valid JSON"}},
		{name: "empty", input: "  \n", errs: []string{"empty"}},
		{name: "too many items", input: `[` + sgpPod + `,` + sgpPod + `,` + sgpPod + `]`, lim: Limits{MaxItems: 2, MaxItemBytes: 1 << 20, MaxYAMLBytes: 1 << 20}, pods: 2,
			errs: []string{"more than 2 items"}},
		{name: "an item over its budget", input: `[{"kind":"Pod","metadata":{"name":"` + strings.Repeat("x", 3<<20) + `"}}]`, lim: Limits{MaxItems: 10, MaxItemBytes: 1 << 20, MaxYAMLBytes: 1 << 20},
			errs: []string{"larger than 1048576 bytes"}},
		{name: "YAML", input: "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n---\nkind: Node\nmetadata: {name: b}\n", nodes: 2},
		{name: "YAML over its budget", input: "kind: List\nitems: []\n" + strings.Repeat("# pad\n", 100), lim: Limits{MaxItems: 10, MaxItemBytes: 1 << 20, MaxYAMLBytes: 64},
			errs: []string{"use -o json"}},
		{name: "YAML with a syntax error", input: "kind: List\nitems: [\n", errs: []string{"line"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lim := tc.lim
			if lim.MaxItems == 0 {
				lim = DefaultLimits
			}
			s := read(t, tc.input, lim)
			if len(s.Nodes) != tc.nodes || len(s.Pods) != tc.pods {
				t.Errorf("%d nodes %d pods, want %d %d", len(s.Nodes), len(s.Pods), tc.nodes, tc.pods)
			}
			var got []string
			for _, e := range s.Errors {
				got = append(got, e.Position.File+" line "+strconv.Itoa(e.Position.Line)+": "+e.Message)
			}
			joined := strings.Join(got, "\n")
			if len(tc.errs) == 0 && len(got) > 0 {
				t.Errorf("errors:\n%s", joined)
			}
			for _, want := range tc.errs {
				if !strings.Contains(joined, want) {
					t.Errorf("errors lack %q:\n%s", want, joined)
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}
