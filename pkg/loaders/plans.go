package loaders

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// TerraformPlan is a plan or state JSON file the user names (--terraform-plan FILE[:ROOT],
// terraformPlans: in the config), with the root module it is of; Root empty means the plan
// file's folder.
type TerraformPlan struct {
	File string
	Root string
}

// namedPlan says whether the user named file as a plan.
func (o Options) namedPlan(file string) bool {
	for _, p := range o.TerraformPlans {
		if filepath.Clean(p.File) == filepath.Clean(file) {
			return true
		}
	}
	return false
}

// planRoot is the root module a plan file stands for: the one the user gave, else its folder.
func (o Options) planRoot(file string) string {
	for _, p := range o.TerraformPlans {
		if filepath.Clean(p.File) == filepath.Clean(file) && p.Root != "" {
			return filepath.Clean(p.Root)
		}
	}
	return filepath.Dir(filepath.Clean(file))
}

// joinPlans makes each plan read replace the static evaluation of its root: the plan's node
// groups, Fargate profiles and manifests (kubectl_manifest, kubernetes_manifest) stand, each
// joined by address to the code that declares it so that findings point at the code's lines;
// what the plan reader does not read (typed kubernetes_* resources, helm_release, the CNI
// settings) stays the code's. A root evaluated in several environments (var files) has the
// plan replace its default evaluation, or the first. A plan whose root's code is not scanned
// stands alone, located at the plan.
func joinPlans(fsys *confine.FS, frags []inventory.Fragment, opts Options) []inventory.PlanSummary {
	canonical := func(p string) string { return filepath.Clean(fsys.Abs(p)) }
	var out []inventory.PlanSummary
	replaced := map[string]string{} // root → the plan that replaced it
	for i := range frags {
		plan := &frags[i]
		if plan.Plan == nil {
			continue
		}
		root := opts.planRoot(plan.File)
		if first, ok := replaced[canonical(root)]; ok {
			// Two plans of one root would each stand for it: which is applied is not ours to
			// guess.
			*plan = inventory.Fragment{File: plan.File, Errors: []inventory.LoadError{{Position: inventory.Position{File: plan.File, Line: 1, Column: 1},
				Message: fmt.Sprintf("a second Terraform plan of the root module %s (the first is %s): not read; name each root's plan once, with --terraform-plan FILE:ROOT for a plan kept elsewhere", filepath.ToSlash(root), first)}}}
			continue
		}
		replaced[canonical(root)] = plan.File
		sum := inventory.PlanSummary{File: plan.File, Kind: plan.Plan.Kind, TerraformVersion: plan.Plan.TerraformVersion, Root: filepath.ToSlash(root), Resources: plan.Plan.Resources}
		var code *inventory.Fragment
		for j := range frags {
			f := &frags[j]
			if f.Plan == nil && f.TerraformRoot != "" && canonical(f.TerraformRoot) == canonical(root) && (code == nil || f.Environment == "" && code.Environment != "") {
				code = f
			}
		}
		if code == nil {
			plan.TerraformRoot = root
			sum.PlanOnly = len(plan.NodeGroups) + countObjects(plan)
			out = append(out, sum)
			continue
		}
		joinNodeGroups(plan, code, &sum)
		joinObjects(plan, code, &sum)
		// The plan's part now stands in the code's fragment: one cluster, one environment.
		joined := *plan
		joined.Plan, joined.File, joined.Errors = nil, "", nil
		code.Append(joined)
		errs := plan.Errors
		*plan = inventory.Fragment{File: plan.File, Errors: errs, Documents: plan.Documents}
		out = append(out, sum)
	}
	return out
}

func countObjects(f *inventory.Fragment) int {
	n := 0
	f.EachObject(func(*inventory.Object) { n++ })
	return n + len(f.NodePools)
}

// joinNodeGroups gives each of the plan's node groups the code's position: the group the code
// declares at the same address, or under the longest address that contains it (a module
// instance eni-lint reads in place of a registry module's code; a resource whose count or
// for_each the code alone cannot expand). The code's groups are then dropped: the plan's
// values stand, and where they differ from the code's known ones the summary says so. A value
// the plan knows only after apply that the code writes literally keeps the code's.
func joinNodeGroups(plan, code *inventory.Fragment, sum *inventory.PlanSummary) {
	used := make([]bool, len(code.NodeGroups))
	for i := range plan.NodeGroups {
		pg := &plan.NodeGroups[i]
		j := codeGroupOf(code.NodeGroups, pg.Address)
		if j < 0 {
			sum.PlanOnly++
			continue
		}
		used[j] = true
		sum.Joined++
		cg := code.NodeGroups[j]
		switch {
		case pg.UnknownTypes != "" && cg.UnknownTypes == "" && len(cg.InstanceTypes) > 0:
			pg.InstanceTypes, pg.UnknownTypes, pg.TypeLocations = cg.InstanceTypes, "", cg.TypeLocations
		case cg.UnknownTypes == "" && len(cg.InstanceTypes) > 0 && !sameSet(cg.InstanceTypes, pg.InstanceTypes):
			sum.Disagreements = append(sum.Disagreements, fmt.Sprintf("%s: the code gives instance types %s (%s), the plan %s", pg.Address,
				strings.Join(cg.InstanceTypes, ","), where(cg.Location), orNone(pg.InstanceTypes)))
			code.PlanDisagreements = append(code.PlanDisagreements, inventory.PlanDisagreement{Plan: plan.File, Address: pg.Address,
				Location: cg.Location, CodeTypes: cg.InstanceTypes, PlanTypes: pg.InstanceTypes})
			pg.TypeLocations = codeTypePositions(cg, max(len(pg.InstanceTypes), 1))
		default:
			pg.TypeLocations = codeTypePositions(cg, max(len(pg.InstanceTypes), 1))
		}
		pg.Location, pg.Ignores = cg.Location, cg.Ignores
		// A name only apply gives (node_group_name_prefix, no name) reads better as the
		// code's key.
		if (pg.Name == pg.Address || strings.HasSuffix(pg.Name, "*")) && cg.Name != "" && cg.Name != cg.Address {
			pg.Name = cg.Name
		}
	}
	var kept []inventory.NodeGroupSpec
	for j, cg := range code.NodeGroups {
		if !used[j] && !planReads(cg.Source) {
			kept = append(kept, cg) // the plan reader does not read this kind: the code's stands
			continue
		}
		switch {
		case used[j]:
		case cg.Address == "":
			// A group of a module eni-lint reads in place of its code whose resource address
			// it cannot name (aws-ia blueprints v4, the EKS module's v17 worker groups): the
			// plan's group of it is there, unjoined; no finding claims the plan lacks it.
			sum.Disagreements = append(sum.Disagreements, fmt.Sprintf("%s (%s): eni-lint cannot name this group's resource address, so it is not joined to the plan's", cg.Name, where(cg.Location)))
		default:
			sum.Disagreements = append(sum.Disagreements, fmt.Sprintf("%s (%s): declared in the code, not in the plan", cg.Address, where(cg.Location)))
			code.PlanDisagreements = append(code.PlanDisagreements, inventory.PlanDisagreement{Plan: plan.File, Address: cg.Address,
				Location: cg.Location, CodeTypes: cg.InstanceTypes, OnlyInCode: true})
		}
	}
	code.NodeGroups = kept
	// Fargate profiles: the plan's, at the code's position when the code declares one of
	// the same name.
	codeProfiles := map[string]inventory.Position{}
	for _, p := range code.FargateProfiles {
		codeProfiles[p.Name] = p.Location
	}
	for i := range plan.FargateProfiles {
		if at, ok := codeProfiles[plan.FargateProfiles[i].Name]; ok {
			plan.FargateProfiles[i].Location = at
		}
	}
	code.FargateProfiles = nil
}

// planReads says whether the plan reader reads the kind of node group the code read from
// source: EKS Auto Mode's built-in pools (aws_eks_cluster compute_config) it does not.
func planReads(source string) bool { return !strings.Contains(source, "eks-auto-mode") }

// codeGroupOf finds the code's group for a plan address: the same address, else the longest
// code address that contains it; -1 when none does, or when two groups share that address (a
// join would be a guess).
func codeGroupOf(groups []inventory.NodeGroupSpec, address string) int {
	best, ties := -1, 0
	for i, g := range groups {
		switch {
		case g.Address == "":
		case g.Address == address:
			return i
		case strings.HasPrefix(address, g.Address+".") || strings.HasPrefix(address, g.Address+"["):
			switch {
			case best < 0 || len(g.Address) > len(groups[best].Address):
				best, ties = i, 0
			case g.Address == groups[best].Address:
				ties++
			}
		}
	}
	if ties > 0 {
		return -1
	}
	return best
}

func codeTypePositions(cg inventory.NodeGroupSpec, n int) []inventory.Position {
	if len(cg.TypeLocations) == n {
		return cg.TypeLocations
	}
	at := cg.Location
	if len(cg.TypeLocations) > 0 {
		at = cg.TypeLocations[0]
	}
	out := make([]inventory.Position, n)
	for i := range out {
		out[i] = at
	}
	return out
}

// joinObjects puts the plan's manifests where the code declares them: an object of the same
// resource instance and identity takes the code's positions and origin (so `fix` edits the
// code); the code's objects and unresolved declarations of the resources the plan read go.
func joinObjects(plan, code *inventory.Fragment, sum *inventory.PlanSummary) {
	read := plan.Plan.Addresses
	byKey := codeObjectsRead(code, read)
	// The code's declarations it could not read (a yaml_body from templatefile() or a data
	// source) are where the plan's objects of that resource are declared.
	unreadAt := map[string]inventory.Position{}
	for _, u := range code.Unresolved {
		if _, seen := unreadAt[u.Source]; !seen {
			unreadAt[u.Source] = u.Location
		}
	}
	plan.EachObject(func(o *inventory.Object) {
		c, ok := byKey[o.Origin.Resource+" "+inventory.ObjectKey(o.Kind, o.Namespace, o.Name)]
		if !ok {
			at, declared := unreadAt[withoutKey(o.Origin.Resource)]
			if !declared {
				sum.PlanOnly++
				return
			}
			sum.Joined++
			o.Locations.Update(func(string, inventory.Position) inventory.Position { return at })
			o.Origin.Declared = at
			return
		}
		sum.Joined++
		doc := c.locations.At("")
		locations := inventory.NewFieldPositions()
		for path := range o.Locations.All() {
			if at, ok := c.locations.Get(path); ok {
				locations.Set(path, at)
			} else {
				locations.Set(path, doc)
			}
		}
		o.Locations, o.Origin, o.Ignores = locations, c.origin, c.ignores
	})
	code.DropObjects(func(o *inventory.Object) bool { return read[o.Origin.Resource] })
	joinNodePools(plan, code, sum)
	// What the code could not read at an address the plan resolved is resolved.
	var bases []string
	for a := range read {
		bases = append(bases, a)
	}
	sort.Strings(bases)
	code.Unresolved = slices.DeleteFunc(code.Unresolved, func(u inventory.UnresolvedObject) bool {
		for _, a := range bases {
			if a == u.Source || strings.HasPrefix(a, u.Source+"[") || strings.HasPrefix(a, u.Source+".") {
				return true
			}
		}
		return false
	})
}

// joinNodePools: NodePools the plan declares (kubectl_manifest) replace the code's of the
// same identity, at the code's positions.
func joinNodePools(plan, code *inventory.Fragment, sum *inventory.PlanSummary) {
	planPools := map[string]bool{}
	codePools := map[string]inventory.NodePool{}
	for _, p := range code.NodePools {
		codePools[inventory.ObjectKey(p.Kind, "", p.Name)] = p
	}
	for i := range plan.NodePools {
		p := &plan.NodePools[i]
		key := inventory.ObjectKey(p.Kind, "", p.Name)
		planPools[key] = true
		c, ok := codePools[key]
		if !ok {
			sum.PlanOnly++
			continue
		}
		sum.Joined++
		p.Location = c.Location
		if len(c.RequirementLocations) == len(p.RequirementLocations) {
			p.RequirementLocations = c.RequirementLocations
		}
	}
	code.NodePools = slices.DeleteFunc(code.NodePools, func(p inventory.NodePool) bool { return planPools[inventory.ObjectKey(p.Kind, "", p.Name)] })
}

// codeObject is what the plan's object of the same identity takes from the code's.
type codeObject struct {
	locations *inventory.FieldPositions
	origin    inventory.Origin
	ignores   []inventory.Ignore
}

// codeObjectsRead are the code's objects of the resources the plan read, by resource
// instance and identity.
func codeObjectsRead(code *inventory.Fragment, read map[string]bool) map[string]codeObject {
	byKey := map[string]codeObject{}
	code.EachObject(func(o *inventory.Object) {
		if read[o.Origin.Resource] {
			byKey[o.Origin.Resource+" "+inventory.ObjectKey(o.Kind, o.Namespace, o.Name)] = codeObject{o.Locations, o.Origin, o.Ignores}
		}
	})
	return byKey
}

// withoutKey is a resource instance's address without its instance key: the resource.
func withoutKey(address string) string {
	if strings.HasSuffix(address, "]") {
		if i := strings.LastIndex(address, "["); i > 0 {
			return address[:i]
		}
	}
	return address
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

func where(p inventory.Position) string {
	if p.Line == 0 {
		return filepath.ToSlash(p.File)
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(p.File), p.Line)
}

func orNone(types []string) string {
	if len(types) == 0 {
		return "none it can name"
	}
	return strings.Join(types, ",")
}
