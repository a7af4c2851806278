package inventory

import (
	"strings"
	"testing"
)

func TestApplyAutoscalers(t *testing.T) {
	deployment := func(name string, replicas int, surge *string) Workload {
		w := Workload{Object: Object{Kind: "Deployment", Namespace: "ns", Name: name}, Replicas: &replicas, MaxSurgeText: surge}
		s, _ := DeploymentSurge(replicas, "", surge)
		w.MaxSurge = &s
		return w
	}
	one := "1"
	tests := []struct {
		name     string
		workload Workload
		scalers  []Autoscaler
		replicas int
		surge    int
		missing  string
	}{
		{"HPA raises replicas and the 25% surge", deployment("api", 2, nil), []Autoscaler{{Object: Object{Kind: "HorizontalPodAutoscaler", Namespace: "ns", Name: "api"}, TargetKind: "Deployment", TargetName: "api", MaxReplicas: 12}}, 12, 3, ""},
		{"a fixed surge stays", deployment("api", 2, &one), []Autoscaler{{Object: Object{Kind: "ScaledObject", Namespace: "ns", Name: "s"}, TargetKind: "Deployment", TargetName: "api", MaxReplicas: 100}}, 100, 1, ""},
		{"a maximum below replicas changes nothing", deployment("api", 5, nil), []Autoscaler{{Object: Object{Kind: "HorizontalPodAutoscaler", Namespace: "ns", Name: "api"}, TargetKind: "Deployment", TargetName: "api", MaxReplicas: 3}}, 5, 2, ""},
		{"two scalers: the larger maximum", deployment("api", 1, nil), []Autoscaler{
			{Object: Object{Kind: "HorizontalPodAutoscaler", Namespace: "ns", Name: "a"}, TargetKind: "Deployment", TargetName: "api", MaxReplicas: 4},
			{Object: Object{Kind: "ScaledObject", Namespace: "ns", Name: "b"}, TargetKind: "Deployment", TargetName: "api", MaxReplicas: 8},
		}, 8, 2, ""},
		{"another namespace is another target", deployment("api", 1, nil), []Autoscaler{{Object: Object{Kind: "HorizontalPodAutoscaler", Namespace: "other", Name: "api"}, TargetKind: "Deployment", TargetName: "api", MaxReplicas: 9}}, 1, 1, "Deployment other/api"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := []Workload{tc.workload}
			missing := ApplyAutoscalers(ws, tc.scalers)
			if *ws[0].Replicas != tc.replicas || *ws[0].MaxSurge != tc.surge {
				t.Errorf("replicas %d surge %d, want %d and %d", *ws[0].Replicas, *ws[0].MaxSurge, tc.replicas, tc.surge)
			}
			got := ""
			for _, m := range missing {
				got += m.Reason
			}
			if (tc.missing == "") != (got == "") || !strings.Contains(got, tc.missing) {
				t.Errorf("missing %q, want %q", got, tc.missing)
			}
		})
	}
}
