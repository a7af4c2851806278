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

func TestResolve(t *testing.T) {
	table, err := limits.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		reqs    []inventory.Requirement
		want    []string
		unknown bool
	}{
		{"flex binds", []inventory.Requirement{req("karpenter.k8s.aws/instance-family", "In", "m7i", "m7i-flex"), req("karpenter.k8s.aws/instance-size", "In", "xlarge")}, []string{"m7i-flex.xlarge"}, false},
		{"instance type list", []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.xlarge", "m5.large")}, []string{"m5.large"}, false},
		{"only t3: every type listed", []inventory.Requirement{req("karpenter.k8s.aws/instance-family", "In", "t3"), req("karpenter.k8s.aws/instance-size", "In", "large", "medium")}, []string{"t3.large", "t3.medium"}, false},
		{"NotIn and Gt", []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large", "m5.xlarge", "m5.2xlarge"), req("node.kubernetes.io/instance-type", "NotIn", "m5.large"), req("karpenter.k8s.aws/instance-cpu", "Gt", "4")}, []string{"m5.2xlarge"}, false},
		{"capacity type does not restrict types", []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "c5.large"), req("karpenter.sh/capacity-type", "In", "spot")}, []string{"c5.large"}, false},
		{"nothing admitted", []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "nope.large")}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pools := []inventory.NodePool{{Name: "p", Kind: "NodePool", Requirements: tc.reqs}}
			got, err := Resolve(pools, nil, table)
			if err != nil {
				t.Fatal(err)
			}
			g := got[0]
			if strings.Join(g.InstanceTypes, ",") != strings.Join(tc.want, ",") || (g.UnknownTypes != "") != tc.unknown {
				t.Errorf("types %v unknown %q", g.InstanceTypes, g.UnknownTypes)
			}
			if g.Labels[LabelNodePool] != "p" || !g.SelfManaged {
				t.Errorf("labels %v", g.Labels)
			}
		})
	}
}

func TestWindowsNodeClass(t *testing.T) {
	table, _ := limits.Builtin()
	got, err := Resolve([]inventory.NodePool{{Name: "win", Kind: "NodePool", NodeClass: "w", Requirements: []inventory.Requirement{req("node.kubernetes.io/instance-type", "In", "m5.large")}}},
		[]inventory.NodeClass{{Name: "w", AMIFamily: "Windows2022"}}, table)
	if err != nil || !got[0].Windows {
		t.Errorf("%+v %v", got, err)
	}
}
