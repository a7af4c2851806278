package inventory

import "fmt"

// Autoscaler is a HorizontalPodAutoscaler (autoscaling/v1, v2) or a KEDA ScaledObject
// (keda.sh/v1alpha1): it sets its target's replicas anywhere up to MaxReplicas, whatever the
// target's own spec.replicas says.
type Autoscaler struct {
	Object
	// TargetKind and TargetName are scaleTargetRef's (kind Deployment when a ScaledObject
	// leaves it out, as KEDA does).
	TargetKind string
	TargetName string
	// MaxReplicas is spec.maxReplicas (HPA, required) or spec.maxReplicaCount (KEDA, 100 when
	// absent).
	MaxReplicas int
}

// ScaledBy records the autoscaler that bounds a workload's replicas.
type ScaledBy struct {
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	MaxReplicas int      `json:"maxReplicas"`
	Location    Position `json:"location"`
}

// ApplyAutoscalers raises the replicas of every workload an autoscaler targets to the
// autoscaler's maximum (the worst case: the scaler may reach it at any time) and recomputes a
// Deployment's surge for it. An autoscaler whose target is not among the workloads is
// returned as unresolved: the pods it scales are not counted.
func ApplyAutoscalers(workloads []Workload, scalers []Autoscaler) []UnresolvedObject {
	byKey := map[string]int{}
	for i, w := range workloads {
		byKey[w.Kind+"/"+w.Namespace+"/"+w.Name] = i
	}
	var missing []UnresolvedObject
	for _, a := range scalers {
		i, ok := byKey[a.TargetKind+"/"+a.Namespace+"/"+a.TargetName]
		if !ok {
			missing = append(missing, UnresolvedObject{
				Source: fmt.Sprintf("%s %s/%s", a.Kind, a.Namespace, a.Name), Location: a.Locations.At(""), Severity: "warning", Pods: true,
				Reason: fmt.Sprintf("it scales %s %s/%s up to %d replicas, which is not in the scanned files, so those pods are not counted; scan the manifest that defines it", a.TargetKind, a.Namespace, a.TargetName, a.MaxReplicas),
			})
			continue
		}
		w := &workloads[i]
		if w.Replicas == nil {
			continue // not a scalable kind (a DaemonSet, a Job)
		}
		loc := a.Locations.At("spec.maxReplicas")
		if !loc.Known() {
			loc = a.Locations.At("spec.maxReplicaCount")
		}
		if !loc.Known() {
			loc = a.Locations.At("")
		}
		if w.ScaledBy != nil && w.ScaledBy.MaxReplicas >= a.MaxReplicas {
			continue // two scalers on one target: the larger maximum counts
		}
		w.ScaledBy = &ScaledBy{Kind: a.Kind, Name: a.Name, MaxReplicas: a.MaxReplicas, Location: loc}
		replicas := max(*w.Replicas, a.MaxReplicas)
		w.Replicas = &replicas
		if w.MaxSurge != nil {
			if surge, err := DeploymentSurge(replicas, w.StrategyType, w.MaxSurgeText); err == nil {
				w.MaxSurge = &surge
			}
		}
	}
	return missing
}
