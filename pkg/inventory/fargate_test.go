package inventory

import "testing"

func TestFargateSelectorMatches(t *testing.T) {
	tests := []struct {
		name      string
		sel       FargateSelector
		namespace string
		labels    map[string]string
		want      bool
	}{
		{"namespace", FargateSelector{Namespace: "batch"}, "batch", nil, true},
		{"other namespace", FargateSelector{Namespace: "batch"}, "billing", nil, false},
		{"wildcard", FargateSelector{Namespace: "app-*"}, "app-orders", nil, true},
		{"single character", FargateSelector{Namespace: "team-?"}, "team-a", nil, true},
		{"labels all present", FargateSelector{Namespace: "batch", Labels: map[string]string{"fargate": "yes"}}, "batch", map[string]string{"fargate": "yes", "app": "x"}, true},
		{"a label missing", FargateSelector{Namespace: "batch", Labels: map[string]string{"fargate": "yes"}}, "batch", map[string]string{"app": "x"}, false},
		{"a bad pattern matches nothing", FargateSelector{Namespace: "["}, "[", nil, false},
	}
	for _, tc := range tests {
		if got := tc.sel.Matches(tc.namespace, tc.labels); got != tc.want {
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}

func TestAssignFargateTakesTheFirstProfile(t *testing.T) {
	ws := []Workload{
		{Object: Object{Namespace: "batch", Name: "a"}},
		{Object: Object{Namespace: "billing", Name: "b"}},
	}
	profiles := []FargateProfile{
		{Name: "first", Selectors: []FargateSelector{{Namespace: "bat*"}}},
		{Name: "second", Selectors: []FargateSelector{{Namespace: "batch"}}},
	}
	AssignFargate(ws, profiles)
	if ws[0].Fargate == nil || ws[0].Fargate.Profile != "first" || ws[1].Fargate != nil {
		t.Errorf("%+v %+v", ws[0].Fargate, ws[1].Fargate)
	}
}
