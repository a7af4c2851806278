package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/internal/gcpace"
	"github.com/eni-lint/eni-lint/pkg/analysis"
	"github.com/eni-lint/eni-lint/pkg/config"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/fix"
	"github.com/eni-lint/eni-lint/pkg/github"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/loaders"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/terraform"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/suppress"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type checkFlags struct {
	config         string
	nodeGroups     []string
	eniRelease     string
	cooldown       time.Duration
	disruptions    int
	namespace      string
	format         string
	failOn         string
	noColor        bool
	color          string
	workers        int
	timings        bool
	profile        bool
	outputs        []string
	baseline       string
	writeBaseline  string
	exclude        []string
	changedSince   string
	policies       []string
	varFiles       []string
	vars           []string
	eachVarFile    string
	helmCharts     []string
	terraformPlans []string
	helmValues     []string
	helmSet        []string
	renderCharts   bool
	policyTimeout  time.Duration
	github         bool
	comment        bool
	review         bool
	timeout        time.Duration
	maxFileSize    string
	maxDocuments   int
	maxMemory      string
	// clustersOnly makes the run `eni-lint clusters`: discovery without evaluation.
	clustersOnly bool
}

func newCheck(stdio IO) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Check manifests and infrastructure for branch-ENI exhaustion",
		Long: `Check reads Kubernetes manifests (YAML or JSON; folders are walked recursively; the path
"-" is standard input), works out which workloads a SecurityGroupPolicy selects and where they may
land, and reports where a node's branch ENIs can run out.

Node groups come from the infrastructure code in the scanned folders (Terraform
node groups, Auto Scaling groups and the terraform-aws-modules/eks module; Karpenter
NodePools; eksctl; CloudFormation and CDK output; --terraform-plan), each root a cluster of
its own, and from nodeGroups in .eni-lint.yaml or --node-group, which replaces the
config's:

  --node-group NAME=TYPE[,TYPE...][;labels=KEY=VALUE[,...]]
               [;taints=KEY[=VALUE]:EFFECT[,...]][;maxPods=N]

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 the run failed
(unreadable input, bad flags or config, policy errors).`,
		Example: `  eni-lint check examples/quickstart --node-group default=m5.large
  eni-lint check k8s/ --node-group 'batch=m5.large,m5.xlarge;maxPods=29'
  helm template ./chart | eni-lint check - --node-group default=m6i.large`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, stdio, f, args)
		},
	}
	fl := cmd.Flags()
	inputFlags(fl, &f)
	fl.StringVar(&f.format, "format", "text", fmt.Sprintf("format of standard output %v", report.Formats()))
	fl.StringArrayVar(&f.outputs, "output", nil, "also write FORMAT=FILE, e.g. sarif=eni-lint.sarif (repeatable)")
	fl.StringVar(&f.failOn, "fail-on", "", "lowest severity that makes the exit code 1: info, warning, error (default) or none")
	fl.BoolVar(&f.noColor, "no-color", false, "no colors in text output (the same as --color never)")
	fl.StringVar(&f.color, "color", "auto", "colors in text output: always, never, or auto (a terminal, unless NO_COLOR is set or TERM=dumb)")
	fl.StringVar(&f.baseline, "baseline", "", "report only findings not recorded in this baseline file (and list stale entries)")
	fl.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in this baseline file")
	fl.StringVar(&f.changedSince, "changed-since", "", "report only findings related to files changed since this git ref (the whole tree is still read)")
	fl.StringArrayVar(&f.policies, "policy", nil, "folder of custom Rego rules to evaluate too (repeatable)")
	fl.DurationVar(&f.policyTimeout, "policy-timeout", 5*time.Minute, "give up when policy evaluation takes longer (exit 2)")
	fl.BoolVar(&f.github, "github", false, "GitHub Actions mode: annotations, job summary and a sticky pull request comment (reads GITHUB_* variables)")
	fl.BoolVar(&f.comment, "comment", true, "with --github: keep one pull request comment up to date")
	fl.BoolVar(&f.review, "review", false, "with --github: add review comments on changed lines that have findings")
	fl.BoolVar(&f.timings, "timings", false, "print how long loading, evaluation and reporting took to stderr")
	fl.BoolVar(&f.profile, "profile-policies", false, "print the Rego expressions that took the most evaluation time to stderr (OPA's profiler; slows the run)")
	return cmd
}

// inputFlags are the flags that say what a run reads and how: check and clusters share them.
func inputFlags(fl *pflag.FlagSet, f *checkFlags) {
	fl.StringVar(&f.config, "config", "", "config file (default: "+config.FileName+" in the current folder or above)")
	fl.StringArrayVar(&f.nodeGroups, "node-group", nil, "a node group `NAME=TYPE[,TYPE...]`, with optional ;labels=…, ;taints=… and ;maxPods=N (repeatable; replaces the config's node groups)")
	fl.StringVar(&f.eniRelease, "eni-release", "", "release model: onDelete (default, worst case) or onCompletion")
	fl.DurationVar(&f.cooldown, "cooldown", 0, "branch-ENI cool-down for onCompletion (default 60s, minimum 30s)")
	fl.IntVar(&f.disruptions, "disruptions", 0, "pods of one run assumed disrupted (evicted, node lost) and replaced: what makes a restartPolicy OnFailure run leave more pods")
	fl.StringVar(&f.namespace, "namespace", "", "namespace of manifests without metadata.namespace (default \"default\")")
	fl.IntVar(&f.workers, "workers", 0, "files parsed at once (default: one per CPU)")
	fl.StringArrayVar(&f.exclude, "exclude", nil, "leave out files and folders matching this glob (vendor/**), after the config's exclude (repeatable)")
	fl.StringArrayVar(&f.varFiles, "var-file", nil, "Terraform variable file for root modules, after terraform.tfvars and *.auto.tfvars (repeatable, in order)")
	fl.StringArrayVar(&f.terraformPlans, "terraform-plan", nil, "read this Terraform plan or state JSON (terraform show -json plan.out > plan.json): FILE[:ROOT], ROOT the root module it is of (default: the file's folder); it replaces that root's static evaluation, joined to the code's lines by address (repeatable)")
	fl.StringArrayVar(&f.helmCharts, "helm-chart", nil, "render this Helm chart in-process (no cluster access) and check its objects: DIR[:VALUES[,VALUES...]], its own values files, later ones winning (repeatable)")
	fl.BoolVar(&f.renderCharts, "render-charts", true, "render the Helm charts found in the scanned folders with their own values.yaml (false: skip their templates/)")
	fl.StringArrayVar(&f.helmSet, "set", nil, "set a value of the only --helm-chart, as helm template --set does: KEY=VALUE[,KEY=VALUE...] (repeatable; after its values files); with several charts, use charts: in .eni-lint.yaml")
	fl.StringArrayVar(&f.helmValues, "values", nil, "values file for the only --helm-chart (repeatable; later files win); with several charts, give each its values as DIR:VALUES")
	fl.StringVar(&f.eachVarFile, "each-var-file", "", "one Terraform environment per var file matching this glob (infra/env/*.tfvars): each applies to the root module that holds it (to every root when none does), and each root in each environment is a cluster judged on its own")
	fl.StringArrayVar(&f.vars, "var", nil, "Terraform variable NAME=VALUE for root modules, after the var files (repeatable, in order)")
	fl.DurationVar(&f.timeout, "timeout", DefaultTimeout, "end the run with exit 2 when it takes longer (0: no limit)")
	fl.StringVar(&f.maxFileSize, "max-file-size", "10MiB", "size budget of one input file; a larger one is a located error")
	fl.IntVar(&f.maxDocuments, "max-documents", 10000, "YAML documents one file may hold; the rest is a located error")
	fl.StringVar(&f.maxMemory, "max-memory", "4GiB", "end the run with exit 2 when its heap grows past this (0: no limit)")
}

// preparedRun is what check, clusters and fix share: the run's context (with --timeout), the
// analysis options from flags and config, the policies, and what to stop when the run ends.
type preparedRun struct {
	ctx      context.Context
	opts     analysis.Options
	policies []string
	stop     func()
}

func runCheck(cmd *cobra.Command, stdio IO, f checkFlags, args []string) error {
	run, err := prepare(cmd, stdio, f, args)
	if err != nil {
		return err
	}
	defer run.stop()
	ctx, opts := run.ctx, run.opts
	if f.clustersOnly {
		return runClusters(ctx, stdio, f, opts)
	}
	return checkAndReport(ctx, stdio, f, opts, run.policies)
}

// prepare resolves the flags and config of a run into analysis options.
func prepare(cmd *cobra.Command, stdio IO, f checkFlags, args []string) (run preparedRun, err error) {
	ctx := cmd.Context()
	var stops []func()
	run.stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	defer func() {
		if err != nil {
			run.stop()
		}
	}()
	wd, err := os.Getwd()
	if err != nil {
		return run, err
	}
	maxFileSize, maxMemory, err := flagBudgets(f)
	if err != nil {
		return run, err
	}
	exit := stdio.Exit
	if exit == nil {
		exit = os.Exit
	}
	// The guard counts garbage not yet collected: the collector's pacing (cmd/eni-lint) keeps
	// its heap goal well under --max-memory.
	gcpace.Limit(uint64(maxMemory))
	g := startGuard(f.timeout, uint64(maxMemory), stdio.Err, exit)
	stops = append(stops, g.Stop)
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		stops = append(stops, cancel)
	}
	eff, err := resolveCheck(cmd, stdio, f, args, wd)
	if err != nil {
		return run, err
	}
	opts, err := analysisOptions(eff, f, stdio, maxFileSize, g)
	if err != nil {
		return run, err
	}
	if err := addInputs(&opts, eff, f, stdio); err != nil {
		return run, err
	}
	if opts.CooldownSeconds < inventory.MinCooldownSeconds {
		fmt.Fprintf(stdio.Err, "eni-lint: cool-down %ds is below the controller's minimum; using %ds as the controller does\n", opts.CooldownSeconds, inventory.MinCooldownSeconds)
		opts.CooldownSeconds = inventory.MinCooldownSeconds
	}
	readBaseline(&opts, eff, f, stdio, maxFileSize)
	if err := addRunScope(ctx, &opts, eff, f); err != nil {
		return run, err
	}
	run.ctx, run.opts, run.policies = ctx, opts, eff.Policies
	return run, nil
}

// analysisOptions are the resolved settings of a run as the analysis takes them: a
// severity or an instance type that does not parse is a usage error.
func analysisOptions(eff *config.Effective, f checkFlags, stdio IO, maxFileSize int64, g *guard) (analysis.Options, error) {
	failOn, err := findings.ParseSeverity(eff.FailOn)
	if err != nil {
		return analysis.Options{}, usageError{err}
	}
	if err := checkWrittenTypes(eff.NodeGroups, eff.Limits); err != nil {
		return analysis.Options{}, usageError{err}
	}
	return analysis.Options{
		Paths: eff.Paths, Stdin: stdio.In, Version: currentVersion(), Workers: f.workers,
		NodeGroups: eff.NodeGroups, Limits: eff.Limits, ENIRelease: eff.ENIRelease,
		CooldownSeconds: eff.CooldownSeconds, Disruptions: eff.Disruptions, DefaultNamespace: eff.Namespace, FailOn: failOn,
		Exclude: excludeReports(eff.Exclude, append([]string{eff.Baseline, f.writeBaseline}, outputFiles(f.outputs)...)...), Today: stdio.Getenv("ENI_LINT_TODAY"),
		InlineIgnores: inventory.InlineIgnores{Default: eff.AllowInlineIgnores, Rules: map[string]bool{}},
		Rules:         map[string]analysis.RuleOverride{},
		EvalTimeout:   f.policyTimeout,
		Terraform:     terraform.Options{VarFiles: f.varFiles, Vars: f.vars},
		MaxFileSize:   maxFileSize, MaxDocuments: f.maxDocuments, Progress: g.setStep, Reading: g.startReading,
	}, nil
}

// addInputs adds the Helm charts of the flags and the config, the witness budget, the working
// folder, and what addConfigured adds.
func addInputs(opts *analysis.Options, eff *config.Effective, f checkFlags, stdio IO) error {
	charts, err := helmChartFlags(f.helmCharts, f.helmValues, f.helmSet)
	if err != nil {
		return usageError{err}
	}
	if charts, err = withConfigCharts(eff.Charts, charts); err != nil {
		return usageError{err}
	}
	opts.HelmCharts, opts.SkipTreeCharts = charts, !f.renderCharts
	opts.WitnessBudget = witnessBudget
	opts.WorkingFolder = rootFolder(stdio.Getenv)
	return addConfigured(opts, eff, f)
}

// addRunScope adds the environments of --each-var-file and the files --changed-since names.
func addRunScope(ctx context.Context, opts *analysis.Options, eff *config.Effective, f checkFlags) error {
	if glob := firstNonEmpty(f.eachVarFile, eff.EachVarFile); glob != "" {
		envFiles, err := filepath.Glob(glob)
		if err != nil || len(envFiles) == 0 {
			return usageError{fmt.Errorf("--each-var-file %q matches no file", glob)}
		}
		opts.EachVarFile = envFiles
	}
	if f.changedSince != "" {
		changed, err := changedFiles(ctx, f.changedSince)
		if err != nil {
			return usageError{err}
		}
		opts.ChangedFiles, opts.ChangedSince = changed, f.changedSince
	}
	return nil
}

// flagBudgets reads the size and memory budgets of the flags and checks the flags that must
// have a value of a kind (documents, revision): a malformed one is a usage error.
func flagBudgets(f checkFlags) (maxFileSize, maxMemory int64, err error) {
	maxFileSize, err = parseBytes(f.maxFileSize)
	if err != nil {
		return 0, 0, usageError{fmt.Errorf("--max-file-size: %v", err)}
	}
	if strings.TrimSpace(f.maxMemory) != "0" {
		if maxMemory, err = parseBytes(f.maxMemory); err != nil {
			return 0, 0, usageError{fmt.Errorf("--max-memory: %v", err)}
		}
	}
	if f.maxDocuments <= 0 {
		return 0, 0, usageError{fmt.Errorf("--max-documents must be more than 0")}
	}
	if f.changedSince != "" {
		if err := validRevision(f.changedSince); err != nil {
			return 0, 0, usageError{err}
		}
	}
	return maxFileSize, maxMemory, nil
}

// resolveCheck merges the flags given, the config file and the environment into the run's
// settings (config.Resolve).
func resolveCheck(cmd *cobra.Command, stdio IO, f checkFlags, args []string, wd string) (*config.Effective, error) {
	cooldown := ""
	if f.cooldown != 0 {
		cooldown = f.cooldown.String()
	}
	disruptions := "" // not given: the config's, or 0
	if cmd.Flags().Changed("disruptions") {
		disruptions = strconv.Itoa(f.disruptions) // config.Resolve refuses a negative one
	}
	eff, err := config.Resolve(config.Flags{
		Config: f.config, Paths: args, NodeGroups: f.nodeGroups, ENIRelease: f.eniRelease,
		Cooldown: cooldown, Disruptions: disruptions, Namespace: f.namespace, FailOn: f.failOn, Baseline: f.baseline, Policies: f.policies,
		Exclude: f.exclude,
	}, stdio.Getenv, wd)
	if err != nil {
		return eff, usageError{err}
	}
	return eff, nil
}

// addConfigured adds what the config and flags list beside the settings: Terraform plans,
// clusters, rule overrides and ignores.
func addConfigured(opts *analysis.Options, eff *config.Effective, f checkFlags) error {
	for _, p := range eff.TerraformPlans {
		opts.TerraformPlans = append(opts.TerraformPlans, loaders.TerraformPlan{File: p.File, Root: p.Root})
	}
	for _, flag := range f.terraformPlans {
		file, root := splitChartFlag(flag)
		if file == "" {
			return usageError{fmt.Errorf("--terraform-plan %q: want FILE[:ROOT]", flag)}
		}
		opts.TerraformPlans = append(opts.TerraformPlans, loaders.TerraformPlan{File: file, Root: root})
	}
	for _, c := range eff.Clusters {
		spec := analysis.ClusterSpec{Name: c.Name, Infrastructure: c.Infrastructure, Manifests: c.Manifests, VarFiles: c.VarFiles, Location: c.Location()}
		for _, ng := range c.NodeGroups {
			spec.NodeGroups = append(spec.NodeGroups, ng.Spec())
		}
		if err := checkWrittenTypes(spec.NodeGroups, eff.Limits); err != nil {
			return usageError{err}
		}
		opts.Clusters = append(opts.Clusters, spec)
	}
	for id, rc := range eff.Rules {
		id = strings.ToUpper(id)
		opts.Rules[id] = analysis.RuleOverride{Severity: findings.Severity(rc.Severity), Disabled: rc.Disabled}
		if rc.AllowInlineIgnores != nil {
			opts.InlineIgnores.Rules[id] = *rc.AllowInlineIgnores
		}
	}
	for _, ig := range eff.Ignores {
		ci := analysis.Ignore{Location: ig.Location()}
		ci.Rule, ci.Paths, ci.Reason, ci.Expires = strings.ToUpper(ig.Rule), ig.Paths, ig.Reason, ig.Expires
		if ig.Object != nil {
			ci.Kind, ci.NS, ci.Name = ig.Object.Kind, ig.Object.Namespace, ig.Object.Name
		}
		opts.Ignores = append(opts.Ignores, ci)
	}
	return nil
}

// readBaseline reads the baseline file into the options, unless the run writes one. A baseline
// that cannot be read is an input error of the report, not the end of the run.
func readBaseline(opts *analysis.Options, eff *config.Effective, f checkFlags, stdio IO, maxFileSize int64) {
	if eff.Baseline != "" && f.writeBaseline == "" {
		b, err := suppress.ReadBaseline(eff.Baseline, maxFileSize)
		if err != nil {
			// The report goes on without the baseline's suppressions, and names the file as
			// an input that could not be read: one bad input costs only itself.
			opts.BaselineError = &inventory.LoadError{Position: inventory.Position{File: eff.Baseline, Line: 1, Column: 1},
				Message: err.Error() + "; its suppressions are not applied"}
		} else {
			for _, w := range b.Warnings {
				fmt.Fprintf(stdio.Err, "eni-lint: %s\n", report.TerminalSafe(report.OneLine(w), false))
			}
			opts.Baseline, opts.BaselineFile = &b, eff.Baseline
		}
	}
}

// checkAndReport evaluates and writes the reports: the rest of check.
func checkAndReport(ctx context.Context, stdio IO, f checkFlags, opts analysis.Options, policies []string) error {
	ropts, reporter, files, err := reporters(stdio, &f, opts.WorkingFolder)
	if err != nil {
		return err
	}
	// The policies compile while the files are read; Check waits for them when it needs them.
	eng := pendingEngine(ctx, policies)
	if f.timings {
		opts.Timings = stdio.Err
	}
	if f.profile {
		opts.ProfilePolicies = stdio.Err
	}
	// SARIF results and review suggestions carry the edits of the fixes: the check keeps its
	// workloads to place them.
	needEdits := f.format == "sarif" || f.github && f.review
	for _, o := range f.outputs {
		needEdits = needEdits || strings.HasPrefix(o, "sarif=")
	}
	var workloads func() map[string]inventory.Workload
	if needEdits {
		opts.Workloads, workloads = fix.CollectWorkloads()
	}
	rep, err := analysis.Check(ctx, eng, opts)
	if err != nil {
		return err
	}
	if needEdits {
		opts.Workloads = nil
		compiled, err := eng.Wait() // compiled already: Check waited for it
		if err != nil {
			return err
		}
		if err := attachEdits(ctx, opts, compiled, rep, workloads()); err != nil {
			return err
		}
	}
	if err := writeReports(ctx, stdio, f, ropts, reporter, files, rep); err != nil {
		return err
	}
	if code := rep.ExitCode(); code != findings.ExitClean {
		return exitError{code}
	}
	return nil
}

// fileOutput is one --output FORMAT=FILE: where, and its reporter.
type fileOutput struct {
	path     string
	reporter report.Reporter
}

// reporters checks the output flags and makes the reporter of standard output and those of
// the --output files (no color, no width); f.color is settled (--no-color).
func reporters(stdio IO, f *checkFlags, root string) (report.Options, report.Reporter, []fileOutput, error) {
	switch f.color {
	case "always", "never", "auto":
	default:
		return report.Options{}, nil, nil, usageError{fmt.Errorf("--color %q: want always, never or auto", f.color)}
	}
	if f.noColor {
		f.color = "never"
	}
	terminal := stdio.IsTerminal != nil && stdio.IsTerminal()
	ropts := report.Options{Color: useColor(f.color, terminal, stdio.Getenv), LinkBase: linkBase(stdio.Getenv), Root: root}
	if terminal && stdio.Width != nil {
		ropts.Width = stdio.Width()
	}
	reporter, err := report.New(f.format, ropts)
	if err != nil {
		return ropts, nil, nil, usageError{err}
	}
	var files []fileOutput
	for _, o := range f.outputs {
		format, path, ok := strings.Cut(o, "=")
		if !ok || path == "" {
			return ropts, nil, nil, usageError{fmt.Errorf("--output %q: want FORMAT=FILE", o)}
		}
		fileOpts := ropts
		fileOpts.Color, fileOpts.Width = false, 0
		r, err := report.New(format, fileOpts)
		if err != nil {
			return ropts, nil, nil, usageError{fmt.Errorf("--output %q: %v", o, err)}
		}
		files = append(files, fileOutput{path, r})
	}
	return ropts, reporter, files, nil
}

// writeReports writes the report to standard output and the --output files, publishes it on
// GitHub (which never changes the exit code: that depends on the findings only) and writes
// the baseline when asked.
func writeReports(ctx context.Context, stdio IO, f checkFlags, ropts report.Options, reporter report.Reporter, files []fileOutput, rep *findings.Report) error {
	if err := reporter.Write(stdio.Out, rep); err != nil {
		return err
	}
	for _, o := range files {
		if err := writeFile(o.path, o.reporter, rep); err != nil {
			return err
		}
	}
	if f.github {
		err := github.Publish(ctx, github.EnvFrom(stdio.Getenv), github.Options{
			Comment: f.comment, Review: f.review, Out: stdio.Out, Log: stdio.Err, Transport: stdio.Transport, Root: ropts.Root,
		}, rep)
		if err != nil {
			return err
		}
	}
	if f.writeBaseline != "" {
		b := suppress.NewBaseline(rep.Findings)
		if err := b.Write(f.writeBaseline); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Err, "eni-lint: wrote %d baseline entries to %s\n", len(b.Entries), f.writeBaseline)
	}
	return nil
}

// outputFiles are the files --output FORMAT=FILE writes: reports of this run, not its inputs.
func outputFiles(outputs []string) []string {
	var files []string
	for _, o := range outputs {
		if _, file, ok := strings.Cut(o, "="); ok && file != "" {
			files = append(files, file)
		}
	}
	return files
}

// excludeReports adds eni-lint's own files to the globs the walk leaves out: the baseline a
// run reads or writes and the reports it writes are JSON in the tree, and were read as inputs
// on the next run.
func excludeReports(globs []string, files ...string) []string {
	out := append([]string{}, globs...)
	for _, f := range files {
		if f != "" {
			out = append(out, filepath.ToSlash(filepath.Clean(f)))
		}
	}
	return out
}

// writeFile writes one --output file, through the one writer (no link, no special file).
func writeFile(path string, r report.Reporter, rep *findings.Report) error {
	err := confine.Write(path, confine.WriteOptions{}, func(w io.Writer) error { return r.Write(w, rep) })
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}

// rootFolder is the working folder as the repository root names it ("k8s" when eni-lint runs
// in k8s/; "" at the root or when no root is known): the root of the git work tree that holds
// it, else, on GitHub Actions, the workspace (GITHUB_WORKSPACE), whose paths GitHub resolves
// annotations and code scanning results from.
func rootFolder(getenv func(string) string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, ok := confine.WorkTree(cwd)
	if !ok {
		root = getenv("GITHUB_WORKSPACE")
	}
	if root == "" {
		return ""
	}
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	if resolved, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = resolved
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// linkBase is where Markdown links point on GitHub Actions: the commit being checked.
func linkBase(getenv func(string) string) string {
	server, repo, sha := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" {
		return ""
	}
	return strings.TrimSuffix(server, "/") + "/" + repo + "/blob/" + sha + "/"
}

// changedFiles asks git which files differ from ref, committed or not, plus untracked files,
// as paths relative to the current folder.
func changedFiles(ctx context.Context, ref string) (map[string]bool, error) {
	// git is the one program eni-lint starts, and only here; the released image has none.
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("--changed-since %s needs git, which is not on PATH (the eni-lint image has none): run the check where git is installed, or without --changed-since", ref)
	}
	// The revision is checked first, so that a mistyped one is said in words rather than as
	// git diff's exit status.
	verify := exec.CommandContext(ctx, "git", "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err := verify.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if shallowClone(ctx) {
			return nil, fmt.Errorf("--changed-since %s: this checkout is shallow and does not hold %s: fetch the history first, with actions/checkout's fetch-depth: 0 or git fetch --deepen", ref, ref)
		}
		if !insideWorkTree(ctx) {
			return nil, fmt.Errorf("--changed-since %s: the working folder is not in a git work tree", ref)
		}
		return nil, fmt.Errorf("--changed-since: no such revision %s (a branch, tag or commit of this repository: git rev-parse does not know it)", ref)
	}
	out := map[string]bool{}
	// -z: git writes each name as it is, NUL-terminated; without it a name with a tab, a
	// quote or a non-ASCII character comes quoted and escaped, and never matched a file.
	for _, args := range [][]string{
		// -M: a renamed and edited file is listed by its new name whatever diff.renames says.
		{"diff", "-z", "-M", "--name-only", "--relative", "--end-of-options", ref, "--"},
		{"ls-files", "-z", "--others", "--exclude-standard"},
	} {
		cmd := exec.CommandContext(ctx, "git", args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			if args[0] == "diff" && shallowClone(ctx) {
				return nil, fmt.Errorf("--changed-since %s: this checkout is shallow and does not hold %s (git: %s): fetch the history first, with actions/checkout's fetch-depth: 0 or git fetch --deepen", ref, ref, msg)
			}
			return nil, fmt.Errorf("--changed-since %s: git %s: %v %s", ref, args[0], err, msg)
		}
		for _, name := range strings.Split(string(b), "\x00") {
			if name != "" {
				out[filepath.ToSlash(filepath.Clean(name))] = true
			}
		}
	}
	return out, nil
}

// insideWorkTree reports whether the working folder is in a git work tree.
func insideWorkTree(ctx context.Context) bool {
	b, err := exec.CommandContext(ctx, "git", "rev-parse", "--is-inside-work-tree").Output()
	return err == nil && strings.TrimSpace(string(b)) == "true"
}

// shallowClone reports whether the working folder is in a shallow clone (actions/checkout's
// default fetch-depth of 1), where the base of a pull request is not there to compare with.
func shallowClone(ctx context.Context) bool {
	b, err := exec.CommandContext(ctx, "git", "rev-parse", "--is-shallow-repository").Output()
	return err == nil && strings.TrimSpace(string(b)) == "true"
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// checkWrittenTypes refuses an instance type that the user wrote by hand (--node-group,
// nodeGroups in the config) and that neither the table nor the config's limits know: a typo
// such as m5.lrage would otherwise be one ENI006 warning and a green run with the node group
// left out. The error names the nearest known types.
func checkWrittenTypes(groups []inventory.NodeGroupSpec, overrides map[string]limits.Override) error {
	builtin, err := limits.Builtin()
	if err != nil {
		return err
	}
	table, err := builtin.WithOverrides(overrides)
	if err != nil {
		return err
	}
	var problems []string
	for _, g := range groups {
		for _, t := range g.InstanceTypes {
			if _, ok := table.Lookup(t); ok {
				continue
			}
			msg := fmt.Sprintf("instance type %q of node group %q (%s) is not in eni-lint's instance table", t, g.Name, g.Location.File)
			if near := table.Nearest(t, 3, 3); len(near) > 0 {
				msg += "; did you mean " + strings.Join(near, ", ") + "?"
			}
			problems = append(problems, msg+" A type newer than the table goes under limits: in .eni-lint.yaml (branchInterfaces, trunking).")
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// helmChartFlags binds values files to charts: --helm-chart DIR:VALUES[,VALUES] gives a chart
// its own files; --values applies to a single --helm-chart only, so that one chart's values
// never reach another's templates.
func helmChartFlags(flags, values, sets []string) ([]helm.Chart, error) {
	if len(values) > 0 && len(flags) != 1 {
		if len(flags) == 0 {
			return nil, fmt.Errorf("--values needs --helm-chart")
		}
		return nil, fmt.Errorf("--values with %d charts: which chart each file is for is ambiguous; write --helm-chart DIR:VALUES[,VALUES] for each", len(flags))
	}
	if len(sets) > 0 && len(flags) != 1 {
		if len(flags) == 0 {
			return nil, fmt.Errorf("--set needs --helm-chart")
		}
		return nil, fmt.Errorf("--set with %d charts: which chart each value is for is ambiguous; give each chart its values under charts: in .eni-lint.yaml", len(flags))
	}
	inline, err := setValues("--set", sets)
	if err != nil {
		return nil, err
	}
	var charts []helm.Chart
	for _, flag := range flags {
		dir, files := splitChartFlag(flag)
		if dir == "" {
			return nil, fmt.Errorf("--helm-chart %q: want DIR[:VALUES[,VALUES...]]", flag)
		}
		c := helm.Chart{Dir: dir}
		for _, v := range strings.Split(files, ",") {
			if v = strings.TrimSpace(v); v != "" {
				c.Values = append(c.Values, v)
			}
		}
		c.Values = append(c.Values, values...)
		c.Inline = inline
		charts = append(charts, c)
	}
	return charts, nil
}

// setValues parses helm --set style assignments (helm.ParseSet), naming where they come from
// in errors.
func setValues(what string, sets []string) ([]map[string]any, error) {
	var out []map[string]any
	for _, s := range sets {
		m, err := helm.ParseSet(s)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %v", what, s, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// withConfigCharts adds the config's charts entries before the flags' charts; a chart given
// by flag replaces the config entry for the same folder (flags win, as everywhere).
func withConfigCharts(entries []config.Chart, flagged []helm.Chart) ([]helm.Chart, error) {
	byFlag := map[string]bool{}
	for _, c := range flagged {
		byFlag[filepath.Clean(c.Dir)] = true
	}
	var out []helm.Chart
	for _, e := range entries {
		if byFlag[filepath.Clean(e.Path)] {
			continue
		}
		where := e.Location()
		inline, err := setValues(fmt.Sprintf("%s:%d: charts set", where.File, where.Line), e.Set)
		if err != nil {
			return nil, err
		}
		out = append(out, helm.Chart{Dir: e.Path, Values: e.Values, Inline: inline, Release: e.ReleaseName, Namespace: e.Namespace})
	}
	return append(out, flagged...), nil
}

// splitChartFlag splits DIR:VALUES at the first colon that is not a Windows drive's (C:\ or C:/).
func splitChartFlag(flag string) (dir, values string) {
	start := 0
	if len(flag) >= 3 && flag[1] == ':' && (flag[2] == '\\' || flag[2] == '/') && (flag[0] >= 'a' && flag[0] <= 'z' || flag[0] >= 'A' && flag[0] <= 'Z') {
		start = 2
	}
	if i := strings.IndexByte(flag[start:], ':'); i >= 0 {
		return flag[:start+i], flag[start+i+1:]
	}
	return flag, ""
}
