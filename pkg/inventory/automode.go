package inventory

// EKS Auto Mode's built-in NodePools, as the EKS user guide describes them ("Built-in NodePool
// Reference", latest/ug/automode/set-builtin-node-pools.adoc): both use the default EKS
// NodeClass, only on-demand capacity, the C, M and R categories and generation 5 or newer;
// system carries the CriticalAddonsOnly taint and runs amd64 and arm64, general-purpose runs
// amd64 only. They cannot be changed, only enabled or disabled.
const (
	AutoModeGeneralPurpose = "general-purpose"
	AutoModeSystem         = "system"
)

// AutoModeBuiltinPools are the pools Auto Mode enables by default (eksctl's defaults.go sets
// both when autoModeConfig.nodePools is absent).
var AutoModeBuiltinPools = []string{AutoModeGeneralPurpose, AutoModeSystem}

// AutoModeBuiltinPool returns a built-in pool as a NodePool declared at the given position,
// or false for a name Auto Mode does not have.
func AutoModeBuiltinPool(name string, at Position) (NodePool, bool) {
	arch := []string{"amd64"}
	var taints []Taint
	switch name {
	case AutoModeGeneralPurpose:
	case AutoModeSystem:
		arch = []string{"amd64", "arm64"}
		taints = []Taint{{Key: "CriticalAddonsOnly", Effect: "NoSchedule"}}
	default:
		return NodePool{}, false
	}
	reqs := []Requirement{
		{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{"on-demand"}},
		{Key: "eks.amazonaws.com/instance-category", Operator: "In", Values: []string{"c", "m", "r"}},
		{Key: "eks.amazonaws.com/instance-generation", Operator: "Gt", Values: []string{"4"}},
		{Key: LabelArch, Operator: "In", Values: arch},
		{Key: LabelOS, Operator: "In", Values: []string{"linux"}},
	}
	locs := make([]Position, len(reqs))
	for i := range locs {
		locs[i] = at
	}
	return NodePool{
		Name: name, APIVersion: "karpenter.sh/v1", Kind: "built-in NodePool", Location: at,
		Requirements: reqs, RequirementLocations: locs, Labels: map[string]string{}, Taints: taints,
		NodeClass: "default", NodeClassGroup: "eks.amazonaws.com",
	}, true
}
