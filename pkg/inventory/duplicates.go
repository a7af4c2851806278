package inventory

// MarkDuplicates records, on every workload whose kind, namespace and name another workload
// shares, where all those definitions are.
func MarkDuplicates(workloads []Workload) {
	byIdentity := map[string][]int{}
	for i, w := range workloads {
		key := w.Kind + "/" + w.Namespace + "/" + w.Name
		byIdentity[key] = append(byIdentity[key], i)
	}
	for _, idx := range byIdentity {
		if len(idx) < 2 {
			continue
		}
		var at []Definition
		for _, i := range idx {
			at = append(at, Definition{Location: workloads[i].Locations[""], BuiltBy: workloads[i].BuiltBy})
		}
		for _, i := range idx {
			workloads[i].Duplicates = at
		}
	}
}

// DuplicateNodePools finds the Karpenter (and EKS Auto Mode) NodePools and Provisioners a
// cluster defines more than once under one kind and name: cluster-scoped objects, so one
// object in the cluster, whichever definition was applied last. For each pool (same order) it
// returns every definition of its name, or nil when there is one.
func DuplicateNodePools(pools []NodePool) [][]Definition {
	byIdentity := map[string][]int{}
	for i, p := range pools {
		key := p.Kind + "/" + p.Name
		byIdentity[key] = append(byIdentity[key], i)
	}
	out := make([][]Definition, len(pools))
	for _, idx := range byIdentity {
		if len(idx) < 2 {
			continue
		}
		var at []Definition
		for _, i := range idx {
			at = append(at, Definition{Location: pools[i].Location})
		}
		for _, i := range idx {
			out[i] = at
		}
	}
	return out
}
