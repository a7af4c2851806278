// Package analysis runs one check end to end: files → loaders → one inventory → the prepared
// Rego query → a report. It is the only place that knows the order; each step lives in its
// own package.
package analysis

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/loaders"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/karpenter"
	"github.com/eni-lint/eni-lint/pkg/loaders/terraform"
	"github.com/eni-lint/eni-lint/pkg/rules"
	"github.com/eni-lint/eni-lint/pkg/suppress"
	"github.com/eni-lint/eni-lint/pkg/witness"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// Options are the settings of one run, already merged from flags and config.
type Options struct {
	// witnessBudget, when set, is this evaluation's share of the run's witness budget.
	witnessBudget *witness.Budget
	// WitnessBudget, when set, replaces witness.DefaultBudget as the run's budget (a test
	// that compares numbers only searches none).
	WitnessBudget *witness.Budget
	// WorkingFolder is the working folder from the repository root, for the report's inputs.
	WorkingFolder string
	// sharedInputs, when set, converts a workload several clusters hold to its Rego form once.
	sharedInputs    *rules.WorkloadInputs
	Paths           []string
	Stdin           io.Reader
	NodeGroups      []inventory.NodeGroupSpec
	Limits          map[string]limits.Override
	ENIRelease      inventory.Release
	CooldownSeconds int
	// Disruptions: pods of one run assumed disrupted and replaced (inventory.Settings).
	Disruptions      int
	DefaultNamespace string
	FailOn           findings.Severity
	Version          string
	Workers          int
	// Timings, when set, receives how long each step took (--timings).
	Timings io.Writer
	// ProfilePolicies, when set, receives OPA's profile of the evaluation: the expressions
	// that took the most time (--profile-policies).
	ProfilePolicies io.Writer
	// Exclude are path globs of files not to read.
	Exclude []string
	// Terraform holds --var-file and --var for Terraform root modules.
	Terraform terraform.Options
	// HelmCharts are rendered in-process (--helm-chart).
	HelmCharts []helm.Chart
	// TerraformPlans are Terraform plan or state JSON files (--terraform-plan, terraformPlans:).
	TerraformPlans []loaders.TerraformPlan
	// SkipTreeCharts leaves the charts found in the scanned folders unrendered.
	SkipTreeCharts bool
	// Today is the date ignore expiry is checked against (YYYY-MM-DD); empty means today.
	Today string
	// InlineIgnores says whether eni-lint.io/ignore annotations may suppress, per rule.
	InlineIgnores inventory.InlineIgnores
	// Rules tunes rules: severity overrides and disabled rules.
	Rules map[string]RuleOverride
	// Ignores are the config file's ignores entries.
	Ignores []Ignore
	// Baseline, when set, marks the findings it records as suppressed.
	Baseline     *suppress.Baseline
	BaselineFile string
	// BaselineError, when set, is why the baseline named could not be read: the run goes on
	// without its suppressions and reports it as an input that could not be read (exit 2),
	// with every finding (an unreadable baseline costs its suppressions, not the report).
	BaselineError *inventory.LoadError
	// EvalTimeout bounds the policy evaluation (custom policies included); 0 means none.
	EvalTimeout time.Duration
	// MaxFileSize is the size budget of one input file (0: confine.DefaultMaxFileSize).
	MaxFileSize int64
	// MaxDocuments is the budget of YAML documents in one file (0: the default).
	MaxDocuments int
	// Progress, when set, is told which step the run is in (for --timeout's message).
	Progress func(step string)
	// Reading, when set, is told which inputs are being read (see loaders.Options.Reading).
	Reading func(input string) (done func())
	// ChangedFiles, when set, narrows the report to findings related to these files.
	ChangedFiles map[string]bool
	ChangedSince string
	// EachVarFile are var files, one Terraform environment each (--each-var-file): each
	// applies to the root module that holds it, or to every root when none does.
	EachVarFile []string
	// Clusters are the config's clusters entries.
	Clusters []ClusterSpec
	// ListManifests lists each cluster's manifest files in the report (eni-lint clusters).
	ListManifests bool
	// Discover stops before the policies: the report has the clusters, node groups and
	// inputs, and no finding (eni-lint clusters).
	Discover bool
	// Overlay, when set, is read instead of the disk's files (by absolute path; a path the disk
	// does not have is a new file): eni-lint fix checks its changes before it writes them.
	Overlay map[string][]byte
	// Workloads, when set, receives the workloads of every inventory evaluated (once per
	// cluster, possibly at once from several goroutines): eni-lint fix finds where a fix goes.
	Workloads func([]inventory.Workload)
	// FixTTLSeconds is the TTL ENI002's fix sets (0: the policies' default, 600).
	FixTTLSeconds int
}

// RuleOverride is one rule's config.
type RuleOverride struct {
	Severity findings.Severity
	Disabled bool
}

// Ignore is a config-file ignore: what the policies validate and what the engine matches.
type Ignore struct {
	suppress.ConfigIgnore
	Location inventory.Position
}

// Check runs the analysis. An error means the run itself could not happen (bad settings,
// policies that do not compile); unreadable inputs are reported inside the report instead.
// The engine may still be compiling (rules.Start): it is waited for once the files are read;
// discovery (Options.Discover) needs none.
func Check(ctx context.Context, source rules.Source, opts Options) (*findings.Report, error) {
	table, err := checkSettings(&opts)
	if err != nil {
		return nil, err
	}

	start := time.Now()
	step := func(name string) {
		if opts.Timings != nil {
			fmt.Fprintf(opts.Timings, "eni-lint: %-9s %v\n", name, time.Since(start).Round(time.Millisecond))
		}
		start = time.Now()
	}
	progress := func(step string) {
		if opts.Progress != nil {
			opts.Progress(step)
		}
	}
	progress("reading the inputs")
	frags, stats, err := load(ctx, opts)
	if err != nil {
		return nil, err
	}
	step("load")
	var engine *rules.Engine // nil for discovery (eni-lint clusters), which evaluates nothing
	if source != nil {
		if engine, err = source.Wait(); err != nil {
			return nil, err
		}
		step("compile")
	}
	clusters := planClusters(frags, opts.NodeGroups, opts.Clusters, opts.Paths)
	progress("evaluating the policies")
	var report *findings.Report
	if len(clusters) == 0 {
		// No node groups anywhere: one evaluation of everything, capacity unknown.
		report, _, err = checkFragments(ctx, engine, opts, table, frags, stats, nil)
		if err != nil {
			return nil, err
		}
		report.Clusters = []findings.Cluster{}
	} else {
		report, err = checkClusters(ctx, engine, opts, table, clusters, stats)
		if err != nil {
			return nil, err
		}
	}
	step("evaluate")
	judge(report, engine, opts, frags)
	report.Sort()
	report.Count()
	step("report")
	return report, nil
}

// checkSettings refuses a release model eni-lint does not know, raises the cool-down to the
// controller's floor, as the controller does, and gives the instance table with the run's
// overrides.
func checkSettings(opts *Options) (*limits.Table, error) {
	if !opts.ENIRelease.Valid() {
		return nil, fmt.Errorf("eniRelease %q is not onDelete or onCompletion", opts.ENIRelease)
	}
	if opts.CooldownSeconds < inventory.MinCooldownSeconds {
		opts.CooldownSeconds = inventory.MinCooldownSeconds
	}
	builtin, err := limits.Builtin()
	if err != nil {
		return nil, err
	}
	return builtin.WithOverrides(opts.Limits)
}

// load reads every input through one confined file system, whose roots are the scanned
// folders (see pkg/confine).
func load(ctx context.Context, opts Options) ([]inventory.Fragment, loaders.Stats, error) {
	fsys, err := confine.New("", opts.MaxFileSize)
	if err != nil {
		return nil, loaders.Stats{}, err
	}
	defer fsys.Close()
	NamePaths(fsys, opts)
	if opts.Overlay != nil {
		fsys.SetOverlay(opts.Overlay)
	}
	frags, stats := loaders.Load(ctx, opts.Paths, loaders.Options{
		DefaultNamespace: opts.DefaultNamespace, Workers: opts.Workers, Stdin: opts.Stdin,
		Exclude: opts.Exclude, Terraform: terraformEnvironments(opts), HelmCharts: opts.HelmCharts, SkipTreeCharts: opts.SkipTreeCharts,
		FS: fsys, YAML: yamlpos.Limits{MaxDocuments: opts.MaxDocuments, MaxAliasNodes: yamlpos.DefaultMaxAliasNodes},
		Reading: opts.Reading, TerraformPlans: opts.TerraformPlans,
	})
	return frags, stats, nil
}

// terraformEnvironments are the Terraform options with one environment per --each-var-file
// file and per cluster that names its own var files.
func terraformEnvironments(opts Options) terraform.Options {
	tf := opts.Terraform
	for _, f := range opts.EachVarFile {
		tf.Environments = append(tf.Environments, terraform.Environment{VarFiles: []string{f}})
	}
	for _, c := range opts.Clusters {
		if len(c.VarFiles) > 0 {
			tf.Environments = append(tf.Environments, terraform.Environment{VarFiles: c.VarFiles, Under: c.Infrastructure, Cluster: c.Name})
		}
	}
	return tf
}

// judge applies what decides over the merged findings of every cluster: unused ignores, the
// baseline, --changed-since.
func judge(report *findings.Report, engine *rules.Engine, opts Options, frags []inventory.Fragment) {
	// An ignore entry one cluster uses is no unused entry in the others.
	report.Findings = append(report.Findings, tune(unusedIgnores(report.IgnoreUses, engine, opts.Rules), opts.Rules)...)
	// Ignores, the baseline and --changed-since judge the findings once they are merged: a
	// baseline entry that one cluster matches is no stale entry in the others.
	if opts.Baseline != nil {
		report.Baseline = &findings.BaselineStatus{File: opts.BaselineFile, Stale: opts.Baseline.Apply(report.Findings)}
		if report.Baseline.Stale == nil {
			report.Baseline.Stale = []findings.BaselineEntry{}
		}
	}
	if opts.BaselineError != nil {
		report.Errors = append(report.Errors, *opts.BaselineError)
	}
	if opts.ChangedFiles != nil {
		report.Findings = suppress.ChangedOnly(report.Findings, opts.ChangedFiles, verdictInputs(report, policyFiles(frags)))
	}
	if report.Findings == nil {
		report.Findings = []findings.Finding{}
	}
}

// NamePaths makes every path the command line or the config names besides the scanned ones
// readable, wherever it is: a chart, a values file or a var file beside the scanned folder is
// read. (The scanned paths are added by whoever walks them: loaders.Load, fix's rootsOf.) A
// path that cannot be added is left to the loader that reads it, which reports it at its place.
func NamePaths(fsys *confine.FS, opts Options) {
	var named []string
	for _, c := range opts.HelmCharts {
		named = append(named, c.Dir)
		named = append(named, c.Values...)
	}
	named = append(named, opts.Terraform.VarFiles...)
	named = append(named, opts.EachVarFile...)
	for _, c := range opts.Clusters {
		named = append(named, c.Infrastructure...)
		named = append(named, c.Manifests...)
		named = append(named, c.VarFiles...)
	}
	for _, p := range named {
		fsys.AddPath(p)
	}
}

// checkFragments evaluates one cluster: the fragments that belong to it, and the node groups
// flags and config give it. The inventory comes back for the caller's counts.
func checkFragments(ctx context.Context, engine *rules.Engine, opts Options, table *limits.Table, frags []inventory.Fragment, stats loaders.Stats, flagGroups []inventory.NodeGroupSpec) (*findings.Report, *inventory.Inventory, error) {
	inv, all, loadErrors, err := clusterInventory(engine, opts, table, frags, stats, flagGroups)
	if err != nil {
		return nil, nil, err
	}
	res, stopped, err := evaluateCluster(ctx, engine, opts, inv)
	if err != nil {
		return nil, nil, err
	}
	if stopped != "" {
		loadErrors = append(loadErrors, inventory.LoadError{Position: inventory.Position{File: "--timeout"}, Message: stopped})
	}
	res.Findings = tune(res.Findings, opts.Rules)
	// Every ENI001 carries a trajectory that reaches its demand, or how close one came.
	budget := opts.runWitnessBudget()
	if opts.witnessBudget != nil {
		budget = *opts.witnessBudget
	}
	witness.Attach(res.Findings, inv, budget)
	uses := suppressions(res, opts)
	report := clusterReport(opts, inv, all, stats, res, loadErrors, engine.Rules())
	report.IgnoreUses = uses
	report.Sort()
	report.Count()
	return report, inv, nil
}

// clusterReport is the report of one cluster's evaluation: the model it used, the inputs
// read, the inventory's node groups and Fargate workloads, and the policies' results (its
// lists empty rather than null).
func clusterReport(opts Options, inv *inventory.Inventory, all inventory.Fragment, stats loaders.Stats, res *rules.Result, loadErrors []inventory.LoadError, rules []rules.Rule) *findings.Report {
	report := &findings.Report{
		SchemaVersion: findings.SchemaVersion,
		Version:       opts.Version,
		Model: findings.Model{
			ENIRelease:      inv.Settings.ENIRelease,
			CooldownSeconds: inv.Settings.CooldownSeconds,
			WindowSeconds:   inv.Settings.WindowSeconds,
			Disruptions:     inv.Settings.Disruptions,
			Description:     ModelDescription(inv.Settings),
		},
		Inputs: findings.Inputs{
			Paths: opts.Paths, WorkingFolder: opts.WorkingFolder, Files: stats.Files, Documents: stats.Documents,
			Workloads: len(inv.Workloads), SecurityGroupPolicies: len(inv.SecurityGroupPolicies),
			ServiceAccounts: len(inv.ServiceAccounts), NodeGroups: len(inv.NodeGroups),
			SkippedChartTemplates: stats.SkippedChartTemplates, TerraformModules: stats.TerraformModules,
			Kustomizations: stats.Kustomizations, HelmCharts: stats.HelmCharts, RenderedCharts: stats.RenderedCharts,
			BuiltKustomizations: stats.BuiltKustomizations, NotModelled: notModelled(all.NotModelled), TerraformPlans: stats.TerraformPlans,
		},
		NodeGroups:    inv.NodeGroups,
		CNISettings:   inv.CNISettings,
		CapacityKnown: len(inv.NodeGroups) > 0,
		FailOn:        opts.FailOn,
		Errors:        loadErrors,
		Findings:      res.Findings,
		InstanceTypes: res.InstanceTypes,
		Workloads:     res.Workloads,
		Rules:         rules,
		ChangedSince:  opts.ChangedSince,
	}
	for _, w := range inv.Workloads {
		if w.Fargate != nil {
			report.OnFargate = append(report.OnFargate, findings.FargateWorkload{
				Object:   findings.ObjectRef{Kind: w.Kind, Namespace: w.Namespace, Name: w.Name},
				Location: w.Locations.At(""), Profile: w.Fargate.Profile, ProfileLocation: w.Fargate.Location,
			})
		}
	}
	for _, s := range stats.Skipped {
		report.Inputs.Skipped = append(report.Inputs.Skipped, findings.SkippedInput{Path: s.Path, Reason: s.Reason})
	}
	if report.Errors == nil {
		report.Errors = []inventory.LoadError{}
	}
	if report.Findings == nil {
		report.Findings = []findings.Finding{}
	}
	if report.InstanceTypes == nil {
		report.InstanceTypes = []findings.InstanceTypeRow{}
	}
	if report.Workloads == nil {
		report.Workloads = []findings.WorkloadNumbers{}
	}
	return report
}

// clusterInventory builds one cluster's inventory from its fragments and node groups: the
// run's settings, the fragments merged, Argo references resolved, Fargate profiles and
// autoscalers applied, the Karpenter pools resolved and every node group built. It returns
// the fragments merged (for what the report lists of them) and the inputs that could not be
// read.
func clusterInventory(engine *rules.Engine, opts Options, table *limits.Table, frags []inventory.Fragment, stats loaders.Stats, flagGroups []inventory.NodeGroupSpec) (*inventory.Inventory, inventory.Fragment, []inventory.LoadError, error) {
	inv := emptyInventory(engine, opts)
	all := inventory.Merge(inv, frags)
	loadErrors := all.Errors
	// Paths that hold nothing eni-lint reads (an empty folder, docs/) checked nothing: that is
	// no clean result.
	if stats.Files == 0 && stats.HelmCharts == 0 && len(loadErrors) == 0 {
		loadErrors = append(loadErrors, inventory.LoadError{Position: inventory.Position{File: strings.Join(opts.Paths, " ")},
			Message: "no file eni-lint reads was found here (Kubernetes YAML or JSON, kustomizations, Helm charts, Terraform, CloudFormation, eksctl): nothing was checked"})
	}
	var unresolvedRefs []inventory.UnresolvedObject
	inv.Workloads, unresolvedRefs = inventory.ResolveArgoRefs(inv.Workloads, all.ArgoTemplates)
	inv.UnresolvedObjects = append(inv.UnresolvedObjects, unresolvedRefs...)
	inventory.AssignFargate(inv.Workloads, all.FargateProfiles)
	inventory.Reconcile(inv)
	inv.UnresolvedObjects = append(inv.UnresolvedObjects, inventory.ApplyAutoscalers(inv.Workloads, all.Autoscalers)...)
	pools, err := karpenter.Resolve(all.NodePools, all.NodeClasses, table, karpenter.MentionsOf(mayHoldBranchENIs(inv)))
	if err != nil {
		return nil, inventory.Fragment{}, nil, err
	}
	if len(pools) == len(all.NodePools) { // one spec per pool, in order
		for i, defs := range inventory.DuplicateNodePools(all.NodePools) {
			pools[i].Duplicates = defs
		}
	}
	specs := append(append(append([]inventory.NodeGroupSpec{}, flagGroups...), all.NodeGroups...), pools...)
	for _, spec := range specs {
		inv.NodeGroups = append(inv.NodeGroups, inventory.BuildNodeGroup(spec, table))
	}
	inventory.SortNodeGroups(inv.NodeGroups)
	inv.InstanceFamilies = inventory.Families(inv.NodeGroups, table)
	ensureSlices(inv)
	return inv, all, loadErrors, nil
}

// emptyInventory is an inventory with the run's settings and config ignores, before any
// fragment is merged into it.
func emptyInventory(engine *rules.Engine, opts Options) *inventory.Inventory {
	today := opts.Today
	if today == "" {
		today = time.Now().UTC().Format("2006-01-02")
	}
	var ruleIDs []string
	for _, r := range engine.Rules() {
		ruleIDs = append(ruleIDs, r.ID)
	}
	inlineIgnores := opts.InlineIgnores
	if inlineIgnores.Rules == nil {
		inlineIgnores.Rules = map[string]bool{}
	}
	inv := &inventory.Inventory{
		Settings: inventory.Settings{
			ENIRelease:       opts.ENIRelease,
			CooldownSeconds:  opts.CooldownSeconds,
			WindowSeconds:    opts.CooldownSeconds + inventory.DeleteQueueTickSeconds,
			Disruptions:      opts.Disruptions,
			DefaultNamespace: opts.DefaultNamespace,
			Today:            today,
			InlineIgnores:    inlineIgnores,
			RuleIDs:          ruleIDs,
			FixTTLSeconds:    opts.FixTTLSeconds,
		},
		ConfigIgnores: []inventory.ConfigIgnore{},
	}
	for i, ig := range opts.Ignores {
		inv.ConfigIgnores = append(inv.ConfigIgnores, inventory.ConfigIgnore{
			Index: i, Rules: []string{ig.Rule}, Reason: ig.Reason, Expires: ig.Expires,
			Location: ig.Location, Text: fmt.Sprintf("%s: %s", ig.Rule, ig.Reason),
		})
	}
	return inv
}

// evaluateCluster evaluates the policies over one cluster's inventory, unless the run only
// discovers clusters. When the run's deadline (--timeout) passed while reading or evaluating,
// the result is empty and stopped says so: the report still goes out, with what was read and
// the reason there is no verdict, as exit 2.
func evaluateCluster(ctx context.Context, engine *rules.Engine, opts Options, inv *inventory.Inventory) (res *rules.Result, stopped string, err error) {
	evalCtx := ctx
	if opts.EvalTimeout > 0 {
		var cancel context.CancelFunc
		evalCtx, cancel = context.WithTimeout(ctx, opts.EvalTimeout)
		defer cancel()
	}
	res = &rules.Result{}
	if opts.Workloads != nil {
		opts.Workloads(inv.Workloads)
	}
	if opts.Discover {
		// Nothing to evaluate: eni-lint clusters shows what would be.
	} else if ctx.Err() != nil {
		stopped = "the run took longer than --timeout while reading the inputs: the policies were not evaluated, so there is no verdict; the files not read are listed"
	} else if r, err := evaluate(evalCtx, engine, inv, opts.ProfilePolicies, opts.sharedInputs); err != nil {
		switch {
		case ctx.Err() != nil:
			stopped = "the run took longer than --timeout while evaluating the policies: there is no verdict"
		case evalCtx.Err() == context.DeadlineExceeded:
			return nil, "", fmt.Errorf("policy evaluation took longer than %v (--policy-timeout)", opts.EvalTimeout)
		default:
			return nil, "", err
		}
	} else {
		res = r
	}
	return res, stopped, nil
}

// suppressions marks the findings that inline and config-file ignores suppress, and lists
// each inline ignore with whether it was used.
func suppressions(res *rules.Result, opts Options) []findings.IgnoreUse {
	used := suppress.Inline(res.Findings, res.Ignores)
	var uses []findings.IgnoreUse
	for i, ig := range res.Ignores {
		use := findings.IgnoreUse{ObjectID: ig.Object, Object: ig.Ref, Rules: ig.Rules, Text: ig.Text, Used: used[i]}
		if ig.Location != nil {
			use.Location = *ig.Location
		}
		uses = append(uses, use)
	}
	var accepted []suppress.ConfigIgnore
	for _, i := range res.ConfigIgnores {
		if i >= 0 && i < len(opts.Ignores) {
			accepted = append(accepted, opts.Ignores[i].ConfigIgnore)
		}
	}
	suppress.Config(res.Findings, accepted)
	return uses
}

// evaluate runs the prepared query, under OPA's profiler when a profile is asked for.
func evaluate(ctx context.Context, engine *rules.Engine, inv *inventory.Inventory, profile io.Writer, shared *rules.WorkloadInputs) (*rules.Result, error) {
	if profile != nil {
		return engine.EvaluateProfiled(ctx, inv, profile, 30)
	}
	if shared != nil {
		return engine.EvaluateSharing(ctx, inv, shared)
	}
	return engine.Evaluate(ctx, inv)
}

// ModelDescription is the one line every report prints about the release model, the Job
// controller the figures assume (docs/model.md §5a: 1.31 and later, every EKS version today),
// and the assumption about disrupted pods.
func ModelDescription(s inventory.Settings) string {
	return releaseDescription(s) + "; Jobs as Kubernetes 1.31 and later run them" + disruptionsDescription(s.Disruptions)
}

// disruptionsDescription says how restartPolicy OnFailure runs are counted.
func disruptionsDescription(n int) string {
	if n == 0 {
		return "; OnFailure pods restart in place (no pod disruptions assumed, --disruptions)"
	}
	if n == 1 {
		return "; OnFailure runs: 1 disrupted pod per run replaced (--disruptions)"
	}
	return fmt.Sprintf("; OnFailure runs: %d disrupted pods per run replaced (--disruptions)", n)
}

func releaseDescription(s inventory.Settings) string {
	if s.ENIRelease.OnDelete() {
		return "onDelete: a terminated SGP pod holds its branch ENI until the pod is deleted (VPC resource controller before v1.1.0, or failed ENI clean-up); the worst case"
	}
	return fmt.Sprintf("onCompletion: a terminated SGP pod holds its branch ENI for %ds after it ends (cool-down %ds + %ds delete-queue tick; VPC resource controller v1.1.0 and later)",
		s.WindowSeconds, s.CooldownSeconds, inventory.DeleteQueueTickSeconds)
}

// policyFiles is where each SecurityGroupPolicy is defined, by namespace/name.
func policyFiles(frags []inventory.Fragment) map[string][]string {
	out := map[string][]string{}
	for _, f := range frags {
		for _, p := range f.SecurityGroupPolicies {
			key := p.Namespace + "/" + p.Name
			out[key] = append(out[key], p.Locations.At("").File)
		}
	}
	return out
}

// verdictInputs names, per workload ID, the files besides its own that its verdict reads: the
// SecurityGroupPolicies that select it (by name, in its namespace) and the node groups its
// pods may land on.
func verdictInputs(report *findings.Report, policies map[string][]string) func(id string) []string {
	groupFiles := map[string][]string{}
	for _, g := range report.NodeGroups {
		if g.Location.File != "" {
			groupFiles[g.Name] = append(groupFiles[g.Name], g.Location.File)
		}
	}
	inputs := map[string][]string{}
	for _, w := range report.Workloads {
		var files []string
		for _, sgp := range w.SelectedBy {
			files = append(files, policies[w.Namespace+"/"+sgp]...)
		}
		for _, g := range w.NodeGroups {
			files = append(files, groupFiles[g]...)
		}
		if len(files) > 0 {
			inputs[w.ID] = append(inputs[w.ID], files...)
		}
	}
	return func(id string) []string { return inputs[id] }
}

// ensureSlices replaces nil slices and maps with empty ones, so the policies never see null
// where the schema promises a list or an object.
func ensureSlices(inv *inventory.Inventory) {
	// IDs key the policies' lookups; make them unique whatever the inputs declare twice.
	seen := map[string]int{}
	unique := func(o *inventory.Object) {
		seen[o.ID]++
		if n := seen[o.ID]; n > 1 {
			o.ID = fmt.Sprintf("%s#%d", o.ID, n)
		}
	}
	inv.EachKeyedObject(unique)
	if inv.Workloads == nil {
		inv.Workloads = []inventory.Workload{}
	}
	if inv.SecurityGroupPolicies == nil {
		inv.SecurityGroupPolicies = []inventory.SecurityGroupPolicy{}
	}
	if inv.ServiceAccounts == nil {
		inv.ServiceAccounts = []inventory.ServiceAccount{}
	}
	if inv.Namespaces == nil {
		inv.Namespaces = []inventory.Namespace{}
	}
	if inv.NodeGroups == nil {
		inv.NodeGroups = []inventory.NodeGroup{}
	}
	if inv.CNISettings == nil {
		inv.CNISettings = []inventory.CNISetting{}
	}
	if inv.UnresolvedObjects == nil {
		inv.UnresolvedObjects = []inventory.UnresolvedObject{}
	}
	if inv.PlanDisagreements == nil {
		inv.PlanDisagreements = []inventory.PlanDisagreement{}
	}
	for i := range inv.PlanDisagreements {
		d := &inv.PlanDisagreements[i]
		if d.CodeTypes == nil {
			d.CodeTypes = []string{}
		}
		if d.PlanTypes == nil {
			d.PlanTypes = []string{}
		}
	}
	for i := range inv.NodeGroups {
		if inv.NodeGroups[i].Taints == nil {
			inv.NodeGroups[i].Taints = []inventory.Taint{}
		}
	}
	for i := range inv.SecurityGroupPolicies {
		if inv.SecurityGroupPolicies[i].GroupIDs == nil {
			inv.SecurityGroupPolicies[i].GroupIDs = []string{}
		}
	}
}

// tune applies the config's per-rule settings: disabled rules' findings are dropped, and a
// severity override replaces every severity the rule gives.
func tune(fs []findings.Finding, rules map[string]RuleOverride) []findings.Finding {
	if len(rules) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		o, ok := rules[f.Rule]
		if ok && o.Disabled {
			continue
		}
		if ok && o.Severity != "" {
			f.Severity = o.Severity
		}
		out = append(out, f)
	}
	return out
}

// mayHoldBranchENIs are the workloads that can get a branch ENI: those in a namespace with a
// SecurityGroupPolicy (policies select only in their own namespace) and those that request
// vpc.amazonaws.com/pod-eni themselves. Only their node selectors can split a Karpenter pool
// into label classes; the others would only add rows nothing lands on.
func mayHoldBranchENIs(inv *inventory.Inventory) []inventory.Workload {
	withPolicy := map[string]bool{}
	for _, p := range inv.SecurityGroupPolicies {
		withPolicy[p.Namespace] = true
	}
	var out []inventory.Workload
	for _, w := range inv.Workloads {
		if withPolicy[w.Namespace] || len(w.Pod.PodENIRequests) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// notModelled lists the objects whose pods eni-lint does not count, by file and line.
func notModelled(objs []inventory.Object) []findings.NotModelled {
	var out []findings.NotModelled
	for _, o := range objs {
		out = append(out, findings.NotModelled{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name, Location: o.Locations.At("")})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Location.File != out[j].Location.File {
			return out[i].Location.File < out[j].Location.File
		}
		return out[i].Location.Line < out[j].Location.Line
	})
	return out
}

// runWitnessBudget is the run's witness budget: WitnessBudget, or witness.DefaultBudget.
func (o Options) runWitnessBudget() witness.Budget {
	if o.WitnessBudget != nil {
		return *o.WitnessBudget
	}
	return witness.DefaultBudget
}

// unusedIgnores are the ENI009 findings of the accepted inline ignore entries that covered no
// finding in any evaluation of the run, once each. An entry whose rules are all turned off in
// the config is not one: nothing of those rules is reported to cover.
func unusedIgnores(uses []findings.IgnoreUse, engine *rules.Engine, overrides map[string]RuleOverride) []findings.Finding {
	if engine == nil || len(uses) == 0 {
		return nil // discovery (clusters) evaluates nothing
	}
	rule, ok := engine.Rule("ENI009")
	if !ok {
		return nil
	}
	key := func(u findings.IgnoreUse) string { return fmt.Sprintf("%s|%s|%v", u.ObjectID, u.Text, u.Location) }
	used := map[string]bool{}
	for _, u := range uses {
		used[key(u)] = used[key(u)] || u.Used
	}
	var out []findings.Finding
	seen := map[string]bool{}
	for _, u := range uses {
		k := key(u)
		if used[k] || seen[k] {
			continue
		}
		seen[k] = true
		live := false
		for _, r := range u.Rules {
			if o, ok := overrides[r]; !ok || !o.Disabled {
				live = true
			}
		}
		if !live {
			continue
		}
		ref := u.Object
		out = append(out, findings.Finding{
			Rule: "ENI009", Severity: rule.Severity, Location: u.Location, Object: &ref, ObjectID: u.ObjectID,
			Message: fmt.Sprintf("%s: ignore %q matches no finding: no %s is reported on it (or, for a node group, on its rows), so it suppresses nothing; remove it, or keep it with an expiry while the change it waits for lands",
				u.Object, u.Text, strings.Join(u.Rules, " or ")),
			Details: map[string]any{"entry": u.Text, "problem": "matches no finding"},
		})
	}
	return out
}
