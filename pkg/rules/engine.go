// Package rules is eni-lint's Rego engine. It compiles the embedded policies once, with
// capabilities that give them no network and no environment, prepares the one report query
// once, and evaluates it over a whole inventory. Rule documentation comes from each rule
// package's METADATA annotation, so `rules`, `explain` and every report read the same source.
package rules

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/policies"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/profiler"
	"github.com/open-policy-agent/opa/v1/rego"
)

// ReportQuery is the one query every run evaluates.
const ReportQuery = "data.eni.main.report"

// FannedOutQuery is the findings that fan out to the members of a class (ENI002, ENI003),
// which a run evaluates beside ReportQuery, on another core.
const FannedOutQuery = "data.eni.main.fanned_out"

// PartitionQuery is the per-workload stage of the model (policies/lib/rows.rego,
// "Partitions"), which the engine evaluates over slices of the workloads at once.
const PartitionQuery = "data.eni.model.partition"

// RulePackagePrefix is where rule packages live; each has a `finding` set.
const RulePackagePrefix = "data.eni.rules."

// deniedBuiltins are removed from the policies' capabilities: no network, no environment or
// runtime information, nothing that makes a verdict depend on the clock or chance.
var deniedBuiltins = map[string]string{
	"http.send":            "network",
	"net.lookup_ip_addr":   "network",
	"opa.runtime":          "environment",
	"rand.intn":            "randomness",
	"uuid.rfc4122":         "randomness",
	"io.jwt.decode_verify": "clock (it checks expiry against the current time)",
	"crypto.x509.parse_and_verify_certificates":              "clock (it checks validity against the current time)",
	"crypto.x509.parse_and_verify_certificates_with_options": "clock (it checks validity against the current time)",
	// Builders of collections of any size from a few characters: a policy iterates over the
	// input instead, so its memory stays in proportion to the input.
	"numbers.range":      "unbounded memory (it builds a collection of any size)",
	"numbers.range_step": "unbounded memory (it builds a collection of any size)",
	"net.cidr_expand":    "unbounded memory (it lists every address of a network)",
}

// deniedWhy says why a builtin is denied, or "" when it is allowed. Every time.* builtin is
// denied: a verdict must not depend on when the run happens (ignore expiry uses the run's date,
// which the report states).
func deniedWhy(name string) string {
	if why, ok := deniedBuiltins[name]; ok {
		return why
	}
	if strings.HasPrefix(name, "time.") {
		return "clock"
	}
	return ""
}

// Capabilities returns what policies may use: this OPA's builtins minus deniedBuiltins, and
// no network hosts at all.
func Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if deniedWhy(b.Name) == "" {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	caps.AllowNet = []string{}
	return caps
}

// Rule is one rule's documentation, read from its METADATA.
type Rule = findings.RuleDoc

// Engine holds the compiled policies and the prepared report query. It is safe for
// concurrent use.
type Engine struct {
	compiler *ast.Compiler
	query    rego.PreparedEvalQuery
	// partition is PartitionQuery, evaluated over slices of the workloads at once before the
	// report (evaluatePartitions).
	partition rego.PreparedEvalQuery
	// partitions fixes how many partitions an evaluation uses (WithPartitions); 0 lets the
	// engine decide from the cores and the workloads (partitionsFor).
	partitions int
	// fannedOut is FannedOutQuery: the findings of ENI002 and ENI003, evaluated at the same
	// time as the report, which then leaves them out (input.fanOutApart). split is false
	// with custom policies: one of them may read those findings, so the report query keeps
	// them.
	fannedOut rego.PreparedEvalQuery
	split     bool
	rules     []Rule
	byID      map[string]Rule
	// numbersFields is the policies' numbers_fields, for grouping the workloads into classes
	// here (classes.go); policyClasses leaves the grouping to the policies, for the test that
	// compares the two.
	numbersFields []*ast.Term
	policyClasses bool
}

// Modules parses the embedded policies. withTests adds the _test.rego files.
func Modules(withTests bool) (map[string]*ast.Module, error) {
	modules := map[string]*ast.Module{}
	err := fs.WalkDir(policies.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".rego" {
			return err
		}
		if strings.HasSuffix(p, "_test.rego") && !withTests {
			return nil
		}
		src, err := fs.ReadFile(policies.FS, p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts("policies/"+p, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		modules["policies/"+p] = m
		return nil
	})
	return modules, err
}

// CustomModules parses the .rego files of a folder (and its subfolders), tests excluded.
// The folder is read through a confined file system rooted at it: a link in it that leads
// elsewhere is refused, and so is a folder that is itself a link out of the working folder.
func CustomModules(dir string) (map[string]*ast.Module, error) {
	modules := map[string]*ast.Module{}
	fsys, err := confine.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("custom policies %s: %s", dir, confine.Reason(err))
	}
	defer fsys.Close()
	var skipped []string
	err = fsys.Walk(dir, func(p string, isDir bool) error {
		if isDir || filepath.Ext(p) != ".rego" || strings.HasSuffix(p, "_test.rego") {
			return nil
		}
		src, err := fsys.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts(p, string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			return err
		}
		modules[p] = m
		return nil
	}, func(s confine.Skip) {
		if filepath.Ext(s.Path) == ".rego" {
			skipped = append(skipped, s.Path+": "+s.Reason)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("custom policies %s: %w", dir, err)
	}
	if len(skipped) > 0 {
		// A policy that is not read is a rule that silently does not run.
		return nil, fmt.Errorf("custom policies %s: not read: %s", dir, strings.Join(skipped, "; "))
	}
	if len(modules) == 0 {
		return nil, fmt.Errorf("custom policies %s: no .rego files", dir)
	}
	return modules, nil
}

// Compile compiles modules with the restricted capabilities and every check. A policy that
// calls a builtin eni-lint denies is refused here, at load, with a message that says why.
func Compile(modules map[string]*ast.Module) (*ast.Compiler, error) {
	return compile(modules, false)
}

// builtInChecksSkipped are the compiler's checks that only validate (they rewrite nothing the
// evaluation reads) and cost a third of compiling the built-in policies, which every run does:
// type checking and the recursion check. The built-in policies skip them on a run;
// TestBuiltInPoliciesPassEveryCheck compiles them with all of them, and custom policies always
// get all of them (the capability check, which refuses denied builtins, is never skipped).
var builtInChecksSkipped = []ast.StageID{ast.StageCheckTypes, ast.StageCheckRecursion}

func compile(modules map[string]*ast.Module, builtInOnly bool) (*ast.Compiler, error) {
	c := ast.NewCompiler().WithCapabilities(Capabilities()).WithStrict(true)
	if builtInOnly {
		c = c.WithSkipStages(builtInChecksSkipped...)
	}
	c.Compile(modules)
	if c.Failed() {
		for _, e := range c.Errors {
			if name, ok := strings.CutPrefix(e.Message, "undefined function "); ok {
				name = strings.TrimSpace(name)
				if why := deniedWhy(name); why != "" {
					return nil, fmt.Errorf("%s: %s is not allowed (%s): eni-lint policies have no network, environment, clock, randomness or unbounded builders (%v)", e.Location, name, why, c.Errors)
				}
			}
		}
		return nil, fmt.Errorf("compiling policies: %v", c.Errors)
	}
	return c, nil
}

// Source gives an engine when the caller needs it: an *Engine itself, or a Pending one that is
// still being compiled.
type Source interface {
	Wait() (*Engine, error)
}

// Wait returns the engine: it is ready.
func (e *Engine) Wait() (*Engine, error) { return e, nil }

// Pending is an engine compiled on a goroutine while the caller does other work (a check reads
// its files meanwhile: compiling the policies takes as long as reading a small tree).
type Pending struct {
	done chan struct{}
	eng  *Engine
	err  error
}

// Start compiles the policies on a goroutine, as New does.
func Start(ctx context.Context, policyDirs ...string) *Pending {
	p := &Pending{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.eng, p.err = New(ctx, policyDirs...)
	}()
	return p
}

// Wait blocks until the engine is compiled.
func (p *Pending) Wait() (*Engine, error) {
	<-p.done
	return p.eng, p.err
}

// builtin is the engine of the embedded policies alone, compiled once per process: `fix`
// checks again after every change it writes, and the tests run hundreds of checks in one
// process; an Engine is safe for concurrent use and nothing changes it after New.
var builtin struct {
	once sync.Once
	eng  *Engine
	err  error
}

// New compiles the embedded policies, plus the custom policies in policyDirs, and prepares the
// report query. Custom policies get the same capabilities as the built-in ones. Without custom
// policies the engine is compiled once per process and shared.
func New(ctx context.Context, policyDirs ...string) (*Engine, error) {
	if len(policyDirs) == 0 {
		builtin.once.Do(func() {
			// The context only bounds the preparation; the shared engine outlives it.
			builtin.eng, builtin.err = compileEngine(context.WithoutCancel(ctx))
		})
		return builtin.eng, builtin.err
	}
	return compileEngine(ctx, policyDirs...)
}

// compileEngine compiles the embedded and custom policies and prepares the queries.
func compileEngine(ctx context.Context, policyDirs ...string) (*Engine, error) {
	modules, err := Modules(false)
	if err != nil {
		return nil, err
	}
	builtin := map[string]bool{}
	for _, m := range modules {
		builtin[m.Package.Path.String()] = true
	}
	for _, dir := range policyDirs {
		custom, err := CustomModules(dir)
		if err != nil {
			return nil, err
		}
		for file, m := range custom {
			pkg := m.Package.Path.String()
			if !strings.HasPrefix(pkg, RulePackagePrefix) && !strings.HasPrefix(pkg, "data.eni.lib.") {
				return nil, fmt.Errorf("%s: package %s: custom rules live under package eni.rules.<name> (helpers under eni.lib.<name>)", file, strings.TrimPrefix(pkg, "data."))
			}
			if builtin[pkg] {
				return nil, fmt.Errorf("%s: package %s is a built-in rule's", file, strings.TrimPrefix(pkg, "data."))
			}
			modules[file] = m
		}
	}
	compiler, err := compile(modules, len(policyDirs) == 0)
	if err != nil {
		return nil, err
	}
	rules, err := readRules(modules, builtin)
	if err != nil {
		return nil, err
	}
	prepare := func(query string) (rego.PreparedEvalQuery, error) {
		q, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.StrictBuiltinErrors(true)).PrepareForEval(ctx)
		if err != nil {
			return q, fmt.Errorf("preparing %s: %w", query, err)
		}
		return q, nil
	}
	q, err := prepare(ReportQuery)
	if err != nil {
		return nil, err
	}
	pq, err := prepare(PartitionQuery)
	if err != nil {
		return nil, err
	}
	fq, err := prepare(FannedOutQuery)
	if err != nil {
		return nil, err
	}
	fields, err := numbersFields(compiler)
	if err != nil {
		return nil, err
	}
	e := &Engine{compiler: compiler, query: q, partition: pq, fannedOut: fq, split: len(policyDirs) == 0, rules: rules, byID: map[string]Rule{}, numbersFields: fields}
	for _, r := range rules {
		e.byID[r.ID] = r
	}
	return e, nil
}

// readRules reads the package METADATA of every rule package.
func readRules(modules map[string]*ast.Module, builtin map[string]bool) ([]Rule, error) {
	var out []Rule
	seen := map[string]string{}
	for file, m := range modules {
		pkg := m.Package.Path.String()
		if !strings.HasPrefix(pkg, RulePackagePrefix) {
			continue
		}
		var ann *ast.Annotations
		for _, a := range m.Annotations {
			if a.Scope == "package" {
				ann = a
			}
		}
		if ann == nil {
			return nil, fmt.Errorf("%s: rule package %s has no package METADATA", file, pkg)
		}
		str := func(key string) string {
			s, _ := ann.Custom[key].(string)
			return strings.TrimSpace(s)
		}
		r := Rule{
			ID: str("id"), Title: ann.Title, Severity: findings.Severity(str("severity")),
			Description: strings.TrimSpace(ann.Description), Numbers: str("numbers"),
			Remediation: str("remediation"), OtherModel: str("otherModel"), Package: pkg, File: file,
			BuiltIn: builtin[pkg],
		}
		if r.ID == "" || r.Title == "" || r.Severity.Rank() == 0 || r.Severity == findings.None {
			return nil, fmt.Errorf("%s: METADATA needs title, custom.id and custom.severity (info, warning or error)", file)
		}
		details, err := detailFields(ann.Custom["details"])
		if err != nil {
			return nil, fmt.Errorf("%s: METADATA custom.details: %w", file, err)
		}
		r.Details = details
		if other, dup := seen[r.ID]; dup {
			return nil, fmt.Errorf("%s: rule ID %s is also used by %s", file, r.ID, other)
		}
		seen[r.ID] = file
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// detailFields reads a rule's custom.details: a list of {key, type, about, internal?}, each
// key once. A rule without it (a custom policy's, most often) has none.
func detailFields(raw any) ([]findings.DetailField, error) {
	if raw == nil {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of {key, type, about}")
	}
	var out []findings.DetailField
	seen := map[string]bool{}
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("entry %d: want {key, type, about}", i)
		}
		var d findings.DetailField
		d.Key, _ = m["key"].(string)
		d.Type, _ = m["type"].(string)
		d.About, _ = m["about"].(string)
		d.Internal, _ = m["internal"].(bool)
		switch {
		case d.Key == "" || d.About == "":
			return nil, fmt.Errorf("entry %d: key and about are required", i)
		case !findings.DetailTypes[d.Type]:
			return nil, fmt.Errorf("%s: type %q: want string, integer, boolean, object or array", d.Key, d.Type)
		case seen[d.Key]:
			return nil, fmt.Errorf("%s is listed twice", d.Key)
		}
		seen[d.Key] = true
		out = append(out, d)
	}
	return out, nil
}

// Rules lists the rules in ID order; none without an engine (a run that only discovers).
func (e *Engine) Rules() []Rule {
	if e == nil {
		return nil
	}
	return e.rules
}

// Rule finds one rule by ID (case-insensitive).
func (e *Engine) Rule(id string) (Rule, bool) {
	r, ok := e.byID[strings.ToUpper(id)]
	return r, ok
}

// Result is what one evaluation returns.
type Result struct {
	Findings      []findings.Finding
	InstanceTypes []findings.InstanceTypeRow
	Workloads     []findings.WorkloadNumbers
	Ignores       []ActiveIgnore
	// ConfigIgnores are the indexes of the config ignores the policies accepted.
	ConfigIgnores []int
}

// policyFinding is a finding as a policy returns it: the object it is about (by ID) and the
// paths of the fields at fault, most precise first, or an explicit location.
type policyFinding struct {
	Rule     string             `json:"rule"`
	Severity findings.Severity  `json:"severity"`
	Message  string             `json:"message"`
	Location inventory.Position `json:"location"`
	Paths    []string           `json:"paths"`
	Object   *struct {
		ID string `json:"id"`
		findings.ObjectRef
	} `json:"object"`
	Details map[string]any `json:"details"`
	// RowObjects are the objects a finding is also about (the node group of an ENI001 row).
	RowObjects []string `json:"rowObjects"`
}

type policyReport struct {
	Findings      []policyFinding            `json:"findings"`
	InstanceTypes []findings.InstanceTypeRow `json:"rows"`
	// WorkloadClasses are the ENI workloads grouped by what their figures depend on; the
	// engine writes one WorkloadNumbers per member (workloadTable).
	WorkloadClasses []policyWorkloadClass `json:"workloadClasses"`
	// Selections are the policies that select each workload, by workload id.
	Selections    map[string]policySelection `json:"selections"`
	Ignores       []ActiveIgnore             `json:"ignores"`
	ConfigIgnores []int                      `json:"configIgnores"`
	// PlacementGroups are the node group names of each placement key, which workloads refer
	// to by index: with many groups, listing them per workload would be most of the output.
	PlacementGroups [][]string `json:"placementGroups"`
}

// policyWorkloadClass is what the workloads of one class share, as the policies return it,
// and the ids of its members.
type policyWorkloadClass struct {
	Numbers      map[string]any `json:"numbers"`
	Hidden       int            `json:"hidden"`
	Unbounded    []string       `json:"unbounded"`
	PlacementKey int            `json:"placementKey"`
	Members      []string       `json:"members"`
}

// policySelection is the part of a workload's selection the report shows.
type policySelection struct {
	Names []string `json:"names"`
}

// workloadTable writes one entry per ENI workload: its class's figures, which its members
// share (the same map and slices), and its own identity, selection and autoscaler from the
// inventory.
func workloadTable(out *policyReport, workloads []inventory.Workload) ([]findings.WorkloadNumbers, error) {
	byID := make(map[string]*inventory.Workload, len(workloads))
	for i := range workloads {
		byID[workloads[i].ID] = &workloads[i]
	}
	var table []findings.WorkloadNumbers
	for _, c := range out.WorkloadClasses {
		if c.PlacementKey < 0 || c.PlacementKey >= len(out.PlacementGroups) {
			return nil, fmt.Errorf("evaluating policies: a workload class names placement key %d of %d", c.PlacementKey, len(out.PlacementGroups))
		}
		unbounded := c.Unbounded
		if unbounded == nil {
			unbounded = []string{}
		}
		for _, id := range c.Members {
			w, ok := byID[id]
			if !ok {
				return nil, fmt.Errorf("evaluating policies: a workload class names workload %q, which is not in the inventory", id)
			}
			selectedBy := out.Selections[id].Names
			if selectedBy == nil {
				selectedBy = []string{}
			}
			table = append(table, findings.WorkloadNumbers{
				ID: w.ID, Kind: w.Kind, Namespace: w.Namespace, Name: w.Name,
				SelectedBy:    selectedBy,
				HandRequested: len(w.Pod.PodENIRequests) > 0,
				Numbers:       c.Numbers,
				Hidden:        c.Hidden,
				Unbounded:     unbounded,
				NodeGroups:    out.PlacementGroups[c.PlacementKey], // shared by the workloads of one key
				ScaledBy:      w.ScaledBy,
			})
		}
	}
	return table, nil
}

// ActiveIgnore is an ignore entry the policies accepted: it suppresses the findings of its
// rules on its object.
type ActiveIgnore struct {
	Object  string   `json:"object"`
	Rules   []string `json:"rules"`
	Reason  string   `json:"reason"`
	Expires string   `json:"expires"`
	// Text is the entry as written; Ref names its object; Location is where the entry is
	// written (a Terraform comment, else the annotation of its object, located by Path).
	Text     string              `json:"text"`
	Path     string              `json:"path"`
	Location *inventory.Position `json:"location"`
	Ref      findings.ObjectRef  `json:"ref"`
}

// Evaluate runs the prepared report query over the whole inventory, once.
func (e *Engine) Evaluate(ctx context.Context, inv *inventory.Inventory) (*Result, error) {
	return e.evaluate(ctx, inv, nil)
}

// EvaluateProfiled is Evaluate with OPA's profiler on: it also writes the expressions that
// took the most time, with their file:line and how often they ran (--profile-policies).
// Profiling slows the evaluation several times; the ranking, not the figures, is the point.
func (e *Engine) EvaluateProfiled(ctx context.Context, inv *inventory.Inventory, w io.Writer, top int) (*Result, error) {
	p := profiler.New()
	res, err := e.evaluate(ctx, inv, nil, rego.EvalQueryTracer(p))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "eni-lint: policy profile, the %d expressions that took the most time\n", top)
	fmt.Fprintf(w, "  %12s %10s %10s  %s\n", "TIME", "EVALS", "REDO", "LOCATION")
	for _, st := range p.ReportTopNResults(top, []string{"total_time_ns", "num_eval", "num_redo", "file", "line"}) {
		loc := "?"
		if st.Location != nil {
			loc = fmt.Sprintf("%s:%d", st.Location.File, st.Location.Row)
		}
		fmt.Fprintf(w, "  %12v %10d %10d  %s\n", time.Duration(st.ExprTimeNs), st.NumEval, st.NumRedo, loc)
	}
	fmt.Fprintln(w, "  (the first expression the report evaluates, active_config_ignores, is also charged the evaluation's start: docs/guide.md)")
	return res, nil
}

// EvaluateSharing is Evaluate for one of several evaluations of a run (its clusters): a
// workload they share is converted to its Rego form once, through shared. A run of one cluster
// gains nothing from it and would keep every converted workload until the run ends.
func (e *Engine) EvaluateSharing(ctx context.Context, inv *inventory.Inventory, shared *WorkloadInputs) (*Result, error) {
	return e.evaluate(ctx, inv, shared)
}

func (e *Engine) evaluate(ctx context.Context, inv *inventory.Inventory, shared *WorkloadInputs, extra ...rego.EvalOption) (*Result, error) {
	out, err := e.report(ctx, inv, shared, extra...)
	if err != nil {
		return nil, err
	}
	objects := inv.Objects()
	locate := func(id string, paths []string) inventory.Position {
		if o, ok := objects[id]; ok {
			return o.Locate(paths)
		}
		return inventory.Position{}
	}
	res := &Result{InstanceTypes: out.InstanceTypes, Ignores: out.Ignores, ConfigIgnores: out.ConfigIgnores}
	for i := range res.Ignores {
		if ig := &res.Ignores[i]; ig.Location == nil {
			p := locate(ig.Object, []string{ig.Path})
			ig.Location = &p
		}
	}
	if res.Workloads, err = workloadTable(out, inv.Workloads); err != nil {
		return nil, err
	}
	for _, pf := range out.Findings {
		rule, ok := e.byID[pf.Rule]
		if !ok {
			return nil, fmt.Errorf("a policy returned a finding for unknown rule %q", pf.Rule)
		}
		f := findings.Finding{Rule: pf.Rule, Severity: pf.Severity, Message: pf.Message, Location: pf.Location, Details: pf.Details, RowObjectIDs: pf.RowObjects}
		if f.Severity == "" {
			f.Severity = rule.Severity
		}
		if f.Severity.Rank() == 0 || f.Severity == findings.None {
			return nil, fmt.Errorf("rule %s returned severity %q", f.Rule, f.Severity)
		}
		if pf.Object != nil {
			ref := pf.Object.ObjectRef
			f.Object = &ref
			f.ObjectID = pf.Object.ID
			if o, ok := objects[pf.Object.ID]; ok {
				f.ReadFrom = o.ReadFrom
			}
			if !f.Location.Known() {
				f.Location = locate(pf.Object.ID, pf.Paths)
			}
		}
		addLocations(f.Details, objects)
		res.Findings = append(res.Findings, f)
	}
	noteRemainingExcess(res.Findings)
	for i := range res.InstanceTypes {
		for j := range res.InstanceTypes[i].Contributors {
			c := &res.InstanceTypes[i].Contributors[j]
			c.Location = locate(c.ID, nil)
		}
	}
	for i := range res.Workloads {
		res.Workloads[i].Location = locate(res.Workloads[i].ID, nil)
	}
	return res, nil
}

// report evaluates the policies over the inventory and reads their report into Go values. The
// input is not held past the queries; what stays of it is what the result's terms share.
func (e *Engine) report(ctx context.Context, inv *inventory.Inventory, shared *WorkloadInputs, extra ...rego.EvalOption) (*policyReport, error) {
	report, fanned, err := e.runQueries(ctx, inv, shared, extra...)
	if err != nil {
		return nil, err
	}
	var out policyReport
	if err := fromValue(report.Value, reflect.ValueOf(&out).Elem()); err != nil {
		return nil, fmt.Errorf("reading the report: %w", err)
	}
	report = nil // read: the collector may have it while the fanned-out findings are read
	if fanned != nil {
		// The report sorts the findings later, by place and rule, so where the fanned-out
		// ones are appended does not show.
		var more []policyFinding
		if err := fromValue(fanned.Value, reflect.ValueOf(&more).Elem()); err != nil {
			return nil, fmt.Errorf("reading the report: %w", err)
		}
		out.Findings = append(out.Findings, more...)
	}
	return &out, nil
}

// runQueries builds the input and evaluates the report query: with the partitions and the
// fanned-out findings apart (two queries at once, one per core) unless extra options (the
// profiler) want one evaluation of everything, as custom policies also have.
func (e *Engine) runQueries(ctx context.Context, inv *inventory.Inventory, shared *WorkloadInputs, extra ...rego.EvalOption) (report, fanned *ast.Term, err error) {
	input, err := InputValueSharing(inv, shared)
	if err != nil {
		return nil, nil, fmt.Errorf("building policy input: %w", err)
	}
	if !e.policyClasses {
		input = withClasses(input, e.numbersFields)
	}
	if len(extra) > 0 {
		report, err = evalTerm(ctx, e.query, ReportQuery, input, extra...)
		return report, nil, err
	}
	k := e.partitions
	if k == 0 {
		k = partitionsFor(len(inv.Workloads))
	}
	if input, err = e.evaluatePartitions(ctx, input, k); err != nil {
		return nil, nil, err
	}
	if !e.split {
		report, err = evalTerm(ctx, e.query, ReportQuery, input)
		return report, nil, err
	}
	var fannedErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		fanned, fannedErr = evalTerm(ctx, e.fannedOut, FannedOutQuery, input)
	}()
	report, err = evalTerm(ctx, e.query, ReportQuery, withFanOutApart(input))
	<-done
	if err = errors.Join(err, fannedErr); err != nil {
		return nil, nil, err
	}
	return report, fanned, nil
}

// addLocations gives every object a finding's details refer to by "id" its document position,
// so reporters can link related places (a node's other contributors) without each rule
// carrying positions.
func addLocations(v any, objects map[string]*inventory.Object) {
	switch x := v.(type) {
	case map[string]any:
		if id, ok := x["id"].(string); ok {
			if o, ok := objects[id]; ok {
				if _, has := x["location"]; !has {
					x["location"] = o.Locations.At("")
				}
			}
		}
		for _, child := range x {
			addLocations(child, objects)
		}
	case []any:
		for _, child := range x {
			addLocations(child, objects)
		}
	}
}

// WithPolicyClasses returns an engine that leaves grouping the workloads into classes to the
// policies, as an input without classes has them do: the reports are the same
// (TestGoClassesGiveTheSameReport), only the time differs.
func (e *Engine) WithPolicyClasses() *Engine {
	c := *e
	c.policyClasses = true
	return &c
}

// WithPartitions returns an engine that evaluates every inventory in k partitions (1: none),
// whatever its size and the cores: the reports are the same, only the time differs.
func (e *Engine) WithPartitions(k int) *Engine {
	c := *e
	c.partitions = max(1, k)
	return &c
}

// evalTerm evaluates a prepared query whose one expression is a document and returns it. The
// result comes back as the evaluator's own term: fromValue stores it in Go values directly, and
// a partition's result goes into the report's input as it is, without a JSON round trip.
func evalTerm(ctx context.Context, q rego.PreparedEvalQuery, name string, input ast.Value, extra ...rego.EvalOption) (*ast.Term, error) {
	raw := rego.EvalGenerateJSON(func(t *ast.Term, _ *rego.EvalContext) (any, error) { return t, nil })
	rs, err := q.Eval(ctx, append([]rego.EvalOption{rego.EvalParsedInput(input), raw}, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("evaluating policies: %w", err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		return nil, fmt.Errorf("evaluating policies: %s is undefined", name)
	}
	term, ok := rs[0].Expressions[0].Value.(*ast.Term)
	if !ok {
		return nil, fmt.Errorf("evaluating policies: %s returned %T", name, rs[0].Expressions[0].Value)
	}
	return term, nil
}

// minPartitionWorkloads is the fewest workloads a partition gets: below that, evaluating the
// partitions apart costs more than it saves.
const minPartitionWorkloads = 500

// partitionsFor is how many partitions to evaluate n workloads in: one per core the run may
// use, each with at least minPartitionWorkloads; 1 means no partitions.
func partitionsFor(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/minPartitionWorkloads))
}

// withFanOutApart is the input with fanOutApart set: the report query then leaves out the
// findings FannedOutQuery gives. The other members are shared, not copied.
func withFanOutApart(input ast.Value) ast.Value {
	obj, ok := input.(ast.Object)
	if !ok {
		return input
	}
	out := ast.NewObject()
	obj.Foreach(func(k, v *ast.Term) { out.Insert(k, v) })
	out.Insert(ast.InternedTerm("fanOutApart"), ast.InternedTerm(true))
	return out
}

// evaluatePartitions evaluates PartitionQuery over k consecutive slices of the input's
// workloads at once and returns the input with their results, in order, as "partitions": the
// report evaluation then merges them instead of passing over every workload itself. The
// policies give the same values either way (TestPartitionsGiveTheSameReport).
func (e *Engine) evaluatePartitions(ctx context.Context, input ast.Value, k int) (ast.Value, error) {
	obj, ok := input.(ast.Object)
	if !ok || k < 2 {
		return input, nil
	}
	workloads, ok := obj.Get(ast.InternedTerm("workloads")).Value.(*ast.Array)
	if !ok || workloads.Len() < k {
		return input, nil
	}
	n := workloads.Len()
	results := make([]*ast.Term, k)
	errs := make([]error, k)
	fanout.Each(k, k, func(i int) {
		part := ast.NewObject()
		obj.Foreach(func(key, v *ast.Term) {
			if ast.String("workloads").Equal(key.Value) {
				v = ast.NewTerm(workloads.Slice(i*n/k, (i+1)*n/k))
			}
			part.Insert(key, v)
		})
		results[i], errs[i] = evalTerm(ctx, e.partition, PartitionQuery, part)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	merged := ast.NewObject()
	obj.Foreach(func(key, v *ast.Term) { merged.Insert(key, v) })
	merged.Insert(ast.InternedTerm("partitions"), ast.NewTerm(ast.NewArray(results...)))
	return merged, nil
}
