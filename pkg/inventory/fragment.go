package inventory

import (
	"cmp"
	"slices"
)

// LoadError is input eni-lint could not read: a file it could not open, YAML that does not
// parse, a field of the wrong type. It is reported with its position and makes the run fail
// (exit code 2) while everything else is still analysed.
type LoadError struct {
	Position Position `json:"position"`
	Message  string   `json:"message"`
}

// Fragment is what one loader read from one file (or stream).
type Fragment struct {
	File                  string
	Documents             int
	Workloads             []Workload
	SecurityGroupPolicies []SecurityGroupPolicy
	ServiceAccounts       []ServiceAccount
	Namespaces            []Namespace
	// NodeGroups are declared by infrastructure code (Terraform); the run resolves their
	// instance types against the limits table.
	NodeGroups []NodeGroupSpec
	// CNISettings configure the VPC CNI.
	CNISettings []CNISetting
	// NodePools and NodeClasses are Karpenter's, resolved into node groups once every file
	// is read (a NodePool names its EC2NodeClass, which may be in another file).
	NodePools   []NodePool
	NodeClasses []NodeClass
	// FargateProfiles are declared by infrastructure code (Terraform, eksctl).
	FargateProfiles []FargateProfile
	// Autoscalers (HPA, KEDA ScaledObject) set their targets' replicas once every file is read.
	Autoscalers []Autoscaler
	// ArgoTemplates are the pods each WorkflowTemplate or ClusterWorkflowTemplate makes per run,
	// as workloads that count only through the workflows that reference them.
	ArgoTemplates []Workload
	// NotModelled are objects of kinds eni-lint does not model that embed a pod spec (an Argo
	// Rollout, a Workflow): their pods are not counted, and the report lists them.
	NotModelled []Object
	// Unresolved are declared objects that cannot be read statically.
	Unresolved []UnresolvedObject
	// Templates are files infrastructure code renders (Terraform's templatefile()): not
	// manifests, whatever their extension.
	Templates []string
	// ReadFiles are the files infrastructure code read as text (Terraform's file()): objects
	// it declares from them may also be read from the file itself.
	ReadFiles []string
	// Charts are the chart folders of the tree infrastructure code installs (Terraform's
	// helm_release): such a chart counts from there, with the release's values, not on its own.
	Charts []string
	// RenderedCharts are the chart folders a loader rendered itself, as the user names them
	// (a kustomization's helmCharts), for the reports' list of charts rendered.
	RenderedCharts []string
	// NotManifest, when set, says why the file was found to be no manifest (a template):
	// the walk lists it as not read instead of reporting its parse error.
	NotManifest string
	Errors      []LoadError
	// TerraformRoot is the root module a Terraform fragment was evaluated from; Environment
	// and VarFiles say in which environment (empty without one). Each root and environment
	// with node groups is a cluster of its own.
	TerraformRoot string
	Environment   string
	VarFiles      []string
	// ConfigCluster is the config cluster whose var files the environment is.
	ConfigCluster string
	// PlanDisagreements are where a Terraform plan that replaced this root's evaluation
	// disagrees with the code.
	PlanDisagreements []PlanDisagreement
	// Plan is set on a fragment read from a Terraform plan or state file (pkg/loaders/tfplan):
	// what it covers, for the join to the root's code.
	Plan *PlanRead
}

// PlanRead describes a fragment read from `terraform show -json` output.
type PlanRead struct {
	// Kind is "plan" or "state"; TerraformVersion is the version that wrote the file.
	Kind             string
	TerraformVersion string
	// Resources counts the managed resources the file holds.
	Resources int
	// Addresses are the resource instances of the types the plan reader reads (node groups,
	// launch templates, Fargate profiles, kubectl_manifest, kubernetes_manifest): what the
	// code declares at those addresses is replaced by the plan's.
	Addresses map[string]bool
}

// PlanSummary is what the report says about one plan or state file read.
type PlanSummary struct {
	File             string `json:"file"`
	Kind             string `json:"kind"`
	TerraformVersion string `json:"terraformVersion"`
	// Root is the Terraform root module the plan replaces the static evaluation of.
	Root      string `json:"root"`
	Resources int    `json:"resources"`
	// Joined counts the plan's node groups and objects matched by address to the code that
	// declares them (they are reported at the code's lines); PlanOnly those the scanned code
	// declares nowhere (reported at the plan, with their address).
	Joined   int `json:"joined"`
	PlanOnly int `json:"planOnly"`
	// Disagreements are where the evaluated code and the plan differ: a bug of eni-lint's
	// static evaluation, or a plan older than the code. The plan's values are the ones used.
	Disagreements []string `json:"disagreements,omitempty"`
}

// MovePositions moves every position the fragment's parts carry (a manifest generated from a
// Terraform resource or read from a plan is located at the resource), each part's own (see
// parts): objects' field positions, pools' and node groups' lines, CNI settings, Fargate
// profiles, unresolved declarations, plan disagreements and errors.
func (f *Fragment) MovePositions(move func(Position) Position) {
	for _, p := range parts {
		if p.positions != nil {
			p.positions(f, func(at *Position) { *at = move(*at) })
		}
	}
}

// part is one slice of a fragment: a kind of object (a workload, a NodePool) or something
// reported with them (an unresolved declaration, an error). It is the one place that says
// which slice holds it; Append, EachObject, DropObjects, ClearObjects and Reconcile go
// through the table below, so a new kind is one entry here (and the loader that fills it),
// never another hand-written list.
type part struct {
	name string
	// object, for the Kubernetes objects a rule reads, gives fn each element's Object.
	object func(f *Fragment, fn func(*Object))
	// identity, for every part that declares something of the cluster, calls fn with each
	// element's identity (kind, namespace, name) and where it is written; drop removes the
	// elements for which it says so (an index into the same order).
	identity func(f *Fragment, fn func(key string, at Position))
	drop     func(f *Fragment, drop func(i int) bool)
	move     func(dst, src *Fragment)
	clear    func(f *Fragment)
	// positions calls fn with every position an element carries, for MovePositions.
	positions func(f *Fragment, fn func(*Position))
	// merge appends the part's elements to the inventory slice of the same kind, for the parts
	// rules read directly (Merge); the others are resolved from the merged fragment.
	merge func(inv *Inventory, all *Fragment)
	// slice is the fragment's field, for the test that every slice field is a part.
	slice func(f *Fragment) any
	// node parts describe nodes (groups, pools, profiles): they stay with a fragment that
	// goes to a cluster its objects do not belong to (ClearObjects).
	node bool
}

// slicePart is a part with no identity: what a fragment carries besides declared objects.
func slicePart[T any](name string, slice func(*Fragment) *[]T) part {
	return part{
		name:  name,
		move:  func(dst, src *Fragment) { *slice(dst) = append(*slice(dst), *slice(src)...) },
		clear: func(f *Fragment) { *slice(f) = nil },
		slice: func(f *Fragment) any { return slice(f) },
	}
}

// withPositions gives a part the positions of its elements.
func withPositions[T any](p part, slice func(*Fragment) *[]T, each func(*T, func(*Position))) part {
	p.positions = func(f *Fragment, fn func(*Position)) {
		s := *slice(f)
		for i := range s {
			each(&s[i], fn)
		}
	}
	return p
}

// intoInventory makes a part's elements move to an inventory slice on Merge: the merged
// fragment gives them up rather than keep a second copy (at 100k documents, 40 MB of
// workloads) for the rest of the run.
func intoInventory[T any](p part, slice func(*Fragment) *[]T, dst func(*Inventory) *[]T) part {
	p.merge = func(inv *Inventory, all *Fragment) {
		if len(*dst(inv)) == 0 {
			*dst(inv) = *slice(all)
		} else {
			*dst(inv) = append(*dst(inv), *slice(all)...)
		}
		*slice(all) = nil
	}
	return p
}

// at is the positions of an element that has one.
func at[T any](pos func(*T) *Position) func(*T, func(*Position)) {
	return func(v *T, fn func(*Position)) { fn(pos(v)) }
}

// objectPositions is every field position of an object.
func objectPositions(o *Object, fn func(*Position)) {
	o.Locations.Update(func(_ string, p Position) Position {
		fn(&p)
		return p
	})
}

// declaredPart is a part whose elements are declared by name: identity and drop work on them.
func declaredPart[T any](name string, slice func(*Fragment) *[]T, key func(*T) (string, Position)) part {
	p := slicePart(name, slice)
	p.identity = func(f *Fragment, fn func(string, Position)) {
		s := *slice(f)
		for i := range s {
			fn(key(&s[i]))
		}
	}
	p.drop = func(f *Fragment, drop func(int) bool) {
		s := *slice(f)
		kept := s[:0]
		for i := range s {
			if !drop(i) {
				kept = append(kept, s[i])
			}
		}
		clear(s[len(kept):])
		*slice(f) = kept
	}
	return p
}

// objectPart is a part of Kubernetes objects with an Object each.
func objectPart[T any](name string, slice func(*Fragment) *[]T, object func(*T) *Object) part {
	p := declaredPart(name, slice, func(v *T) (string, Position) {
		o := object(v)
		return ObjectKey(o.Kind, o.Namespace, o.Name), o.Locations.At("")
	})
	p.object = func(f *Fragment, fn func(*Object)) {
		s := *slice(f)
		for i := range s {
			fn(object(&s[i]))
		}
	}
	return p
}

// ObjectKey is an object's identity in one cluster: kind, namespace ("" for a cluster-scoped
// object) and name.
func ObjectKey(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

// parts are the fragment's slices, in the order EachObject visits them: the one list of the
// kinds loaders produce. Each says its identity (kind, namespace, name; a CNI setting's is the
// ConfigMap it comes from), its positions, and the inventory slice it merges into.
var parts = []part{
	intoInventory(withPositions(objectPart("workload", workloads, func(w *Workload) *Object { return &w.Object }), workloads, func(w *Workload, fn func(*Position)) {
		objectPositions(&w.Object, fn)
		for j := range w.Pod.PodENIRequests {
			fn(&w.Pod.PodENIRequests[j].Location)
		}
	}), workloads, func(inv *Inventory) *[]Workload { return &inv.Workloads }),
	intoInventory(withPositions(objectPart("SecurityGroupPolicy", sgps, func(p *SecurityGroupPolicy) *Object { return &p.Object }), sgps,
		func(p *SecurityGroupPolicy, fn func(*Position)) { objectPositions(&p.Object, fn) }), sgps, func(inv *Inventory) *[]SecurityGroupPolicy { return &inv.SecurityGroupPolicies }),
	intoInventory(withPositions(objectPart("ServiceAccount", accounts, func(a *ServiceAccount) *Object { return &a.Object }), accounts,
		func(a *ServiceAccount, fn func(*Position)) { objectPositions(&a.Object, fn) }), accounts, func(inv *Inventory) *[]ServiceAccount { return &inv.ServiceAccounts }),
	intoInventory(withPositions(objectPart("Namespace", namespaces, func(n *Namespace) *Object { return &n.Object }), namespaces,
		func(n *Namespace, fn func(*Position)) { objectPositions(&n.Object, fn) }), namespaces, func(inv *Inventory) *[]Namespace { return &inv.Namespaces }),
	withPositions(objectPart("autoscaler", autoscalers, func(a *Autoscaler) *Object { return &a.Object }), autoscalers,
		func(a *Autoscaler, fn func(*Position)) { objectPositions(&a.Object, fn) }),
	withPositions(objectPart("not modelled", notModelled, func(o *Object) *Object { return o }), notModelled, objectPositions),
	withPositions(objectPart("Argo template", argoTemplates, func(w *Workload) *Object { return &w.Object }), argoTemplates,
		func(w *Workload, fn func(*Position)) { objectPositions(&w.Object, fn) }),
	nodePart(withPositions(declaredPart("NodePool", nodePools, func(p *NodePool) (string, Position) {
		return ObjectKey(p.Kind, "", p.Name), p.Location
	}), nodePools, func(p *NodePool, fn func(*Position)) {
		fn(&p.Location)
		for j := range p.RequirementLocations {
			fn(&p.RequirementLocations[j])
		}
	})),
	nodePart(slicePart("EC2NodeClass", func(f *Fragment) *[]NodeClass { return &f.NodeClasses })),
	nodePart(withPositions(slicePart("node group", nodeGroups), nodeGroups, func(g *NodeGroupSpec, fn func(*Position)) {
		fn(&g.Location)
		for j := range g.TypeLocations {
			fn(&g.TypeLocations[j])
		}
	})),
	nodePart(withPositions(slicePart("Fargate profile", fargate), fargate, at(func(p *FargateProfile) *Position { return &p.Location }))),
	// A CNI setting read from the amazon-vpc-cni ConfigMap is that object: the walk and a
	// Terraform resource that reads the same file with file() declare it once (ReadOnce). An
	// addon or module argument is its own declaration, with no object identity.
	intoInventory(withPositions(declaredPart("CNI setting", cniSettings, func(c *CNISetting) (string, Position) { return c.Object, c.Location }), cniSettings,
		at(func(c *CNISetting) *Position { return &c.Location })), cniSettings, func(inv *Inventory) *[]CNISetting { return &inv.CNISettings }),
	intoInventory(withPositions(slicePart("unresolved", unresolved), unresolved, at(func(u *UnresolvedObject) *Position { return &u.Location })),
		unresolved, func(inv *Inventory) *[]UnresolvedObject { return &inv.UnresolvedObjects }),
	intoInventory(withPositions(slicePart("plan disagreement", disagreements), disagreements, at(func(d *PlanDisagreement) *Position { return &d.Location })),
		disagreements, func(inv *Inventory) *[]PlanDisagreement { return &inv.PlanDisagreements }),
	withPositions(slicePart("error", loadErrors), loadErrors, at(func(e *LoadError) *Position { return &e.Position })),
	// Files infrastructure code reads or renders travel with the objects they made.
	slicePart("template", func(f *Fragment) *[]string { return &f.Templates }),
	slicePart("read file", func(f *Fragment) *[]string { return &f.ReadFiles }),
}

// The fragment's slices, by kind, for the table above.
func workloads(f *Fragment) *[]Workload             { return &f.Workloads }
func sgps(f *Fragment) *[]SecurityGroupPolicy       { return &f.SecurityGroupPolicies }
func accounts(f *Fragment) *[]ServiceAccount        { return &f.ServiceAccounts }
func namespaces(f *Fragment) *[]Namespace           { return &f.Namespaces }
func autoscalers(f *Fragment) *[]Autoscaler         { return &f.Autoscalers }
func notModelled(f *Fragment) *[]Object             { return &f.NotModelled }
func argoTemplates(f *Fragment) *[]Workload         { return &f.ArgoTemplates }
func nodePools(f *Fragment) *[]NodePool             { return &f.NodePools }
func nodeGroups(f *Fragment) *[]NodeGroupSpec       { return &f.NodeGroups }
func fargate(f *Fragment) *[]FargateProfile         { return &f.FargateProfiles }
func cniSettings(f *Fragment) *[]CNISetting         { return &f.CNISettings }
func unresolved(f *Fragment) *[]UnresolvedObject    { return &f.Unresolved }
func disagreements(f *Fragment) *[]PlanDisagreement { return &f.PlanDisagreements }
func loadErrors(f *Fragment) *[]LoadError           { return &f.Errors }

func nodePart(p part) part { p.node = true; return p }

// Append adds everything another fragment read to this one. Loaders that read one file
// through another (a kustomization, a rendered chart, manifests embedded in Terraform) use it
// to report the result as one fragment. The folders of charts a loader rendered (Charts,
// RenderedCharts) stay with the fragment that rendered them.
func (f *Fragment) Append(other Fragment) {
	f.Documents += other.Documents
	for _, p := range parts {
		p.move(f, &other)
	}
}

// EachObject calls fn with every Kubernetes object the fragment holds, kind by kind (see
// parts), so that a loader can move their positions or IDs in one place.
func (f *Fragment) EachObject(fn func(*Object)) {
	for _, p := range parts {
		if p.object != nil {
			p.object(f, fn)
		}
	}
}

// DropObjects removes the Kubernetes objects of every kind for which drop says so.
func (f *Fragment) DropObjects(drop func(*Object) bool) {
	for _, p := range parts {
		if p.object == nil {
			continue
		}
		var objects []*Object
		p.object(f, func(o *Object) { objects = append(objects, o) })
		gone := make([]bool, len(objects))
		for i, o := range objects {
			gone[i] = drop(o)
		}
		p.drop(f, func(i int) bool { return gone[i] })
	}
}

// ClearObjects removes every Kubernetes object, and what is reported with them (CNI settings,
// unresolved declarations, errors), keeping the node groups, pools and profiles: the part of a
// fragment that goes to a cluster its objects do not belong to.
func (f *Fragment) ClearObjects() {
	for _, p := range parts {
		if !p.node {
			p.clear(f)
		}
	}
}

// Merge appends fragments in file order, so that an inventory does not depend on which worker
// finished first. The objects rules read move into the inventory; the returned fragment holds
// the rest, for what the run resolves once every file is read (node groups, pools, profiles,
// autoscalers, Argo templates) and the errors and document count.
func Merge(inv *Inventory, fragments []Fragment) (all Fragment) {
	slices.SortStableFunc(fragments, func(a, b Fragment) int { return cmp.Compare(a.File, b.File) })
	for _, f := range fragments {
		all.Append(f)
	}
	for _, p := range parts {
		if p.merge != nil {
			p.merge(inv, &all)
		}
	}
	return all
}

// NodePool is a Karpenter NodePool (karpenter.sh/v1 or v1beta1) or Provisioner (v1alpha5) as
// written.
type NodePool struct {
	Name         string
	APIVersion   string
	Kind         string
	Location     Position
	Requirements []Requirement
	// RequirementLocations are where each requirement is written.
	RequirementLocations []Position
	Labels               map[string]string
	Taints               []Taint
	NodeClass            string
	// NodeClassGroup is nodeClassRef.group: eks.amazonaws.com for EKS Auto Mode.
	NodeClassGroup string
	// Cluster is set for the built-in pools an eksctl ClusterConfig enables.
	Cluster ClusterRef
}

// NodeClass is a Karpenter EC2NodeClass: its AMI family decides the OS.
type NodeClass struct {
	Name      string
	AMIFamily string
}
