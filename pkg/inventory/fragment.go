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

// MovePositions moves every position the fragment's objects, pools and node groups carry
// (a manifest generated from a Terraform resource or read from a plan is located at the
// resource), and the errors'.
func (f *Fragment) MovePositions(move func(Position) Position) {
	f.EachObject(func(o *Object) {
		for k := range o.Locations {
			o.Locations[k] = move(o.Locations[k])
		}
	})
	for i := range f.Workloads {
		w := &f.Workloads[i]
		for j := range w.Pod.PodENIRequests {
			w.Pod.PodENIRequests[j].Location = move(w.Pod.PodENIRequests[j].Location)
		}
	}
	for i := range f.NodePools {
		p := &f.NodePools[i]
		p.Location = move(p.Location)
		for j := range p.RequirementLocations {
			p.RequirementLocations[j] = move(p.RequirementLocations[j])
		}
	}
	for i := range f.NodeGroups {
		g := &f.NodeGroups[i]
		g.Location = move(g.Location)
		for j := range g.TypeLocations {
			g.TypeLocations[j] = move(g.TypeLocations[j])
		}
	}
	for i := range f.Errors {
		f.Errors[i].Position = move(f.Errors[i].Position)
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
	}
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
		return ObjectKey(o.Kind, o.Namespace, o.Name), o.Locations[""]
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

// parts are the fragment's slices, in the order EachObject visits them.
var parts = []part{
	objectPart("workload", func(f *Fragment) *[]Workload { return &f.Workloads }, func(w *Workload) *Object { return &w.Object }),
	objectPart("SecurityGroupPolicy", func(f *Fragment) *[]SecurityGroupPolicy { return &f.SecurityGroupPolicies }, func(p *SecurityGroupPolicy) *Object { return &p.Object }),
	objectPart("ServiceAccount", func(f *Fragment) *[]ServiceAccount { return &f.ServiceAccounts }, func(a *ServiceAccount) *Object { return &a.Object }),
	objectPart("Namespace", func(f *Fragment) *[]Namespace { return &f.Namespaces }, func(n *Namespace) *Object { return &n.Object }),
	objectPart("autoscaler", func(f *Fragment) *[]Autoscaler { return &f.Autoscalers }, func(a *Autoscaler) *Object { return &a.Object }),
	objectPart("not modelled", func(f *Fragment) *[]Object { return &f.NotModelled }, func(o *Object) *Object { return o }),
	objectPart("Argo template", func(f *Fragment) *[]Workload { return &f.ArgoTemplates }, func(w *Workload) *Object { return &w.Object }),
	nodePart(declaredPart("NodePool", func(f *Fragment) *[]NodePool { return &f.NodePools }, func(p *NodePool) (string, Position) {
		return ObjectKey(p.Kind, "", p.Name), p.Location
	})),
	nodePart(slicePart("EC2NodeClass", func(f *Fragment) *[]NodeClass { return &f.NodeClasses })),
	nodePart(slicePart("node group", func(f *Fragment) *[]NodeGroupSpec { return &f.NodeGroups })),
	nodePart(slicePart("Fargate profile", func(f *Fragment) *[]FargateProfile { return &f.FargateProfiles })),
	slicePart("CNI setting", func(f *Fragment) *[]CNISetting { return &f.CNISettings }),
	slicePart("unresolved", func(f *Fragment) *[]UnresolvedObject { return &f.Unresolved }),
	slicePart("plan disagreement", func(f *Fragment) *[]PlanDisagreement { return &f.PlanDisagreements }),
	slicePart("error", func(f *Fragment) *[]LoadError { return &f.Errors }),
	// Files infrastructure code reads or renders travel with the objects they made.
	slicePart("template", func(f *Fragment) *[]string { return &f.Templates }),
	slicePart("read file", func(f *Fragment) *[]string { return &f.ReadFiles }),
}

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
// finished first. The objects rules read go into the inventory; the returned fragment holds
// everything, for what the run resolves once every file is read (node groups, pools,
// profiles, autoscalers, Argo templates) and the errors and document count.
func Merge(inv *Inventory, fragments []Fragment) (all Fragment) {
	slices.SortStableFunc(fragments, func(a, b Fragment) int { return cmp.Compare(a.File, b.File) })
	for _, f := range fragments {
		all.Append(f)
	}
	inv.Workloads = append(inv.Workloads, all.Workloads...)
	inv.SecurityGroupPolicies = append(inv.SecurityGroupPolicies, all.SecurityGroupPolicies...)
	inv.ServiceAccounts = append(inv.ServiceAccounts, all.ServiceAccounts...)
	inv.Namespaces = append(inv.Namespaces, all.Namespaces...)
	inv.CNISettings = append(inv.CNISettings, all.CNISettings...)
	inv.UnresolvedObjects = append(inv.UnresolvedObjects, all.Unresolved...)
	inv.PlanDisagreements = append(inv.PlanDisagreements, all.PlanDisagreements...)
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
