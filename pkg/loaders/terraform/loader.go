// Package terraform reads node groups out of Terraform configurations the way Terraform would
// evaluate them without reaching any provider: variables (defaults, terraform.tfvars,
// *.auto.tfvars, --var-file and --var, later wins), locals, references between resources,
// count and for_each, the common functions, and local modules. What cannot be known statically
// (a data source, a remote module's output, a variable without value) stays unknown, and the
// node group says which input would decide it; it is never guessed.
package terraform

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// Options are the variable inputs of a run, applied to every root module.
type Options struct {
	// VarFiles are --var-file paths, in command-line order.
	VarFiles []string
	// Vars are --var NAME=VALUE assignments, in command-line order.
	Vars []string
	// Kubernetes are the manifest options for objects declared with the kubernetes provider.
	Kubernetes kubernetes.Options
}

type loader struct {
	root      string
	parser    *hclparse.Parser
	modules   map[string]*module
	parsed    map[string]hcl.Diagnostics
	children  map[*evaluator]map[string]*evaluator
	groups    []inventory.NodeGroupSpec
	manifests []inventory.Fragment
	cni       []inventory.CNISetting
	diags     hcl.Diagnostics
	opts      Options
}

// maxModuleDepth stops runaway module recursion (a module that calls itself).
const maxModuleDepth = 16

// Load evaluates the Terraform root modules among dirs: folders with .tf files that no other
// folder in dirs calls as a local module. It returns one fragment per root module.
func Load(dirs []string, opts Options) []inventory.Fragment {
	parser := hclparse.NewParser()
	shared := &loader{parser: parser, modules: map[string]*module{}, parsed: map[string]hcl.Diagnostics{}}
	called := map[string]bool{}
	for _, dir := range dirs {
		m := shared.module(dir)
		for _, c := range m.calls {
			if localSource(c.source) {
				called[filepath.Clean(filepath.Join(dir, c.source))] = true
			}
		}
	}
	var out []inventory.Fragment
	for _, dir := range dirs {
		if called[filepath.Clean(dir)] {
			continue
		}
		out = append(out, shared.loadRoot(dir, opts))
	}
	return out
}

func (l *loader) module(dir string) *module {
	dir = filepath.Clean(dir)
	if m, ok := l.modules[dir]; ok {
		return m
	}
	m, d := parseModule(l.parser, dir)
	l.modules[dir] = m
	l.parsed[dir] = d
	return m
}

func (l *loader) loadRoot(dir string, opts Options) (frag inventory.Fragment) {
	// Bad input never crashes a run: an evaluation that fails in an unforeseen way becomes a
	// located error for this module, and the other modules and files are still analysed.
	defer func() {
		if r := recover(); r != nil {
			frag = inventory.Fragment{File: filepath.Join(dir, "*.tf"), Errors: []inventory.LoadError{{
				Position: inventory.Position{File: dir},
				Message:  fmt.Sprintf("cannot evaluate this Terraform module: %v", r),
			}}}
		}
	}()
	rl := &loader{root: dir, parser: l.parser, modules: l.modules, parsed: l.parsed, children: map[*evaluator]map[string]*evaluator{}, opts: opts}
	frag = inventory.Fragment{File: filepath.Join(dir, "*.tf")}
	m := rl.module(dir)
	rl.diags = append(rl.diags, rl.parsed[filepath.Clean(dir)]...)
	inputs := rl.variableInputs(dir, opts)
	root := newEvaluator(rl, m, inputs, "", 0)
	rl.extract(root)
	rl.diags = append(rl.diags, root.diags...)
	frag.NodeGroups = rl.groups
	frag.CNISettings = rl.cni
	for _, m := range rl.manifests {
		frag.Append(m)
	}
	seen := map[string]bool{}
	for _, d := range rl.diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		le := inventory.LoadError{Message: d.Summary}
		if d.Detail != "" {
			le.Message += ": " + d.Detail
		}
		if d.Subject != nil {
			le.Position = inventory.Position{File: d.Subject.Filename, Line: d.Subject.Start.Line, Column: d.Subject.Start.Column}
		} else {
			le.Position = inventory.Position{File: dir}
		}
		key := fmt.Sprintf("%v %s", le.Position, le.Message)
		if !seen[key] {
			seen[key] = true
			frag.Errors = append(frag.Errors, le)
		}
	}
	return frag
}

// variableInputs loads variable values as Terraform does for a root module:
// terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json) in lexical order, then each
// --var-file and --var in command-line order; later values win.
func (l *loader) variableInputs(dir string, opts Options) map[string]cty.Value {
	inputs := map[string]cty.Value{}
	var files []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			files = append(files, filepath.Join(dir, name))
		}
	}
	entries, _ := os.ReadDir(dir)
	var auto []string
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".auto.tfvars") || strings.HasSuffix(e.Name(), ".auto.tfvars.json")) {
			auto = append(auto, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(auto)
	files = append(files, auto...)
	files = append(files, opts.VarFiles...)
	for _, f := range files {
		var file *hcl.File
		var d hcl.Diagnostics
		if strings.HasSuffix(f, ".json") {
			file, d = l.parser.ParseJSONFile(f)
		} else {
			file, d = l.parser.ParseHCLFile(f)
		}
		l.diags = append(l.diags, d...)
		if file == nil {
			continue
		}
		attrs, d := file.Body.JustAttributes()
		l.diags = append(l.diags, d...)
		for name, a := range attrs {
			v, d := a.Expr.Value(&hcl.EvalContext{Functions: functions})
			l.diags = append(l.diags, d...)
			if !d.HasErrors() {
				inputs[name] = v
			}
		}
	}
	for _, kv := range opts.Vars {
		name, raw, ok := strings.Cut(kv, "=")
		if !ok {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Bad --var", Detail: fmt.Sprintf("%q is not NAME=VALUE", kv)})
			continue
		}
		inputs[name] = cliValue(raw)
	}
	return inputs
}

// cliValue reads a --var value: an HCL literal (number, list, map) when it is one, else the
// text as a string, as Terraform does for string variables.
func cliValue(raw string) cty.Value {
	expr, d := hclsyntax.ParseExpression([]byte(raw), "--var", hcl.InitialPos)
	if !d.HasErrors() && len(expr.Variables()) == 0 {
		if v, d := expr.Value(nil); !d.HasErrors() {
			return v
		}
	}
	return cty.StringVal(raw)
}

// child returns the evaluator of a local module call, created once per parent and call.
func (l *loader) child(parent *evaluator, c *moduleCall) *evaluator {
	if byName, ok := l.children[parent]; ok {
		if ev, ok := byName[c.name]; ok {
			return ev
		}
	} else {
		l.children[parent] = map[string]*evaluator{}
	}
	if parent.depth >= maxModuleDepth {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Modules nest too deep", Subject: c.declare.Ptr()})
		l.children[parent][c.name] = nil
		return nil
	}
	dir := filepath.Join(parent.mod.dir, c.source)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Local module not found",
			Detail: fmt.Sprintf("module %q: source %q is not a folder", c.name, c.source), Subject: c.declare.Ptr()})
		l.children[parent][c.name] = nil
		return nil
	}
	m := l.module(dir)
	l.diags = append(l.diags, l.parsed[filepath.Clean(dir)]...)
	inputs := map[string]cty.Value{}
	for name, a := range c.attrs {
		switch name {
		case "source", "version", "count", "for_each", "providers", "depends_on":
			continue
		}
		v, d := parent.value(a.Expr, nil)
		if !d.HasErrors() {
			inputs[name] = v
		}
	}
	ev := newEvaluator(l, m, inputs, parent.callPath+"module."+c.name+".", parent.depth+1)
	l.children[parent][c.name] = ev
	return ev
}
