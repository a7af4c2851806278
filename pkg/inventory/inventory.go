// Package inventory is the one typed model of everything eni-lint read: workloads with their
// pod templates (Kubernetes defaults applied), SecurityGroupPolicies, ServiceAccounts,
// namespaces and node groups, each with the positions of the fields the rules point at.
//
// Loaders fill it, the Rego rules read it as their input (its JSON form is the input schema,
// documented in docs/input.md), and nothing in it knows about rules or reports.
package inventory

import "fmt"

// Position is a place in a file. Line and Column start at 1; a position from the command line
// has File set to a description of the flag and Line 0.
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// EndLine and EndColumn close the region when the source says where it ends (a YAML key,
	// an HCL expression); EndColumn is the column just after the last character. Zero when
	// unknown.
	EndLine   int `json:"endLine,omitempty"`
	EndColumn int `json:"endColumn,omitempty"`
}

// Known reports whether the position points into a file.
func (p Position) Known() bool { return p.File != "" && p.Line > 0 }

// Locate returns the position of the first path the object has, else of its document.
func (o *Object) Locate(paths []string) Position {
	for _, p := range paths {
		if pos, ok := o.Locations.Get(p); ok {
			return pos
		}
	}
	return o.Locations.At("")
}

// Objects indexes every Kubernetes object of the inventory by ID.
func (inv *Inventory) Objects() map[string]*Object {
	out := make(map[string]*Object, len(inv.Workloads)+len(inv.SecurityGroupPolicies)+len(inv.ServiceAccounts)+len(inv.Namespaces))
	inv.EachObject(func(o *Object, _ string) { out[o.ID] = o })
	return out
}

// objectKinds are the inventory's kinds of Kubernetes objects (the parts that merge into it
// with an Object each), with what built each definition: Objects, Reconcile and the run's
// unique IDs go through this list, no other. keyedByID: the policies look the kind's objects up
// by ID (a Namespace is looked up by name), so the run makes their IDs unique.
var objectKinds = []struct {
	keyedByID bool
	each      func(inv *Inventory, fn func(o *Object, builtBy string))
}{
	{true, func(inv *Inventory, fn func(*Object, string)) {
		for i := range inv.Workloads {
			fn(&inv.Workloads[i].Object, inv.Workloads[i].BuiltBy)
		}
	}},
	{true, func(inv *Inventory, fn func(*Object, string)) {
		for i := range inv.SecurityGroupPolicies {
			fn(&inv.SecurityGroupPolicies[i].Object, "")
		}
	}},
	{true, func(inv *Inventory, fn func(*Object, string)) {
		for i := range inv.ServiceAccounts {
			fn(&inv.ServiceAccounts[i].Object, "")
		}
	}},
	{false, func(inv *Inventory, fn func(*Object, string)) {
		for i := range inv.Namespaces {
			fn(&inv.Namespaces[i].Object, "")
		}
	}},
}

// EachObject calls fn with every Kubernetes object of the inventory, kind by kind, and what
// built it (a kustomization, a chart), "" when it was read as written.
func (inv *Inventory) EachObject(fn func(o *Object, builtBy string)) {
	for _, kind := range objectKinds {
		kind.each(inv, fn)
	}
}

// EachKeyedObject calls fn with every object of the kinds the policies look up by ID.
func (inv *Inventory) EachKeyedObject(fn func(o *Object)) {
	for _, kind := range objectKinds {
		if kind.keyedByID {
			kind.each(inv, func(o *Object, _ string) { fn(o) })
		}
	}
}

// EachKind calls fn once per kind of object with that kind's objects.
func (inv *Inventory) EachKind(fn func(objects []*Object, builtBy []string)) {
	for _, kind := range objectKinds {
		var objects []*Object
		var built []string
		kind.each(inv, func(o *Object, b string) { objects, built = append(objects, o), append(built, b) })
		fn(objects, built)
	}
}

// Object is what every Kubernetes object in the inventory shares.
type Object struct {
	// ID is unique in one inventory: kind, namespace, name and where the document starts.
	ID         string `json:"id"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	// NamespaceDefaulted is true when the manifest has no metadata.namespace.
	NamespaceDefaulted bool `json:"namespaceDefaulted,omitempty"`
	// Locations maps field paths ("" for the document, "spec.template.metadata.labels", …)
	// to where they are. They stay out of the policy input: rules name paths, and the engine
	// turns the first path a manifest has into a position (Locate).
	Locations *FieldPositions `json:"-"`
	// Ignores are the entries of eni-lint.io/ignore annotations on the object and on its pod
	// template.
	Ignores []Ignore `json:"ignores"`
	// Origin says how the object's text was produced: it decides where `eni-lint fix` puts a
	// change (the manifest, a chart's values, an overlay's patch, the Terraform code).
	Origin Origin `json:"-"`
	// ReadFrom is the file the object's document was read from when its positions point
	// elsewhere: rendered Helm output (or standard input) relocated to the template its
	// `# Source:` comment names. --changed-since counts the object as changed when either is.
	ReadFrom string `json:"-"`
	// Duplicates, set when other definitions of the same object (kind, namespace, name) were
	// read (two kustomize overlays, a manifest and a rendered chart), are where all of them are
	// (Reconcile). In one cluster the object exists once: the model counts a workload's worst
	// definition, and a pod any definition of a policy selects.
	Duplicates []Definition `json:"duplicates,omitempty"`
	// FirstDefinition marks, among duplicates, the one first in file order: the one findings
	// about the duplication are reported on.
	FirstDefinition bool `json:"firstDefinition,omitempty"`
}

// Origin kinds; the zero value is a manifest file whose Locations are its own.
const (
	// OriginHelm: a chart template rendered in-process; Locations are lines of the template.
	OriginHelm = "helm"
	// OriginTerraformHeredoc: YAML written in a .tf heredoc (kubectl_manifest yaml_body);
	// Locations are lines of the .tf file.
	OriginTerraformHeredoc = "terraform-heredoc"
	// OriginTerraformBlock: a typed kubernetes_* resource (kubernetes_job_v1, …) whose fields
	// are nested blocks and attributes.
	OriginTerraformBlock = "terraform-block"
	// OriginTerraformValue: a manifest Terraform builds from an expression (kubernetes_manifest,
	// a kubectl_manifest that is not a heredoc): every Location is the resource block.
	OriginTerraformValue = "terraform-value"
)

// Origin is where an object's text comes from, beyond its Locations.
type Origin struct {
	Kind string
	// Resource is the Terraform resource ("kubernetes_job_v1.migrate") and Declared its block's
	// position, for the Terraform kinds.
	Resource string
	Declared Position
	// Text is where the heredoc that holds the YAML is (terraform-heredoc): from its <<EOT line
	// to its closing marker.
	Text Position
}

// Inventory is the whole input of one evaluation.
type Inventory struct {
	Settings              Settings                `json:"settings"`
	Workloads             []Workload              `json:"workloads"`
	SecurityGroupPolicies []SecurityGroupPolicy   `json:"securityGroupPolicies"`
	ServiceAccounts       []ServiceAccount        `json:"serviceAccounts"`
	Namespaces            []Namespace             `json:"namespaces"`
	NodeGroups            []NodeGroup             `json:"nodeGroups"`
	InstanceFamilies      map[string][]FamilyStep `json:"instanceFamilies"`
	// ConfigIgnores are the config file's ignores entries, for the policies to validate.
	ConfigIgnores []ConfigIgnore `json:"configIgnores"`
	// CNISettings are the VPC CNI settings the scanned code makes visible.
	CNISettings []CNISetting `json:"cniSettings"`
	// UnresolvedObjects are Kubernetes objects the code declares but that cannot be read
	// statically (a manifest built from a data source, templatefile): ENI006 names each, since
	// any of them may be a Job or an SGP.
	UnresolvedObjects []UnresolvedObject `json:"unresolvedObjects"`
	// PlanDisagreements are where a Terraform plan and the code it replaces disagree (ENI014).
	PlanDisagreements []PlanDisagreement `json:"planDisagreements"`
}

// PlanDisagreement is a node group on which a Terraform plan and the evaluated code differ: a
// plan older than the code, or a bug of eni-lint's static evaluation. The plan's values are the
// ones used; the finding puts the difference where a reviewer sees it.
type PlanDisagreement struct {
	// Plan is the plan file; Address the resource (or module) instance.
	Plan    string `json:"plan"`
	Address string `json:"address"`
	// Location is the code's declaration.
	Location Position `json:"location"`
	// CodeTypes and PlanTypes are the instance types each gives; PlanTypes is empty when the
	// plan has no such node group (OnlyInCode).
	CodeTypes  []string `json:"codeTypes"`
	PlanTypes  []string `json:"planTypes"`
	OnlyInCode bool     `json:"onlyInCode"`
}

// UnresolvedObject is one declared object eni-lint cannot read, with what would decide it.
type UnresolvedObject struct {
	Source   string   `json:"source"` // the declaration, e.g. kubectl_manifest.sgp
	Location Position `json:"location"`
	Reason   string   `json:"reason"`
	// Module is set when the source is a module call whose folder is not read.
	Module bool `json:"module,omitempty"`
	// Severity, when set, replaces ENI006's: "info" for a chart downloaded at apply time, which
	// rarely holds the workloads a verdict is about.
	Severity string `json:"severity,omitempty"`
	// Pods is set when what cannot be counted is pods of a named object (an autoscaler's
	// missing target), not objects the code declares: the reason then stands on its own.
	Pods bool `json:"pods,omitempty"`
	// Namespace and PodLabels, for a chart that is not read (a remote chart), are the release's
	// namespace and the pod labels its values or set blocks give (keys under podLabels,
	// labels, …): a SecurityGroupPolicy of the tree that selects them makes the unread chart
	// hold branch ENIs, which ENI006 then reports as a warning, not info.
	Namespace string            `json:"namespace,omitempty"`
	PodLabels map[string]string `json:"podLabels,omitempty"`
}

// CNISetting is a place that configures the Amazon VPC CNI: an aws_eks_addon for vpc-cni (or
// the EKS module's cluster_addons entry), or the kube-system/amazon-vpc-cni ConfigMap.
type CNISetting struct {
	Source   string   `json:"source"`
	Location Position `json:"location"`
	// Object is the identity of the ConfigMap the setting comes from (ObjectKey), "" for an
	// addon or module argument: the same ConfigMap read twice is one setting (ReadOnce).
	Object string `json:"-"`
	// EnablePodENI is ENABLE_POD_ENI when the setting states it; nil when it does not.
	EnablePodENI *bool `json:"enablePodEni"`
	// BranchENICooldownSeconds is branch-eni-cooldown when set.
	BranchENICooldownSeconds *int `json:"branchEniCooldownSeconds"`
}

// ConfigIgnore is what the policies see of a config-file ignore: enough to decide whether it
// may suppress (reason, rules, expiry). The engine matches its paths and objects.
type ConfigIgnore struct {
	Index    int      `json:"index"`
	Rules    []string `json:"rules"`
	Reason   string   `json:"reason"`
	Expires  string   `json:"expires"`
	Location Position `json:"location"`
	Text     string   `json:"text"`
}

// Release is a release model: when a terminated SGP pod gives its branch ENI back. It is the
// one place that names them; every other file asks it (OnDelete) instead of comparing text.
type Release string

// Release models.
const (
	// ReleaseOnDelete: only when the pod object is deleted (VPC resource controller before
	// v1.1.0, and nodes whose ENI clean-up fails). The default worst case.
	ReleaseOnDelete Release = "onDelete"
	// ReleaseOnCompletion: a cool-down after the pod terminates (controller v1.1.0 and later).
	ReleaseOnCompletion Release = "onCompletion"
)

// ParseRelease reads a release model as flags, config and audit write it.
func ParseRelease(s string) (Release, error) {
	switch r := Release(s); r {
	case ReleaseOnDelete, ReleaseOnCompletion:
		return r, nil
	}
	return "", fmt.Errorf("%q: want %s or %s", s, ReleaseOnDelete, ReleaseOnCompletion)
}

// OnDelete reports whether a terminated pod holds its ENI until it is deleted; any model but
// onCompletion is the worst case.
func (r Release) OnDelete() bool { return r != ReleaseOnCompletion }

// Valid reports whether r is one of the release models.
func (r Release) Valid() bool { return r == ReleaseOnDelete || r == ReleaseOnCompletion }

// DeleteQueueTickSeconds is how often the controller processes its ENI delete queue; an ENI
// is held for up to cool-down plus one tick after its pod terminates.
const DeleteQueueTickSeconds = 30

// MinCooldownSeconds is the controller's floor for branch-eni-cooldown.
const MinCooldownSeconds = 30

// Settings are the model parameters of one run.
type Settings struct {
	ENIRelease       Release `json:"eniRelease"`
	CooldownSeconds  int     `json:"cooldownSeconds"`
	WindowSeconds    int     `json:"windowSeconds"`
	DefaultNamespace string  `json:"defaultNamespace"`
	// Today is the run's date (YYYY-MM-DD), for ignore expiry; policies have no clock.
	Today string `json:"today"`
	// InlineIgnores says whether annotations may suppress findings: Default, and per rule.
	InlineIgnores InlineIgnores `json:"inlineIgnores"`
	// RuleIDs are the rules this run evaluates, built-in and custom.
	RuleIDs []string `json:"ruleIds"`
	// Disruptions is how many pods of one run the verdict assumes are disrupted (evicted, their
	// node lost) and replaced: what makes a restartPolicy OnFailure run create more pods
	// (--disruptions, default 0: the controllers disrupt none on their own).
	Disruptions int `json:"disruptions"`
	// FixTTLSeconds is the ttlSecondsAfterFinished ENI002's fix sets; absent means 600.
	FixTTLSeconds int `json:"fixTtlSeconds,omitempty"`
}

// InlineIgnores is the config's allowInlineIgnores, globally and per rule.
type InlineIgnores struct {
	Default bool            `json:"default"`
	Rules   map[string]bool `json:"rules"`
}

// Workload is anything that creates pods from a template.
type Workload struct {
	Object
	// Replicas for Deployment, ReplicaSet and StatefulSet (defaulted to 1).
	Replicas *int `json:"replicas,omitempty"`
	// MaxSurge is a Deployment's RollingUpdate surge in pods, percentages rounded up as the
	// Deployment controller does; 0 for Recreate.
	MaxSurge *int `json:"maxSurge,omitempty"`
	// StrategyType and MaxSurgeText are a Deployment's spec.strategy as written, so that the
	// surge can be worked out again for an autoscaler's maximum.
	StrategyType string  `json:"-"`
	MaxSurgeText *string `json:"-"`
	// Argo names the workflow template whose pods this workload stands for.
	Argo *ArgoTemplate `json:"argo,omitempty"`
	// ArgoRef is a Workflow's or CronWorkflow's workflowTemplateRef, resolved against the
	// WorkflowTemplates once every file is read (ResolveArgoRefs); Pod holds the workflow's own
	// podMetadata labels and service account.
	ArgoRef *ArgoRef `json:"-"`
	// Unbounded are reasons, found by the loader, why the counts are lower bounds (ENI005).
	Unbounded []UnboundedReason `json:"unbounded,omitempty"`
	// Spark marks the driver or the executors of a SparkApplication.
	Spark *SparkRole `json:"spark,omitempty"`
	// TTLPath is where a TTL goes when it is not the Job spec's ttlSecondsAfterFinished
	// (a SparkApplication's spec.timeToLiveSeconds).
	TTLPath string `json:"ttlPath,omitempty"`
	// BuiltBy is the kustomization whose build made this object, when one did.
	BuiltBy string `json:"builtBy,omitempty"`
	// ScaledBy is the autoscaler (HPA, KEDA ScaledObject) whose maximum Replicas is.
	ScaledBy *ScaledBy    `json:"scaledBy,omitempty"`
	Job      *JobSpec     `json:"job,omitempty"`
	CronJob  *CronJobSpec `json:"cronJob,omitempty"`
	// ScaledJob is a KEDA ScaledJob's own fields: it runs Job (its jobTargetRef) up to
	// MaxReplicaCount at once and keeps finished Jobs up to its history limits.
	ScaledJob *ScaledJobSpec `json:"scaledJob,omitempty"`
	Pod       PodTemplate    `json:"pod"`
	// JobSpecPath and PodSpecPath are the field paths of the Job spec and pod spec in this
	// manifest ("spec" and "spec.template.spec" for a Job, deeper for a CronJob), so rules can
	// name and locate fields whatever the kind.
	JobSpecPath string `json:"jobSpecPath,omitempty"`
	PodPath     string `json:"podPath"`
	// Fargate is set when a Fargate profile selects the pods: they hold no node branch ENI.
	Fargate *FargateMatch `json:"fargate,omitempty"`
}

// JobSpec is a batch/v1 Job spec with defaults applied. Defaulted lists the fields whose
// value came from a default rather than the manifest.
type JobSpec struct {
	Parallelism int `json:"parallelism"`
	// Completions is nil for a work-queue Job (parallelism set, completions unset).
	Completions             *int   `json:"completions"`
	BackoffLimit            int    `json:"backoffLimit"`
	BackoffLimitPerIndex    *int   `json:"backoffLimitPerIndex"`
	CompletionMode          string `json:"completionMode"`
	Suspend                 bool   `json:"suspend"`
	TTLSecondsAfterFinished *int   `json:"ttlSecondsAfterFinished"`
	ActiveDeadlineSeconds   *int   `json:"activeDeadlineSeconds"`
	ManualSelector          bool   `json:"manualSelector"`
	ManagedBy               string `json:"managedBy"`
	PodFailurePolicyIgnore  bool   `json:"podFailurePolicyIgnore"`
	// PodFailurePolicyIgnoreDisruptions: an Ignore rule on DisruptionTarget alone, whose
	// replacements only disruptions cause (ENI005 as info).
	PodFailurePolicyIgnoreDisruptions bool   `json:"podFailurePolicyIgnoreDisruptions,omitempty"`
	RestartPolicy                     string `json:"restartPolicy"`
	// TerminationGracePeriodSeconds is how long a pod the Job controller deletes (a replaced
	// run's, or one stopped by activeDeadlineSeconds) may keep running, and holding its ENI,
	// before it is killed: the pod template's value, 30 by default.
	TerminationGracePeriodSeconds int `json:"terminationGracePeriodSeconds"`
	// PodActiveDeadlineSeconds is the pod template's own activeDeadlineSeconds (nil when
	// unset): the kubelet fails each pod that long after it starts.
	PodActiveDeadlineSeconds *int     `json:"podActiveDeadlineSeconds"`
	Defaulted                []string `json:"defaulted"`
}

// Definition is one place an object is defined: its file and position, and the kustomization
// that built it, if any.
type Definition struct {
	Location Position `json:"location"`
	BuiltBy  string   `json:"builtBy,omitempty"`
}

// ArgoTemplate is the template of an Argo Workflow or CronWorkflow a workload's pods run.
type ArgoTemplate struct {
	Template string `json:"template"`
	// Entry, for a WorkflowTemplate without an entrypoint of its own, is the template the
	// pods are counted from: Argo runs the entrypoint of the Workflow that refers to it.
	Entry string `json:"entry,omitempty"`
}

// ArgoRef names the WorkflowTemplate (or ClusterWorkflowTemplate) a workflow runs, and the
// entrypoint the workflow gives ("" when it gives none).
type ArgoRef struct {
	Name       string
	Cluster    bool
	Entrypoint string
}

// UnboundedReason is why a count from the manifest is only a lower bound, and the field.
type UnboundedReason struct {
	Reason string `json:"reason"`
	Path   string `json:"path"`
}

// SparkRole says which pods of a Spark application a workload stands for: "driver" or
// "executor". UnboundedExecutors is set when dynamic allocation has no maxExecutors (Spark's
// default is infinity): Replicas is then a lower bound.
type SparkRole struct {
	Role               string `json:"role"`
	UnboundedExecutors bool   `json:"unboundedExecutors,omitempty"`
	// KeepsExecutors is spark.kubernetes.executor.deleteOnTermination false: executors that end
	// stay until the application is deleted.
	KeepsExecutors bool `json:"keepsExecutors,omitempty"`
	// RestartPolicy is the application's restartPolicy.type (Never when unset, the operator's
	// default); Retries is whether the operator runs a driver again after one ends (OnFailure,
	// Always): the witness does not play those (the counts treat a run as one driver).
	RestartPolicy string `json:"restartPolicy,omitempty"`
	Retries       bool   `json:"retries,omitempty"`
}

// ScaledJobSpec is a KEDA ScaledJob's (keda.sh/v1alpha1) fields with KEDA's defaults applied
// (keda.sh docs, reference/scaledjob-spec.md of v2.16: pollingInterval 30,
// successfulJobsHistoryLimit 100, failedJobsHistoryLimit 100, maxReplicaCount 100).
type ScaledJobSpec struct {
	MaxReplicaCount            int `json:"maxReplicaCount"`
	SuccessfulJobsHistoryLimit int `json:"successfulJobsHistoryLimit"`
	FailedJobsHistoryLimit     int `json:"failedJobsHistoryLimit"`
	PollingInterval            int `json:"pollingInterval"`
	// ScalingStrategy is scalingStrategy.strategy (default "default"); with "custom",
	// RunningJobPercentage is customScalingRunningJobPercentage (nil when absent).
	ScalingStrategy      string   `json:"scalingStrategy"`
	RunningJobPercentage *float64 `json:"runningJobPercentage"`
}

// CronJobSpec is a batch/v1 CronJob's own fields with defaults applied.
type CronJobSpec struct {
	Schedule string `json:"schedule"`
	// TimeZone is spec.timeZone ("" when unset: the controller's zone, UTC on EKS).
	TimeZone string `json:"timeZone,omitempty"`
	// PeriodSeconds is the shortest gap between two schedule times; 0 when the schedule could
	// not be parsed (ScheduleError says why).
	PeriodSeconds int    `json:"periodSeconds"`
	ScheduleError string `json:"scheduleError,omitempty"`
	// WeekTimes are the schedule's times within a week (seconds since Monday 00:00 UTC) when it
	// repeats weekly in UTC and fires at most hourly (WeekTimes in schedule.go); otherwise empty.
	WeekTimes []int `json:"weekTimes,omitempty"`
	// RunSpans, for an irregular schedule, is the shortest time from a firing to the k-th
	// after it (RunSpans in schedule.go); empty when every gap is PeriodSeconds.
	RunSpans []int `json:"runSpans,omitempty"`
	// EvenGaps is set when every gap between two schedule times is PeriodSeconds, at any time
	// (EvenGaps in schedule.go): the most recent time before a moment is then less than one
	// gap before it.
	EvenGaps          bool   `json:"evenGaps,omitempty"`
	ConcurrencyPolicy string `json:"concurrencyPolicy"`
	// StartingDeadlineSeconds is spec.startingDeadlineSeconds (nil when unset): a run later
	// than its time plus this is skipped, which bounds how late a skipped time can start.
	StartingDeadlineSeconds    *int     `json:"startingDeadlineSeconds"`
	SuccessfulJobsHistoryLimit int      `json:"successfulJobsHistoryLimit"`
	FailedJobsHistoryLimit     int      `json:"failedJobsHistoryLimit"`
	Suspend                    bool     `json:"suspend"`
	Defaulted                  []string `json:"defaulted"`
}

// PodTemplate is the part of a pod spec that decides SGP selection and placement.
type PodTemplate struct {
	Labels             map[string]string `json:"labels"`
	ServiceAccountName string            `json:"serviceAccountName"`
	HostNetwork        bool              `json:"hostNetwork"`
	// RestartPolicy is spec.restartPolicy (Always when absent): a bare Pod with Never or
	// OnFailure ends Succeeded or Failed and stays until it is deleted.
	RestartPolicy    string             `json:"restartPolicy"`
	NodeSelector     map[string]string  `json:"nodeSelector"`
	RequiredAffinity []NodeSelectorTerm `json:"requiredNodeAffinity"`
	Tolerations      []Toleration       `json:"tolerations"`
	// PodENIRequests lists containers whose manifest sets vpc.amazonaws.com/pod-eni itself.
	PodENIRequests []PodENIRequest `json:"podEniRequests"`
}

// PodENIRequest is one hand-written vpc.amazonaws.com/pod-eni request or limit.
type PodENIRequest struct {
	Container string   `json:"container"`
	Field     string   `json:"field"` // requests or limits
	Value     string   `json:"value"`
	Location  Position `json:"location"`
}

// NodeSelectorTerm is one term of requiredDuringSchedulingIgnoredDuringExecution; terms are
// ORed, expressions inside a term ANDed.
type NodeSelectorTerm struct {
	MatchExpressions []Requirement `json:"matchExpressions"`
	// MatchFields select on node fields (metadata.name) that a manifest cannot know.
	MatchFields []Requirement `json:"matchFields"`
}

// Requirement is a label selector or node selector expression.
type Requirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string `json:"matchLabels"`
	MatchExpressions []Requirement     `json:"matchExpressions"`
}

// Toleration is core/v1 Toleration.
type Toleration struct {
	Key      string `json:"key"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
	Effect   string `json:"effect"`
}

// Taint is core/v1 Taint.
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Effect string `json:"effect"`
}

// SecurityGroupPolicy is vpcresources.k8s.aws/v1beta1 SecurityGroupPolicy.
type SecurityGroupPolicy struct {
	Object
	PodSelector            *LabelSelector `json:"podSelector"`
	ServiceAccountSelector *LabelSelector `json:"serviceAccountSelector"`
	GroupIDs               []string       `json:"groupIds"`
}

// ServiceAccount is core/v1 ServiceAccount; only its labels matter for SGP selection.
type ServiceAccount struct {
	Object
	Labels map[string]string `json:"labels"`
}

// Namespace is core/v1 Namespace.
type Namespace struct {
	Object
	Labels map[string]string `json:"labels"`
}

// NodeGroup is a set of nodes that share instance types, labels and taints.
type NodeGroup struct {
	// ID, Kind and Ignores let findings about a node group be suppressed like those about
	// Kubernetes objects.
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Ignores []Ignore `json:"ignores"`
	Name    string   `json:"name"`
	// Environment is the Terraform environment (--each-var-file) the group was read in.
	Environment string `json:"environment,omitempty"`
	// Cluster is the cluster the group belongs to (see docs/model.md, "Clusters").
	Cluster string `json:"cluster,omitempty"`
	// Source says how the group was defined: flag, config, or a loader's name.
	Source   string            `json:"source"`
	Location Position          `json:"location"`
	Labels   map[string]string `json:"labels"`
	Taints   []Taint           `json:"taints"`
	// MaxPods is the kubelet max-pods setting when the group sets one.
	MaxPods       *int                `json:"maxPods"`
	InstanceTypes []NodeGroupInstance `json:"instanceTypes"`
	MinSize       *int                `json:"minSize,omitempty"`
	MaxSize       *int                `json:"maxSize,omitempty"`
	SelfManaged   bool                `json:"selfManaged,omitempty"`
	Windows       bool                `json:"windows,omitempty"`
	// PicksTrunkingTypes: the provisioner launches only trunking types for SGP pods
	// (Karpenter), so its types without trunking are no waste for them (ENI004).
	PicksTrunkingTypes bool `json:"picksTrunkingTypes,omitempty"`
	// AutoMode marks EKS Auto Mode node pools (ENI012).
	AutoMode bool `json:"autoMode,omitempty"`
	// LaunchesNothing says why the group launches no node (then it has no instance types).
	LaunchesNothing string `json:"launchesNothing,omitempty"`
	// Duplicates are every definition of a NodePool defined more than once in the cluster.
	Duplicates []Definition `json:"duplicates,omitempty"`
}

// NodeGroupInstance is one instance type of a node group, resolved against the limits table.
type NodeGroupInstance struct {
	Name string `json:"name"`
	// Key identifies the entry within its group: the name, followed by the variant when the
	// same type appears with different launch-time labels.
	Key string `json:"key"`
	// Variant names the launch-time labels that set this entry apart
	// ("karpenter.sh/capacity-type=spot"), or is empty.
	Variant string `json:"variant,omitempty"`
	// Known is false when the limits table has no figures for the type (ENI006).
	Known bool `json:"known"`
	// UnknownReason says which input would decide a type that cannot be known statically.
	UnknownReason    string `json:"unknownReason,omitempty"`
	Trunking         bool   `json:"trunking"`
	BranchInterfaces int    `json:"branchInterfaces"`
	Source           string `json:"source,omitempty"`
	// NodeLabels are the labels a node of this type carries: the group's labels plus the
	// platform's (instance type, arch, os, node group name).
	NodeLabels map[string]string `json:"nodeLabels"`
	Location   Position          `json:"location"`
}

// FamilyStep is one size of an instance family, for "use a larger type" suggestions.
type FamilyStep struct {
	Name             string `json:"name"`
	BranchInterfaces int    `json:"branchInterfaces"`
}
