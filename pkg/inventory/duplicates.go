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
