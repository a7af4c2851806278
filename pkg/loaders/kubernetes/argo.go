package kubernetes

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// Argo Workflows (argoproj.io/v1alpha1 Workflow and CronWorkflow). One run of a workflow
// creates a pod for every container, script, containerSet, resource or data template its
// entrypoint reaches through steps and DAG tasks, once per withItems item and per retry
// (retryStrategy.limit), and keeps them until the workflow is deleted: without podGC the pods
// stay with the workflow, ttlStrategy deletes the workflow, podGC OnPodCompletion deletes each
// pod as it ends. A CronWorkflow keeps successfulJobsHistoryLimit (3) and
// failedJobsHistoryLimit (1) workflows, concurrencyPolicy Allow by default
// (argoproj/argo-workflows docs/cron-workflows.md at 04ccacbd).
//
// Each pod-creating template is one workload (its labels, service account and placement are
// its own), whose T is how many pods one run creates from it. What cannot be counted from the
// manifest (withParam, a withSequence from a parameter, a retryStrategy without limit, a
// templateRef or workflowTemplateRef, a template that calls itself) makes the count a lower
// bound, with the reason (ENI005).

// maxWorkflowPods bounds the pods counted for one template of one run (a budget: withItems
// lists multiplied through nested steps could otherwise overflow).
const maxWorkflowPods = 1 << 20

// podTemplates are the template kinds that run in a pod of their own.
var podTemplates = []string{"container", "script", "containerSet", "resource", "data"}

type argoCount struct {
	pods      map[string]int // template name -> pods per run
	unbounded []inventory.UnboundedReason
	// pos records where a field a reason names is written, so findings point at it.
	pos func(path string, n *yaml.Node)
}

// lowerBound records a reason the count is a lower bound, at the field n.
func (c *argoCount) lowerBound(reason, path string, n *yaml.Node) {
	if n != nil && c.pos != nil {
		c.pos(path, n)
	}
	c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: reason, Path: path})
}

func readArgoWorkflow(r *fieldReader, doc *yaml.Node, obj inventory.Object) []inventory.Workload {
	spec := r.mapping(doc, "", "spec")
	wfSpec, wfPath := spec, "spec"
	var cron *inventory.CronJobSpec
	if obj.Kind == "CronWorkflow" {
		wfSpec, wfPath = r.mapping(spec, "spec", "workflowSpec"), "spec.workflowSpec"
		cron = readCronWorkflowSchedule(r, spec)
	}
	wf := argoWorkflow{obj: obj, spec: wfSpec, path: wfPath, cron: cron}
	wf.templates, wf.paths = argoTemplates(r, wfSpec, wfPath)
	count := argoCount{pods: map[string]int{}, pos: func(path string, n *yaml.Node) { r.locs.Set(path, r.pos(n)) }}
	var reason *inventory.UnboundedReason
	wf.templateRef, reason = argoTemplateRef(r, wfSpec, wfPath)
	if reason != nil {
		count.unbounded = append(count.unbounded, *reason)
	}
	entry := ""
	if s := r.str(wfSpec, wfPath, "entrypoint"); s != nil {
		entry = *s
	}
	if wf.templateRef != nil {
		wf.templateRef.Entrypoint = entry
	}
	wf.countEntries(entry, count)

	// What every pod of the workflow shares: spec.podMetadata, serviceAccountName, placement.
	podMeta := r.mapping(wfSpec, wfPath, "podMetadata")
	wf.shared = readPodParts(r, podMeta, wfPath+".podMetadata", wfSpec, wfPath)
	wf.ttl = workflowTTL(r, wfSpec, wfPath)
	wf.deadline = r.integer(wfSpec, wfPath, "activeDeadlineSeconds")
	out := wf.workloads(r)
	if len(wf.counts) > 0 {
		count = wf.counts[0]
	}
	if len(out) == 0 && len(count.unbounded) > 0 {
		out = append(out, wf.podless(r, count))
	}
	return out
}

// argoWorkflow is what readArgoWorkflow has read of one Workflow, CronWorkflow or template:
// its templates by name, the pods each entry's run creates of each, and what its pods share.
type argoWorkflow struct {
	obj         inventory.Object
	spec        *yaml.Node
	path        string
	cron        *inventory.CronJobSpec
	templates   map[string]*yaml.Node
	paths       map[string]string
	templateRef *inventory.ArgoRef
	// entries are the entrypoints counted, counts their pods; perEntry: one workload set per
	// template (a template without an entrypoint).
	entries  []string
	counts   []argoCount
	perEntry bool
	shared   inventory.PodTemplate
	ttl      *int
	deadline *int
}

// readCronWorkflowSchedule reads a CronWorkflow's schedule and history limits, with Argo's
// defaults (those of a CronJob).
func readCronWorkflowSchedule(r *fieldReader, spec *yaml.Node) *inventory.CronJobSpec {
	d := readCronFields(r, spec, "successfulJobsHistoryLimit", "failedJobsHistoryLimit")
	if d.Schedule == "" {
		if list := r.stringList(spec, "spec", "schedules"); len(list) > 0 {
			d.Schedule = list[0] // the shortest gap among several is not worked out
		}
	}
	c := inventory.CronJobDefaults(d) // Allow, 3 and 1: the CronJob defaults, and Argo's
	return &c
}

// argoTemplates indexes a workflow's templates by name, with their paths.
func argoTemplates(r *fieldReader, wfSpec *yaml.Node, wfPath string) (map[string]*yaml.Node, map[string]string) {
	templates := map[string]*yaml.Node{}
	paths := map[string]string{}
	for i, t := range r.sequence(wfSpec, wfPath, "templates") {
		if _, n := yamlpos.Lookup(t, "name"); n != nil && n.Kind == yaml.ScalarNode {
			templates[n.Value] = t
			paths[n.Value] = fmt.Sprintf("%s.templates[%d]", wfPath, i)
			r.locs.Set(paths[n.Value], r.pos(t))
		}
	}
	return templates, paths
}

// argoTemplateRef reads spec.workflowTemplateRef: the template the workflow runs, whose pods
// ResolveArgoRefs counts once the tree is read (until then, the reason its count is low).
func argoTemplateRef(r *fieldReader, wfSpec *yaml.Node, wfPath string) (*inventory.ArgoRef, *inventory.UnboundedReason) {
	ref := r.mapping(wfSpec, wfPath, "workflowTemplateRef")
	if ref == nil {
		return nil, nil
	}
	templateRef := &inventory.ArgoRef{}
	if s := r.str(ref, wfPath+".workflowTemplateRef", "name"); s != nil {
		templateRef.Name = *s
	}
	if b := r.boolean(ref, wfPath+".workflowTemplateRef", "clusterScope"); b != nil {
		templateRef.Cluster = *b
	}
	kind := "WorkflowTemplate"
	if templateRef.Cluster {
		kind = "ClusterWorkflowTemplate"
	}
	return templateRef, &inventory.UnboundedReason{
		Reason: fmt.Sprintf("it runs %s %q (workflowTemplateRef), which is not in the scanned files: its pods are not counted", kind, templateRef.Name),
		Path:   wfPath + ".workflowTemplateRef",
	}
}

// countEntries counts the pods of each template that a run from entry creates (from each
// template, for a template without an entrypoint), each with the workflow's reasons its count
// is low (count) and its own, once each.
func (wf *argoWorkflow) countEntries(entry string, count argoCount) {
	templates, paths, obj, wfPath := wf.templates, wf.paths, wf.obj, wf.path
	// A WorkflowTemplate without an entrypoint runs from the entrypoint of the Workflow that
	// refers to it: its pods are counted from each of its templates, one set per entry.
	entries := []string{entry}
	wf.perEntry = entry == "" && (obj.Kind == "WorkflowTemplate" || obj.Kind == "ClusterWorkflowTemplate")
	if wf.perEntry {
		entries = entries[:0]
		for name := range templates {
			entries = append(entries, name)
		}
		sort.Strings(entries)
	}
	counts := make([]argoCount, len(entries))
	for i, e := range entries {
		counts[i] = argoCount{pods: map[string]int{}, pos: count.pos, unbounded: append([]inventory.UnboundedReason{}, count.unbounded...)}
		if e != "" {
			walkArgo(templates, paths, e, 1, map[string]bool{}, &counts[i], wfPath+".entrypoint", 0)
		}
		seen := map[inventory.UnboundedReason]bool{}
		reasons := counts[i].unbounded[:0]
		for _, u := range counts[i].unbounded {
			if !seen[u] {
				seen[u] = true
				reasons = append(reasons, u)
			}
		}
		counts[i].unbounded = reasons
	}
	wf.entries, wf.counts = entries, counts
}

// workloads is one Job-shaped workload per template and entry: the pods a run creates of it,
// one at a time, none retried (retries are counted as pods), the workflow's TTL and deadline.
func (wf *argoWorkflow) workloads(r *fieldReader) []inventory.Workload {
	templates, paths, obj, wfPath, cron, ttl, deadline, shared := wf.templates, wf.paths, wf.obj, wf.path, wf.cron, wf.ttl, wf.deadline, wf.shared
	var out []inventory.Workload
	for ei, entryName := range wf.entries {
		count := wf.counts[ei]
		tag := ""
		if wf.perEntry {
			tag = entryName
		}
		names := make([]string, 0, len(count.pods))
		for n := range count.pods {
			names = append(names, n)
		}
		sort.Strings(names)
		for i, name := range names {
			t := templates[name]
			path := paths[name]
			pod := readPodParts(r, r.mapping(t, path, "metadata"), path+".metadata", t, path)
			pod = mergeArgoPod(shared, pod, obj.Name)
			w := inventory.Workload{Object: obj, JobSpecPath: path, PodPath: path, TTLPath: wfPath + ".ttlStrategy"}
			w.Locations = r.locs.Clone()
			w.ID = objectID(obj) + "#" + name
			w.Name = obj.Name + " (" + name + ")"
			pods := count.pods[name]
			zero := 0
			job := inventory.JobDefaults(inventory.DeclaredJob{Completions: &pods, Parallelism: intPtr(1), BackoffLimit: &zero, TTLSecondsAfterFinished: ttl, ActiveDeadlineSeconds: deadline})
			w.Job = &job
			w.CronJob = cron
			w.Pod = pod
			w.Argo = &inventory.ArgoTemplate{Template: name, Entry: tag}
			if i == 0 {
				w.Unbounded = count.unbounded // once per workflow: the lower bound is the workflow's
			}
			out = append(out, w)
		}
	}
	return out
}

// podless is the workload of no pods that says a workflow's pods run but none is counted.
func (wf *argoWorkflow) podless(r *fieldReader, count argoCount) inventory.Workload {
	obj, wfPath := wf.obj, wf.path
	w := inventory.Workload{Object: obj, PodPath: wfPath, JobSpecPath: wfPath}
	w.ID = objectID(obj) + "#"
	w.Pod = mergeArgoPod(wf.shared, inventory.PodTemplate{ServiceAccountName: "default", Labels: map[string]string{}, Tolerations: []inventory.Toleration{}, RequiredAffinity: []inventory.NodeSelectorTerm{}, PodENIRequests: []inventory.PodENIRequest{}}, obj.Name)
	zero := 0
	job := inventory.JobDefaults(inventory.DeclaredJob{Completions: &zero, BackoffLimit: &zero, TTLSecondsAfterFinished: wf.ttl, ActiveDeadlineSeconds: wf.deadline})
	w.Job = &job
	w.CronJob = wf.cron
	w.Argo = &inventory.ArgoTemplate{}
	w.Unbounded = count.unbounded
	w.ArgoRef = wf.templateRef
	w.Locations = r.locs
	return w
}

func intPtr(n int) *int { return &n }

// workflowTTL is the time after which the workflow, and its pods with it, is deleted: podGC
// OnPodCompletion deletes each pod as it ends (0); ttlStrategy deletes the workflow
// secondsAfterCompletion after it ends, or the larger of secondsAfterSuccess and
// secondsAfterFailure when both are set. Anything else keeps the pods with the workflow.
func workflowTTL(r *fieldReader, wfSpec *yaml.Node, wfPath string) *int {
	gc := r.mapping(wfSpec, wfPath, "podGC")
	if s := r.str(gc, wfPath+".podGC", "strategy"); s != nil && *s == "OnPodCompletion" {
		zero := 0
		return &zero
	}
	ttl := r.mapping(wfSpec, wfPath, "ttlStrategy")
	p := wfPath + ".ttlStrategy"
	if n := r.integer(ttl, p, "secondsAfterCompletion"); n != nil {
		return n
	}
	ok, fail := r.integer(ttl, p, "secondsAfterSuccess"), r.integer(ttl, p, "secondsAfterFailure")
	if ok != nil && fail != nil {
		n := max(*ok, *fail)
		return &n
	}
	return nil
}

// walkArgo adds the pods one run of template name creates, times factor. Each template's
// pods are worked out once (memo): a template reused by many steps, nested many levels, is
// not walked again for every path to it.
func walkArgo(templates map[string]*yaml.Node, paths map[string]string, name string, factor int, stack map[string]bool, c *argoCount, from string, depth int) {
	memo := map[string]map[string]int{}
	for leaf, n := range podsOf(templates, paths, name, stack, memo, c, from, depth) {
		c.pods[leaf] = min(c.pods[leaf]+mulBounded(factor, n, c, from), maxWorkflowPods)
	}
}

// podsOf is how many pods of each pod-creating template one run of template name creates.
func podsOf(templates map[string]*yaml.Node, paths map[string]string, name string, stack map[string]bool, memo map[string]map[string]int, c *argoCount, from string, depth int) map[string]int {
	if m, ok := memo[name]; ok {
		return m
	}
	t, ok := templates[name]
	if !ok {
		c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("template %q is not defined in this workflow", name), Path: from})
		return nil
	}
	if stack[name] {
		c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("template %q calls itself: how many pods it runs depends on when the recursion stops", name), Path: paths[name]})
		return nil
	}
	if depth > 32 {
		c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("templates nest more than 32 deep at %q (a budget): the deeper ones are not counted", name), Path: paths[name]})
		return nil
	}
	stack[name] = true
	defer delete(stack, name)
	path := paths[name]
	out := map[string]int{}
	add := func(sub map[string]int, times int, at string) {
		for leaf, n := range sub {
			sum := out[leaf] + mulBounded(times, n, c, at)
			if sum > maxWorkflowPods {
				c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("more than %d pods per run (a budget)", maxWorkflowPods), Path: at})
				sum = maxWorkflowPods
			}
			out[leaf] = sum
		}
	}
	tries := retries(t, path, c)
	for _, kind := range podTemplates {
		if _, n := yamlpos.Lookup(t, kind); n != nil {
			out[name] = tries
			memo[name] = out
			return out
		}
	}
	call := func(step *yaml.Node, at string) {
		target, items := callTarget(step, at, c)
		if target != "" {
			add(podsOf(templates, paths, target, stack, memo, c, at+".template", depth+1), mulBounded(tries, items, c, at), at)
		}
	}
	if _, steps := yamlpos.Lookup(t, "steps"); steps != nil && steps.Kind == yaml.SequenceNode {
		for i, group := range steps.Content {
			group = yamlpos.Resolve(group)
			if group == nil || group.Kind != yaml.SequenceNode {
				continue
			}
			for j, step := range group.Content {
				call(step, fmt.Sprintf("%s.steps[%d][%d]", path, i, j))
			}
		}
	}
	if _, dag := yamlpos.Lookup(t, "dag"); dag != nil {
		if _, tasks := yamlpos.Lookup(dag, "tasks"); tasks != nil && tasks.Kind == yaml.SequenceNode {
			for i, task := range tasks.Content {
				call(task, fmt.Sprintf("%s.dag.tasks[%d]", path, i))
			}
		}
	}
	memo[name] = out
	return out
}

// callTarget reads one step or DAG task: the template it runs and how many times (its items).
func callTarget(call *yaml.Node, path string, c *argoCount) (string, int) {
	call = yamlpos.Resolve(call)
	if call == nil || call.Kind != yaml.MappingNode {
		return "", 0
	}
	if _, ref := yamlpos.Lookup(call, "templateRef"); ref != nil {
		_, n := yamlpos.Lookup(ref, "name")
		name := ""
		if n != nil {
			name = n.Value
		}
		c.lowerBound(fmt.Sprintf("it calls a template of WorkflowTemplate %q (templateRef), which eni-lint does not follow: those pods are not counted", name), path+".templateRef", ref)
		return "", 0
	}
	_, tn := yamlpos.Lookup(call, "template")
	if tn == nil || tn.Kind != yaml.ScalarNode {
		return "", 0 // inline templates and http/plugin steps run no pod of their own here
	}
	items := 1
	if _, list := yamlpos.Lookup(call, "withItems"); list != nil {
		if list.Kind == yaml.SequenceNode {
			items = len(list.Content)
		} else {
			c.lowerBound("withItems is not a literal list", path+".withItems", list)
		}
	}
	if _, p := yamlpos.Lookup(call, "withParam"); p != nil {
		c.lowerBound("withParam expands to as many pods as its parameter has items, which only the run knows", path+".withParam", p)
	}
	if _, seq := yamlpos.Lookup(call, "withSequence"); seq != nil {
		if n, ok := sequenceLength(seq); ok {
			items = min(n, maxWorkflowPods)
			if n > maxWorkflowPods {
				c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("withSequence: more than %d pods per run (a budget)", maxWorkflowPods), Path: path + ".withSequence"})
			}
		} else {
			c.lowerBound("withSequence's count, start or end comes from a parameter, which only the run knows", path+".withSequence", seq)
		}
	}
	return tn.Value, items
}

// retries is 1 + retryStrategy.limit, or 1 without a retryStrategy. A retryStrategy whose
// limit is absent or not a number cannot be bounded from the manifest.
func retries(t *yaml.Node, path string, c *argoCount) int {
	_, rs := yamlpos.Lookup(t, "retryStrategy")
	if rs == nil {
		return 1
	}
	_, limit := yamlpos.Lookup(rs, "limit")
	if limit != nil && limit.Kind == yaml.ScalarNode {
		if n, err := strconv.Atoi(strings.TrimSpace(limit.Value)); err == nil && n >= 0 {
			// Saturate: 1 + a limit near the largest int wrapped to a negative count, which
			// counted no pod at all.
			if n >= maxWorkflowPods {
				c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("retryStrategy.limit %d: more than %d pods per run (a budget)", n, maxWorkflowPods), Path: path + ".retryStrategy.limit"})
				return maxWorkflowPods
			}
			return 1 + n
		}
	}
	c.lowerBound("retryStrategy has no literal limit: its retries cannot be counted", path+".retryStrategy", rs)
	return 1
}

// sequenceLength reads a literal withSequence: count, or end - start + 1.
func sequenceLength(seq *yaml.Node) (int, bool) {
	num := func(key string) (int, bool, bool) {
		_, n := yamlpos.Lookup(seq, key)
		if n == nil {
			return 0, false, true
		}
		v, err := strconv.Atoi(strings.TrimSpace(n.Value))
		return v, true, err == nil
	}
	if n, has, ok := num("count"); has {
		return n, ok && n >= 0
	}
	start, _, ok1 := num("start")
	end, hasEnd, ok2 := num("end")
	if !hasEnd || !ok1 || !ok2 {
		return 0, false
	}
	if end < start {
		start, end = end, start
	}
	// end - start + 1 as unsigned numbers cannot wrap; past the budget it saturates.
	if span := uint64(end) - uint64(start); span < maxWorkflowPods {
		return int(span) + 1, true
	}
	return maxWorkflowPods + 1, true
}

// mulBounded multiplies two counts, saturating at the budget (a negative count, which no
// reader produces any more, saturates too rather than wrap).
func mulBounded(a, b int, c *argoCount, path string) int {
	if a < 0 || b < 0 || b != 0 && a > maxWorkflowPods/b {
		c.unbounded = append(c.unbounded, inventory.UnboundedReason{Reason: fmt.Sprintf("more than %d pods per run (a budget)", maxWorkflowPods), Path: path})
		return maxWorkflowPods
	}
	return a * b
}

// mergeArgoPod puts a template's pod fields over the workflow's: labels merged (the
// template's win), the template's service account, node selector entries, tolerations and
// affinity when it sets them. The controller labels every pod with its workflow's name.
func mergeArgoPod(shared, own inventory.PodTemplate, workflow string) inventory.PodTemplate {
	out := own
	out.Labels = map[string]string{}
	for k, v := range shared.Labels {
		out.Labels[k] = v
	}
	for k, v := range own.Labels {
		out.Labels[k] = v
	}
	out.Labels["workflows.argoproj.io/workflow"] = workflow
	if own.ServiceAccountName == "default" {
		out.ServiceAccountName = shared.ServiceAccountName
	}
	out.NodeSelector = map[string]string{}
	for k, v := range shared.NodeSelector {
		out.NodeSelector[k] = v
	}
	for k, v := range own.NodeSelector {
		out.NodeSelector[k] = v
	}
	if len(own.Tolerations) == 0 {
		out.Tolerations = shared.Tolerations
	}
	if len(own.RequiredAffinity) == 0 {
		out.RequiredAffinity = shared.RequiredAffinity
	}
	out.HostNetwork = own.HostNetwork || shared.HostNetwork
	return out
}
