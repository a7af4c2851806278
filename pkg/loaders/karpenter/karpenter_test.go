package karpenter

import (
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
)

func req(key, op string, values ...string) inventory.Requirement {
	return inventory.Requirement{Key: key, Operator: op, Values: values}
}

func workload(selector map[string]string, exprs ...inventory.Requirement) inventory.Workload {
	w := inventory.Workload{}
	w.Pod.NodeSelector = selector
	if len(exprs) > 0 {
		w.Pod.RequiredAffinity = []inventory.NodeSelectorTerm{{MatchExpressions: exprs}}
	}
	return w
}

// entries renders a group's type entries as "type" or "type [variant]".
func entries(g inventory.NodeGroupSpec) string {
	var out []string
	for i, name := range g.InstanceTypes {
		if i < len(g.TypeVariants) && g.TypeVariants[i] != "" {
			name += " [" + g.TypeVariants[i] + "]"
		}
		out = append(out, name)
	}
	return strings.Join(out, ",")
}

func TestResolve(t *testing.T) {
	table, err := limits.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		reqs      []inventory.Requirement
		group     string // nodeClassRef.group
		workloads []inventory.Workload
		want      string
		unknown   bool
	}{
		{name: "flex binds", reqs: []inventory.Requirement{req("karpenter.k8s.aws/instance-family", "In", "m7i", "m7i-flex"), req("karpenter.k8s.aws/instance-size", "In", "xlarge")}, want: "m7i-flex.xlarge"},
		{name: "instance type list", reqs: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.xlarge", "m5.large")}, want: "m5.large"},
		{name: "only t3: every type listed", reqs: []inventory.Requirement{req("karpenter.k8s.aws/instance-family", "In", "t3"), req("karpenter.k8s.aws/instance-size", "In", "large", "medium")}, want: "t3.large,t3.medium"},
		{name: "NotIn and Gt", reqs: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large", "m5.xlarge", "m5.2xlarge"), req("node.kubernetes.io/instance-type", "NotIn", "m5.large"), req("karpenter.k8s.aws/instance-cpu", "Gt", "4")}, want: "m5.2xlarge"},
		{name: "capacity type does not restrict types", reqs: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "c5.large"), req("karpenter.sh/capacity-type", "In", "spot")}, want: "c5.large"},
		{name: "nothing admitted", reqs: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "nope.large")}, unknown: true},
		{
			// A workload narrowed to arm64 c types is judged on the smallest of those; the
			// others on the pool's smallest overall.
			name:      "classes by the labels workloads select on",
			reqs:      []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large", "c6g.large", "c6g.xlarge", "m6g.large", "c5.xlarge")},
			workloads: []inventory.Workload{workload(map[string]string{"kubernetes.io/arch": "arm64"}, req("karpenter.k8s.aws/instance-category", "In", "c"))},
			want:      "c6g.large,m5.large,m6g.large,c5.xlarge",
		},
		{
			// on-demand and spot both allowed, and a workload asks for on-demand: one variant
			// per value it can tell apart.
			name:      "capacity type variants",
			reqs:      []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large"), req("karpenter.sh/capacity-type", "In", "on-demand", "spot")},
			workloads: []inventory.Workload{workload(map[string]string{"karpenter.sh/capacity-type": "on-demand"})},
			want:      "m5.large [karpenter.sh/capacity-type=on-demand],m5.large [karpenter.sh/capacity-type=spot]",
		},
		{
			// A pool restricted to spot has one value: no variant to show.
			name:      "capacity type fixed by the pool",
			reqs:      []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large"), req("karpenter.sh/capacity-type", "In", "spot")},
			workloads: []inventory.Workload{workload(map[string]string{"karpenter.sh/capacity-type": "on-demand"})},
			want:      "m5.large",
		},
		{
			name:      "zones: the named one and any other",
			reqs:      []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large")},
			workloads: []inventory.Workload{workload(map[string]string{"topology.kubernetes.io/zone": "us-east-1a"})},
			want:      "m5.large [topology.kubernetes.io/zone=us-east-1a],m5.large [topology.kubernetes.io/zone=(any other value)]",
		},
		{
			name:  "auto mode: GPU category only",
			group: "eks.amazonaws.com",
			reqs:  []inventory.Requirement{req("eks.amazonaws.com/instance-category", "In", "g"), req("eks.amazonaws.com/instance-family", "In", "g6")},
			want:  "g6.xlarge",
		},
		{
			// Auto Mode never launches sizes below medium nor 1-vCPU types.
			name:  "auto mode: minimum size",
			group: "eks.amazonaws.com",
			reqs:  []inventory.Requirement{req("eks.amazonaws.com/instance-family", "In", "t3")},
			want:  "t3.2xlarge,t3.large,t3.medium,t3.xlarge",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pools := []inventory.NodePool{{Name: "p", Kind: "NodePool", Requirements: tc.reqs, NodeClassGroup: tc.group}}
			got, err := Resolve(pools, nil, table, MentionsOf(tc.workloads))
			if err != nil {
				t.Fatal(err)
			}
			g := got[0]
			if entries(g) != tc.want || (g.UnknownTypes != "") != tc.unknown {
				t.Errorf("types %s unknown %q, want %s", entries(g), g.UnknownTypes, tc.want)
			}
			if g.Labels[LabelNodePool] != "p" || !g.SelfManaged || !g.PicksTrunkingTypes || g.AutoMode != (tc.group != "") {
				t.Errorf("group %+v", g)
			}
		})
	}
}

// TestLabelsOnEntries checks the labels each entry carries, which is what the Rego placement
// compares selectors with.
func TestLabelsOnEntries(t *testing.T) {
	table, _ := limits.Builtin()
	pools := []inventory.NodePool{{Name: "p", Kind: "NodePool", Labels: map[string]string{"team": "a"},
		Requirements: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "c6g.large"), req("topology.kubernetes.io/zone", "In", "eu-west-1a", "eu-west-1b")}}}
	w := workload(map[string]string{"topology.kubernetes.io/zone": "eu-west-1b", "team": "a"}, req("karpenter.k8s.aws/instance-generation", "Gt", "5"))
	got, err := Resolve(pools, nil, table, MentionsOf([]inventory.Workload{w}))
	if err != nil {
		t.Fatal(err)
	}
	g := got[0]
	if entries(g) != "c6g.large [topology.kubernetes.io/zone=eu-west-1b],c6g.large [topology.kubernetes.io/zone=eu-west-1a]" {
		t.Fatalf("entries %s", entries(g))
	}
	for i, labels := range g.TypeLabels {
		if labels["karpenter.k8s.aws/instance-generation"] != "6" || labels["kubernetes.io/arch"] != "arm64" {
			t.Errorf("entry %d labels %v", i, labels)
		}
	}
	if g.TypeLabels[0]["topology.kubernetes.io/zone"] != "eu-west-1b" || g.TypeLabels[1]["topology.kubernetes.io/zone"] != "eu-west-1a" {
		t.Errorf("zones %v %v", g.TypeLabels[0], g.TypeLabels[1])
	}
}

// TestBudget: selectors naming thousands of zones make the pool unknown with the reason, not
// thousands of rows.
func TestBudget(t *testing.T) {
	table, _ := limits.Builtin()
	var ws []inventory.Workload
	for i := 0; i < MaxEntriesPerPool+10; i++ {
		ws = append(ws, workload(map[string]string{"topology.kubernetes.io/zone": "zone-" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("y", i/26)}))
	}
	got, err := Resolve([]inventory.NodePool{{Name: "p", Kind: "NodePool"}}, nil, table, MentionsOf(ws))
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0].InstanceTypes) != 0 || !strings.Contains(got[0].UnknownTypes, "a budget") {
		t.Errorf("%d entries, unknown %q", len(got[0].InstanceTypes), got[0].UnknownTypes)
	}
}

func TestWindowsNodeClass(t *testing.T) {
	table, _ := limits.Builtin()
	got, err := Resolve([]inventory.NodePool{{Name: "win", Kind: "NodePool", NodeClass: "w", Requirements: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large")}}},
		[]inventory.NodeClass{{Name: "w", AMIFamily: "Windows2022"}}, table, nil)
	if err != nil || !got[0].Windows {
		t.Errorf("%+v %v", got, err)
	}
}
