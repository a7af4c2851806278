package karpenter

import (
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// FuzzResolve reads NodePools as the loader does and resolves them against the embedded
// tables: one node group per pool, every type it names is in the branch-ENI table and admitted
// by the pool's requirements, and a group without types says why.
func FuzzResolve(f *testing.F) {
	f.Add([]byte(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}
        - {key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["5"]}
        - {key: kubernetes.io/arch, operator: In, values: [arm64]}
`))
	f.Add([]byte(`apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata: {name: p}
spec: {template: {spec: {requirements: [{key: node.kubernetes.io/instance-type, operator: NotIn, values: [m5.large]}, {key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: ["x"]}]}}}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec: {amiFamily: Windows2022}
`))
	f.Add([]byte(`apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata: {name: old}
spec: {requirements: [{key: karpenter.k8s.aws/instance-family, operator: In, values: [t3]}]}
`))
	f.Add([]byte(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: gpu}
spec:
  template:
    spec:
      nodeClassRef: {group: eks.amazonaws.com, kind: NodeClass, name: default}
      requirements:
        - {key: eks.amazonaws.com/instance-category, operator: In, values: [g]}
        - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a, us-east-1b]}
        - {key: team, operator: Exists}
---
apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata: {name: c}
autoModeConfig: {enabled: true}
---
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    spec:
      nodeSelector: {karpenter.sh/capacity-type: on-demand, topology.kubernetes.io/zone: us-east-1a}
      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: eks.amazonaws.com/instance-cpu, operator: Gt, values: ["4"]}, {key: team, operator: NotIn, values: [a]}]}]}}}
      containers: [{name: c, image: x}]
`))
	table, err := limits.Builtin()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		frag := kubernetes.Load("pools.yaml", data, kubernetes.Options{DefaultNamespace: "default"})
		groups, err := Resolve(frag.NodePools, frag.NodeClasses, table, MentionsOf(frag.Workloads))
		if err != nil {
			t.Fatal(err)
		}
		if len(groups) != len(frag.NodePools) {
			t.Fatalf("%d pools, %d groups", len(frag.NodePools), len(groups))
		}
		for i, g := range groups {
			if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
				t.Fatalf("pool %q: no types and no reason", g.Name)
			}
			if len(g.TypeLabels) != len(g.InstanceTypes) {
				t.Fatalf("pool %q: %d types, %d label sets", g.Name, len(g.InstanceTypes), len(g.TypeLabels))
			}
			for j, name := range g.InstanceTypes {
				if _, ok := table.Lookup(name); !ok {
					t.Fatalf("pool %q: %s is not in the table", g.Name, name)
				}
				// Every requirement on a label the entry carries admits its value.
				var present []inventory.Requirement
				for _, r := range frag.NodePools[i].Requirements {
					if _, has := g.TypeLabels[j][r.Key]; has {
						present = append(present, r)
					}
				}
				if !admits(present, g.TypeLabels[j]) {
					t.Fatalf("pool %q: %s (%v) is not admitted by its requirements", g.Name, name, g.TypeLabels[j])
				}
			}
		}
	})
}
