package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/pkg/analysis"
	"github.com/eni-lint/eni-lint/pkg/config"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/github"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/spf13/cobra"
)

type checkFlags struct {
	config     string
	nodeGroups []string
	eniRelease string
	cooldown   time.Duration
	namespace  string
	format     string
	failOn     string
	noColor    bool
	workers    int
	timings    bool
	outputs    []string
	github     bool
	comment    bool
	review     bool
}

func newCheck(stdio IO) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Check manifests for branch-ENI exhaustion (folders are walked; - reads stdin)",
		Long: `Check reads Kubernetes manifests (YAML or JSON; folders are walked recursively, - reads
standard input), works out which workloads a SecurityGroupPolicy selects and where they may
land, and reports where a node's branch ENIs can run out.

Node groups come from --node-group or nodeGroups in .eni-lint.yaml:

  --node-group NAME=TYPE[,TYPE...][;labels=KEY=VALUE[,...]][;taints=KEY[=VALUE]:EFFECT[,...]][;maxPods=N]

Exit codes: 0 no finding at or above --fail-on; 1 findings at or above it; 2 the run failed
(unreadable input, bad flags or config, policy errors).`,
		Example: `  eni-lint check examples/quickstart --node-group default=m5.large
  eni-lint check k8s/ --node-group 'batch=m5.large,m5.xlarge;taints=dedicated=batch:NoSchedule'
  helm template ./chart | eni-lint check - --node-group default=m6i.large --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, stdio, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.config, "config", "", "config file (default: "+config.FileName+" in the current folder or above)")
	fl.StringArrayVar(&f.nodeGroups, "node-group", nil, "node group NAME=TYPE[,TYPE...][;labels=…][;taints=…][;maxPods=N] (repeatable; replaces the config's node groups)")
	fl.StringVar(&f.eniRelease, "eni-release", "", "release model: onDelete (default, worst case) or onCompletion")
	fl.DurationVar(&f.cooldown, "cooldown", 0, "branch-ENI cool-down for onCompletion (default 60s, minimum 30s)")
	fl.StringVar(&f.namespace, "namespace", "", "namespace of manifests without metadata.namespace (default \"default\")")
	fl.StringVar(&f.format, "format", "text", fmt.Sprintf("format of standard output %v", report.Formats()))
	fl.StringArrayVar(&f.outputs, "output", nil, "also write FORMAT=FILE, e.g. sarif=eni-lint.sarif (repeatable)")
	fl.StringVar(&f.failOn, "fail-on", "", "lowest severity that makes the exit code 1: info, warning, error (default) or none")
	fl.BoolVar(&f.noColor, "no-color", false, "no colors in text output (NO_COLOR is honoured too)")
	fl.IntVar(&f.workers, "workers", 0, "files parsed at once (default: one per CPU)")
	fl.BoolVar(&f.github, "github", false, "GitHub Actions mode: annotations, job summary and a sticky pull request comment (reads GITHUB_* variables)")
	fl.BoolVar(&f.comment, "comment", true, "with --github: keep one pull request comment up to date")
	fl.BoolVar(&f.review, "review", false, "with --github: add review comments on changed lines that have findings")
	fl.BoolVar(&f.timings, "timings", false, "print how long loading, evaluation and reporting took to stderr")
	return cmd
}

func runCheck(cmd *cobra.Command, stdio IO, f checkFlags, args []string) error {
	ctx := cmd.Context()
	opts := analysis.Options{
		Paths: args, Stdin: stdio.In, Version: Version, Workers: f.workers,
		ENIRelease: inventory.ReleaseOnDelete, CooldownSeconds: 60, DefaultNamespace: "default", FailOn: findings.Error,
	}
	if len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}

	// Config file: explicit, or found from the current folder upwards.
	cfgPath := f.config
	if cfgPath == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if cfgPath, err = config.Find(wd); err != nil {
			return err
		}
		// Findings name files relative to where eni-lint runs, the config file too.
		if rel, err := filepath.Rel(wd, cfgPath); err == nil && cfgPath != "" {
			cfgPath = rel
		}
	}
	if cfgPath != "" {
		cfg, err := config.Load(cfgPath)
		if err != nil {
			return usageError{err}
		}
		if cfg.ENIRelease != "" {
			opts.ENIRelease = cfg.ENIRelease
		}
		if cfg.Cooldown != "" {
			d, err := time.ParseDuration(cfg.Cooldown)
			if err != nil {
				return usageError{fmt.Errorf("%s: cooldown %q is not a duration such as 60s", cfgPath, cfg.Cooldown)}
			}
			opts.CooldownSeconds = int(d / time.Second)
		}
		if cfg.Namespace != "" {
			opts.DefaultNamespace = cfg.Namespace
		}
		if cfg.FailOn != "" {
			sev, err := findings.ParseSeverity(cfg.FailOn)
			if err != nil {
				return usageError{fmt.Errorf("%s: failOn: %v", cfgPath, err)}
			}
			opts.FailOn = sev
		}
		opts.Limits = cfg.Limits
		for _, ng := range cfg.NodeGroups {
			opts.NodeGroups = append(opts.NodeGroups, ng.Spec())
		}
	}

	// Flags win over the config file.
	if len(f.nodeGroups) > 0 {
		opts.NodeGroups = nil
		for _, v := range f.nodeGroups {
			spec, err := config.ParseNodeGroupFlag(v)
			if err != nil {
				return usageError{err}
			}
			opts.NodeGroups = append(opts.NodeGroups, spec)
		}
	}
	if f.eniRelease != "" {
		opts.ENIRelease = f.eniRelease
	}
	if opts.ENIRelease != inventory.ReleaseOnDelete && opts.ENIRelease != inventory.ReleaseOnCompletion {
		return usageError{fmt.Errorf("--eni-release %q: want onDelete or onCompletion", opts.ENIRelease)}
	}
	if f.cooldown != 0 {
		opts.CooldownSeconds = int(f.cooldown / time.Second)
	}
	if opts.CooldownSeconds < inventory.MinCooldownSeconds {
		fmt.Fprintf(stdio.Err, "eni-lint: cool-down %ds is below the controller's minimum; using %ds as the controller does\n", opts.CooldownSeconds, inventory.MinCooldownSeconds)
		opts.CooldownSeconds = inventory.MinCooldownSeconds
	}
	if f.namespace != "" {
		opts.DefaultNamespace = f.namespace
	}
	if f.failOn != "" {
		sev, err := findings.ParseSeverity(f.failOn)
		if err != nil {
			return usageError{fmt.Errorf("--fail-on: %v", err)}
		}
		opts.FailOn = sev
	}
	color := !f.noColor && stdio.Getenv("NO_COLOR") == "" && stdio.IsTerminal != nil && stdio.IsTerminal()
	ropts := report.Options{Color: color, LinkBase: linkBase(stdio.Getenv)}
	reporter, err := report.New(f.format, ropts)
	if err != nil {
		return usageError{err}
	}
	type fileOutput struct {
		path     string
		reporter report.Reporter
	}
	var files []fileOutput
	for _, o := range f.outputs {
		format, path, ok := strings.Cut(o, "=")
		if !ok || path == "" {
			return usageError{fmt.Errorf("--output %q: want FORMAT=FILE", o)}
		}
		fileOpts := ropts
		fileOpts.Color = false
		r, err := report.New(format, fileOpts)
		if err != nil {
			return usageError{fmt.Errorf("--output %q: %v", o, err)}
		}
		files = append(files, fileOutput{path, r})
	}

	eng, err := engine(ctx)
	if err != nil {
		return err
	}
	if f.timings {
		opts.Timings = stdio.Err
	}
	rep, err := analysis.Check(ctx, eng, opts)
	if err != nil {
		return err
	}
	if err := reporter.Write(stdio.Out, rep); err != nil {
		return err
	}
	for _, o := range files {
		if err := writeFile(o.path, o.reporter, rep); err != nil {
			return err
		}
	}
	if f.github {
		// Publishing never changes the exit code: that depends on the findings only.
		err := github.Publish(ctx, github.EnvFrom(stdio.Getenv), github.Options{
			Comment: f.comment, Review: f.review, Out: stdio.Out, Log: stdio.Err, Transport: stdio.Transport,
		}, rep)
		if err != nil {
			return err
		}
	}
	if code := rep.ExitCode(); code != findings.ExitClean {
		return exitError{code}
	}
	return nil
}

// writeFile writes one --output file.
func writeFile(path string, r report.Reporter, rep *findings.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if err := r.Write(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("--output %s: %w", path, err)
	}
	return f.Close()
}

// linkBase is where Markdown links point on GitHub Actions: the commit being checked.
func linkBase(getenv func(string) string) string {
	server, repo, sha := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" {
		return ""
	}
	return strings.TrimSuffix(server, "/") + "/" + repo + "/blob/" + sha + "/"
}
