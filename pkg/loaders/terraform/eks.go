package terraform

import (
	"sort"
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
	args := map[string]cty.Value{}
	for name, a := range c.attrs {
		v, d := e.value(a.Expr, nil)
		if d.HasErrors() {
			v = cty.DynamicVal
		}
		args[name] = v
	}
	prefix := e.callPath + "module." + c.name
	if sub == "" {
		l.cniFromEKSModule(args, c)
	}
	switch sub {
	case "modules/eks-managed-node-group":
		l.groups = append(l.groups, l.eksGroup(e, prefix, nameOr(args["name"], c.name), cty.ObjectVal(args), cty.NilVal, false, position(c.declare), c.attrs["instance_types"], c.ignores))
	case "modules/self-managed-node-group":
		l.groups = append(l.groups, l.eksGroup(e, prefix, nameOr(args["name"], c.name), cty.ObjectVal(args), cty.NilVal, true, position(c.declare), c.attrs["instance_type"], c.ignores))
	case "":
		for _, kind := range []struct {
			attr, defaults string
			self           bool
		}{{"eks_managed_node_groups", "eks_managed_node_group_defaults", false}, {"self_managed_node_groups", "self_managed_node_group_defaults", true}} {
			a := c.attrs[kind.attr]
			if a == nil {
				continue
			}
			groups := args[kind.attr]
			defaults := args[kind.defaults]
			if !groups.IsWhollyKnown() || groups.IsNull() || !(groups.Type().IsMapType() || groups.Type().IsObjectType()) {
				l.groups = append(l.groups, inventory.NodeGroupSpec{
					Name: prefix + "." + kind.attr, Source: "terraform:" + eksModule, Location: position(a.Expr.Range()),
					SelfManaged: kind.self, UnknownTypes: kind.attr + " depends on " + e.unknownReason(a.Expr), Ignores: c.ignores,
				})
				continue
			}
			var keys []string
			for it := groups.ElementIterator(); it.Next(); {
				k, _ := it.Element()
				keys = append(keys, k.AsString())
			}
			sort.Strings(keys)
			for _, k := range keys {
				var obj cty.Value
				if groups.Type().IsObjectType() {
					obj = groups.GetAttr(k)
				} else {
					obj = groups.Index(cty.StringVal(k))
				}
				loc := position(itemRange(a.Expr, k))
				l.groups = append(l.groups, l.eksGroup(e, prefix, nameOr(field(obj, cty.NilVal, "name"), k), obj, defaults, kind.self, loc, nil, c.ignores))
			}
		}
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

// itemRange finds where a key of an object literal is written, else the whole expression.
func itemRange(expr hcl.Expression, key string) hcl.Range {
	if obj, ok := expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range obj.Items {
			if k, d := item.KeyExpr.Value(nil); !d.HasErrors() && k.Type() == cty.String && k.AsString() == key {
				return item.KeyExpr.Range()
			}
		}
	}
	return expr.Range()
}

func (l *loader) eksGroup(e *evaluator, prefix, name string, obj, defaults cty.Value, self bool, loc inventory.Position, typesAttr *hcl.Attribute, ignores []inventory.Ignore) inventory.NodeGroupSpec {
	g := inventory.NodeGroupSpec{Name: name, Source: "terraform:" + eksModule, Location: loc, SelfManaged: self, TypeLocations: []inventory.Position{loc}, Ignores: ignores}
	if typesAttr != nil {
		g.TypeLocations = []inventory.Position{position(typesAttr.Expr.Range())}
	}
	if !obj.IsWhollyKnown() {
		g.UnknownTypes = "the node group's settings are not known statically (" + prefix + ")"
		return g
	}
	g.Labels = asStringMap(field(obj, defaults, "labels"))
	if s, ok := asString(field(obj, defaults, "capacity_type")); ok {
		g.CapacityType = s
	}
	if s, ok := asString(field(obj, defaults, "ami_type")); ok {
		g.Arch, g.Windows = amiPlatform(s)
	}
	if s, ok := asString(field(obj, defaults, "platform")); ok && strings.EqualFold(s, "windows") {
		g.Windows = true
	}
	g.MinSize, g.MaxSize = asInt(field(obj, defaults, "min_size")), asInt(field(obj, defaults, "max_size"))
	taints := field(obj, defaults, "taints")
	if taints != cty.NilVal && taints.IsKnown() && !taints.IsNull() && taints.CanIterateElements() {
		for it := taints.ElementIterator(); it.Next(); {
			_, t := it.Element()
			key, _ := asString(field(t, cty.NilVal, "key"))
			value, _ := asString(field(t, cty.NilVal, "value"))
			effect, _ := asString(field(t, cty.NilVal, "effect"))
			if key != "" {
				g.Taints = append(g.Taints, inventory.Taint{Key: key, Value: value, Effect: taintEffect(effect)})
			}
		}
	}
	if self {
		if s, ok := asString(field(obj, defaults, "instance_type")); ok && s != "" {
			g.InstanceTypes = []string{s}
		} else {
			g.UnknownTypes = "instance_type is not set, and the module's default differs between versions; set it"
		}
		return g
	}
	if types, ok := asStrings(field(obj, defaults, "instance_types")); ok && len(types) > 0 {
		g.InstanceTypes = types
	} else {
		g.InstanceTypes = []string{eksDefaultInstanceType}
	}
	return g
}
