package inventory

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/limits"
)

// NodeGroupSpec is a node group as a user or a loader declares it, before its instance types
// are looked up.
type NodeGroupSpec struct {
	Name   string
	Source string
	// Address is the Terraform resource instance that declares the group
	// (module.eks.aws_eks_node_group.this["gpu"]), or the module instance for a registry
	// module eni-lint reads in place of its code (module.eks.module.eks_managed_node_group["gpu"]):
	// the group's provenance, which a Terraform plan's resources join to.
	Address       string
	Location      Position
	InstanceTypes []string
	// TypeLocations are where each instance type is written, when known (same order).
	TypeLocations []Position
	Labels        map[string]string
	Taints        []Taint
	MaxPods       *int
	// UnknownTypes, when set, says why the instance types cannot be known (a data source, a
	// variable without value); the group gets one unknown type carrying the reason.
	UnknownTypes string
	// LaunchesNothing, when set, says why the group is known to launch no node (an EKS Auto
	// Mode pool that admits only types Auto Mode never launches): it has no instance types,
	// so no workload lands on it, and the report says why.
	LaunchesNothing string
	// Duplicates, for a NodePool defined more than once in one cluster, are all its
	// definitions (ENI013). Each definition stays a node group: either may be the one applied.
	Duplicates []Definition
	// SelfManaged groups (Auto Scaling groups) carry no EKS managed node group labels.
	SelfManaged bool
	// Windows nodes never get branch ENIs.
	Windows bool
	// Arch overrides the instance table's architecture (from an AMI type); CapacityType is
	// ON_DEMAND or SPOT for managed groups.
	Arch         string
	CapacityType string
	MinSize      *int
	MaxSize      *int
	// Ignores are eni-lint:ignore comments on the code that declares the group.
	Ignores []Ignore
	// TypeLabels, when set, are the labels a node of each entry of InstanceTypes carries besides
	// the group's (Karpenter's karpenter.k8s.aws/instance-* labels, a capacity type); same order.
	TypeLabels []map[string]string
	// TypeVariants tell apart entries of the same type whose launch-time labels differ
	// ("karpenter.sh/capacity-type=spot"); same order, "" when there is one.
	TypeVariants []string
	// PicksTrunkingTypes is set for provisioners (Karpenter) that launch, for pods requesting
	// vpc.amazonaws.com/pod-eni, only types offering it: their types without trunking never
	// take such pods, so mixing them in is no waste.
	PicksTrunkingTypes bool
	// AutoMode marks EKS Auto Mode node pools, where security groups for Pods work differently.
	AutoMode bool
	// Cluster is the cluster the declaring code names (an eksctl ClusterConfig, a
	// CloudFormation template), when it names one; Terraform's come from the fragment.
	Cluster ClusterRef
	// Environment is the Terraform environment the group was evaluated in: the same block
	// read with two var files is two node groups, told apart by their ids.
	Environment string
	// Root is the Terraform root module that evaluated the group when the group is declared
	// outside it (a shared local module that two roots call): two node groups, told apart by
	// their ids.
	Root string
}

// ClusterRef names the cluster infrastructure code declares a node group in.
type ClusterRef struct {
	// Kind is eksctl or cloudformation.
	Kind string
	// Name is the ClusterConfig's metadata.name, or the template's file.
	Name     string
	Location Position
}

// UnknownInstanceType stands for instance types that cannot be known statically.
const UnknownInstanceType = "(unknown)"

// Labels every EKS node carries, set by kubelet and by EKS for managed node groups. User
// labels win over them, so a group can say it is Windows or SPOT.
const (
	LabelInstanceType     = "node.kubernetes.io/instance-type"
	LabelInstanceTypeBeta = "beta.kubernetes.io/instance-type"
	LabelArch             = "kubernetes.io/arch"
	LabelArchBeta         = "beta.kubernetes.io/arch"
	LabelOS               = "kubernetes.io/os"
	LabelOSBeta           = "beta.kubernetes.io/os"
	LabelNodeGroup        = "eks.amazonaws.com/nodegroup"
	LabelCapacityType     = "eks.amazonaws.com/capacityType"
)

// BuildNodeGroup looks each instance type up in the table and works out the labels a node of
// each type carries.
func BuildNodeGroup(spec NodeGroupSpec, table *limits.Table) NodeGroup {
	id := fmt.Sprintf("NodeGroup/%s@%s:%d", spec.Name, spec.Location.File, spec.Location.Line)
	var instance []string
	if spec.Root != "" {
		instance = append(instance, "root "+spec.Root)
	}
	if spec.Environment != "" {
		instance = append(instance, spec.Environment)
	}
	if len(instance) > 0 {
		id += "[" + strings.Join(instance, " ") + "]"
	}
	g := NodeGroup{
		ID:          id,
		Kind:        "NodeGroup",
		Ignores:     append([]Ignore{}, spec.Ignores...),
		Name:        spec.Name,
		Source:      spec.Source,
		Location:    spec.Location,
		Environment: spec.Environment,
		Labels:      map[string]string{},
		Taints:      append([]Taint{}, spec.Taints...),
		MaxPods:     spec.MaxPods,
	}
	for k, v := range spec.Labels {
		g.Labels[k] = v
	}
	g.MinSize, g.MaxSize, g.SelfManaged, g.Windows = spec.MinSize, spec.MaxSize, spec.SelfManaged, spec.Windows
	g.PicksTrunkingTypes, g.AutoMode = spec.PicksTrunkingTypes, spec.AutoMode
	g.LaunchesNothing, g.Duplicates = spec.LaunchesNothing, spec.Duplicates
	names := spec.InstanceTypes
	if spec.LaunchesNothing != "" {
		names = nil
	} else if spec.UnknownTypes != "" {
		names = append(append([]string{}, names...), UnknownInstanceType)
	}
	for i, name := range names {
		it, known := table.Lookup(name)
		inst := NodeGroupInstance{Name: name, Known: known, Trunking: it.Trunking, BranchInterfaces: it.BranchInterfaces, Source: it.Source}
		if name == UnknownInstanceType {
			inst.Known, inst.UnknownReason = false, spec.UnknownTypes
		}
		if spec.Windows {
			// Security groups for Pods cannot be used with Windows nodes.
			inst.Trunking, inst.BranchInterfaces = false, 0
		}
		if i < len(spec.TypeLocations) {
			inst.Location = spec.TypeLocations[i]
		} else if len(spec.TypeLocations) > 0 {
			inst.Location = spec.TypeLocations[0]
		}
		inst.Key = name
		if i < len(spec.TypeVariants) && spec.TypeVariants[i] != "" {
			inst.Variant = spec.TypeVariants[i]
			inst.Key = name + " [" + inst.Variant + "]"
		}
		inst.NodeLabels = typeLabels(spec, i, name, it.Arch)
		g.InstanceTypes = append(g.InstanceTypes, inst)
	}
	if g.InstanceTypes == nil {
		g.InstanceTypes = []NodeGroupInstance{}
	}
	return g
}

// typeLabels are the labels a node of the i-th type of spec carries: the well-known ones (type,
// OS, architecture, the managed group's name and capacity type), the type's own (a pool's
// launch variant), then the group's.
func typeLabels(spec NodeGroupSpec, i int, name, typeArch string) map[string]string {
	os := "linux"
	if spec.Windows {
		os = "windows"
	}
	labels := map[string]string{
		LabelInstanceType:     name,
		LabelInstanceTypeBeta: name,
		LabelOS:               os,
		LabelOSBeta:           os,
	}
	if !spec.SelfManaged {
		capacity := spec.CapacityType
		if capacity == "" {
			capacity = "ON_DEMAND"
		}
		labels[LabelNodeGroup] = spec.Name
		labels[LabelCapacityType] = capacity
	}
	arch := typeArch
	if spec.Arch != "" {
		arch = spec.Arch
	}
	if arch != "" {
		labels[LabelArch] = arch
		labels[LabelArchBeta] = arch
	}
	if i < len(spec.TypeLabels) {
		for k, v := range spec.TypeLabels[i] {
			labels[k] = v
		}
	}
	for k, v := range spec.Labels {
		labels[k] = v
	}
	return labels
}

// Families returns, for every family used by the node groups, its trunking types by branch
// capacity: the candidates when a finding suggests a larger type.
func Families(groups []NodeGroup, table *limits.Table) map[string][]FamilyStep {
	out := map[string][]FamilyStep{}
	for _, g := range groups {
		for _, t := range g.InstanceTypes {
			family, _, _ := strings.Cut(t.Name, ".")
			if _, done := out[family]; done || !t.Known {
				continue
			}
			steps := []FamilyStep{}
			for _, it := range table.FamilyLadder(family) {
				steps = append(steps, FamilyStep{Name: it.Name, BranchInterfaces: it.BranchInterfaces})
			}
			out[family] = steps
		}
	}
	return out
}

// SortNodeGroups orders groups by name so reports do not depend on input order.
func SortNodeGroups(groups []NodeGroup) {
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
}
