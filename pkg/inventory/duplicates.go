package inventory

// Reconcile is the one step that decides which definitions are the same object: for every
// kind of object of the inventory (objectKinds: workloads, SecurityGroupPolicies,
// ServiceAccounts, Namespaces), the
// definitions that share kind, namespace and name record where all of them are. They stay in
// the inventory (each may be the one applied, and the rules count a workload's worst one);
// ENI013 names them. NodePools, which become node groups, are reconciled by
// DuplicateNodePools.
func Reconcile(inv *Inventory) {
	inv.EachKind(markDuplicates)
}

func markDuplicates(objects []*Object, builtBy []string) {
	for _, idx := range sameIdentity(len(objects), func(i int) string {
		o := objects[i]
		return o.Kind + "/" + o.Namespace + "/" + o.Name
	}) {
		var at []Definition
		first := idx[0]
		for _, i := range idx {
			o := objects[i]
			at = append(at, Definition{Location: o.Locations.At(""), BuiltBy: builtBy[i]})
			if before(o.Locations.At(""), objects[first].Locations.At("")) {
				first = i
			}
		}
		for _, i := range idx {
			objects[i].Duplicates, objects[i].FirstDefinition = at, i == first
		}
	}
}

// DuplicateNodePools finds the Karpenter (and EKS Auto Mode) NodePools and Provisioners a
// cluster defines more than once under one kind and name: cluster-scoped objects, so one
// object in the cluster, whichever definition was applied last. For each pool (same order) it
// returns every definition of its name, or nil when there is one.
func DuplicateNodePools(pools []NodePool) [][]Definition {
	out := make([][]Definition, len(pools))
	for _, idx := range sameIdentity(len(pools), func(i int) string { return pools[i].Kind + "/" + pools[i].Name }) {
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

// sameIdentity groups the indexes 0..n-1 by identity, and returns the groups of more than one.
func sameIdentity(n int, identity func(int) string) [][]int {
	byIdentity := map[string][]int{}
	for i := 0; i < n; i++ {
		key := identity(i)
		byIdentity[key] = append(byIdentity[key], i)
	}
	var out [][]int
	for _, idx := range byIdentity {
		if len(idx) > 1 {
			out = append(out, idx)
		}
	}
	return out
}

// before orders positions by file, then line, then column.
func before(a, b Position) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// ReadOnce drops the definitions that are one document read by two loaders, before anything
// counts them: Terraform declaring, from a file another loader read as a manifest, the same
// objects again. That is kubectl_manifest { yaml_body = file("job.yaml") } (the object's
// document is in a file read as a manifest), and kubectl_file_documents or for_each over
// file() text (an object of the same identity as one of a file the same root read with
// file()). The copy read as a manifest stays: its positions are the file's own. Definitions
// of one identity from different documents are not this: Reconcile marks them duplicates.
// canonical names a file the same way whichever loader read it.
func ReadOnce(frags []Fragment, canonical func(string) string) {
	// Only a Terraform root reads a document twice; the identities of a manifest file matter
	// only when a root read its text with file(). Without Terraform nothing is built.
	readByTerraform := map[string]bool{}
	terraform := false
	for i := range frags {
		if frags[i].TerraformRoot != "" {
			terraform = true
			for _, r := range frags[i].ReadFiles {
				readByTerraform[canonical(r)] = true
			}
		}
	}
	if !terraform {
		return
	}
	// Each file read as a manifest that declares something: a fragment emptied by the walk (a
	// template Terraform renders, a chart a release renders) declares nothing, and Terraform's
	// objects from it are the only ones.
	declaresAny := map[string]bool{}
	declares := map[string]map[string]bool{} // file Terraform also read → the identities it declares
	for i := range frags {
		f := &frags[i]
		if f.TerraformRoot != "" {
			continue
		}
		file := canonical(f.File)
		for _, p := range parts {
			if p.identity == nil {
				continue
			}
			p.identity(f, func(key string, _ Position) {
				declaresAny[file] = true
				if readByTerraform[file] {
					if declares[file] == nil {
						declares[file] = map[string]bool{}
					}
					declares[file][key] = true
				}
			})
		}
	}
	for i := range frags {
		f := &frags[i]
		if f.TerraformRoot == "" {
			continue
		}
		fromReadText := map[string]bool{}
		for _, r := range f.ReadFiles {
			for key := range declares[canonical(r)] {
				fromReadText[key] = true
			}
		}
		for _, p := range parts {
			if p.identity == nil {
				continue
			}
			var gone []bool
			p.identity(f, func(key string, at Position) {
				// A setting with no object identity (an addon's) is a declaration of its own.
				gone = append(gone, key != "" && (declaresAny[canonical(at.File)] || fromReadText[key]))
			})
			p.drop(f, func(i int) bool { return gone[i] })
		}
	}
}
