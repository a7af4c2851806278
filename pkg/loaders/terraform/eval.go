package terraform

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// instance is the per-instance context of a resource or module call with count or for_each.
type instance struct {
	countIndex *cty.Value
	eachKey    *cty.Value
	eachValue  *cty.Value
	// extra holds block iterators (dynamic blocks).
	extra map[string]cty.Value
}

// evaluator evaluates one module instance: its variables, locals, resources and calls, on
// demand and once each, as Terraform would plan what it can know without providers.
type evaluator struct {
	mod     *module
	loader  *loader
	vars    map[string]cty.Value
	missing map[string]bool // variables without any value
	locals  map[string]cty.Value
	inLocal map[string]bool
	// localErrs are why a local could not be evaluated (a function error, a budget), and
	// localWhy the reasons already found for unknown locals.
	localErrs map[string]string
	localWhy  map[string]string
	// marked are the interpolations that markUnknown numbered in manifest texts.
	marked   []hclsyntax.Expression
	res      map[string]cty.Value
	inRes    map[string]bool
	calls    map[string]cty.Value
	inCall   map[string]bool
	diags    hcl.Diagnostics
	depth    int
	callPath string     // module.x.module.y, for names
	parent   *evaluator // the module that calls this one
}

func newEvaluator(l *loader, m *module, inputs map[string]cty.Value, callPath string, depth int, parent *evaluator) *evaluator {
	e := &evaluator{parent: parent,
		mod: m, loader: l, vars: map[string]cty.Value{}, missing: map[string]bool{},
		locals: map[string]cty.Value{}, inLocal: map[string]bool{}, localErrs: map[string]string{}, localWhy: map[string]string{},
		res: map[string]cty.Value{}, inRes: map[string]bool{},
		calls: map[string]cty.Value{}, inCall: map[string]bool{}, callPath: callPath, depth: depth,
	}
	for name, v := range m.variables {
		val, ok := inputs[name]
		if ok && v.notNullable && val.IsKnown() && val.IsNull() {
			ok = false
		}
		if !ok && v.def != nil {
			def, d := v.def.Value(nil)
			e.diags = append(e.diags, d...)
			val, ok = def, !d.HasErrors()
		}
		if !ok {
			e.vars[name] = cty.DynamicVal
			e.missing[name] = true
			continue
		}
		// The declared type, as Terraform converts to it: a map(object({…})) input becomes a
		// map even while some of its values are unknown, so `cond ? var.groups : {}` has one
		// type, and optional(type, default) attributes get their defaults.
		if v.typ != nil && !val.IsNull() {
			if ty, defaults, d := typeexpr.TypeConstraintWithDefaults(v.typ); !d.HasErrors() {
				if defaults != nil {
					val = defaults.Apply(val)
				}
				if conv, err := convert.Convert(val, ty); err == nil {
					val = conv
				}
			}
		}
		e.vars[name] = val
	}
	return e
}

// value evaluates an expression in the module, with an optional instance context.
func (e *evaluator) value(expr hcl.Expression, inst *instance) (cty.Value, hcl.Diagnostics) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: e.loader.funcs}
	sc := evalScope{vars: map[string]cty.Value{}, locals: map[string]cty.Value{}, calls: map[string]cty.Value{},
		resources: map[string]map[string]cty.Value{}, data: map[string]map[string]cty.Value{}}
	for _, tr := range expr.Variables() {
		e.addReference(&sc, ctx, tr, inst)
	}
	if inst != nil {
		for k, v := range inst.extra {
			ctx.Variables[k] = v
		}
	}
	sc.fill(ctx)
	v, d := expr.Value(ctx)
	// A budget that was hit is an error of the input wherever the value is used: it is
	// reported at the call, not only folded into an unknown value.
	for _, diag := range d {
		if diag.Severity == hcl.DiagError && strings.Contains(diag.Detail, budgetMark) {
			e.diags = append(e.diags, diag)
		}
	}
	return v, d
}

// evalScope holds the values an expression's references need, by kind of reference: only
// those it names are evaluated.
type evalScope struct {
	vars, locals, calls map[string]cty.Value
	resources, data     map[string]map[string]cty.Value
}

// addReference evaluates what one reference of an expression names into the scope, or into
// ctx for the instance's count and each, path and terraform.
func (e *evaluator) addReference(sc *evalScope, ctx *hcl.EvalContext, tr hcl.Traversal, inst *instance) {
	root := tr.RootName()
	attr := ""
	if len(tr) > 1 {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			attr = a.Name
		}
	}
	switch root {
	case "var":
		if v, ok := e.vars[attr]; ok {
			sc.vars[attr] = v
		}
	case "local":
		if attr != "" {
			sc.locals[attr] = e.local(attr)
		}
	case "module":
		if attr != "" {
			sc.calls[attr] = e.call(attr)
		}
	case "data":
		if len(tr) > 2 {
			if n, ok := tr[2].(hcl.TraverseAttr); ok {
				e.addData(sc, attr, n.Name)
			}
		}
	case "count":
		if inst != nil && inst.countIndex != nil {
			ctx.Variables["count"] = cty.ObjectVal(map[string]cty.Value{"index": *inst.countIndex})
		}
	case "each":
		if inst != nil && inst.eachKey != nil {
			ctx.Variables["each"] = cty.ObjectVal(map[string]cty.Value{"key": *inst.eachKey, "value": *inst.eachValue})
		}
	case "path":
		// Relative to the root module, as Terraform gives it (see pathObject).
		ctx.Variables["path"] = e.pathObject()
	case "terraform":
		ctx.Variables["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal("default")})
	default:
		if attr != "" {
			if _, ok := e.mod.resources[root+"."+attr]; ok {
				if sc.resources[root] == nil {
					sc.resources[root] = map[string]cty.Value{}
				}
				sc.resources[root][attr] = e.resource(root, attr)
			}
		}
	}
}

// addData gives data.TYPE.NAME its value: unknown, since providers read data sources at plan
// time, except the kubectl provider's document splitter, which only reads its own argument.
func (e *evaluator) addData(sc *evalScope, typ, name string) {
	if sc.data[typ] == nil {
		sc.data[typ] = map[string]cty.Value{}
	}
	sc.data[typ][name] = cty.DynamicVal
	if attrs, ok := e.mod.dataAttrs[typ+"."+name]; ok {
		sc.data[typ][name] = e.fileDocuments(attrs)
	}
}

// fill puts the scope's objects into ctx: var, local, module, data and one per resource type.
func (sc *evalScope) fill(ctx *hcl.EvalContext) {
	ctx.Variables["var"] = cty.ObjectVal(sc.vars)
	ctx.Variables["local"] = cty.ObjectVal(sc.locals)
	ctx.Variables["module"] = cty.ObjectVal(sc.calls)
	dataObj := map[string]cty.Value{}
	for typ, names := range sc.data {
		dataObj[typ] = cty.ObjectVal(names)
	}
	ctx.Variables["data"] = cty.ObjectVal(dataObj)
	for typ, names := range sc.resources {
		ctx.Variables[typ] = cty.ObjectVal(names)
	}
}

// valueOrUnknown evaluates an expression; one that fails is unknown (the diagnostics that
// matter, budgets, are kept by value).
func (e *evaluator) valueOrUnknown(expr hcl.Expression, inst *instance) cty.Value {
	v, d := e.value(expr, inst)
	if d.HasErrors() {
		return cty.DynamicVal
	}
	return v
}

// known evaluates an expression and says why it is unknown when it is.
func (e *evaluator) known(expr hcl.Expression, inst *instance) (cty.Value, string) {
	v, d := e.value(expr, inst)
	if d.HasErrors() {
		return cty.DynamicVal, fmt.Sprintf("%s cannot be evaluated: %s", describeRange(expr.Range()), d.Errs()[0].Error())
	}
	if v.IsWhollyKnown() {
		return v, ""
	}
	return v, e.unknownReason(expr)
}

// unknownReason names the inputs that make an expression unknown: data sources, variables
// without a value, remote modules, resource attributes only a provider knows.
func (e *evaluator) unknownReason(expr hcl.Expression) string {
	return e.unknownReasonVisiting(expr, map[string]bool{})
}

func (e *evaluator) unknownReasonVisiting(expr hcl.Expression, visiting map[string]bool) string {
	seen := map[string]bool{}
	var why []string
	add := func(reason string) {
		if reason != "" && !seen[reason] {
			seen[reason] = true
			why = append(why, reason)
		}
	}
	for _, tr := range expr.Variables() {
		add(e.unknownVariable(tr, visiting))
	}
	if syn, ok := expr.(hclsyntax.Expression); ok {
		hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
			if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
				add(e.unknownCall(call))
			}
			return nil
		})
	}
	if len(why) == 0 {
		return fmt.Sprintf("the expression at %s is not known statically", describeRange(expr.Range()))
	}
	sort.Strings(why)
	return strings.Join(why, "; ")
}

// unknownVariable is why a reference makes an expression unknown, or "" when it does not.
func (e *evaluator) unknownVariable(tr hcl.Traversal, visiting map[string]bool) string {
	name := traversalString(tr)
	root := tr.RootName()
	attr := ""
	if len(tr) > 1 {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			attr = a.Name
		}
	}
	var reason string
	switch {
	case root == "data":
		reason = name + " (a data source, read only when Terraform runs)"
		if len(tr) > 2 {
			if n, ok := tr[2].(hcl.TraverseAttr); ok {
				if attrs, ok := e.mod.dataAttrs[attr+"."+n.Name]; ok && attrs["content"] != nil {
					reason = fmt.Sprintf("%s (its content depends on %s)", name, e.unknownReason(attrs["content"].Expr))
				}
			}
		}
	case root == "var" && e.missing[attr]:
		reason = "var." + attr + " (no default, and no value in tfvars or --var)"
	case root == "module":
		if c := e.mod.calls[attr]; c != nil && !e.loader.followable(e, c) {
			reason = fmt.Sprintf("%s (module %q is not evaluated)", name, c.source)
		} else {
			reason = name
		}
	case root == "local":
		if v := e.local(attr); !v.IsWhollyKnown() {
			switch why, done := e.localWhy[attr]; {
			case done:
				reason = why
			case e.localErrs[attr] != "":
				reason = fmt.Sprintf("local.%s (cannot be evaluated: %s)", attr, e.localErrs[attr])
			case visiting[attr]: // on the path that led here: a real cycle
				reason = "local." + attr + " (it depends on itself)"
			case e.mod.locals[attr] != nil:
				// visiting is the path from the expression, not every local seen: a
				// local used twice (a diamond) is no cycle.
				visiting[attr] = true
				reason = e.unknownReasonVisiting(e.mod.locals[attr].Expr, visiting)
				delete(visiting, attr)
				e.localWhy[attr] = reason
			}
		}
	case root == "var":
		if v, ok := e.vars[attr]; ok && !v.IsWhollyKnown() {
			reason = "var." + attr + " (its value is not known statically)"
		}
	default:
		if _, ok := e.mod.resources[root+"."+attr]; ok {
			reason = name + " (set by the provider when Terraform applies)"
		}
	}
	return reason
}

// unknownCall is why a function call makes an expression unknown (a function not evaluated,
// a file not read, a document not decoded), or "".
func (e *evaluator) unknownCall(call *hclsyntax.FunctionCallExpr) string {
	reason := ""
	switch {
	case isNotEvaluated(call.Name):
		reason = call.Name + "() (a function eni-lint does not evaluate)"
	case call.Name == "fileset" && len(call.Args) == 2:
		ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"path": e.pathObject()}}
		d, d1 := call.Args[0].Value(ctx)
		p, d2 := call.Args[1].Value(ctx)
		if !d1.HasErrors() && !d2.HasErrors() && d.Type() == cty.String && p.Type() == cty.String && d.IsKnown() && p.IsKnown() {
			key := fmt.Sprintf("fileset(%q, %q)", d.AsString(), p.AsString())
			if r, failed := e.loader.unreadFiles[key]; failed {
				reason = key + " (" + r + ")"
			}
		}
	case isYAMLDecoder(call.Name):
		if r, failed := e.loader.undecoded[call.Name]; failed {
			reason = call.Name + "() (" + r + ")"
		}
	case call.Name == "file" && len(call.Args) == 1:
		if p, d := call.Args[0].Value(&hcl.EvalContext{Variables: map[string]cty.Value{"path": e.pathObject()}}); !d.HasErrors() && p.Type() == cty.String && p.IsKnown() {
			if r, failed := e.loader.unreadFiles[p.AsString()]; failed {
				reason = fmt.Sprintf("file(%q) (%s)", p.AsString(), r)
			}
		}
	}
	return reason
}

func traversalString(tr hcl.Traversal) string {
	var b strings.Builder
	for i, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else if s.Key.Type() == cty.Number {
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().String())
			}
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
		if i > 3 {
			break
		}
	}
	return b.String()
}

// local evaluates a local value once; a cycle is reported and leaves the values unknown.
func (e *evaluator) local(name string) cty.Value {
	if v, ok := e.locals[name]; ok {
		return v
	}
	a := e.mod.locals[name]
	if a == nil {
		return cty.DynamicVal
	}
	if e.inLocal[name] {
		e.diags = append(e.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cycle in locals",
			Detail: fmt.Sprintf("local.%s depends on itself; its value is unknown", name), Subject: a.Expr.Range().Ptr()})
		e.locals[name] = cty.DynamicVal
		return cty.DynamicVal
	}
	e.inLocal[name] = true
	v, d := e.value(a.Expr, nil)
	delete(e.inLocal, name)
	if d.HasErrors() {
		v = cty.DynamicVal
		e.localErrs[name] = d.Errs()[0].Error()
	}
	if _, done := e.locals[name]; !done { // a cycle may have set it meanwhile
		e.locals[name] = v
	}
	return e.locals[name]
}

// resource evaluates a resource's top-level arguments into an object, or a tuple (count) or
// object (for_each) of instance objects. Arguments only a provider knows stay unknown.
func (e *evaluator) resource(typ, name string) cty.Value {
	key := typ + "." + name
	if v, ok := e.res[key]; ok {
		return v
	}
	r := e.mod.resources[key]
	if r == nil || e.inRes[key] {
		return cty.DynamicVal
	}
	e.inRes[key] = true
	defer delete(e.inRes, key)
	insts, keys, ok := e.instances(r.count, r.forEach)
	build := func(inst *instance, instKey string) cty.Value { return e.resourceInstance(r, key, instKey, inst) }
	var v cty.Value
	switch {
	case !ok:
		v = cty.DynamicVal
	case r.count != nil:
		var list []cty.Value
		for i, inst := range insts {
			list = append(list, build(inst, "["+keys[i]+"]"))
		}
		if len(list) == 0 {
			v = cty.EmptyTupleVal
		} else {
			v = cty.TupleVal(list)
		}
	case r.forEach != nil:
		m := map[string]cty.Value{}
		for i, inst := range insts {
			m[keys[i]] = build(inst, fmt.Sprintf("[%q]", keys[i]))
		}
		v = cty.ObjectVal(m)
	default:
		v = build(nil, "")
	}
	e.res[key] = v
	return v
}

// resourceInstance is one instance's object: its arguments, its nested blocks as lists of
// objects, and stand-ins for what only the provider knows.
func (e *evaluator) resourceInstance(r *resource, key, instKey string, inst *instance) cty.Value {
	obj := map[string]cty.Value{}
	// Attributes only the provider knows (id, arn, …) stand for a reference to this
	// instance, so that a launch_template { id = aws_launch_template.x[k].id } can be
	// followed back to the resource it names.
	ref := cty.StringVal(refPrefix + key + instKey)
	for _, computed := range []string{"id", "arn", "name", "latest_version", "default_version"} {
		obj[computed] = ref
	}
	for n, a := range r.attrs {
		if n == "count" || n == "for_each" {
			continue
		}
		obj[n] = e.valueOrUnknown(a.Expr, inst)
	}
	// Nested blocks are lists of objects, as Terraform exposes them:
	// kubernetes_namespace.app.metadata[0].name is written in the configuration.
	if syn, ok := r.body.(*hclsyntax.Body); ok {
		for name, list := range e.nestedBlocks(syn, inst, 0) {
			if _, set := r.attrs[name]; !set {
				obj[name] = list
			}
		}
	}
	if namespaceResources[r.typ] {
		// The provider sets a namespace's id to its name, and configurations use either
		// (namespace = kubernetes_namespace.x.id).
		if name := namespaceName(obj["metadata"]); name != cty.NilVal {
			obj["id"] = name
		}
	}
	return cty.ObjectVal(obj)
}

// nestedBlocks evaluates a body's blocks (not the meta-blocks) into a tuple of objects per
// block type, each object holding the block's attributes and its own nested blocks.
func (e *evaluator) nestedBlocks(body *hclsyntax.Body, inst *instance, depth int) map[string]cty.Value {
	out := map[string]cty.Value{}
	if depth > 16 {
		return out
	}
	lists := map[string][]cty.Value{}
	for _, b := range body.Blocks {
		switch b.Type {
		case "lifecycle", "timeouts", "dynamic", "provisioner", "connection":
			continue
		}
		obj := map[string]cty.Value{}
		for n, a := range b.Body.Attributes {
			obj[n] = e.valueOrUnknown(a.Expr, inst)
		}
		for n, list := range e.nestedBlocks(b.Body, inst, depth+1) {
			if _, set := obj[n]; !set {
				obj[n] = list
			}
		}
		lists[b.Type] = append(lists[b.Type], cty.ObjectVal(obj))
	}
	for name, list := range lists {
		out[name] = cty.TupleVal(list)
	}
	return out
}

// namespaceResources are the Kubernetes provider's namespace resources.
var namespaceResources = map[string]bool{"kubernetes_namespace": true, "kubernetes_namespace_v1": true}

// namespaceName reads metadata[0].name of a kubernetes_namespace's evaluated metadata blocks,
// or cty.NilVal when it is not there (generate_name: only the API server names it).
func namespaceName(metadata cty.Value) cty.Value {
	if metadata == cty.NilVal || !metadata.IsKnown() || metadata.IsNull() || !metadata.Type().IsTupleType() || metadata.LengthInt() != 1 {
		return cty.NilVal
	}
	first := metadata.Index(cty.NumberIntVal(0))
	if !first.Type().IsObjectType() || !first.Type().HasAttribute("name") {
		return cty.NilVal
	}
	return first.GetAttr("name")
}

// refPrefix marks the stand-in value of a provider-computed attribute (id, arn, …).
const refPrefix = "\x00ref:"

// instances expands count or for_each. ok is false when they cannot be known.
func (e *evaluator) instances(count, forEach hcl.Expression) (insts []*instance, keys []string, ok bool) {
	switch {
	case count != nil:
		v, why := e.known(count, nil)
		if why != "" || v.Type() != cty.Number || v.IsNull() {
			return nil, nil, false
		}
		bad := func(detail string) ([]*instance, []string, bool) {
			e.diags = append(e.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid count", Detail: detail, Subject: count.Range().Ptr()})
			return nil, nil, false
		}
		bf := v.AsBigFloat()
		if !bf.IsInt() {
			return bad(fmt.Sprintf("count is %s: it must be a whole number, as Terraform requires", bf.Text('g', 10)))
		}
		n, _ := bf.Int64()
		switch {
		case bf.Sign() < 0:
			return bad(fmt.Sprintf("count is %s: it must not be negative, as Terraform requires", bf.Text('g', 10)))
		case !bf.IsInt() || n > MaxInstances:
			// 'g', not 'f': printing 1e10000000 in full takes 12 s and 10 MB.
			return bad(fmt.Sprintf("count is %s: more than %d instances (a budget); not expanded", bf.Text('g', 10), MaxInstances))
		}
		for i := int64(0); i < n; i++ {
			idx := cty.NumberIntVal(i)
			insts = append(insts, &instance{countIndex: &idx})
			keys = append(keys, fmt.Sprint(i))
		}
		return insts, keys, true
	case forEach != nil:
		return e.forEachInstances(forEach)
	default:
		return []*instance{nil}, []string{""}, true
	}
}

// forEachInstances expands for_each: a map's keys decide the instances, and its values may
// hold what only Terraform knows (each.value.subnet_ids); a set must be known as a whole, its
// elements being the keys.
func (e *evaluator) forEachInstances(forEach hcl.Expression) (insts []*instance, keys []string, ok bool) {
	v, d := e.value(forEach, nil)
	if d.HasErrors() || !v.IsKnown() || v.IsNull() {
		return nil, nil, false
	}
	if ty := v.Type(); !(ty.IsMapType() || ty.IsObjectType()) && !v.IsWhollyKnown() {
		return nil, nil, false
	}
	if v.CanIterateElements() && v.LengthInt() > MaxInstances {
		e.diags = append(e.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid for_each",
			Detail: fmt.Sprintf("for_each has %d elements: more than %d instances (a budget); not expanded", v.LengthInt(), MaxInstances), Subject: forEach.Range().Ptr()})
		return nil, nil, false
	}
	ty := v.Type()
	switch {
	case ty.IsMapType() || ty.IsObjectType():
		for it := v.ElementIterator(); it.Next(); {
			k, val := it.Element()
			kk, vv := k, val
			insts = append(insts, &instance{eachKey: &kk, eachValue: &vv})
			keys = append(keys, k.AsString())
		}
	case ty.IsSetType() || ty.IsListType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, val := it.Element()
			if val.Type() != cty.String {
				return nil, nil, false
			}
			kk := val
			insts = append(insts, &instance{eachKey: &kk, eachValue: &kk})
			keys = append(keys, val.AsString())
		}
	default:
		return nil, nil, false
	}
	return insts, keys, true
}

// call evaluates a module call's outputs: local modules are evaluated with their inputs;
// remote ones are unknown.
func (e *evaluator) call(name string) cty.Value {
	if v, ok := e.calls[name]; ok {
		return v
	}
	c := e.mod.calls[name]
	if c == nil || e.inCall[name] || !e.loader.followable(e, c) {
		return cty.DynamicVal
	}
	e.inCall[name] = true
	defer delete(e.inCall, name)
	outputs := func(inst *instance, suffix string) cty.Value {
		child := e.loader.childAt(e, c, inst, suffix)
		if child == nil {
			return cty.DynamicVal
		}
		outs := map[string]cty.Value{}
		for n, a := range child.mod.outputs {
			outs[n] = child.valueOrUnknown(a.Expr, nil)
		}
		return cty.ObjectVal(outs)
	}
	var v cty.Value
	switch {
	case c.count == nil && c.forEach == nil:
		v = outputs(nil, "")
	default:
		// As Terraform exposes them: module.x[0].out for count, module.x["k"].out for
		// for_each; the same evaluations as extract's, so each instance is made once.
		insts, keys, ok := e.instances(c.count, c.forEach)
		switch {
		case !ok:
			v = cty.DynamicVal
		case c.count != nil:
			list := make([]cty.Value, len(insts))
			for i, inst := range insts {
				list[i] = outputs(inst, "["+keys[i]+"]")
			}
			v = cty.TupleVal(list)
			if len(list) == 0 {
				v = cty.EmptyTupleVal
			}
		default:
			m := map[string]cty.Value{}
			for i, inst := range insts {
				m[keys[i]] = outputs(inst, fmt.Sprintf("[%q]", keys[i]))
			}
			v = cty.ObjectVal(m)
		}
	}
	e.calls[name] = v
	return v
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// pathObject is Terraform's path.module, path.root and path.cwd as Terraform gives them for a
// run in the root module's folder: relative to it ("." and modules/x; path.cwd, absolute in
// Terraform, is "." too). file(), templatefile() and a local chart resolve a relative path
// against the root module's folder (rootPath), so file("${path.module}/x.yaml") names the
// same file, and every path a report shows stays relative to where eni-lint runs.
func (e *evaluator) pathObject() cty.Value {
	module := "."
	if rel, err := filepath.Rel(e.loader.root, e.mod.dir); err == nil {
		module = filepath.ToSlash(rel)
	} else {
		module = absPath(e.mod.dir)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(module), "root": cty.StringVal("."), "cwd": cty.StringVal("."),
	})
}

// fileDocuments evaluates data "kubectl_file_documents" (gavinbunney/kubectl, alekc/kubectl):
// its content split into YAML documents, as `documents` (a list) and `manifests` (a map, keyed
// here by kind/namespace/name, or the document's index when those are not written).
func (e *evaluator) fileDocuments(attrs hcl.Attributes) cty.Value {
	a := attrs["content"]
	if a == nil {
		return cty.DynamicVal
	}
	v, d := e.value(a.Expr, nil)
	content, ok := asString(v)
	if d.HasErrors() || !ok {
		return cty.DynamicVal
	}
	var docs []cty.Value
	manifests := map[string]cty.Value{}
	for i, text := range documentSeparator.Split(content, -1) {
		if strings.TrimSpace(text) == "" {
			continue
		}
		docs = append(docs, cty.StringVal(text))
		key := fmt.Sprint(i)
		var meta struct {
			Kind     string `yaml:"kind"`
			Metadata struct {
				Name, Namespace string
			} `yaml:"metadata"`
		}
		if parsed, err := yamlpos.DocumentsWithin([]byte(text), yamlpos.Limits{MaxDocuments: 1}); err == nil && len(parsed) == 1 && parsed[0].Decode(&meta) == nil && meta.Kind != "" {
			key = meta.Kind + "/" + meta.Metadata.Namespace + "/" + meta.Metadata.Name
		}
		if _, dup := manifests[key]; dup {
			key += "#" + fmt.Sprint(i)
		}
		manifests[key] = cty.StringVal(text)
	}
	list := cty.ListValEmpty(cty.String)
	if len(docs) > 0 {
		list = cty.ListVal(docs)
	}
	m := cty.MapValEmpty(cty.String)
	if len(manifests) > 0 {
		m = cty.MapVal(manifests)
	}
	return cty.ObjectVal(map[string]cty.Value{"content": v, "documents": list, "manifests": m})
}

// documentSeparator splits a YAML stream as the kubectl provider does: at lines of ---.
var documentSeparator = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?$`)
