package inventory

import (
	"strings"
	"testing"
)

func TestResolveArgoRefs(t *testing.T) {
	ttl := 300
	leaf := Workload{
		Object: Object{ID: "WorkflowTemplate/argo/load#load", Kind: "WorkflowTemplate", Namespace: "argo", Name: "load (load)", Locations: FieldPositionsOf(map[string]Position{"": {File: "t.yaml", Line: 3}})},
		Job:    &JobSpec{Completions: intPtr(9)},
		Pod:    PodTemplate{Labels: map[string]string{"db": "warehouse", "workflows.argoproj.io/workflow": "load"}, ServiceAccountName: "default"},
		Argo:   &ArgoTemplate{Template: "load"},
	}
	cluster := leaf
	cluster.ID, cluster.Kind, cluster.Namespace = "ClusterWorkflowTemplate/shared#load", "ClusterWorkflowTemplate", ""
	holder := func(name string, ref ArgoRef) Workload {
		return Workload{
			Object:  Object{ID: "CronWorkflow/argo/" + name + "#", Kind: "CronWorkflow", Namespace: "argo", Name: name, Locations: FieldPositionsOf(map[string]Position{"": {File: "c.yaml", Line: 1}})},
			Job:     &JobSpec{TTLSecondsAfterFinished: &ttl},
			Pod:     PodTemplate{Labels: map[string]string{"team": "data", "db": "other"}, ServiceAccountName: "etl"},
			ArgoRef: &ref, CronJob: &CronJobSpec{ConcurrencyPolicy: "Forbid"},
		}
	}
	out, missing := ResolveArgoRefs([]Workload{holder("hourly", ArgoRef{Name: "load"}), holder("global", ArgoRef{Name: "shared", Cluster: true}), holder("lost", ArgoRef{Name: "nope"})}, []Workload{leaf, cluster})
	if len(out) != 2 || len(missing) != 1 || !strings.Contains(missing[0].Reason, `"nope"`) {
		t.Fatalf("out %d, missing %+v", len(out), missing)
	}
	w := out[0]
	if w.Kind != "CronWorkflow" || w.Name != "hourly (load)" || w.CronJob == nil || *w.Job.Completions != 9 || *w.Job.TTLSecondsAfterFinished != 300 ||
		w.Pod.Labels["db"] != "warehouse" || w.Pod.Labels["team"] != "data" || w.Pod.Labels["workflows.argoproj.io/workflow"] != "hourly" ||
		w.Pod.ServiceAccountName != "etl" || w.Locations.At("").File != "t.yaml" {
		t.Errorf("run %+v %+v", w, w.Pod)
	}
	if out[1].Name != "global (load)" {
		t.Errorf("cluster template run %+v", out[1])
	}
	if leaf.Pod.Labels["team"] != "" {
		t.Error("the template's own labels were changed")
	}
}
