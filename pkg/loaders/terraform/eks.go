package terraform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// The terraform-aws-modules/eks/aws module, recognised by its source (the registry address,
// with or without a //modules/... submodule). Read at terraform-aws-modules/terraform-aws-eks
// commit 002be2f (modules/eks-managed-node-group/variables.tf): instance_types defaults to
// null, which leaves the choice to EKS (t3.medium); capacity_type defaults to ON_DEMAND;
// taints are a map (or, in older versions, a list) of {key, value, effect}. The self-managed
// node group's instance_type default has changed between versions, so eni-lint reports an
// unset one as unknown instead of assuming a version.
func (l *loader) eksModule(e *evaluator, c *moduleCall) {
	sub := ""
	if i := strings.Index(c.source, "//"); i >= 0 {
		sub = strings.Trim(c.source[i+2:], "/")
	}
	args := moduleArgs(e, c)
	prefix := e.callPath + "module." + c.name
	if sub == "" {
		l.cniFromEKSModule(e, args, c)
		l.fargateFromEKSModule(args, c, prefix)
		l.autoModeFromModule(e, c, args, prefix)
	}
	switch sub {
	case "modules/eks-managed-node-group", "modules/self-managed-node-group":
		self := sub == "modules/self-managed-node-group"
		typesAttr := c.attrs["instance_types"]
		if self {
			typesAttr = c.attrs["instance_type"]
		}
		exprOf := func(name string) hcl.Expression {
			if a := c.attrs[name]; a != nil {
				return a.Expr
			}
			return nil
		}
		g := l.eksGroup(e, prefix, nameOr(args["name"], c.name), cty.ObjectVal(args), cty.NilVal, self, position(c.declare), typesAttr, exprOf, c.ignores)
		g.Address = prefix // the module's one group: aws_eks_node_group.this[0] or aws_autoscaling_group.this[0]
		l.groups = append(l.groups, g)
	case "":
		l.eksLegacyGroups(e, c, args, prefix)
		for _, kind := range []eksGroupMap{{"eks_managed_node_groups", "eks_managed_node_group_defaults", false}, {"self_managed_node_groups", "self_managed_node_group_defaults", true}} {
			l.eksGroupMap(e, c, args, prefix, kind)
		}
	}
}

// eksGroupMap is one of the EKS module's maps of node groups and the defaults they share.
type eksGroupMap struct {
	attr, defaults string
	self           bool
}

// eksGroupMap reads the node groups of one map of the module's arguments. Only the map's keys
// must be known: an unknown subnet or IAM role inside a group leaves its instance types,
// labels and taints as they are written.
func (l *loader) eksGroupMap(e *evaluator, c *moduleCall, args map[string]cty.Value, prefix string, kind eksGroupMap) {
	a := c.attrs[kind.attr]
	if a == nil {
		return
	}
	defaults := args[kind.defaults]
	var defaultsExpr hcl.Expression
	if d := c.attrs[kind.defaults]; d != nil {
		defaultsExpr = d.Expr
	}
	keys, objs, ok := entries(args[kind.attr])
	if !ok {
		l.groups = append(l.groups, inventory.NodeGroupSpec{
			Name: prefix + "." + kind.attr, Source: "terraform:" + eksModule, Location: position(a.Expr.Range()),
			SelfManaged: kind.self, UnknownTypes: kind.attr + " depends on " + e.unknownReason(a.Expr), Ignores: c.ignores,
		})
		return
	}
	for i, k := range keys {
		obj := objs[i]
		loc := position(e.itemRange(a.Expr, k))
		groupExpr := e.fieldExpr(a.Expr, k)
		exprOf := func(name string) hcl.Expression {
			if x := e.fieldExpr(groupExpr, name); x != nil {
				return x
			}
			return e.fieldExpr(defaultsExpr, name)
		}
		g := l.eksGroup(e, prefix, nameOr(field(obj, cty.NilVal, "name"), k), obj, defaults, kind.self, loc, nil, exprOf, c.ignores)
		// The module calls its node group submodule once per key (v18 and later).
		g.Address = fmt.Sprintf("%s.module.%s[%q]", prefix, strings.TrimSuffix(kind.attr, "s"), k)
		l.groups = append(l.groups, g)
	}
}

func nameOr(v cty.Value, fallback string) string {
	if s, ok := asString(v); ok && s != "" {
		return s
	}
	return fallback
}

// field reads a group's setting, falling back to the module-level defaults.
func field(obj, defaults cty.Value, name string) cty.Value {
	for _, o := range []cty.Value{obj, defaults} {
		if o == cty.NilVal || o.IsNull() || !o.IsKnown() || !o.Type().IsObjectType() && !o.Type().IsMapType() {
			continue
		}
		if o.Type().IsObjectType() {
			if o.Type().HasAttribute(name) {
				if v := o.GetAttr(name); !v.IsNull() {
					return v
				}
			}
			continue
		}
		if v := o.Index(cty.StringVal(name)); v.IsKnown() && !v.IsNull() {
			return v
		}
	}
	return cty.NilVal
}

// itemRange finds where a key of an object literal is written (following local values),
// else the whole expression.
func (e *evaluator) itemRange(expr hcl.Expression, key string) hcl.Range {
	if item := e.objectItem(expr, key); item != nil {
		return item.KeyExpr.Range()
	}
	return expr.Range()
}

// objectItem finds the item that writes key in an object literal, following local values
// (local.groups.core), or nil when the object is not written as a literal.
func (e *evaluator) objectItem(expr hcl.Expression, key string) *hclsyntax.ObjectConsItem {
	for hops := 0; expr != nil && hops < 16; hops++ {
		switch x := expr.(type) {
		case *hclsyntax.ObjectConsExpr:
			for i, item := range x.Items {
				if k, d := item.KeyExpr.Value(nil); !d.HasErrors() && k.Type() == cty.String && k.AsString() == key {
					return &x.Items[i]
				}
			}
			return nil
		case *hclsyntax.ScopeTraversalExpr:
			local := e.localNamed(x.Traversal)
			if local == nil {
				return nil
			}
			expr = local.Expr
		default:
			return nil
		}
	}
	return nil
}

// localNamed is the local value a traversal names exactly (local.x), or nil.
func (e *evaluator) localNamed(tr hcl.Traversal) *hcl.Attribute {
	if tr.RootName() != "local" || len(tr) != 2 {
		return nil
	}
	if attr, ok := tr[1].(hcl.TraverseAttr); ok {
		return e.mod.locals[attr.Name]
	}
	return nil
}

// eksGroup reads one node group of the EKS module. Each setting is read on its own: an
// unknown value (a subnet, an IAM role, a tag) spoils nothing else, and an unknown setting
// the verdict needs (instance types, and the labels, taints, capacity type and AMI type that
// decide which pods land there) makes the group unknown with that setting's own blocker.
// exprOf finds the expression that writes a setting, for the reason.
func (l *loader) eksGroup(e *evaluator, prefix, name string, obj, defaults cty.Value, self bool, loc inventory.Position, typesAttr *hcl.Attribute, exprOf func(string) hcl.Expression, ignores []inventory.Ignore) inventory.NodeGroupSpec {
	g := inventory.NodeGroupSpec{Name: name, Source: "terraform:" + eksModule, Location: loc, SelfManaged: self, TypeLocations: []inventory.Position{loc}, Ignores: ignores}
	if typesAttr != nil {
		g.TypeLocations = []inventory.Position{position(typesAttr.Expr.Range())}
	} else if x := exprOf("instance_types"); x != nil && !self {
		g.TypeLocations = []inventory.Position{position(x.Range())}
	}
	if !obj.IsKnown() {
		g.UnknownTypes = "the node group's settings are not known statically (" + prefix + ")"
		return g
	}
	get := func(name string) cty.Value { return field(obj, defaults, name) }
	typesName := "instance_types"
	if self {
		typesName = "instance_type"
	}
	// The settings that decide which pods land on the group: the first unknown one blocks it.
	for _, name := range []string{typesName, "labels", "taints", "capacity_type", "ami_type", "platform"} {
		if v := get(name); v != cty.NilVal && !v.IsWhollyKnown() {
			if x := exprOf(name); x != nil {
				g.UnknownTypes = name + " depends on " + e.unknownReason(x)
			} else {
				g.UnknownTypes = name + " is not known statically (" + prefix + ")"
			}
			return g
		}
	}
	g.Labels = asStringMap(get("labels"))
	if s, ok := asString(get("capacity_type")); ok {
		g.CapacityType = s
	}
	if s, ok := asString(get("ami_type")); ok {
		g.Arch, g.Windows = amiPlatform(s)
	}
	if s, ok := asString(get("platform")); ok && strings.EqualFold(s, "windows") {
		g.Windows = true
	}
	g.MinSize, g.MaxSize = asInt(get("min_size")), asInt(get("max_size"))
	g.Taints = eksTaints(get("taints"))
	if self {
		if s, ok := asString(get("instance_type")); ok && s != "" {
			g.InstanceTypes = []string{s}
		} else {
			g.UnknownTypes = "instance_type is not set, and the module's default differs between versions; set it"
		}
		return g
	}
	if types, ok := asStrings(get("instance_types")); ok && len(types) > 0 {
		g.InstanceTypes = types
	} else {
		g.InstanceTypes = []string{eksDefaultInstanceType}
	}
	return g
}

// eksTaints reads the EKS module's taints (a map or list of {key, value, effect}); those
// without a key are no taint.
func eksTaints(taints cty.Value) []inventory.Taint {
	if taints == cty.NilVal || !taints.IsKnown() || taints.IsNull() || !taints.CanIterateElements() {
		return nil
	}
	var out []inventory.Taint
	for it := taints.ElementIterator(); it.Next(); {
		_, t := it.Element()
		key, _ := asString(field(t, cty.NilVal, "key"))
		value, _ := asString(field(t, cty.NilVal, "value"))
		effect, _ := asString(field(t, cty.NilVal, "effect"))
		if key != "" {
			out = append(out, inventory.Taint{Key: key, Value: value, Effect: taintEffect(effect)})
		}
	}
	return out
}

// fieldExpr finds the expression that writes key inside an object literal, following local
// values, so that an unknown setting's reason names its own inputs rather than its
// neighbours'. nil when the object is not written as a literal.
func (e *evaluator) fieldExpr(expr hcl.Expression, key string) hcl.Expression {
	if item := e.objectItem(expr, key); item != nil {
		return item.ValueExpr
	}
	return nil
}

// moduleArgs evaluates a module call's arguments, each on its own.
func moduleArgs(e *evaluator, c *moduleCall) map[string]cty.Value {
	args := map[string]cty.Value{}
	for name, a := range c.attrs {
		args[name] = e.valueOrUnknown(a.Expr, nil)
	}
	return args
}
