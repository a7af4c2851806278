package terraform

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// eksDefaultInstanceType is what EKS gives a managed node group created without instance
// types (and without a launch template that names one): the EKS API's documented default.
const eksDefaultInstanceType = "t3.medium"

// eksModule is the registry source of terraform-aws-modules/eks/aws.
const eksModule = "terraform-aws-modules/eks/aws"

// extract finds the node groups and Kubernetes objects of a module instance and of the local
// modules it calls.
func (l *loader) extract(e *evaluator) {
	l.extractKubernetes(e, l.opts.Kubernetes)
	l.extractHelmReleases(e, l.opts.Kubernetes, l.opts.Helm)
	l.extractCNI(e)
	for _, key := range e.mod.order {
		r := e.mod.resources[key]
		switch r.typ {
		case "aws_eks_node_group":
			l.fromEachInstance(e, r, l.managedNodeGroup)
		case "aws_autoscaling_group":
			l.fromEachInstance(e, r, l.autoScalingGroup)
		case "aws_eks_cluster":
			eachAddress(e, r, func(inst *instance, address string) { l.autoModeFromCluster(e, r, inst, address) })
		case "aws_eks_fargate_profile":
			eachAddress(e, r, func(inst *instance, address string) { l.fargateProfile(e, r, inst, address) })
		}
	}
	names := make([]string, 0, len(e.mod.calls))
	for n := range e.mod.calls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := e.mod.calls[n]
		if e.disabled(c) {
			continue
		}
		l.withCallIgnores(c, func() { l.extractCall(e, c) })
	}
}

// withCallIgnores runs fn, then gives everything it declared (node groups and Kubernetes
// objects, also those of modules the call calls in turn) the ignore comments above
// the module block, and each node group the comments inside the block above its entry or its
// instance types. A comment inside the block that stands above no node group it declares is
// kept on the first one with an error, so that ENI009 says it suppresses nothing.
func (l *loader) withCallIgnores(c *moduleCall, fn func()) {
	groups, manifests := len(l.groups), len(l.manifests)
	fn()
	if len(c.ignores) == 0 && len(c.inner) == 0 {
		return
	}
	used := make([]bool, len(c.inner))
	for i := groups; i < len(l.groups); i++ {
		g := &l.groups[i]
		g.Ignores = addIgnores(g.Ignores, c.ignores)
		for j, in := range c.inner {
			if groupSpans(*g, c.declare.Filename, in.target) {
				g.Ignores = addIgnores(g.Ignores, []inventory.Ignore{in.ignore})
				used[j] = true
			}
		}
	}
	for i := manifests; i < len(l.manifests); i++ {
		l.manifests[i].EachObject(func(o *inventory.Object) { o.Ignores = addIgnores(o.Ignores, c.ignores) })
	}
	for j, in := range c.inner {
		if used[j] || len(l.groups) == groups {
			continue
		}
		in.ignore.Error = fmt.Sprintf("inside module %q's block, above no node group it declares: it suppresses nothing; put it above the module block, or above a node group's entry or its instance types", c.name)
		l.groups[groups].Ignores = addIgnores(l.groups[groups].Ignores, []inventory.Ignore{in.ignore})
	}
}

// groupSpans says whether a line of a file is within a node group's declaration or one of
// its type locations.
func groupSpans(g inventory.NodeGroupSpec, file string, line int) bool {
	within := func(p inventory.Position) bool {
		end := p.EndLine
		if end < p.Line {
			end = p.Line
		}
		return p.File == file && p.Line > 0 && line >= p.Line && line <= end
	}
	if within(g.Location) {
		return true
	}
	for _, p := range g.TypeLocations {
		if within(p) {
			return true
		}
	}
	return false
}

// addIgnores appends the ignores not already there (the same comment reaches a node group
// through its own module call and the calls around it).
func addIgnores(to, more []inventory.Ignore) []inventory.Ignore {
	for _, ig := range more {
		dup := false
		for _, have := range to {
			dup = dup || (have.Location != nil && ig.Location != nil && *have.Location == *ig.Location)
		}
		if !dup {
			to = append(to, ig)
		}
	}
	return to
}

// extractCall reads one module call: the registry EKS module and EKS Blueprints v4 by their
// inputs, a local module by evaluating it once per instance.
func (l *loader) extractCall(e *evaluator, c *moduleCall) {
	switch {
	case strings.HasPrefix(c.source, eksModule):
		l.eksModule(e, c)
	case isBlueprintsV4(c):
		l.blueprintsModule(e, c)
	case l.followable(e, c):
		// One evaluation per instance of count or for_each, so that a module called for
		// each node group of a map declares each of them with its own settings.
		insts, keys, ok := []*instance{nil}, []string{""}, true
		if c.count != nil || c.forEach != nil {
			insts, keys, ok = e.instances(c.count, c.forEach)
			if !ok {
				// How many instances, and with which keys, only Terraform knows: one made-up
				// instance would invent node groups from the module's defaults.
				x, what := c.forEach, "for_each"
				if c.count != nil {
					x, what = c.count, "count"
				}
				l.unresolved = append(l.unresolved, inventory.UnresolvedObject{Source: e.callPath + "module." + c.name, Location: position(x.Range()), Module: true,
					Reason: what + " depends on " + e.unknownReason(x)})
				return
			}
		}
		for i, inst := range insts {
			suffix := ""
			switch {
			case inst != nil && c.count != nil:
				suffix = "[" + keys[i] + "]"
			case inst != nil:
				suffix = fmt.Sprintf("[%q]", keys[i])
			}
			if child := l.childAt(e, c, inst, suffix); child != nil {
				l.extract(child)
				e.diags = append(e.diags, child.diags...)
			}
		}
	}
}

type instanceBuilder func(e *evaluator, r *resource, inst *instance, address string) *inventory.NodeGroupSpec

func (l *loader) fromEachInstance(e *evaluator, r *resource, build instanceBuilder) {
	insts, keys, ok := e.instances(r.count, r.forEach)
	base := e.callPath + r.typ + "." + r.name
	if !ok {
		expr := r.count
		if expr == nil {
			expr = r.forEach
		}
		l.groups = append(l.groups, inventory.NodeGroupSpec{
			Name: base, Address: base, Source: "terraform:" + r.typ, Location: position(r.declare), Ignores: r.ignores,
			UnknownTypes: "how many node groups " + base + " creates depends on " + e.unknownReason(expr),
		})
		return
	}
	for i, inst := range insts {
		address := instanceAddress(e, r, keys[i])
		if g := build(e, r, inst, address); g != nil {
			g.Ignores = r.ignores
			g.Address = address
			l.groups = append(l.groups, *g)
		}
	}
}

// position is where r starts and ends; hcl's End is already the position just after the range.
func position(r hcl.Range) inventory.Position {
	return inventory.Position{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column, EndLine: r.End.Line, EndColumn: r.End.Column}
}

// attr evaluates a resource argument for an instance; ok is false when it is absent.
func (e *evaluator) attr(attrs hcl.Attributes, name string, inst *instance) (v cty.Value, why string, rng hcl.Range, ok bool) {
	a := attrs[name]
	if a == nil {
		return cty.NilVal, "", hcl.Range{}, false
	}
	v, why = e.known(a.Expr, inst)
	return v, why, a.Expr.Range(), true
}

func asString(v cty.Value) (string, bool) {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// asStrings reads a list of known strings. A provider-computed attribute's stand-in is not a
// value eni-lint knows.
func asStrings(v cty.Value) ([]string, bool) {
	list, ok := asStringsRaw(v)
	for _, s := range list {
		if strings.HasPrefix(s, refPrefix) {
			return nil, false
		}
	}
	return list, ok
}

func asStringsRaw(v cty.Value) ([]string, bool) {
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() {
		return nil, false
	}
	ty := v.Type()
	if !(ty.IsListType() || ty.IsSetType() || ty.IsTupleType()) {
		if s, ok := asString(v); ok {
			return []string{s}, true
		}
		return nil, false
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, el := it.Element()
		s, ok := asString(el)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func asStringMap(v cty.Value) map[string]string {
	out := map[string]string{}
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !(v.Type().IsMapType() || v.Type().IsObjectType()) {
		return out
	}
	for it := v.ElementIterator(); it.Next(); {
		k, el := it.Element()
		if s, ok := asString(el); ok {
			out[k.AsString()] = s
		} else if el.IsKnown() && !el.IsNull() && el.Type() == cty.Number {
			out[k.AsString()] = el.AsBigFloat().String()
		} else if el.IsKnown() && !el.IsNull() && el.Type() == cty.Bool {
			out[k.AsString()] = fmt.Sprint(el.True())
		}
	}
	return out
}

func asInt(v cty.Value) *int {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || v.Type() != cty.Number {
		return nil
	}
	n, _ := v.AsBigFloat().Int64()
	i := int(n)
	return &i
}

// taintEffect converts the EKS API spelling (NO_SCHEDULE) to Kubernetes' (NoSchedule).
func taintEffect(s string) string {
	switch strings.ToUpper(s) {
	case "NO_SCHEDULE", "NOSCHEDULE":
		return "NoSchedule"
	case "NO_EXECUTE", "NOEXECUTE":
		return "NoExecute"
	case "PREFER_NO_SCHEDULE", "PREFERNOSCHEDULE":
		return "PreferNoSchedule"
	}
	return s
}

// amiPlatform reads an EKS ami_type: ARM types run arm64 nodes, Windows types Windows nodes.
func amiPlatform(amiType string) (arch string, windows bool) {
	u := strings.ToUpper(amiType)
	if strings.HasPrefix(u, "WINDOWS") {
		windows = true
	}
	if strings.Contains(u, "ARM") {
		arch = "arm64"
	} else if strings.Contains(u, "X86_64") || strings.HasPrefix(u, "WINDOWS") {
		arch = "amd64"
	}
	return arch, windows
}

// managedNodeGroup reads one aws_eks_node_group instance.
func (l *loader) managedNodeGroup(e *evaluator, r *resource, inst *instance, address string) *inventory.NodeGroupSpec {
	g := &inventory.NodeGroupSpec{Name: address, Source: "terraform:aws_eks_node_group", Location: position(r.declare)}
	if v, _, _, ok := e.attr(r.attrs, "node_group_name", inst); ok {
		if s, ok := asString(v); ok {
			g.Name = s
		}
	} else if v, _, _, ok := e.attr(r.attrs, "node_group_name_prefix", inst); ok {
		if s, ok := asString(v); ok {
			g.Name = s + "*"
		}
	}
	if v, why, _, ok := e.attr(r.attrs, "labels", inst); ok {
		// Labels decide which pods land here: unknown ones make the group unknown.
		if why != "" {
			g.UnknownTypes = "labels depends on " + why
			g.TypeLocations = []inventory.Position{position(r.attrs["labels"].Expr.Range())}
			return g
		}
		g.Labels = asStringMap(v)
	}
	if v, _, _, ok := e.attr(r.attrs, "capacity_type", inst); ok {
		g.CapacityType, _ = asString(v)
	}
	if v, _, _, ok := e.attr(r.attrs, "ami_type", inst); ok {
		if s, ok := asString(v); ok {
			g.Arch, g.Windows = amiPlatform(s)
		}
	}
	for _, b := range blocksOf(r.body, "scaling_config") {
		attrs := attributesOf(b)
		if v, _, _, ok := e.attr(attrs, "min_size", inst); ok {
			g.MinSize = asInt(v)
		}
		if v, _, _, ok := e.attr(attrs, "max_size", inst); ok {
			g.MaxSize = asInt(v)
		}
	}
	g.Taints = e.taints(r.body, inst)

	managedTypes(e, r, inst, g)
	return g
}

// managedTypes gives an aws_eks_node_group its instance types: instance_types, else its
// launch template's instance type, else the EKS default.
func managedTypes(e *evaluator, r *resource, inst *instance, g *inventory.NodeGroupSpec) {
	types, why, rng, ok := e.attr(r.attrs, "instance_types", inst)
	switch {
	case ok && why != "":
		g.UnknownTypes = "instance_types depends on " + why
		g.TypeLocations = []inventory.Position{position(rng)}
	case ok && types.IsNull():
		// instance_types = null (a module's unset variable) leaves the choice to the launch
		// template or EKS, as when the argument is absent.
	case ok:
		list, good := asStrings(types)
		if !good {
			g.UnknownTypes = "instance_types is not a list of strings"
		}
		g.InstanceTypes = list
		g.TypeLocations = elementPositions(r.attrs["instance_types"].Expr, len(list))
	}
	if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
		// No instance_types: the launch template's instance type, else the EKS default.
		if lt := blocksOf(r.body, "launch_template"); len(lt) > 0 {
			useLaunchTemplate(g, e, attributesOf(lt[0]), inst)
		}
		if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
			g.InstanceTypes = []string{eksDefaultInstanceType}
			g.TypeLocations = []inventory.Position{position(r.declare)}
		}
	}
}

// useLaunchTemplate sets a group's type from the launch template a block references, or the
// reason it is unknown; false when the template names no type.
func useLaunchTemplate(g *inventory.NodeGroupSpec, e *evaluator, spec hcl.Attributes, inst *instance) bool {
	t, why, at := e.launchTemplateType(spec, inst)
	switch {
	case why != "":
		g.UnknownTypes = why
	case t != "":
		g.InstanceTypes = []string{t}
	default:
		return false
	}
	g.TypeLocations = []inventory.Position{position(at)}
	return true
}

// elementPositions returns where each element of a list literal is, or the expression's
// start for every element when it is not a literal.
func elementPositions(expr hcl.Expression, n int) []inventory.Position {
	if tuple, ok := expr.(*hclsyntax.TupleConsExpr); ok && len(tuple.Exprs) == n {
		out := make([]inventory.Position, n)
		for i, el := range tuple.Exprs {
			out[i] = position(el.Range())
		}
		return out
	}
	out := make([]inventory.Position, n)
	for i := range out {
		out[i] = position(expr.Range())
	}
	return out
}

// blockInstance is one nested block, static or generated by a `dynamic` block, with the
// instance context its arguments are evaluated in (the dynamic block's iterator).
type blockInstance struct {
	attrs hcl.Attributes
	body  hcl.Body
	inst  *instance
}

// blocks returns the nested blocks of a type: static ones, then those `dynamic` blocks
// generate from their for_each, each with its iterator (and the iterators of the dynamic
// blocks around it) in scope. why names a dynamic block of that type whose for_each cannot be
// known: how many blocks it makes, and so what the resource is, depends on it.
func (e *evaluator) blocks(body hcl.Body, typ string, inst *instance) (out []blockInstance, why string) {
	for _, b := range blocksOf(body, typ) {
		out = append(out, blockInstance{attrs: attributesOf(b), body: b, inst: inst})
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}})
	for _, b := range content.Blocks {
		if b.Labels[0] != typ {
			continue
		}
		generated, unknown := e.expandDynamic(b, inst)
		if unknown != "" {
			why = unknown
		}
		out = append(out, generated...)
	}
	return out, why
}

// expandDynamic is the blocks one `dynamic "TYPE"` block generates from its for_each, each
// with its iterator (and the iterators of the dynamic blocks around it) in scope. why says
// when its for_each cannot be known or generates more than the budget: then it generates none.
func (e *evaluator) expandDynamic(b *hcl.Block, inst *instance) (out []blockInstance, why string) {
	typ := b.Labels[0]
	attrs := attributesOf(b.Body)
	iterator := typ
	if a := attrs["iterator"]; a != nil {
		if tr, d := hcl.AbsTraversalForExpr(a.Expr); !d.HasErrors() {
			iterator = tr.RootName()
		}
	}
	fe := attrs["for_each"]
	contents := blocksOf(b.Body, "content")
	if fe == nil || len(contents) == 0 {
		return nil, "" // Terraform rejects a dynamic block without them
	}
	coll, unknown := e.known(fe.Expr, inst)
	switch {
	case unknown != "":
		return nil, fmt.Sprintf("the dynamic %q block's for_each depends on %s", typ, unknown)
	case coll.IsNull() || !coll.CanIterateElements():
		return nil, fmt.Sprintf("the dynamic %q block's for_each is not a collection", typ)
	case !e.loader.meter.spendDynamic(coll.LengthInt()):
		return nil, fmt.Sprintf("the dynamic blocks of this module generate more than %d blocks (a budget; nested ones multiply): the dynamic %q block at line %d is not evaluated", MaxDynamicBlocks, typ, b.DefRange.Start.Line)
	}
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		in := &instance{}
		if inst != nil {
			*in = *inst
		}
		// A copy: the iterators of the blocks around this one stay in scope, and
		// siblings do not see each other's.
		in.extra = map[string]cty.Value{}
		if inst != nil {
			for name, val := range inst.extra {
				in.extra[name] = val
			}
		}
		in.extra[iterator] = cty.ObjectVal(map[string]cty.Value{"key": k, "value": v})
		out = append(out, blockInstance{attrs: attributesOf(contents[0]), body: contents[0], inst: in})
	}
	return out, ""
}

// taints reads `taint` blocks, static or dynamic.
func (e *evaluator) taints(body hcl.Body, inst *instance) []inventory.Taint {
	var out []inventory.Taint
	// Taints a dynamic block makes from an unknown for_each are left out: fewer taints only
	// lets more workloads land on the group, which counts more, never less.
	blocks, _ := e.blocks(body, "taint", inst)
	for _, b := range blocks {
		var t inventory.Taint
		if v, _, _, ok := e.attr(b.attrs, "key", b.inst); ok {
			t.Key, _ = asString(v)
		}
		if v, _, _, ok := e.attr(b.attrs, "value", b.inst); ok {
			t.Value, _ = asString(v)
		}
		if v, _, _, ok := e.attr(b.attrs, "effect", b.inst); ok {
			s, _ := asString(v)
			t.Effect = taintEffect(s)
		}
		if t.Key != "" {
			out = append(out, t)
		}
	}
	return out
}

// launchTemplateType follows a launch_template block's id or name to the aws_launch_template
// resource (instance) it references and reads its instance_type.
func (e *evaluator) launchTemplateType(attrs hcl.Attributes, inst *instance) (string, string, hcl.Range) {
	for _, name := range []string{"id", "name", "launch_template_id", "launch_template_name"} {
		a := attrs[name]
		if a == nil {
			continue
		}
		v, d := e.value(a.Expr, inst)
		if d.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
			why := e.unknownReason(a.Expr)
			return "", "the launch template's instance_type is unknown: " + why, a.Expr.Range()
		}
		s := v.AsString()
		if ref, ok := strings.CutPrefix(s, refPrefix); ok {
			return e.instanceTypeOf(ref, "aws_launch_template", a.Expr.Range())
		}
		// A literal name or id: a launch template of this module with that name.
		if key := e.resourceNamed("aws_launch_template", s); key != "" {
			return e.instanceTypeOf(key, "aws_launch_template", a.Expr.Range())
		}
		return "", fmt.Sprintf("the launch template %q is not in this configuration, so its instance type is unknown", s), a.Expr.Range()
	}
	return "", "", hcl.Range{}
}

// resourceNamed finds the resource of a type in this module whose name argument is name (a
// launch template or configuration named by a literal), as its key, or "".
func (e *evaluator) resourceNamed(typ, name string) string {
	for _, key := range e.mod.order {
		r := e.mod.resources[key]
		if r.typ != typ || r.attrs["name"] == nil {
			continue
		}
		if n, d := e.value(r.attrs["name"].Expr, nil); !d.HasErrors() && n.IsKnown() && n.Type() == cty.String && n.AsString() == name {
			return key
		}
	}
	return ""
}

// instanceTypeOf reads instance_type of a reference to a resource of type want (a launch
// template or launch configuration), such as aws_launch_template.x or
// aws_launch_template.x["key"].
func (e *evaluator) instanceTypeOf(ref, want string, at hcl.Range) (string, string, hcl.Range) {
	addr, index, _ := strings.Cut(ref, "[")
	typ, name, _ := strings.Cut(addr, ".")
	if typ != want {
		return "", fmt.Sprintf("%s is not a %s", addr, strings.ReplaceAll(strings.TrimPrefix(want, "aws_"), "_", " ")), at
	}
	r := e.mod.resources[addr]
	if r == nil {
		return "", addr + " is not in this configuration", at
	}
	v := e.resource(typ, name)
	if index != "" {
		key := strings.TrimSuffix(index, "]")
		switch {
		case v.Type().IsTupleType():
			var i int
			fmt.Sscan(key, &i)
			if i < 0 || i >= v.LengthInt() {
				return "", "no instance " + ref, at
			}
			v = v.Index(cty.NumberIntVal(int64(i)))
		case v.Type().IsObjectType():
			if unq, err := strconv.Unquote(key); err == nil {
				key = unq
			}
			if !v.Type().HasAttribute(key) {
				return "", "no instance " + ref, at
			}
			v = v.GetAttr(key)
		}
	}
	where := at
	if a := r.attrs["instance_type"]; a != nil {
		where = a.Expr.Range()
	}
	if !v.Type().IsObjectType() || !v.Type().HasAttribute("instance_type") {
		return "", addr + " sets no instance_type", where
	}
	t := v.GetAttr("instance_type")
	if s, ok := asString(t); ok {
		return s, "", where
	}
	if t.IsKnown() && t.IsNull() {
		return "", addr + " sets no instance_type", where
	}
	return "", fmt.Sprintf("the %s's instance_type depends on %s", strings.ReplaceAll(strings.TrimPrefix(want, "aws_"), "_", " "), e.unknownReason(r.attrs["instance_type"].Expr)), where
}

// autoScalingGroup reads a self-managed node group: an aws_autoscaling_group with a launch
// template or a mixed instances policy.
func (l *loader) autoScalingGroup(e *evaluator, r *resource, inst *instance, address string) *inventory.NodeGroupSpec {
	g := &inventory.NodeGroupSpec{Name: address, Source: "terraform:aws_autoscaling_group", Location: position(r.declare), SelfManaged: true}
	if v, _, _, ok := e.attr(r.attrs, "name", inst); ok {
		if s, ok := asString(v); ok {
			g.Name = s
		}
	}
	if v, _, _, ok := e.attr(r.attrs, "min_size", inst); ok {
		g.MinSize = asInt(v)
	}
	if v, _, _, ok := e.attr(r.attrs, "max_size", inst); ok {
		g.MaxSize = asInt(v)
	}
	// The instance types come from, in AWS's order: a mixed instances policy's overrides,
	// else its launch template; a launch_template block; a launch configuration. Any of the
	// blocks may be written as `dynamic` (terraform-aws-modules/eks's self-managed node group
	// writes them all so).
	var spec *blockInstance
	unknown := func(why string) {
		if g.UnknownTypes == "" {
			g.UnknownTypes = why
		}
	}
	lts, why := e.blocks(r.body, "launch_template", inst)
	if why != "" {
		unknown(why)
	}
	if len(lts) > 0 {
		spec = &lts[0]
	}
	if s := mixedInstancesPolicy(e, g, r, inst, unknown); s != nil {
		spec = s
	}
	if len(g.InstanceTypes) > 0 || g.UnknownTypes != "" {
		return g
	}
	switch {
	case spec != nil:
		if !useLaunchTemplate(g, e, spec.attrs, spec.inst) {
			g.UnknownTypes = "the launch template sets no instance_type"
		}
	case r.attrs["launch_configuration"] != nil:
		useLaunchConfiguration(g, e, r.attrs["launch_configuration"], inst)
	default:
		return nil // AWS requires one of the three: not a group eni-lint can read, nor a valid one
	}
	return g
}

// mixedInstancesPolicy adds the types of an autoscaling group's mixed instances policy
// overrides to g, and returns its last launch template specification (nil without one).
func mixedInstancesPolicy(e *evaluator, g *inventory.NodeGroupSpec, r *resource, inst *instance, unknown func(string)) *blockInstance {
	var spec *blockInstance
	mips, why := e.blocks(r.body, "mixed_instances_policy", inst)
	if why != "" {
		unknown(why)
	}
	listed := map[string]bool{}
	for _, mip := range mips {
		mipLts, why := e.blocks(mip.body, "launch_template", mip.inst)
		if why != "" {
			unknown(why)
		}
		for _, lt := range mipLts {
			specs, why := e.blocks(lt.body, "launch_template_specification", lt.inst)
			if why != "" {
				unknown(why)
			}
			for i := range specs {
				spec = &specs[i]
			}
			overrides, why := e.blocks(lt.body, "override", lt.inst)
			if why != "" {
				unknown("the overrides' instance types are unknown: " + why)
			}
			addOverrides(e, g, overrides, listed, unknown)
		}
	}
	return spec
}

// addOverrides adds the instance types of a mixed instances policy's overrides to g, each
// once (where it is first written); what cannot be read makes them unknown.
func addOverrides(e *evaluator, g *inventory.NodeGroupSpec, overrides []blockInstance, listed map[string]bool, unknown func(string)) {
	for _, o := range overrides {
		v, why, rng, ok := e.attr(o.attrs, "instance_type", o.inst)
		s, isString := asString(v)
		switch {
		case why != "":
			unknown("an override's instance_type depends on " + why)
		case isString && listed[s]:
			// Listed again (a dynamic block over a list, two overrides): one set of
			// nodes, kept where it is first written.
		case isString:
			listed[s] = true
			g.InstanceTypes = append(g.InstanceTypes, s)
			g.TypeLocations = append(g.TypeLocations, position(rng))
		case ok && !v.IsNull():
			unknown("an override's instance_type is not a string")
		default:
			// No instance_type (or null): an override that picks types by attributes,
			// which EC2 resolves at launch.
			if reqs, why := e.blocks(o.body, "instance_requirements", o.inst); len(reqs) > 0 || why != "" {
				unknown("an override selects instance types by instance_requirements, which EC2 resolves at launch")
			}
		}
	}
}

// useLaunchConfiguration reads a group's instance type from the aws_launch_configuration its
// launch_configuration argument names (by reference, or by a literal name of one in this
// module): the older way to define self-managed nodes.
func useLaunchConfiguration(g *inventory.NodeGroupSpec, e *evaluator, a *hcl.Attribute, inst *instance) {
	g.TypeLocations = []inventory.Position{position(a.Expr.Range())}
	v, why := e.known(a.Expr, inst)
	s, ok := asString(v)
	switch {
	case why != "":
		g.UnknownTypes = "the launch configuration's instance_type is unknown: " + why
		return
	case !ok:
		g.UnknownTypes = "launch_configuration is not a name"
		return
	}
	ref, isRef := strings.CutPrefix(s, refPrefix)
	if !isRef {
		if ref = e.resourceNamed("aws_launch_configuration", s); ref == "" {
			g.UnknownTypes = fmt.Sprintf("the launch configuration %q is not in this configuration, so its instance type is unknown", s)
			return
		}
	}
	t, why, at := e.instanceTypeOf(ref, "aws_launch_configuration", a.Expr.Range())
	g.TypeLocations = []inventory.Position{position(at)}
	if why != "" {
		g.UnknownTypes = why
		return
	}
	g.InstanceTypes = []string{t}
}

// isBlueprintsV4 recognises a call of the EKS Blueprints v4 root module (a git source with a
// v4 ref, or no ref; its submodules are read through their own resources).
func isBlueprintsV4(c *moduleCall) bool {
	src := c.source
	if !strings.Contains(src, "aws-ia/terraform-aws-eks-blueprints") {
		return false
	}
	path, ref, _ := strings.Cut(src, "?ref=")
	return !strings.Contains(path, "//modules/") && (ref == "" || strings.HasPrefix(ref, "v4"))
}

// disabled says whether a module call creates no instance: count = 0 or an empty for_each,
// known statically (the usual `count = var.enable_x ? 1 : 0`). Its node groups and objects do
// not exist. An unknown count is evaluated as one instance.
func (e *evaluator) disabled(c *moduleCall) bool {
	if c.count != nil {
		v, d := e.value(c.count, nil)
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.Number {
			return v.AsBigFloat().Sign() == 0
		}
	}
	if c.forEach != nil {
		v, d := e.value(c.forEach, nil)
		if !d.HasErrors() && v.IsWhollyKnown() && !v.IsNull() && v.CanIterateElements() {
			return v.LengthInt() == 0
		}
	}
	return false
}

// eachAddress calls fn for every instance of a resource whose count or for_each can be
// evaluated, with its address (aws_eks_cluster.main, aws_eks_fargate_profile.p["a"]).
func eachAddress(e *evaluator, r *resource, fn func(inst *instance, address string)) {
	insts, keys, ok := e.instances(r.count, r.forEach)
	if !ok {
		return
	}
	for i, inst := range insts {
		fn(inst, instanceAddress(e, r, keys[i]))
	}
}
