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
}

// objectKind is one kind of Kubernetes object a fragment holds, with the one place that says
// which slice holds it and where each element's Object is. Append, EachObject, DropObjects and
// ClearObjects go through the table below, so a new kind is one entry here (and the loader
// that fills it), never another hand-written list.
type objectKind struct {
	name  string
	each  func(f *Fragment, fn func(*Object))
	drop  func(f *Fragment, drop func(*Object) bool)
	move  func(dst, src *Fragment)
	clear func(f *Fragment)
}

func kindOf[T any](name string, slice func(*Fragment) *[]T, object func(*T) *Object) objectKind {
	return objectKind{
		name: name,
		each: func(f *Fragment, fn func(*Object)) {
			s := *slice(f)
			for i := range s {
				fn(object(&s[i]))
			}
		},
		drop: func(f *Fragment, drop func(*Object) bool) {
			*slice(f) = slices.DeleteFunc(*slice(f), func(v T) bool { return drop(object(&v)) })
		},
		move:  func(dst, src *Fragment) { *slice(dst) = append(*slice(dst), *slice(src)...) },
		clear: func(f *Fragment) { *slice(f) = nil },
	}
}

// objectKinds are the fragment's Kubernetes objects, in the order EachObject visits them.
var objectKinds = []objectKind{
	kindOf("workload", func(f *Fragment) *[]Workload { return &f.Workloads }, func(w *Workload) *Object { return &w.Object }),
	kindOf("SecurityGroupPolicy", func(f *Fragment) *[]SecurityGroupPolicy { return &f.SecurityGroupPolicies }, func(p *SecurityGroupPolicy) *Object { return &p.Object }),
	kindOf("ServiceAccount", func(f *Fragment) *[]ServiceAccount { return &f.ServiceAccounts }, func(a *ServiceAccount) *Object { return &a.Object }),
	kindOf("Namespace", func(f *Fragment) *[]Namespace { return &f.Namespaces }, func(n *Namespace) *Object { return &n.Object }),
	kindOf("autoscaler", func(f *Fragment) *[]Autoscaler { return &f.Autoscalers }, func(a *Autoscaler) *Object { return &a.Object }),
	kindOf("not modelled", func(f *Fragment) *[]Object { return &f.NotModelled }, func(o *Object) *Object { return o }),
	kindOf("Argo template", func(f *Fragment) *[]Workload { return &f.ArgoTemplates }, func(w *Workload) *Object { return &w.Object }),
}

// Append adds everything another fragment read to this one. Loaders that read one file
// through another (a kustomization, a rendered chart, manifests embedded in Terraform) use it
// to report the result as one fragment. The folders of charts a loader rendered (Charts,
// RenderedCharts) stay with the fragment that rendered them.
func (f *Fragment) Append(other Fragment) {
	f.Documents += other.Documents
	for _, k := range objectKinds {
		k.move(f, &other)
	}
	f.NodeGroups = append(f.NodeGroups, other.NodeGroups...)
	f.CNISettings = append(f.CNISettings, other.CNISettings...)
	f.Unresolved = append(f.Unresolved, other.Unresolved...)
	f.FargateProfiles = append(f.FargateProfiles, other.FargateProfiles...)
	f.Templates = append(f.Templates, other.Templates...)
	f.ReadFiles = append(f.ReadFiles, other.ReadFiles...)
	f.NodePools = append(f.NodePools, other.NodePools...)
	f.NodeClasses = append(f.NodeClasses, other.NodeClasses...)
	f.Errors = append(f.Errors, other.Errors...)
}

// EachObject calls fn with every Kubernetes object the fragment holds, kind by kind (see
// objectKinds), so that a loader can move their positions or IDs in one place.
func (f *Fragment) EachObject(fn func(*Object)) {
	for _, k := range objectKinds {
		k.each(f, fn)
	}
}

// DropObjects removes the Kubernetes objects of every kind for which drop says so (the same
// object read twice, through two loaders). NodePools are node groups, not objects: their
// callers drop them on their own.
func (f *Fragment) DropObjects(drop func(*Object) bool) {
	for _, k := range objectKinds {
		k.drop(f, drop)
	}
}

// ClearObjects removes every Kubernetes object, and what is reported with them (CNI settings,
// unresolved declarations, errors), keeping the node groups, pools and profiles: the part of a
// fragment that goes to a cluster its objects do not belong to.
func (f *Fragment) ClearObjects() {
	for _, k := range objectKinds {
		k.clear(f)
	}
	f.CNISettings, f.Unresolved, f.Errors = nil, nil, nil
}

// Declared is what infrastructure code declares, resolved by the run once every file is read.
type Declared struct {
	NodeGroups      []NodeGroupSpec
	NodePools       []NodePool
	NodeClasses     []NodeClass
	FargateProfiles []FargateProfile
	Autoscalers     []Autoscaler
	NotModelled     []Object
	ArgoTemplates   []Workload
}

// Merge appends fragments in file order, so that an inventory does not depend on which worker
// finished first.
func Merge(inv *Inventory, fragments []Fragment) (errs []LoadError, documents int, declared Declared) {
	slices.SortStableFunc(fragments, func(a, b Fragment) int { return cmp.Compare(a.File, b.File) })
	var all Fragment
	for _, f := range fragments {
		all.Append(f)
	}
	inv.Workloads = append(inv.Workloads, all.Workloads...)
	inv.SecurityGroupPolicies = append(inv.SecurityGroupPolicies, all.SecurityGroupPolicies...)
	inv.ServiceAccounts = append(inv.ServiceAccounts, all.ServiceAccounts...)
	inv.Namespaces = append(inv.Namespaces, all.Namespaces...)
	inv.CNISettings = append(inv.CNISettings, all.CNISettings...)
	inv.UnresolvedObjects = append(inv.UnresolvedObjects, all.Unresolved...)
	declared = Declared{NodeGroups: all.NodeGroups, NodePools: all.NodePools, NodeClasses: all.NodeClasses, FargateProfiles: all.FargateProfiles, Autoscalers: all.Autoscalers, NotModelled: all.NotModelled, ArgoTemplates: all.ArgoTemplates}
	return all.Errors, all.Documents, declared
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
