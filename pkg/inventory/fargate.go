package inventory

import "path"

// FargateProfile is an EKS Fargate profile: pods that one of its selectors matches run on
// Fargate, where each pod gets its own network interface and security groups for Pods apply
// without a node's branch ENI. So they take no branch ENI from any node group.
type FargateProfile struct {
	Name      string
	Source    string
	Location  Position
	Selectors []FargateSelector
	// Cluster is set for an eksctl ClusterConfig's profiles.
	Cluster ClusterRef
}

// FargateSelector matches a namespace (with * and ? wildcards, as EKS allows) and, when
// given, labels the pod must all carry.
type FargateSelector struct {
	Namespace string
	Labels    map[string]string
}

// FargateMatch says which profile runs a workload's pods.
type FargateMatch struct {
	Profile  string   `json:"profile"`
	Location Position `json:"location"`
}

// Matches reports whether a pod in namespace with labels is selected.
func (s FargateSelector) Matches(namespace string, labels map[string]string) bool {
	if ok, err := path.Match(s.Namespace, namespace); err != nil || !ok {
		return false
	}
	for k, v := range s.Labels {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// AssignFargate marks the workloads whose pods a Fargate profile selects: the first profile,
// in the order given, with a matching selector (EKS picks one when several match).
func AssignFargate(workloads []Workload, profiles []FargateProfile) {
	for i := range workloads {
		w := &workloads[i]
		for _, p := range profiles {
			for _, s := range p.Selectors {
				if s.Matches(w.Namespace, w.Pod.Labels) {
					w.Fargate = &FargateMatch{Profile: p.Name, Location: p.Location}
					break
				}
			}
			if w.Fargate != nil {
				break
			}
		}
	}
}
