// Package kubernetes loads Kubernetes manifests (YAML, multi-document, or JSON) into inventory
// fragments: the workloads that create pods, SecurityGroupPolicies, ServiceAccounts and
// Namespaces, each with the positions of the fields the rules point at. Documents that are not
// Kubernetes objects, or kinds eni-lint does not need, are skipped quietly.
package kubernetes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// Options are the run's settings that change how a manifest is read.
type Options struct {
	// DefaultNamespace is the namespace of objects without metadata.namespace: where the user
	// deploys them (`default` unless --namespace or config says otherwise).
	DefaultNamespace string
	// YAML are the budgets of each stream Load parses (--max-documents); zero values are
	// yamlpos's defaults.
	YAML yamlpos.Limits
}

// PodENIResource is the extended resource the VPC resource controller's webhook injects.
const PodENIResource = "vpc.amazonaws.com/pod-eni"

// Load reads one file's bytes. It never fails as a whole: what it cannot read becomes a
// located error in the fragment, and the documents it can read are still returned.
func Load(file string, data []byte, opts Options) inventory.Fragment {
	docs, err := yamlpos.DocumentsWithin(data, opts.YAML)
	return LoadDocuments(file, docs, err, opts)
}

// LoadDocuments reads documents already parsed; parseErr is the error that stopped parsing,
// reported with its line.
func LoadDocuments(file string, docs []*yaml.Node, parseErr error, opts Options) inventory.Fragment {
	frag := inventory.Fragment{File: file}
	for _, se := range yamlpos.Errors(parseErr) {
		msg := se.Message
		if se.Syntax {
			msg = "YAML syntax error: " + msg
		}
		frag.Errors = append(frag.Errors, inventory.LoadError{
			Position: inventory.Position{File: file, Line: se.Line, Column: se.Column},
			Message:  msg,
		})
	}
	for _, doc := range docs {
		frag.Documents++
		loadObject(&frag, file, doc, opts)
	}
	return frag
}

// typeMeta reads apiVersion and kind without recording errors: a document without them is not
// a Kubernetes object and is skipped.
// TypeMeta reads a document's apiVersion and kind, as the loader decides what an object is;
// other readers use it to tell a manifest from other YAML.
func TypeMeta(doc *yaml.Node) (apiVersion, kind string, ok bool) {
	return typeMeta(yamlpos.Resolve(doc))
}

func typeMeta(doc *yaml.Node) (apiVersion, kind string, ok bool) {
	if doc == nil {
		return "", "", false
	}
	if doc.Kind != yaml.MappingNode {
		return "", "", false
	}
	_, av := yamlpos.Lookup(doc, "apiVersion")
	_, k := yamlpos.Lookup(doc, "kind")
	if av == nil || k == nil || av.Kind != yaml.ScalarNode || k.Kind != yaml.ScalarNode || av.Value == "" || k.Value == "" {
		return "", "", false
	}
	return av.Value, k.Value, true
}

func group(apiVersion string) string {
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		return g
	}
	return "" // core
}

func loadObject(frag *inventory.Fragment, file string, doc *yaml.Node, opts Options) {
	apiVersion, kind, ok := typeMeta(doc)
	if !ok {
		return
	}
	g := group(apiVersion)
	if kind == "List" || (strings.HasSuffix(kind, "List") && g == "") {
		loadList(frag, file, doc, opts)
		return
	}
	r := newFieldReader(file)
	obj := readObjectMeta(r, doc, apiVersion, kind, opts)
	if workloads, ok := readWorkloads(r, doc, obj, g, kind); ok {
		frag.Workloads = append(frag.Workloads, workloads...)
		frag.Errors = append(frag.Errors, r.errs...)
		return
	}
	switch {
	case g == "argoproj.io" && (kind == "WorkflowTemplate" || kind == "ClusterWorkflowTemplate"):
		frag.ArgoTemplates = append(frag.ArgoTemplates, argoTemplatePods(r, doc, obj)...)
	case g == "autoscaling" && kind == "HorizontalPodAutoscaler", g == "keda.sh" && kind == "ScaledObject":
		frag.Autoscalers = append(frag.Autoscalers, readAutoscaler(r, doc, obj))
	case g == "vpcresources.k8s.aws" && kind == "SecurityGroupPolicy":
		frag.SecurityGroupPolicies = append(frag.SecurityGroupPolicies, readSecurityGroupPolicy(r, doc, obj))
	case g == "" && kind == "ServiceAccount":
		sa := inventory.ServiceAccount{Object: obj, Labels: objectLabels(r, doc)}
		sa.Object.Locations = r.locs
		frag.ServiceAccounts = append(frag.ServiceAccounts, sa)
	case g == "" && kind == "ConfigMap" && obj.Name == "amazon-vpc-cni" && obj.Namespace == "kube-system":
		frag.CNISettings = append(frag.CNISettings, readCNISetting(r, doc))
	case g == "eksctl.io" && kind == "ClusterConfig":
		addClusterConfig(frag, r, doc, obj)
	case g == "karpenter.sh" && (kind == "NodePool" || kind == "Provisioner"):
		frag.NodePools = append(frag.NodePools, readNodePool(r, doc, obj))
	case g == "karpenter.k8s.aws" && kind == "EC2NodeClass":
		nc := inventory.NodeClass{Name: obj.Name}
		if s := r.str(r.mapping(doc, "", "spec"), "spec", "amiFamily"); s != nil {
			nc.AMIFamily = *s
		}
		frag.NodeClasses = append(frag.NodeClasses, nc)
	case g == "" && kind == "Namespace":
		ns := inventory.Namespace{Object: obj, Labels: objectLabels(r, doc)}
		ns.Namespace = "" // cluster-scoped
		ns.Object.Locations = r.locs
		ns.ID = objectID(ns.Object)
		frag.Namespaces = append(frag.Namespaces, ns)
	default:
		// A kind the rules do not model. One that embeds a pod spec runs pods eni-lint does
		// not count: it is listed, not dropped silently.
		if at := podSpecPath(doc, "", 0); at != "" {
			obj.Locations = inventory.NewFieldPositions()
			obj.Locations.Set("", r.locs.At(""))
			frag.NotModelled = append(frag.NotModelled, obj)
		}
		return
	}
	frag.Errors = append(frag.Errors, r.errs...)
}

// readWorkloads reads the kinds that run pods eni-lint counts; ok is false for other kinds.
func readWorkloads(r *fieldReader, doc *yaml.Node, obj inventory.Object, g, kind string) ([]inventory.Workload, bool) {
	switch {
	case g == "batch" && kind == "Job":
		return []inventory.Workload{jobWorkload(r, doc, obj, r.mapping(doc, "", "spec"), "spec")}, true
	case g == "batch" && kind == "CronJob":
		return []inventory.Workload{cronJobWorkload(r, doc, obj)}, true
	case g == "apps" && (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet"),
		g == "" && kind == "ReplicationController": // core/v1, ReplicaSet's predecessor
		return []inventory.Workload{replicatedWorkload(r, doc, obj, kind)}, true
	case g == "" && kind == "Pod":
		return []inventory.Workload{podWorkload(r, doc, obj)}, true
	case g == "argoproj.io" && (kind == "Workflow" || kind == "CronWorkflow"):
		return readArgoWorkflow(r, doc, obj), true
	case g == "sparkoperator.k8s.io" && (kind == "SparkApplication" || kind == "ScheduledSparkApplication"):
		return readSpark(r, doc, obj), true
	case g == "keda.sh" && kind == "ScaledJob":
		return []inventory.Workload{scaledJobWorkload(r, doc, obj)}, true
	}
	return nil, false
}

// loadList loads each item of a List (v1 List, or a core kind's FooList).
func loadList(frag *inventory.Fragment, file string, doc *yaml.Node, opts Options) {
	r := newFieldReader(file)
	for _, item := range r.sequence(doc, "", "items") {
		loadObject(frag, file, item, opts)
	}
	frag.Errors = append(frag.Errors, r.errs...)
}

// podWorkload is a bare Pod.
func podWorkload(r *fieldReader, doc *yaml.Node, obj inventory.Object) inventory.Workload {
	w := inventory.Workload{Object: obj, PodPath: ""}
	w.Pod = readPod(r, doc, "")
	w.Object.Locations = r.locs
	return w
}

// argoTemplatePods are a WorkflowTemplate's pods, which count once a Workflow or
// CronWorkflow runs the template.
func argoTemplatePods(r *fieldReader, doc *yaml.Node, obj inventory.Object) []inventory.Workload {
	var out []inventory.Workload
	for _, w := range readArgoWorkflow(r, doc, obj) {
		if w.Argo != nil && w.Argo.Template != "" {
			out = append(out, w)
		}
	}
	return out
}

// scaledJobWorkload is a KEDA ScaledJob: the Job of its jobTargetRef, with its scaling.
func scaledJobWorkload(r *fieldReader, doc *yaml.Node, obj inventory.Object) inventory.Workload {
	spec := r.mapping(doc, "", "spec")
	scaled := readScaledJob(r, spec)
	w := jobWorkload(r, doc, obj, r.mapping(spec, "spec", "jobTargetRef"), "spec.jobTargetRef")
	w.ScaledJob = scaled
	return w
}

// objectLabels are an object's metadata.labels.
func objectLabels(r *fieldReader, doc *yaml.Node) map[string]string {
	return r.stringMap(r.mapping(doc, "", "metadata"), "metadata", "labels")
}

// cronJobWorkload reads a CronJob: its schedule and history, its job template's Job spec
// and pod template.
func cronJobWorkload(r *fieldReader, doc *yaml.Node, obj inventory.Object) inventory.Workload {
	w := inventory.Workload{Object: obj, JobSpecPath: "spec.jobTemplate.spec", PodPath: "spec.jobTemplate.spec.template"}
	spec := r.mapping(doc, "", "spec")
	cj := readCronFields(r, spec, "successfulJobsHistoryLimit", "failedJobsHistoryLimit")
	cj.TimeZone = r.str(spec, "spec", "timeZone")
	cron := inventory.CronJobDefaults(cj)
	w.CronJob = &cron
	jt := r.mapping(spec, "spec", "jobTemplate")
	jobSpec := r.mapping(jt, "spec.jobTemplate", "spec")
	job := readJobSpec(r, jobSpec, "spec.jobTemplate.spec")
	w.Job = &job
	w.Pod = readPodTemplate(r, jobSpec, "spec.jobTemplate.spec.template")
	w.Ignores = append(w.Ignores, templateIgnores(r, doc, w.PodPath)...)
	w.Object.Locations = r.locs
	return w
}

// replicatedWorkload reads a Deployment, ReplicaSet, StatefulSet, DaemonSet or
// ReplicationController: its replicas (none for a DaemonSet), a Deployment's surge, and its
// pod template.
func replicatedWorkload(r *fieldReader, doc *yaml.Node, obj inventory.Object, kind string) inventory.Workload {
	w := inventory.Workload{Object: obj, PodPath: "spec.template"}
	spec := r.mapping(doc, "", "spec")
	if kind != "DaemonSet" {
		replicas := 1
		if n := r.integer(spec, "spec", "replicas"); n != nil {
			replicas = *n
		}
		w.Replicas = &replicas
	}
	if kind == "Deployment" {
		strategy := r.mapping(spec, "spec", "strategy")
		typ := ""
		if s := r.str(strategy, "spec.strategy", "type"); s != nil {
			typ = *s
		}
		ru := r.mapping(strategy, "spec.strategy", "rollingUpdate")
		surgeText := r.intOrString(ru, "spec.strategy.rollingUpdate", "maxSurge")
		w.StrategyType, w.MaxSurgeText = typ, surgeText
		surge, err := inventory.DeploymentSurge(*w.Replicas, typ, surgeText)
		if err != nil {
			_, v := yamlpos.Lookup(ru, "maxSurge")
			r.errorf(v, "spec.strategy.rollingUpdate.%v", err)
		}
		w.MaxSurge = &surge
	}
	w.Pod = readPodTemplate(r, spec, "spec.template")
	w.Ignores = append(w.Ignores, templateIgnores(r, doc, w.PodPath)...)
	w.Object.Locations = r.locs
	return w
}

// readSecurityGroupPolicy reads an SGP's pod and ServiceAccount selectors and its groups.
func readSecurityGroupPolicy(r *fieldReader, doc *yaml.Node, obj inventory.Object) inventory.SecurityGroupPolicy {
	spec := r.mapping(doc, "", "spec")
	sgp := inventory.SecurityGroupPolicy{
		Object:                 obj,
		PodSelector:            r.labelSelector(spec, "spec", "podSelector"),
		ServiceAccountSelector: r.labelSelector(spec, "spec", "serviceAccountSelector"),
	}
	sg := r.mapping(spec, "spec", "securityGroups")
	sgp.GroupIDs = r.stringList(sg, "spec.securityGroups", "groupIds")
	sgp.Object.Locations = r.locs
	return sgp
}

// readCNISetting reads kube-system/amazon-vpc-cni: the VPC resource controller reads
// branch-eni-cooldown (seconds) from there.
func readCNISetting(r *fieldReader, doc *yaml.Node) inventory.CNISetting {
	data := r.mapping(doc, "", "data")
	setting := inventory.CNISetting{Source: "kubernetes:ConfigMap kube-system/amazon-vpc-cni", Location: r.locs.At(""), Object: inventory.ObjectKey("ConfigMap", "kube-system", "amazon-vpc-cni")}
	if s := r.str(data, "data", "branch-eni-cooldown"); s != nil {
		if n, err := strconv.Atoi(strings.TrimSpace(*s)); err == nil {
			setting.BranchENICooldownSeconds = &n
			setting.Location = r.locs.At("data.branch-eni-cooldown")
		} else {
			_, v := yamlpos.Lookup(data, "branch-eni-cooldown")
			r.errorf(v, "data.branch-eni-cooldown must be a number of seconds, found %q", *s)
		}
	}
	return setting
}

// addClusterConfig adds what an eksctl ClusterConfig declares, each carrying its cluster's
// name: every ClusterConfig is a cluster of its own.
func addClusterConfig(frag *inventory.Fragment, r *fieldReader, doc *yaml.Node, obj inventory.Object) {
	cluster := inventory.ClusterRef{Kind: "eksctl", Name: obj.Name, Location: r.locs.At("")}
	if cluster.Name == "" {
		cluster.Name = r.file
	}
	for _, g := range readClusterConfig(r, doc) {
		g.Cluster = cluster
		frag.NodeGroups = append(frag.NodeGroups, g)
	}
	for _, p := range readAutoModeConfig(r, doc) {
		p.Cluster = cluster
		frag.NodePools = append(frag.NodePools, p)
	}
	for _, p := range readFargateProfiles(r, doc) {
		p.Cluster = cluster
		frag.FargateProfiles = append(frag.FargateProfiles, p)
	}
}

func readObjectMeta(r *fieldReader, doc *yaml.Node, apiVersion, kind string, opts Options) inventory.Object {
	r.locs.Set("", r.pos(doc))
	r.get(doc, "", "kind")
	obj := inventory.Object{APIVersion: apiVersion, Kind: kind}
	meta := r.mapping(doc, "", "metadata")
	if s := r.str(meta, "metadata", "name"); s != nil {
		obj.Name = *s
	} else if s := r.str(meta, "metadata", "generateName"); s != nil {
		obj.Name = *s
	}
	if obj.Name == "" {
		r.errorf(doc, "%s has no metadata.name", kind)
	}
	if s := r.str(meta, "metadata", "namespace"); s != nil && *s != "" {
		obj.Namespace = *s
	} else {
		obj.Namespace = opts.DefaultNamespace
		obj.NamespaceDefaulted = true
	}
	obj.Ignores = readIgnores(r, meta, "metadata")
	obj.ID = objectID(obj)
	obj.Locations = r.locs
	// The ID must stay unique when two files declare the same object: add where it starts.
	obj.ID = fmt.Sprintf("%s@%s:%d", obj.ID, r.file, doc.Line)
	return obj
}

// templateIgnores reads the ignore annotation of the pod template at podPath.
func templateIgnores(r *fieldReader, doc *yaml.Node, podPath string) []inventory.Ignore {
	node := doc
	for _, part := range strings.Split(podPath, ".") {
		_, node = yamlpos.Lookup(node, part)
	}
	_, meta := yamlpos.Lookup(node, "metadata")
	return readIgnores(r, meta, podPath+".metadata")
}

// readIgnores reads the eni-lint.io/ignore annotation of the metadata at path.
func readIgnores(r *fieldReader, meta *yaml.Node, path string) []inventory.Ignore {
	annotations := r.mapping(meta, path, "annotations")
	_, v := yamlpos.Lookup(annotations, inventory.IgnoreAnnotation)
	if v == nil {
		return []inventory.Ignore{}
	}
	p := path + ".annotations." + inventory.IgnoreAnnotation
	k, _ := yamlpos.Lookup(annotations, inventory.IgnoreAnnotation)
	r.locs.Set(p, r.pos(k))
	if v.Kind != yaml.ScalarNode {
		r.errorf(v, "%s must be a string", p)
		return []inventory.Ignore{}
	}
	return inventory.ParseIgnores(v.Value, p)
}

func objectID(o inventory.Object) string {
	if o.Namespace == "" {
		return o.Kind + "/" + o.Name
	}
	return o.Kind + "/" + o.Namespace + "/" + o.Name
}

func readJobSpec(r *fieldReader, spec *yaml.Node, path string) inventory.JobSpec {
	d := inventory.DeclaredJob{
		Parallelism:             r.integer(spec, path, "parallelism"),
		Completions:             r.integer(spec, path, "completions"),
		BackoffLimit:            r.integer(spec, path, "backoffLimit"),
		BackoffLimitPerIndex:    r.integer(spec, path, "backoffLimitPerIndex"),
		CompletionMode:          r.str(spec, path, "completionMode"),
		Suspend:                 r.boolean(spec, path, "suspend"),
		TTLSecondsAfterFinished: r.integer(spec, path, "ttlSecondsAfterFinished"),
		ActiveDeadlineSeconds:   r.integer(spec, path, "activeDeadlineSeconds"),
		ManualSelector:          r.boolean(spec, path, "manualSelector"),
		ManagedBy:               r.str(spec, path, "managedBy"),
	}
	pfp := r.mapping(spec, path, "podFailurePolicy")
	for i, rule := range r.sequence(pfp, path+".podFailurePolicy", "rules") {
		p := fmt.Sprintf("%s.podFailurePolicy.rules[%d]", path, i)
		r.locs.Set(p, r.pos(rule))
		if a := r.str(rule, p, "action"); a != nil && *a == "Ignore" {
			if ignoresDisruptionsOnly(r, rule, p) {
				d.PodFailurePolicyIgnoreDisruptions = true
			} else {
				d.PodFailurePolicyIgnore = true
			}
		}
	}
	tmpl := r.mapping(spec, path, "template")
	podSpec := r.mapping(tmpl, path+".template", "spec")
	d.RestartPolicy = r.str(podSpec, path+".template.spec", "restartPolicy")
	d.TerminationGracePeriodSeconds = r.integer(podSpec, path+".template.spec", "terminationGracePeriodSeconds")
	d.PodActiveDeadlineSeconds = r.integer(podSpec, path+".template.spec", "activeDeadlineSeconds")
	return inventory.JobDefaults(d)
}

// ignoresDisruptionsOnly is whether an Ignore rule matches only pods with the
// DisruptionTarget condition (the Job docs' example: preemption, eviction, a lost node), and
// no exit codes: what it lets through is bounded by disruptions, not by the workload.
func ignoresDisruptionsOnly(r *fieldReader, rule *yaml.Node, path string) bool {
	if r.get(rule, path, "onExitCodes") != nil {
		return false
	}
	conditions := r.sequence(rule, path, "onPodConditions")
	if len(conditions) == 0 {
		return false
	}
	for i, c := range conditions {
		t := r.str(c, fmt.Sprintf("%s.onPodConditions[%d]", path, i), "type")
		if t == nil || *t != "DisruptionTarget" {
			return false
		}
	}
	return true
}

// readPodTemplate reads the template at path (a mapping with metadata and spec) under parent.
func readPodTemplate(r *fieldReader, parent *yaml.Node, path string) inventory.PodTemplate {
	i := strings.LastIndex(path, ".")
	tmpl := r.mapping(parent, path[:i], path[i+1:])
	return readPod(r, tmpl, path)
}

// readPod reads a pod (or pod template) mapping at path: its labels and the spec fields that
// decide SGP selection and placement.
func readPod(r *fieldReader, pod *yaml.Node, path string) inventory.PodTemplate {
	meta := r.mapping(pod, path, "metadata")
	spec := r.mapping(pod, path, "spec")
	return readPodParts(r, meta, join(path, "metadata"), spec, join(path, "spec"))
}

// readPodParts reads labels from meta and the scheduling fields from spec: a pod's metadata
// and spec, or a Spark driver's or executor's spec, which holds both.
func readPodParts(r *fieldReader, meta *yaml.Node, metaPath string, spec *yaml.Node, specPath string) inventory.PodTemplate {
	p := inventory.PodTemplate{
		Labels:       r.stringMap(meta, metaPath, "labels"),
		NodeSelector: r.stringMap(spec, specPath, "nodeSelector"),
		Tolerations:  []inventory.Toleration{},
	}
	p.ServiceAccountName = "default"
	if s := r.str(spec, specPath, "serviceAccountName"); s != nil && *s != "" {
		p.ServiceAccountName = *s
	} else if s := r.str(spec, specPath, "serviceAccount"); s != nil && *s != "" {
		p.ServiceAccountName = *s // the deprecated alias, still honoured by the API
	}
	if b := r.boolean(spec, specPath, "hostNetwork"); b != nil {
		p.HostNetwork = *b
	}
	p.RestartPolicy = "Always"
	if s := r.str(spec, specPath, "restartPolicy"); s != nil && *s != "" {
		p.RestartPolicy = *s
	}
	p.RequiredAffinity = readRequiredAffinity(r, spec, specPath)
	for i, t := range r.sequence(spec, specPath, "tolerations") {
		p.Tolerations = append(p.Tolerations, readToleration(r, t, fmt.Sprintf("%s.tolerations[%d]", specPath, i)))
	}
	p.PodENIRequests = []inventory.PodENIRequest{}
	for i, c := range r.sequence(spec, specPath, "containers") {
		p.PodENIRequests = append(p.PodENIRequests, readPodENIRequests(r, c, i, specPath)...)
	}
	return p
}

// readRequiredAffinity reads requiredDuringSchedulingIgnoredDuringExecution's node selector
// terms.
func readRequiredAffinity(r *fieldReader, spec *yaml.Node, specPath string) []inventory.NodeSelectorTerm {
	affinity := r.mapping(spec, specPath, "affinity")
	nodeAffinity := r.mapping(affinity, specPath+".affinity", "nodeAffinity")
	naPath := specPath + ".affinity.nodeAffinity"
	required := r.mapping(nodeAffinity, naPath, "requiredDuringSchedulingIgnoredDuringExecution")
	reqPath := naPath + ".requiredDuringSchedulingIgnoredDuringExecution"
	terms := []inventory.NodeSelectorTerm{}
	for i, term := range r.sequence(required, reqPath, "nodeSelectorTerms") {
		tp := fmt.Sprintf("%s.nodeSelectorTerms[%d]", reqPath, i)
		r.locs.Set(tp, r.pos(term))
		terms = append(terms, inventory.NodeSelectorTerm{
			MatchExpressions: r.requirements(term, tp, "matchExpressions"),
			MatchFields:      r.requirements(term, tp, "matchFields"),
		})
	}
	return terms
}

// readToleration reads one toleration at path tp; its operator is Equal by default.
func readToleration(r *fieldReader, t *yaml.Node, tp string) inventory.Toleration {
	r.locs.Set(tp, r.pos(t))
	var tol inventory.Toleration
	if s := r.str(t, tp, "key"); s != nil {
		tol.Key = *s
	}
	if s := r.str(t, tp, "operator"); s != nil {
		tol.Operator = *s
	}
	if s := r.str(t, tp, "value"); s != nil {
		tol.Value = *s
	}
	if s := r.str(t, tp, "effect"); s != nil {
		tol.Effect = *s
	}
	if tol.Operator == "" {
		tol.Operator = "Equal"
	}
	return tol
}

// readPodENIRequests reads the pod-eni a container (number i) requests or limits by hand.
func readPodENIRequests(r *fieldReader, c *yaml.Node, i int, specPath string) []inventory.PodENIRequest {
	cp := fmt.Sprintf("%s.containers[%d]", specPath, i)
	r.locs.Set(cp, r.pos(c))
	name := fmt.Sprintf("#%d", i)
	if s := r.str(c, cp, "name"); s != nil {
		name = *s
	}
	var out []inventory.PodENIRequest
	res := r.mapping(c, cp, "resources")
	for _, field := range []string{"requests", "limits"} {
		m := r.mapping(res, cp+".resources", field)
		k, v := yamlpos.Lookup(m, PodENIResource)
		if k == nil {
			continue
		}
		r.locs.Set(fmt.Sprintf("%s.resources.%s[%s]", cp, field, PodENIResource), r.pos(k))
		out = append(out, inventory.PodENIRequest{
			Container: name, Field: field, Value: v.Value, Location: r.pos(k),
		})
	}
	return out
}

// readNodePool reads a NodePool's template (v1, v1beta1) or a Provisioner's spec (v1alpha5).
func readNodePool(r *fieldReader, doc *yaml.Node, obj inventory.Object) inventory.NodePool {
	np := inventory.NodePool{Name: obj.Name, APIVersion: obj.APIVersion, Kind: obj.Kind, Location: r.locs.At("")}
	spec := r.mapping(doc, "", "spec")
	metaPath, specPath := "spec.template.metadata", "spec.template.spec"
	meta, podSpec := (*yaml.Node)(nil), (*yaml.Node)(nil)
	if obj.Kind == "Provisioner" {
		metaPath, specPath = "spec", "spec"
		meta, podSpec = spec, spec
	} else {
		tmpl := r.mapping(spec, "spec", "template")
		meta = r.mapping(tmpl, "spec.template", "metadata")
		podSpec = r.mapping(tmpl, "spec.template", "spec")
	}
	np.Labels = r.stringMap(meta, metaPath, "labels")
	np.Requirements = r.requirements(podSpec, specPath, "requirements")
	for i := range np.Requirements {
		np.RequirementLocations = append(np.RequirementLocations, r.locs.At(fmt.Sprintf("%s.requirements[%d]", specPath, i)))
	}
	np.Taints = r.taints(podSpec, specPath, "taints")
	ref := r.mapping(podSpec, specPath, "nodeClassRef")
	if s := r.str(ref, specPath+".nodeClassRef", "name"); s != nil {
		np.NodeClass = *s
	}
	if s := r.str(ref, specPath+".nodeClassRef", "group"); s != nil {
		np.NodeClassGroup = *s
	}
	return np
}

// readAutoscaler reads an HPA's or a KEDA ScaledObject's target and maximum. KEDA defaults:
// scaleTargetRef.kind Deployment and maxReplicaCount 100 (keda.sh docs, reference/
// scaledobject-spec.md: "maxReplicaCount: 100 # Optional. Default: 100").
func readAutoscaler(r *fieldReader, doc *yaml.Node, obj inventory.Object) inventory.Autoscaler {
	a := inventory.Autoscaler{Object: obj, TargetKind: "Deployment"}
	spec := r.mapping(doc, "", "spec")
	ref := r.mapping(spec, "spec", "scaleTargetRef")
	if s := r.str(ref, "spec.scaleTargetRef", "kind"); s != nil {
		a.TargetKind = *s
	}
	if s := r.str(ref, "spec.scaleTargetRef", "name"); s != nil {
		a.TargetName = *s
	}
	if obj.Kind == "ScaledObject" {
		a.MaxReplicas = 100
		if n := r.integer(spec, "spec", "maxReplicaCount"); n != nil {
			a.MaxReplicas = *n
		}
	} else if n := r.integer(spec, "spec", "maxReplicas"); n != nil {
		a.MaxReplicas = *n
	} else {
		_, v := yamlpos.Lookup(spec, "maxReplicas")
		if v == nil {
			r.errorf(doc, "spec.maxReplicas is required in a HorizontalPodAutoscaler")
		}
	}
	a.Object.Locations = r.locs
	return a
}

// readScaledJob reads a KEDA ScaledJob's scaling fields with KEDA's defaults (see
// inventory.ScaledJobSpec).
func readScaledJob(r *fieldReader, spec *yaml.Node) *inventory.ScaledJobSpec {
	sj := &inventory.ScaledJobSpec{MaxReplicaCount: 100, SuccessfulJobsHistoryLimit: 100, FailedJobsHistoryLimit: 100, PollingInterval: 30, ScalingStrategy: "default"}
	for _, f := range []struct {
		key string
		dst *int
	}{{"maxReplicaCount", &sj.MaxReplicaCount}, {"successfulJobsHistoryLimit", &sj.SuccessfulJobsHistoryLimit},
		{"failedJobsHistoryLimit", &sj.FailedJobsHistoryLimit}, {"pollingInterval", &sj.PollingInterval}} {
		key, dst := f.key, f.dst
		if n := r.integer(spec, "spec", key); n != nil {
			if *n < 0 {
				_, v := yamlpos.Lookup(spec, key)
				r.errorf(v, "spec.%s must not be negative", key)
				continue
			}
			*dst = *n
		}
	}
	if sj.PollingInterval == 0 {
		sj.PollingInterval = 30 // KEDA treats 0 as unset
	}
	strategy := r.mapping(spec, "spec", "scalingStrategy")
	if s := r.str(strategy, "spec.scalingStrategy", "strategy"); s != nil && *s != "" {
		sj.ScalingStrategy = *s
	}
	if s := r.intOrString(strategy, "spec.scalingStrategy", "customScalingRunningJobPercentage"); s != nil {
		if f, err := strconv.ParseFloat(*s, 64); err == nil {
			sj.RunningJobPercentage = &f
		}
	}
	return sj
}

// Labels the Spark operator puts on the driver and executor pods (kubeflow/spark-operator,
// pkg/common/spark.go at ca7022a: LabelSparkRole, LabelSparkAppName,
// LabelLaunchedBySparkOperator).
const (
	sparkRoleLabel     = "spark-role"
	sparkAppNameLabel  = "sparkoperator.k8s.io/app-name"
	sparkLaunchedLabel = "sparkoperator.k8s.io/launched-by-spark-operator"
)

// readSpark reads a SparkApplication or ScheduledSparkApplication (sparkoperator.k8s.io
// v1beta2) as two workloads, since the driver and the executors carry their own labels and
// service accounts: the driver, one pod that stays after the application completes until
// timeToLiveSeconds deletes the application (like a Job of one pod; for a scheduled
// application, like a CronJob keeping successfulRunHistoryLimit and failedRunHistoryLimit
// runs, both 1 by default, concurrencyPolicy Allow by default, api-docs.md); and the
// executors, running pods that Spark deletes when they end
// (spark.kubernetes.executor.deleteOnTermination, true by default).
func readSpark(r *fieldReader, doc *yaml.Node, obj inventory.Object) []inventory.Workload {
	spec := r.mapping(doc, "", "spec")
	app, appPath := spec, "spec"
	var cron *inventory.CronJobSpec
	if obj.Kind == "ScheduledSparkApplication" {
		app, appPath = r.mapping(spec, "spec", "template"), "spec.template"
		cron = sparkSchedule(r, spec)
	}
	ttl := r.integer(app, appPath, "timeToLiveSeconds")
	roles := sparkApp{r: r, app: app, path: appPath, selector: r.stringMap(app, appPath, "nodeSelector"), name: obj.Name}
	base := obj
	base.Locations = r.locs

	driverPod, _, driverPath := roles.pod("driver")
	restart := sparkRestartPolicy(r, app, appPath)
	driver := inventory.Workload{Object: base, JobSpecPath: driverPath, PodPath: driverPath, TTLPath: appPath + ".timeToLiveSeconds",
		Spark: &inventory.SparkRole{Role: "driver", RestartPolicy: restart, Retries: restart != "Never"}}
	driver.ID = objectID(obj) + "#driver"
	driver.Name = obj.Name + " (driver)"
	one, zero := 1, 0
	job := inventory.JobDefaults(inventory.DeclaredJob{Completions: &one, Parallelism: &one, BackoffLimit: &zero, TTLSecondsAfterFinished: ttl})
	driver.Job = &job
	driver.Pod = driverPod
	driver.CronJob = cron

	execPod, execNode, execPath := roles.pod("executor")
	executors := inventory.Workload{Object: base, PodPath: execPath, Spark: &inventory.SparkRole{Role: "executor"}}
	// Each object owns its locations: loaders move them in place (Terraform heredocs).
	executors.Locations = r.locs.Clone()
	executors.ID = objectID(obj) + "#executors"
	executors.Name = obj.Name + " (executors)"
	executors.Pod = execPod
	instances := roles.executorCount(execNode, execPath, executors.Spark)
	executors.Replicas = &instances
	// spark.kubernetes.executor.deleteOnTermination false keeps every executor that ends, and
	// a failed one is replaced: those pods stay until the application is deleted.
	conf := r.stringMap(app, appPath, "sparkConf")
	if v, ok := conf["spark.kubernetes.executor.deleteOnTermination"]; ok && strings.EqualFold(strings.TrimSpace(v), "false") {
		executors.Spark.KeepsExecutors = true
		executors.TTLPath = appPath + `.sparkConf["spark.kubernetes.executor.deleteOnTermination"]`
	}
	return []inventory.Workload{driver, executors}
}

// sparkSchedule is a ScheduledSparkApplication's schedule, with the operator's defaults: one
// run of each kind kept (concurrencyPolicy Allow is also the CronJob's).
func sparkSchedule(r *fieldReader, spec *yaml.Node) *inventory.CronJobSpec {
	d := readCronFields(r, spec, "successfulRunHistoryLimit", "failedRunHistoryLimit")
	if d.SuccessfulJobsHistoryLimit == nil {
		d.SuccessfulJobsHistoryLimit = intPtr(1)
	}
	if d.FailedJobsHistoryLimit == nil {
		d.FailedJobsHistoryLimit = intPtr(1)
	}
	c := inventory.CronJobDefaults(d)
	return &c
}

// sparkRestartPolicy is the driver's restartPolicy.type, Never by default.
func sparkRestartPolicy(r *fieldReader, app *yaml.Node, appPath string) string {
	if policy := r.mapping(app, appPath, "restartPolicy"); policy != nil {
		if t := r.str(policy, appPath+".restartPolicy", "type"); t != nil && *t != "" {
			return *t
		}
	}
	return "Never"
}

// sparkApp is a SparkApplication's spec (or a scheduled one's template), read for its roles.
type sparkApp struct {
	r        *fieldReader
	app      *yaml.Node
	path     string
	selector map[string]string
	name     string
}

// pod reads a role's (driver's or executor's) pod: its own fields, the labels the operator
// adds, and the application's nodeSelector under the role's own.
func (a sparkApp) pod(role string) (inventory.PodTemplate, *yaml.Node, string) {
	path := a.path + "." + role
	node := a.r.mapping(a.app, a.path, role)
	pod := readPodParts(a.r, node, path, node, path)
	labels := map[string]string{}
	for k, v := range pod.Labels {
		labels[k] = v
	}
	labels[sparkRoleLabel] = role
	labels[sparkAppNameLabel] = a.name
	labels[sparkLaunchedLabel] = "true"
	pod.Labels = labels
	selector := map[string]string{}
	for k, v := range a.selector {
		selector[k] = v
	}
	for k, v := range pod.NodeSelector {
		selector[k] = v
	}
	pod.NodeSelector = selector
	return pod, node, path
}

// executorCount is how many executors run at once: spark.executor.instances (2 by default),
// or with dynamic allocation maxExecutors, which defaults to infinity (role then says so and
// initialExecutors, when given, is the count).
func (a sparkApp) executorCount(execNode *yaml.Node, execPath string, role *inventory.SparkRole) int {
	instances := 2
	if n := a.r.integer(execNode, execPath, "instances"); n != nil {
		instances = *n
	}
	dynPath := a.path + ".dynamicAllocation"
	dyn := a.r.mapping(a.app, a.path, "dynamicAllocation")
	if on := a.r.boolean(dyn, dynPath, "enabled"); on != nil && *on {
		if n := a.r.integer(dyn, dynPath, "maxExecutors"); n != nil {
			instances = *n
		} else {
			role.UnboundedExecutors = true
			if n := a.r.integer(dyn, dynPath, "initialExecutors"); n != nil {
				instances = *n
			}
		}
	}
	return instances
}

// podSpecPath finds a pod spec in a document: a mapping whose containers is a list of mappings
// with an image. It looks a few levels down (a Rollout's spec.template.spec, a Workflow's
// spec.templates[].container is not one, its podSpecPatch neither), and returns the path.
func podSpecPath(n *yaml.Node, path string, depth int) string {
	n = yamlpos.Resolve(n)
	if n == nil || depth > 8 {
		return ""
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i].Value, yamlpos.Resolve(n.Content[i+1])
			if (key == "containers" || key == "container") && val != nil && holdsImage(val) {
				return join(path, key)
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if p := podSpecPath(n.Content[i+1], join(path, n.Content[i].Value), depth+1); p != "" {
				return p
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p := podSpecPath(c, fmt.Sprintf("%s[%d]", path, i), depth+1); p != "" {
				return p
			}
		}
	}
	return ""
}

// holdsImage reports whether a container (a mapping) or a list of containers names an image.
func holdsImage(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.MappingNode:
		_, v := yamlpos.Lookup(n, "image")
		return v != nil
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c = yamlpos.Resolve(c); c != nil && c.Kind == yaml.MappingNode && holdsImage(c) {
				return true
			}
		}
	}
	return false
}

// jobWorkload reads a Job spec at path (a Job's spec, a ScaledJob's jobTargetRef) and its pod
// template into a workload.
func jobWorkload(r *fieldReader, doc *yaml.Node, obj inventory.Object, jobSpec *yaml.Node, path string) inventory.Workload {
	w := inventory.Workload{Object: obj, JobSpecPath: path, PodPath: path + ".template"}
	job := readJobSpec(r, jobSpec, path)
	w.Job = &job
	w.Pod = readPodTemplate(r, jobSpec, path+".template")
	w.Ignores = append(w.Ignores, templateIgnores(r, doc, w.PodPath)...)
	w.Object.Locations = r.locs
	return w
}

// readCronFields reads the fields a CronJob, a CronWorkflow and a ScheduledSparkApplication
// share under spec; the history limits go by other names in the last one.
func readCronFields(r *fieldReader, spec *yaml.Node, successKey, failedKey string) inventory.DeclaredCronJob {
	d := inventory.DeclaredCronJob{
		ConcurrencyPolicy:          r.str(spec, "spec", "concurrencyPolicy"),
		SuccessfulJobsHistoryLimit: r.integer(spec, "spec", successKey),
		FailedJobsHistoryLimit:     r.integer(spec, "spec", failedKey),
		Suspend:                    r.boolean(spec, "spec", "suspend"),
		StartingDeadlineSeconds:    r.integer(spec, "spec", "startingDeadlineSeconds"),
	}
	if s := r.str(spec, "spec", "schedule"); s != nil {
		d.Schedule = *s
	}
	return d
}
