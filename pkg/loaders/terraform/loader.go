// Package terraform reads node groups out of Terraform configurations the way Terraform would
// evaluate them without reaching any provider: variables (defaults, terraform.tfvars,
// *.auto.tfvars, --var-file and --var, later wins), locals, references between resources,
// count and for_each, the common functions, and local modules. What cannot be known statically
// (a data source, a remote module's output, a variable without value) stays unknown, and the
// node group says which input would decide it; it is never guessed.
package terraform

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
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
	// FS confines every read to the scanned folders.
	FS *confine.FS
	// Helm are the budgets of rendering the local charts of helm_release resources.
	Helm helm.Limits
	// Environments evaluate root modules once per environment, each with its own var files
	// after VarFiles. A root no environment applies to is evaluated once, without.
	Environments []Environment
}

// Environment is one way to evaluate root modules: its var files, loaded after --var-file.
type Environment struct {
	// Name names the environment; when empty, the loader names it after its first var file,
	// relative to the root module (env/prod for infra/env/prod.tfvars).
	Name     string
	VarFiles []string
	// Under are the folders whose root modules the environment applies to. When empty it
	// applies to the root modules that hold its first var file, or, when none does, to all.
	Under []string
	// Cluster is the config cluster the environment is declared for, if any.
	Cluster string
}

type loader struct {
	root     string
	parser   *hclparse.Parser
	modules  map[string]*module
	parsed   map[string]hcl.Diagnostics
	children map[*evaluator]map[string]*evaluator
	groups   []inventory.NodeGroupSpec
	// pools are EKS Auto Mode built-in node pools that compute_config enables.
	pools     []inventory.NodePool
	manifests []inventory.Fragment
	// unresolved are declared Kubernetes objects that cannot be read statically.
	unresolved []inventory.UnresolvedObject
	// initModules are the folders `terraform init` downloaded registry and git modules to,
	// by module key (a.b for module "b" called from module "a"), from
	// .terraform/modules/modules.json of the root.
	initModules map[string]string
	fargate     []inventory.FargateProfile
	// unreadFiles are the paths file() could not read, with why; readFiles those it read.
	unreadFiles map[string]string
	// undecoded says, per YAML decoding function, why its last failure failed.
	undecoded map[string]string
	readFiles []string
	// renderedTemplates are the files templatefile() rendered for a manifest, whatever their
	// path was built from (fileset's each.value): templates, never manifests of their own.
	renderedTemplates []string
	charts            []string // local chart folders helm_release installs
	cni               []inventory.CNISetting
	diags             hcl.Diagnostics
	opts              Options
	fsys              *confine.FS
	meter             *meter
	funcs             map[string]function.Function
}

// maxModuleDepth stops runaway module recursion (a module that calls itself).
const maxModuleDepth = 16

// Load evaluates the Terraform root modules among dirs: folders with .tf files that no other
// folder in dirs calls as a local module. It returns one fragment per root module.
func Load(dirs []string, opts Options) []inventory.Fragment {
	if opts.FS == nil {
		fsys, err := confine.Open(dirs...)
		if err != nil {
			return []inventory.Fragment{{Errors: []inventory.LoadError{{Message: "cannot open the Terraform folders: " + confine.Reason(err)}}}}
		}
		defer fsys.Close()
		opts.FS = fsys
	}
	parser := hclparse.NewParser()
	shared := &loader{parser: parser, modules: map[string]*module{}, parsed: map[string]hcl.Diagnostics{}, fsys: opts.FS}
	shared.parseAll(dirs)
	roots := shared.rootModules(dirs)
	var out []inventory.Fragment
	for _, dir := range roots {
		envs := environmentsOf(dir, roots, opts.Environments)
		if len(envs) == 0 {
			frag := shared.loadRoot(dir, opts)
			frag.TerraformRoot = filepath.Clean(dir)
			out = append(out, frag)
			continue
		}
		for _, env := range envs {
			o := opts
			o.VarFiles = append(append([]string{}, opts.VarFiles...), env.VarFiles...)
			frag := shared.loadRoot(dir, o)
			frag.TerraformRoot = filepath.Clean(dir)
			frag.Environment = env.Name
			frag.VarFiles = env.VarFiles
			frag.ConfigCluster = env.Cluster
			out = append(out, frag)
		}
	}
	return out
}

// rootModules are the folders of dirs that no other folder of dirs calls as a local module,
// and those of modules that only call each other (or themselves): no one's child, they are
// evaluated as roots, so that the cycle is reported instead of the folder vanishing.
func (l *loader) rootModules(dirs []string) []string {
	calls := map[string][]string{}
	called := map[string]bool{}
	for _, dir := range dirs {
		m := l.module(dir)
		for _, c := range m.calls {
			if localSource(c.source) {
				sub := filepath.Clean(filepath.Join(dir, c.source))
				calls[filepath.Clean(dir)] = append(calls[filepath.Clean(dir)], sub)
				called[sub] = true
			}
		}
	}
	reached := map[string]bool{}
	var reach func(string)
	reach = func(d string) {
		if reached[d] {
			return
		}
		reached[d] = true
		for _, s := range calls[d] {
			reach(s)
		}
	}
	var roots []string
	for _, dir := range dirs {
		if called[filepath.Clean(dir)] {
			continue
		}
		reach(filepath.Clean(dir))
		roots = append(roots, dir)
	}
	for _, dir := range dirs {
		if !reached[filepath.Clean(dir)] {
			reach(filepath.Clean(dir))
			roots = append(roots, dir)
		}
	}
	return roots
}

// environmentsOf are the environments a root module is evaluated in, named. An environment
// without folders applies to the root modules that hold its var file (the deepest one, when
// roots nest), or to every root when none holds it.
func environmentsOf(root string, roots []string, envs []Environment) []Environment {
	var out []Environment
	for _, env := range envs {
		if len(env.VarFiles) == 0 {
			continue
		}
		applies := false
		if len(env.Under) > 0 {
			for _, u := range env.Under {
				applies = applies || within(root, u)
			}
		} else {
			holder := ""
			for _, r := range roots {
				if abs, err := filepath.Abs(r); err == nil && within(env.VarFiles[0], r) && len(abs) > len(holder) {
					holder = abs
				}
			}
			abs, _ := filepath.Abs(root)
			applies = holder == "" || holder == abs
		}
		if !applies {
			continue
		}
		if env.Name == "" {
			env.Name = EnvironmentName(root, env.VarFiles[0])
		}
		out = append(out, env)
	}
	// env/dev/terraform.tfvars and env/dev/terraform.tfvars.json would share a name: such
	// environments are named by their whole var file.
	count := map[string]int{}
	for _, env := range out {
		count[env.Name]++
	}
	for i, env := range out {
		if count[env.Name] > 1 {
			out[i].Name = filepath.ToSlash(filepath.Clean(env.VarFiles[0]))
		}
	}
	return out
}

// EnvironmentName names a var file's environment after its path relative to the root module
// when the root holds it, else as given, without the extension and without a final
// "terraform" (infra/env/prod/terraform.tfvars is env/prod for the root infra). Names are
// unique per root by construction: two var files never share a path.
func EnvironmentName(root, varFile string) string {
	p := filepath.Clean(varFile)
	if within(p, root) {
		ar, _ := filepath.Abs(root)
		ap, _ := filepath.Abs(p)
		if rel, err := filepath.Rel(ar, ap); err == nil {
			p = rel
		}
	}
	p = filepath.ToSlash(p)
	for _, ext := range []string{".tfvars.json", ".tfvars", ".json"} {
		if strings.HasSuffix(p, ext) {
			p = strings.TrimSuffix(p, ext)
			break
		}
	}
	if dir, base := path.Split(p); base == "terraform" && dir != "" {
		p = strings.TrimSuffix(dir, "/")
	}
	return p
}

// within says whether path p is dir or inside it (confine.Under).
func within(p, dir string) bool { return confine.Under(p, dir) }

// parseAll parses the folders on every core, each worker with a parser of its own, and keeps
// them as module would, in the folders' order, so that the evaluation reads the same modules,
// files and diagnostics as when module parses each one the first time it is asked. Parsing is
// most of the time a tree of many root modules takes to read (stacksimplify/terraform-on-aws-eks:
// 9,034 .tf files, 1.9 s of 2.4 s).
func (l *loader) parseAll(dirs []string) {
	if len(dirs) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	type parsed struct {
		m     *module
		diags hcl.Diagnostics
		files map[string]*hcl.File
	}
	results := make([]parsed, len(dirs))
	fanout.Each(len(dirs), 0, func(i int) {
		p := hclparse.NewParser()
		m, d := parseModule(p, l.fsys, filepath.Clean(dirs[i]))
		results[i] = parsed{m, d, p.Files()}
	})
	for i, dir := range dirs {
		dir = filepath.Clean(dir)
		if _, ok := l.modules[dir]; ok {
			continue
		}
		for name, f := range results[i].files {
			l.parser.AddFile(name, f)
		}
		l.modules[dir], l.parsed[dir] = results[i].m, results[i].diags
	}
}

func (l *loader) module(dir string) *module {
	dir = filepath.Clean(dir)
	if m, ok := l.modules[dir]; ok {
		return m
	}
	m, d := parseModule(l.parser, l.fsys, dir)
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
	rl := &loader{root: dir, parser: l.parser, modules: l.modules, parsed: l.parsed, children: map[*evaluator]map[string]*evaluator{}, opts: opts, fsys: l.fsys, meter: &meter{}}
	rl.funcs = rl.meter.functions()
	rl.unreadFiles = map[string]string{}
	rl.funcs["file"] = bounded("file", rl.fileFunc())
	rl.funcs["fileset"] = bounded("fileset", rl.filesetFunc())
	rl.undecoded = map[string]string{}
	decoded := &decodeBudget{left: MaxDecodedBytes} // one for the root's every call
	for name, multi := range yamlDecoders {
		rl.funcs[name] = bounded(name, yamlDecodeFunc(opts.Kubernetes.YAML, multi, func(why string) { rl.undecoded[name] = why }, decoded))
	}
	rl.initModules = rl.readInitModules(dir)
	frag = inventory.Fragment{File: filepath.Join(dir, "*.tf")}
	m := rl.module(dir)
	rl.diags = append(rl.diags, rl.parsed[filepath.Clean(dir)]...)
	inputs := rl.variableInputs(dir, opts)
	root := newEvaluator(rl, m, inputs, "", 0, nil)
	rl.extract(root)
	rl.diags = append(rl.diags, root.diags...)
	frag.NodeGroups = rl.groups
	frag.NodePools = rl.pools
	frag.CNISettings = rl.cni
	frag.Unresolved = rl.unresolved
	frag.FargateProfiles = rl.fargate
	frag.Templates = rl.templates(root)
	frag.ReadFiles = rl.readFiles
	frag.Charts = rl.charts
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
		if _, err := l.fsys.Lstat(filepath.Join(dir, name)); err == nil {
			files = append(files, filepath.Join(dir, name))
		}
	}
	entries, _ := l.fsys.ReadDir(dir)
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
		file, d := parseFile(l.parser, l.fsys, f)
		l.diags = append(l.diags, d...)
		if file == nil {
			continue
		}
		meterForExpressions(file.Body)
		attrs, d := file.Body.JustAttributes()
		l.diags = append(l.diags, d...)
		for name, a := range attrs {
			v, d := a.Expr.Value(&hcl.EvalContext{Functions: l.funcs})
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
	if tokens, _ := hclsyntax.LexExpression([]byte(raw), "--var", hcl.InitialPos); checkTokens(tokens, 0) != nil {
		return cty.StringVal(raw) // too deep or too large to evaluate safely: the text itself
	}
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
	return l.childAt(parent, c, nil, "")
}

// childAt returns the evaluator of one instance of a module call (count or for_each): its
// inputs see count.index or each.key and each.value, and its names carry the instance key
// (module.groups["gpu"]). suffix is that key as written, "" for a call without instances.
func (l *loader) childAt(parent *evaluator, c *moduleCall, inst *instance, suffix string) *evaluator {
	name := c.name + suffix
	if byName, ok := l.children[parent]; ok {
		if ev, ok := byName[name]; ok {
			return ev
		}
	} else {
		l.children[parent] = map[string]*evaluator{}
	}
	refuse := func(summary, detail string) *evaluator {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: c.declare.Ptr()})
		l.children[parent][name] = nil
		return nil
	}
	if parent.depth >= maxModuleDepth {
		return refuse("Modules nest too deep", fmt.Sprintf("module %q: more than %d levels of local modules; not evaluated", c.name, maxModuleDepth))
	}
	l.meter.moduleCalls++
	if l.meter.moduleCalls > MaxModuleCalls {
		return refuse("Too many module calls", fmt.Sprintf("module %q: this root module evaluates more than %d local module calls (a budget); not evaluated", c.name, MaxModuleCalls))
	}
	dir := filepath.Clean(filepath.Join(parent.mod.dir, c.source))
	if !localSource(c.source) {
		dir = l.initModules[moduleKey(parent, c.name)]
	}
	for ev := parent; ev != nil; ev = ev.parent {
		if filepath.Clean(ev.mod.dir) == dir {
			return refuse("Module calls itself", fmt.Sprintf("module %q: source %q is %s, which is already being evaluated (a cycle); not evaluated", c.name, c.source, dir))
		}
	}
	// A module beside the scanned folder is read as Terraform reads it, as long as it is
	// inside the repository (or a folder the command line names); out of it, it is refused.
	info, err := l.fsys.Stat(dir)
	var outside *confine.OutsideError
	if err != nil || !info.IsDir() {
		if errors.As(err, &outside) {
			return refuse("Local module outside the repository", fmt.Sprintf("module %q: source %q leads outside the repository and the paths named on the command line, and is not read; name its folder on the command line, or give its node groups with --node-group", c.name, c.source))
		}
		// Not an error of the tree eni-lint can see (a module vendored elsewhere, or made by a
		// build step): what it declares is reported as unresolved, and the run goes on.
		l.unresolved = append(l.unresolved, inventory.UnresolvedObject{Source: parent.callPath + "module." + c.name, Location: position(c.declare), Module: true,
			Reason: fmt.Sprintf("its source %q is not a folder here", c.source)})
		l.children[parent][name] = nil
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
		v, d := parent.value(a.Expr, inst)
		if !d.HasErrors() {
			inputs[name] = v
		}
	}
	ev := newEvaluator(l, m, inputs, parent.callPath+"module."+name+".", parent.depth+1, parent)
	l.children[parent][name] = ev
	return ev
}

// templates lists the files the evaluated modules pass to templatefile(), as absolute paths:
// those rendered for a manifest, and wherever else the path is known without an instance (a
// literal or path.module based).
func (l *loader) templates(root *evaluator) []string {
	out := append([]string{}, l.renderedTemplates...)
	seen := map[*evaluator]bool{}
	var visit func(e *evaluator)
	visit = func(e *evaluator) {
		if e == nil || seen[e] {
			return
		}
		seen[e] = true
		for _, x := range e.mod.templatePaths {
			v, d := e.value(x, nil)
			if p, ok := asString(v); ok && !d.HasErrors() {
				out = append(out, absPath(l.rootPath(p)))
			}
		}
		for _, child := range l.children[e] {
			visit(child)
		}
	}
	visit(root)
	return out
}

// readInitModules reads .terraform/modules/modules.json, which `terraform init` writes: with
// it, the registry and git modules it downloaded into the tree are evaluated like local ones.
// The file is read through the confined file system, and only folders inside the root are
// used.
func (l *loader) readInitModules(root string) map[string]string {
	data, err := l.fsys.ReadFile(filepath.Join(root, ".terraform", "modules", "modules.json"))
	if err != nil {
		return nil
	}
	var manifest struct {
		Modules []struct {
			Key, Source, Dir string
		}
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid modules.json", Detail: err.Error(),
			Subject: &hcl.Range{Filename: filepath.Join(root, ".terraform", "modules", "modules.json")}})
		return nil
	}
	out := map[string]string{}
	for _, m := range manifest.Modules {
		if m.Key == "" || m.Dir == "" || filepath.IsAbs(m.Dir) || localSource(m.Source) {
			continue // the root itself, or a local module (found by its source)
		}
		dir := filepath.Clean(filepath.Join(root, m.Dir))
		if rel, err := filepath.Rel(root, dir); err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		out[m.Key] = dir
	}
	return out
}

// moduleKey is the key `terraform init` gives a module call: the names of the calls that lead
// to it, joined by dots.
func moduleKey(parent *evaluator, name string) string {
	path := strings.TrimSuffix(strings.ReplaceAll(parent.callPath, "module.", ""), ".")
	if path == "" {
		return name
	}
	return path + "." + name
}

// followable says whether a module call is evaluated: a local source, or a module that
// `terraform init` downloaded into the tree.
func (l *loader) followable(parent *evaluator, c *moduleCall) bool {
	if localSource(c.source) {
		return true
	}
	_, ok := l.initModules[moduleKey(parent, c.name)]
	return ok
}

// fileFunc is Terraform's file() for files inside the scanned folders: read through the
// confined file system (a link out, a pipe, a file over the size budget is an error at the
// call's value), relative paths against the root module's folder as Terraform resolves them.
// The content must be UTF-8, as Terraform requires.
func (l *loader) fileFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			path := l.rootPath(args[0].AsString())
			// A file that cannot be read here (generated by a build step, beside the scanned
			// folder, not text) makes only this value unknown; the reason names it.
			data, err := l.fsys.ReadFile(path)
			switch {
			case err != nil:
				l.unreadFiles[args[0].AsString()] = confine.Reason(err)
				return cty.UnknownVal(cty.String), nil
			case !utf8.Valid(data):
				l.unreadFiles[args[0].AsString()] = "not UTF-8 text"
				return cty.UnknownVal(cty.String), nil
			}
			l.readFiles = append(l.readFiles, absPath(path))
			return cty.StringVal(string(data)), nil
		},
	})
}

// maxFilesetEntries bounds the folder entries one fileset() call visits (a budget; a variable
// so that tests can lower it): a pattern over a huge tree makes its value unknown instead of
// walking it all.
var maxFilesetEntries = 20000

// filesetFunc is Terraform's fileset(path, pattern) over the scanned folders: the files under
// path (resolved against the root module's folder) whose path relative to it matches the
// pattern (*, **, ?, [class], {alt}), walked through the confined file system. A folder that
// cannot be walked, or one past the budget, makes only this value unknown; the reason names
// it. kubectl_manifest { for_each = fileset(...) } then reads each file.
func (l *loader) filesetFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}, {Name: "pattern", Type: cty.String}},
		Type:   function.StaticReturnType(cty.Set(cty.String)),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			dir, pattern := args[0].AsString(), args[1].AsString()
			if !doublestar.ValidatePattern(pattern) {
				return cty.NilVal, fmt.Errorf("invalid pattern %q", pattern)
			}
			key := fmt.Sprintf("fileset(%q, %q)", dir, pattern)
			base := l.rootPath(dir)
			var matched []cty.Value
			visited := 0
			err := l.fsys.Walk(base, func(p string, isDir bool) error {
				if visited++; visited > maxFilesetEntries {
					return fmt.Errorf("more than %d entries under the folder (a budget)", maxFilesetEntries)
				}
				if isDir {
					return nil
				}
				rel, err := filepath.Rel(base, p)
				if err != nil {
					return nil
				}
				if ok, _ := doublestar.Match(pattern, filepath.ToSlash(rel)); ok {
					matched = append(matched, cty.StringVal(filepath.ToSlash(rel)))
				}
				return nil
			}, func(confine.Skip) {})
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.SetValEmpty(cty.String), nil // Terraform: no file matches
			case err != nil:
				l.unreadFiles[key] = confine.Reason(err)
				return cty.UnknownVal(cty.Set(cty.String)), nil
			case len(matched) == 0:
				return cty.SetValEmpty(cty.String), nil
			}
			return cty.SetVal(matched), nil
		},
	})
}

// rootPath resolves a path as Terraform does in file(), templatefile() and a local chart:
// relative to the root module's folder.
func (l *loader) rootPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(l.root, p)
}
