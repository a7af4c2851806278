package config

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
)

// Flags are the command-line values that override the config file; empty means not given.
type Flags struct {
	Config     string
	Paths      []string
	NodeGroups []string
	ENIRelease string
	Cooldown   string
	// Disruptions is pods disrupted per run (restartPolicy OnFailure), as a number.
	Disruptions string
	Namespace   string
	FailOn      string
	Baseline    string
	Policies    []string
	// Exclude are --exclude globs, added to the config's.
	Exclude []string
}

// Effective is every setting of a run after precedence: flags, then ENI_LINT_* environment
// variables, then the config file, then defaults. Sources says where each came from.
type Effective struct {
	ConfigFile      string
	Paths           []string
	Exclude         []string
	NodeGroups      []inventory.NodeGroupSpec
	Limits          map[string]limits.Override
	ENIRelease      inventory.Release
	CooldownSeconds int
	// Disruptions is how many pods of one run the verdict assumes are disrupted and replaced.
	Disruptions        int
	Namespace          string
	FailOn             string
	Baseline           string
	EachVarFile        string
	Policies           []string
	AllowInlineIgnores bool
	Rules              map[string]RuleConfig
	Ignores            []Ignore
	// Charts are the config's charts, their paths relative to the working folder.
	Charts []Chart
	// TerraformPlans are the config's plan files, confined to its folder.
	TerraformPlans []TerraformPlan
	// Clusters are the config's clusters, their paths relative to the working folder.
	Clusters []Cluster
	Sources  map[string]string
}

// Env lists the environment variables eni-lint reads, by setting.
var Env = map[string]string{
	"config":      "ENI_LINT_CONFIG",
	"eniRelease":  "ENI_LINT_ENI_RELEASE",
	"cooldown":    "ENI_LINT_COOLDOWN",
	"disruptions": "ENI_LINT_DISRUPTIONS",
	"namespace":   "ENI_LINT_NAMESPACE",
	"failOn":      "ENI_LINT_FAIL_ON",
	"baseline":    "ENI_LINT_BASELINE",
	"nodeGroups":  "ENI_LINT_NODE_GROUPS", // space-separated --node-group values
	"policies":    "ENI_LINT_POLICY",      // a path list, like PATH
}

// Resolve finds and reads the config file and applies precedence. cwd is where the run
// starts; relative paths in the config file are relative to the file's folder.
func Resolve(fl Flags, getenv func(string) string, cwd string) (*Effective, error) {
	r := &resolver{fl: fl, getenv: getenv, cwd: cwd, baseDir: ".", e: &Effective{
		ENIRelease: inventory.ReleaseOnDelete, CooldownSeconds: 60, Namespace: "default", FailOn: "error",
		AllowInlineIgnores: true, Rules: map[string]RuleConfig{}, Sources: map[string]string{},
	}}
	for _, k := range []string{"paths", "eniRelease", "cooldown", "disruptions", "namespace", "failOn", "allowInlineIgnores"} {
		r.e.Sources[k] = "default"
	}
	if err := r.loadFile(); err != nil {
		return nil, err
	}
	// The file's baseline and lists of paths first, then the scalars (flag > env > file >
	// default), then the other lists: the first path outside the config's folder is the one
	// reported.
	fileBaseline := ""
	if r.f != nil && r.f.Baseline != "" {
		fileBaseline = r.confined("baseline", r.f.Baseline)
	}
	r.fileSources()
	if r.outside != nil {
		return nil, r.outside
	}
	if err := r.scalars(fileBaseline); err != nil {
		return nil, err
	}
	if err := r.lists(); err != nil {
		return nil, err
	}
	r.fileOnly()
	if r.outside != nil {
		return nil, r.outside
	}
	return r.e, nil
}

// resolver is one Resolve: the flags and environment, the config file read (f, nil without
// one, at path), and the first path it names outside its folder.
type resolver struct {
	fl      Flags
	getenv  func(string) string
	cwd     string
	e       *Effective
	f       *File
	path    string
	baseDir string // the config file's folder, "." without one
	outside error
}

// pick is a setting's flag, else its environment variable, and where it came from.
func (r *resolver) pick(key, flag string) (string, string) {
	if flag != "" {
		return flag, "flag"
	}
	if v := r.getenv(Env[key]); v != "" {
		return v, "env " + Env[key]
	}
	return "", ""
}

// loadFile finds and reads the config file (--config, its variable, else the nearest one up
// from the working folder), its positions relative to where eni-lint runs.
func (r *resolver) loadFile() error {
	path, src := r.pick("config", r.fl.Config)
	if path == "" {
		found, err := Find(r.cwd)
		if err != nil {
			return err
		}
		if found != "" {
			path, src = found, "found"
			if rel, err := filepath.Rel(r.cwd, found); err == nil {
				path = rel // findings name files relative to where eni-lint runs
			}
		}
	}
	if path == "" {
		return nil
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.cwd, path)
	}
	f, err := Load(abs)
	if err != nil {
		if ce, ok := err.(*Error); ok {
			ce.Position.File = path
		}
		return err
	}
	f.Path = path
	for i := range f.NodeGroups {
		f.NodeGroups[i].relocate(path)
	}
	for i := range f.Ignores {
		f.Ignores[i].location.File = path
	}
	for i := range f.Clusters {
		f.Clusters[i].location.File = path
		for j := range f.Clusters[i].NodeGroups {
			f.Clusters[i].NodeGroups[j].relocate(path)
		}
	}
	r.f, r.path, r.baseDir = f, path, filepath.Dir(path)
	r.e.ConfigFile = path
	r.e.Sources["config"] = src
	return nil
}

// fileSrc is where the config file sets key.
func (r *resolver) fileSrc(key string) string { return fmt.Sprintf("%s:%d", r.path, r.f.Line(key)) }

// rel is a config path relative to the config file's folder.
func (r *resolver) rel(p string) string {
	if filepath.IsAbs(p) || r.baseDir == "." {
		return p
	}
	return filepath.Join(r.baseDir, p)
}

// confined is rel, and records the first path outside the config file's folder: the config
// file is part of the repository, so a pull request writes it, and what it names must stay
// inside its folder (no /dev/zero baseline, no policies from elsewhere on the runner).
func (r *resolver) confined(key, p string) string {
	rel := r.rel(p)
	dir := r.baseDir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(r.cwd, dir)
	}
	abs := rel
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.cwd, abs)
	}
	if r.outside == nil && !confine.Within(filepath.Clean(dir), filepath.Clean(abs)) {
		r.outside = &Error{Position: inventory.Position{File: r.path, Line: r.f.Line(key)},
			Message: fmt.Sprintf("%s: %q is outside the config file's folder; a config file may only name files below it", key, p)}
	}
	return rel
}

// fileSources takes the charts, plans and clusters the config file lists, their paths
// confined to its folder.
func (r *resolver) fileSources() {
	f, e := r.f, r.e
	if f == nil {
		return
	}
	for _, c := range f.Charts {
		c.Path = r.confined("charts", c.Path)
		for i, v := range c.Values {
			c.Values[i] = r.confined("charts", v)
		}
		if f.Path != "" {
			c.location.File = r.path
		}
		e.Charts = append(e.Charts, c)
	}
	if len(f.Charts) > 0 {
		e.Sources["charts"] = r.fileSrc("charts")
	}
	for _, p := range f.TerraformPlans {
		p.File = r.confined("terraformPlans", p.File)
		if p.Root != "" {
			p.Root = r.confined("terraformPlans", p.Root)
		}
		e.TerraformPlans = append(e.TerraformPlans, p)
	}
	if len(f.TerraformPlans) > 0 {
		e.Sources["terraformPlans"] = r.fileSrc("terraformPlans")
	}
	for _, c := range f.Clusters {
		for _, list := range [][]string{c.Infrastructure, c.Manifests, c.VarFiles} {
			for i, p := range list {
				list[i] = r.confined("clusters", p)
			}
		}
		e.Clusters = append(e.Clusters, c)
	}
	if len(f.Clusters) > 0 {
		e.Sources["clusters"] = r.fileSrc("clusters")
	}
}

// scalar sets one setting from its flag, its environment variable or the file, in that
// order, and records where it came from.
func (r *resolver) scalar(key, flag, fromFile string, set func(string)) {
	if v, s := r.pick(key, flag); v != "" {
		set(v)
		r.e.Sources[key] = s
	} else if fromFile != "" {
		set(fromFile)
		r.e.Sources[key] = r.fileSrc(key)
	}
}

// scalars resolves the one-value settings and checks them, each error naming the source.
func (r *resolver) scalars(fileBaseline string) error {
	fl, e := r.fl, r.e
	var fileRelease, fileCooldown, fileNamespace, fileFailOn, fileDisruptions string
	if f := r.f; f != nil {
		fileRelease, fileCooldown, fileNamespace, fileFailOn = f.ENIRelease, f.Cooldown, f.Namespace, f.FailOn
		if f.Disruptions != nil {
			fileDisruptions = strconv.Itoa(*f.Disruptions)
		}
	}
	r.scalar("eniRelease", fl.ENIRelease, fileRelease, func(v string) { e.ENIRelease = inventory.Release(v) })
	r.scalar("namespace", fl.Namespace, fileNamespace, func(v string) { e.Namespace = v })
	r.scalar("failOn", fl.FailOn, fileFailOn, func(v string) { e.FailOn = v })
	r.scalar("baseline", fl.Baseline, fileBaseline, func(v string) { e.Baseline = v })
	var cooldownErr error
	r.scalar("cooldown", fl.Cooldown, fileCooldown, func(v string) {
		d, err := time.ParseDuration(v)
		if err != nil {
			if n, nerr := strconv.Atoi(v); nerr == nil {
				d, err = time.Duration(n)*time.Second, nil // plain seconds, as the ConfigMap writes it
			}
		}
		if err != nil || d <= 0 {
			cooldownErr = fmt.Errorf("cooldown %q (%s) is not a duration such as 60s", v, e.Sources["cooldown"])
			return
		}
		e.CooldownSeconds = int(d / time.Second)
	})
	if cooldownErr != nil {
		return cooldownErr
	}
	disruptions := ""
	r.scalar("disruptions", fl.Disruptions, fileDisruptions, func(v string) { disruptions = v })
	if disruptions != "" {
		// Parsed once its source is recorded, so that the error names it.
		n, err := strconv.Atoi(disruptions)
		if err != nil || n < 0 {
			return fmt.Errorf("disruptions %q (%s): want a whole number of pods per run, 0 or more", disruptions, e.Sources["disruptions"])
		}
		e.Disruptions = n
	}
	if !e.ENIRelease.Valid() {
		return fmt.Errorf("eniRelease %q (%s): want onDelete or onCompletion", e.ENIRelease, e.Sources["eniRelease"])
	}
	if _, err := findingsSeverity(e.FailOn); err != nil && e.FailOn != "none" {
		return fmt.Errorf("failOn (%s): %q is not info, warning, error or none", e.Sources["failOn"], e.FailOn)
	}
	return nil
}

// lists resolves the paths, node groups and policies: the arguments or flags, else the
// environment, else the file.
func (r *resolver) lists() error {
	fl, e, f := r.fl, r.e, r.f
	switch {
	case len(fl.Paths) > 0:
		e.Paths, e.Sources["paths"] = fl.Paths, "arguments"
	case f != nil && len(f.Paths) > 0:
		for _, p := range f.Paths {
			e.Paths = append(e.Paths, r.confined("paths", p))
		}
		e.Sources["paths"] = r.fileSrc("paths")
	default:
		e.Paths = []string{"."}
	}
	nodeGroups, ngSrc := fl.NodeGroups, "flag"
	if len(nodeGroups) == 0 {
		if v := r.getenv(Env["nodeGroups"]); v != "" {
			nodeGroups, ngSrc = strings.Fields(v), "env "+Env["nodeGroups"]
		}
	}
	if len(nodeGroups) > 0 {
		for _, v := range nodeGroups {
			spec, err := ParseNodeGroupFlag(v)
			if err != nil {
				return err
			}
			e.NodeGroups = append(e.NodeGroups, spec)
		}
		e.Sources["nodeGroups"] = ngSrc
	} else if f != nil && len(f.NodeGroups) > 0 {
		for _, ng := range f.NodeGroups {
			e.NodeGroups = append(e.NodeGroups, ng.Spec())
		}
		e.Sources["nodeGroups"] = r.fileSrc("nodeGroups")
	}
	policies, polSrc := fl.Policies, "flag"
	if len(policies) == 0 {
		if v := r.getenv(Env["policies"]); v != "" {
			policies, polSrc = filepath.SplitList(v), "env "+Env["policies"]
		}
	}
	if len(policies) > 0 {
		e.Policies, e.Sources["policies"] = policies, polSrc
	} else if f != nil && len(f.Policies) > 0 {
		for _, p := range f.Policies {
			e.Policies = append(e.Policies, r.confined("policies", p))
		}
		e.Sources["policies"] = r.fileSrc("policies")
	}
	return nil
}

// fileOnly takes the settings only the config file has (--exclude adds to its globs).
func (r *resolver) fileOnly() {
	fl, e, f := r.fl, r.e, r.f
	if f != nil {
		if f.EachVarFile != "" {
			e.EachVarFile = r.confined("eachVarFile", f.EachVarFile)
			e.Sources["eachVarFile"] = r.fileSrc("eachVarFile")
		}
		e.Limits = f.Limits
		if len(f.Limits) > 0 {
			e.Sources["limits"] = r.fileSrc("limits")
		}
		e.Exclude = f.Exclude
		if len(f.Exclude) > 0 {
			e.Sources["exclude"] = r.fileSrc("exclude")
		}
		if f.AllowInlineIgnores != nil {
			e.AllowInlineIgnores = *f.AllowInlineIgnores
			e.Sources["allowInlineIgnores"] = r.fileSrc("allowInlineIgnores")
		}
		if len(f.Rules) > 0 {
			e.Rules = f.Rules
			e.Sources["rules"] = r.fileSrc("rules")
		}
		if len(f.Ignores) > 0 {
			e.Ignores = f.Ignores
			e.Sources["ignores"] = r.fileSrc("ignores")
		}
	}
	// --exclude adds to the config's globs: both leave files out.
	if len(fl.Exclude) > 0 {
		e.Exclude = append(e.Exclude, fl.Exclude...)
		if e.Sources["exclude"] != "" {
			e.Sources["exclude"] += " and flag"
		} else {
			e.Sources["exclude"] = "flag"
		}
	}
}

// Show lists every effective setting with its value and source, for `eni-lint config show`.
func (e *Effective) Show() [][3]string {
	row := func(k, v string) [3]string {
		src := e.Sources[k]
		if src == "" {
			src = "default"
		}
		return [3]string{k, v, src}
	}
	ngs := []string{}
	for _, ng := range e.NodeGroups {
		ngs = append(ngs, ng.Name+"="+strings.Join(ng.InstanceTypes, ","))
	}
	limitsList := []string{}
	for k, v := range e.Limits {
		limitsList = append(limitsList, fmt.Sprintf("%s=%d", k, v.BranchInterfaces))
	}
	sort.Strings(limitsList)
	rules := ruleSettings(e.Rules)
	or := func(list []string) string {
		if len(list) == 0 {
			return "(none)"
		}
		return strings.Join(list, " ")
	}
	config := e.ConfigFile
	if config == "" {
		config = "(none found)"
	}
	baseline := e.Baseline
	if baseline == "" {
		baseline = "(none)"
	}
	return [][3]string{
		row("config", config),
		row("paths", or(e.Paths)),
		row("exclude", or(e.Exclude)),
		row("nodeGroups", or(ngs)),
		row("limits", or(limitsList)),
		row("eniRelease", string(e.ENIRelease)),
		row("cooldown", fmt.Sprintf("%ds", e.CooldownSeconds)),
		row("disruptions", fmt.Sprintf("%d pods per run", e.Disruptions)),
		row("namespace", e.Namespace),
		row("failOn", e.FailOn),
		row("baseline", baseline),
		row("eachVarFile", orNone(e.EachVarFile)),
		row("policies", or(e.Policies)),
		row("allowInlineIgnores", fmt.Sprint(e.AllowInlineIgnores)),
		row("rules", strings.Join(append([]string{}, or(rules)), "; ")),
		row("ignores", fmt.Sprintf("%d", len(e.Ignores))),
		row("charts", or(chartNames(e.Charts))),
		row("terraformPlans", or(planNames(e.TerraformPlans))),
		row("clusters", or(clusterNames(e.Clusters))),
	}
}

// ruleSettings describes each rule's settings ("ENI002: severity error, disabled"), by ID.
func ruleSettings(rules map[string]RuleConfig) []string {
	out := []string{}
	for id, rc := range rules {
		var parts []string
		if rc.Severity != "" {
			parts = append(parts, "severity "+rc.Severity)
		}
		if rc.Disabled {
			parts = append(parts, "disabled")
		}
		if rc.AllowInlineIgnores != nil {
			parts = append(parts, fmt.Sprintf("allowInlineIgnores %v", *rc.AllowInlineIgnores))
		}
		out = append(out, id+": "+strings.Join(parts, ", "))
	}
	sort.Strings(out)
	return out
}

// chartNames describes each chart entry: its folder, and its values files after a colon, as
// --helm-chart takes it.
func chartNames(cs []Chart) []string {
	var out []string
	for _, c := range cs {
		s := c.Path
		if len(c.Values) > 0 {
			s += ":" + strings.Join(c.Values, ",")
		}
		if c.Namespace != "" {
			s += " (namespace " + c.Namespace + ")"
		}
		out = append(out, s)
	}
	return out
}

// planNames describes each plan entry as --terraform-plan takes it: FILE[:ROOT].
func planNames(ps []TerraformPlan) []string {
	var out []string
	for _, p := range ps {
		s := p.File
		if p.Root != "" {
			s += ":" + p.Root
		}
		out = append(out, s)
	}
	return out
}

func clusterNames(cs []Cluster) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
