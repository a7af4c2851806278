package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/snapshot"
)

// ModelCheck puts what the snapshot shows beside eni-lint's static worst case for the same
// workloads and instance types. The static figure is a bound: an observation above it means
// the model missed something, and is reported as a bug to fix in eni-lint.
type ModelCheck struct {
	ENIRelease inventory.Release `json:"eniRelease"`
	Nodes      []NodeBound       `json:"nodes"`
	Workloads  []WorkloadBound   `json:"workloads"`
	// AboveBound describes each observation above its bound.
	AboveBound []string `json:"aboveBound"`
	// NotInManifests are owners holding ENIs in the snapshot that the manifests do not define.
	NotInManifests []string `json:"notInManifests"`
}

// NodeBound is one node: ENIs held by pods of the manifests' workloads, against the static
// demand for its instance type.
type NodeBound struct {
	Node         string `json:"node"`
	InstanceType string `json:"instanceType"`
	Observed     int    `json:"observed"`
	Bound        int    `json:"bound"`
	AtLeast      bool   `json:"atLeast"`
	Above        bool   `json:"above"`
}

// WorkloadBound is one workload: ENIs its finished pods hold across the cluster, against the
// static figure of what its terminated pods can hold (hidden).
type WorkloadBound struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Observed  int    `json:"observed"`
	Bound     int    `json:"bound"`
	Unbounded bool   `json:"unbounded"`
	Above     bool   `json:"above"`
}

// NodeGroups are the node groups the static check runs with for a snapshot: one per instance
// type, with the labels and taints every node of that type has.
func NodeGroups(snap *snapshot.Snapshot) []inventory.NodeGroupSpec {
	byType := map[string][]snapshot.Node{}
	var types []string
	for _, n := range snap.Nodes {
		if n.InstanceType == "" {
			continue
		}
		if _, ok := byType[n.InstanceType]; !ok {
			types = append(types, n.InstanceType)
		}
		byType[n.InstanceType] = append(byType[n.InstanceType], n)
	}
	sort.Strings(types)
	var groups []inventory.NodeGroupSpec
	for _, t := range types {
		nodes := byType[t]
		labels := map[string]string{}
		for k, v := range nodes[0].Labels {
			labels[k] = v
		}
		taints := append([]inventory.Taint{}, nodes[0].Taints...)
		for _, n := range nodes[1:] {
			for k, v := range labels {
				if n.Labels[k] != v {
					delete(labels, k)
				}
			}
			taints = commonTaints(taints, n.Taints)
		}
		delete(labels, "kubernetes.io/hostname")
		groups = append(groups, inventory.NodeGroupSpec{
			Name: GroupName(t), Source: "snapshot", InstanceTypes: []string{t}, Labels: labels, Taints: taints,
			Location: nodes[0].At, TypeLocations: []inventory.Position{nodes[0].At},
		})
	}
	return groups
}

// GroupName is the node group the static check gives the nodes of one instance type.
func GroupName(instanceType string) string { return "snapshot:" + instanceType }

func commonTaints(a, b []inventory.Taint) []inventory.Taint {
	var out []inventory.Taint
	for _, t := range a {
		if slices.Contains(b, t) {
			out = append(out, t)
		}
	}
	return out
}

// CheckModel compares the audit with the static report of the same workloads, made with
// NodeGroups(snap).
func CheckModel(snap *snapshot.Snapshot, r *Report, static *findings.Report, s Settings) *ModelCheck {
	mc := &ModelCheck{ENIRelease: static.Model.ENIRelease, Nodes: []NodeBound{}, Workloads: []WorkloadBound{}, AboveBound: []string{}, NotInManifests: []string{}}
	modelled := map[string]findings.WorkloadNumbers{}
	for _, w := range static.Workloads {
		modelled[w.Kind+" "+w.Namespace+"/"+w.Name] = w
	}
	rowFor := map[string]findings.InstanceTypeRow{}
	for _, row := range static.InstanceTypes {
		rowFor[row.InstanceType] = row
	}
	h := heldBy(snap, modelled, s, r.Model.At)
	perNode, perWorkload, missing := h.perNode, h.perWorkload, h.missing
	for _, n := range snap.Nodes {
		row, ok := rowFor[n.InstanceType]
		if !ok || !row.Known {
			continue
		}
		b := NodeBound{Node: n.Name, InstanceType: n.InstanceType, Observed: perNode[n.Name], Bound: row.Demand, AtLeast: row.AtLeast}
		b.Above = !b.AtLeast && b.Observed > b.Bound
		if b.Above {
			mc.AboveBound = append(mc.AboveBound, fmt.Sprintf("node %s (%s): %d ENIs held by the manifests' workloads, above the static worst case of %d", n.Name, n.InstanceType, b.Observed, b.Bound))
		}
		mc.Nodes = append(mc.Nodes, b)
	}
	var keys []string
	for k := range modelled {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w := modelled[k]
		b := WorkloadBound{Kind: w.Kind, Namespace: w.Namespace, Name: w.Name, Observed: perWorkload[k], Bound: w.Hidden, Unbounded: len(w.Unbounded) > 0}
		b.Above = !b.Unbounded && b.Observed > b.Bound
		if b.Above {
			mc.AboveBound = append(mc.AboveBound, fmt.Sprintf("%s: %d finished pods hold ENIs, above the static worst case of %d", k, b.Observed, b.Bound))
		}
		mc.Workloads = append(mc.Workloads, b)
	}
	for k := range missing {
		mc.NotInManifests = append(mc.NotInManifests, k)
	}
	sort.Strings(mc.NotInManifests)
	return mc
}

// held is what the snapshot's pods hold at the audit's moment: per node, per modelled
// workload (its finished pods), and the owners of finished pods the manifests do not have.
type held struct {
	perNode, perWorkload map[string]int
	missing              map[string]bool
}

func heldBy(snap *snapshot.Snapshot, modelled map[string]findings.WorkloadNumbers, s Settings, at time.Time) held {
	nodes := map[string]bool{}
	for _, n := range snap.Nodes {
		nodes[n.Name] = true
	}
	h := held{perNode: map[string]int{}, perWorkload: map[string]int{}, missing: map[string]bool{}}
	for _, p := range snap.Pods {
		if !nodes[p.NodeName] {
			continue
		}
		key := workloadOf(snap, p, modelled)
		_, n := stateOf(p, s, at)
		if n == 0 {
			continue
		}
		if key == "" {
			if p.Terminated() {
				kind, ns, name := owner(snap, p)
				if kind == "" {
					kind, ns, name = "Pod", p.Namespace, p.Name
				}
				h.missing[kind+" "+ns+"/"+name] = true
			}
			continue
		}
		h.perNode[p.NodeName] += n
		if p.Terminated() {
			h.perWorkload[key] += n
		}
	}
	return h
}

// workloadOf finds the manifests' workload a pod belongs to: its CronJob, Job, StatefulSet or
// DaemonSet, or for a ReplicaSet's pod the Deployment whose name the ReplicaSet's extends.
func workloadOf(snap *snapshot.Snapshot, p snapshot.Pod, modelled map[string]findings.WorkloadNumbers) string {
	kind, ns, name := owner(snap, p)
	if kind == "" {
		if _, ok := modelled["Pod "+p.Namespace+"/"+p.Name]; ok {
			return "Pod " + p.Namespace + "/" + p.Name
		}
		return ""
	}
	if kind == "ReplicaSet" {
		if i := strings.LastIndex(name, "-"); i > 0 {
			if k := "Deployment " + ns + "/" + name[:i]; modelled[k].Name != "" {
				return k
			}
		}
	}
	if k := kind + " " + ns + "/" + name; modelled[k].Name != "" {
		return k
	}
	return ""
}
