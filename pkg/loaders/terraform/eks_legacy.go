package terraform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// The EKS module's node groups before v18 (v12 to v17): worker_groups and
// worker_groups_launch_template (lists of self-managed Auto Scaling groups) and node_groups
// (a map of managed node groups). Defaults read at terraform-aws-modules/terraform-aws-eks
// tag v17.24.0: locals.tf workers_group_defaults_defaults (instance_type "m4.large";
// override_instance_types ["m5.large", "m5a.large", "m5d.large", "m5ad.large"], used by a
// launch-template group only when it sets override_instance_types or
// on_demand_allocation_strategy, workers_launch_template.tf), overridden by the module's
// workers_group_defaults; modules/node_groups/locals.tf (a node group's instance_types
// default to [workers_group_defaults.instance_type], then node_groups_defaults, then the
// group) and modules/node_groups/main.tf (labels = node_groups_defaults.k8s_labels merged
// with the group's k8s_labels; taints; capacity_type; ami_type). Self-managed workers get
// labels and taints only through kubelet_extra_args (--node-labels, --register-with-taints).
var legacyWorkerDefaults = map[string]cty.Value{
	"instance_type":           cty.StringVal("m4.large"),
	"override_instance_types": cty.TupleVal([]cty.Value{cty.StringVal("m5.large"), cty.StringVal("m5a.large"), cty.StringVal("m5d.large"), cty.StringVal("m5ad.large")}),
	"platform":                cty.StringVal("linux"),
}

func (l *loader) eksLegacyGroups(e *evaluator, c *moduleCall, args map[string]cty.Value, prefix string) {
	workerDefaults := legacyDefaults(args)
	for _, attr := range []string{"worker_groups", "worker_groups_launch_template"} {
		a := c.attrs[attr]
		if a == nil {
			continue
		}
		list := args[attr]
		if !list.IsKnown() || list.IsNull() || !list.CanIterateElements() {
			l.groups = append(l.groups, inventory.NodeGroupSpec{Name: prefix + "." + attr, Source: "terraform:" + eksModule + " " + attr,
				Location: position(a.Expr.Range()), SelfManaged: true, UnknownTypes: attr + " depends on " + e.unknownReason(a.Expr), Ignores: c.ignores})
			continue
		}
		i := 0
		for it := list.ElementIterator(); it.Next(); i++ {
			_, g := it.Element()
			l.groups = append(l.groups, legacyWorkerGroup(c, g, workerDefaults, attr, prefix, fmt.Sprintf("%s[%d]", attr, i), a.Expr.Range()))
		}
	}
	if a := c.attrs["node_groups"]; a != nil {
		l.legacyNodeGroups(e, c, a, args, workerDefaults, prefix)
	}
}

// legacyDefaults are the module's worker defaults with workers_group_defaults applied.
func legacyDefaults(args map[string]cty.Value) cty.Value {
	defaults := legacyWorkerDefaults
	if d := args["workers_group_defaults"]; d.IsKnown() && !d.IsNull() && (d.Type().IsObjectType() || d.Type().IsMapType()) {
		merged := map[string]cty.Value{}
		for k, v := range legacyWorkerDefaults {
			merged[k] = v
		}
		for it := d.ElementIterator(); it.Next(); {
			k, v := it.Element()
			merged[k.AsString()] = v
		}
		defaults = merged
	}
	return cty.ObjectVal(defaults)
}

// legacyWorkerGroup is one group of worker_groups or worker_groups_launch_template: its
// instance types (the launch template's overrides when it asks for a mixed-instances policy),
// platform, and the labels and taints of its kubelet arguments.
func legacyWorkerGroup(c *moduleCall, g, workerDefaults cty.Value, attr, prefix, fallbackName string, at hcl.Range) inventory.NodeGroupSpec {
	name := nameOr(field(g, cty.NilVal, "name"), fallbackName)
	spec := inventory.NodeGroupSpec{Name: name, Source: "terraform:" + eksModule + " " + attr, Location: position(at),
		SelfManaged: true, TypeLocations: []inventory.Position{position(at)}, Ignores: c.ignores}
	if !g.IsKnown() {
		spec.UnknownTypes = "the worker group's settings are not known statically (" + prefix + ")"
		return spec
	}
	types := field(g, cty.NilVal, "instance_type")
	if types == cty.NilVal {
		types = field(workerDefaults, cty.NilVal, "instance_type")
	}
	if attr == "worker_groups_launch_template" {
		// The mixed-instances policy, and so its override types, is used only when
		// the group asks for it.
		overrides := field(g, cty.NilVal, "override_instance_types")
		strategy := field(g, workerDefaults, "on_demand_allocation_strategy")
		if overrides != cty.NilVal || strategy != cty.NilVal {
			types = field(g, workerDefaults, "override_instance_types")
		}
	}
	switch list, ok := asStrings(types); {
	case ok && len(list) > 0:
		spec.InstanceTypes = list
	case types != cty.NilVal && !types.IsWhollyKnown():
		spec.UnknownTypes = "the instance type is not known statically (" + prefix + "." + attr + ")"
	default:
		spec.UnknownTypes = "the worker group has no instance type"
	}
	if s, ok := asString(field(g, workerDefaults, "platform")); ok && strings.EqualFold(s, "windows") {
		spec.Windows = true
	}
	if args, ok := asString(field(g, workerDefaults, "kubelet_extra_args")); ok {
		spec.Labels, spec.Taints = kubeletLabelsAndTaints(args)
	}
	return spec
}

// legacyNodeGroups are the managed groups of node_groups (v17 and earlier), with
// node_groups_defaults and the workers' instance type as their default.
func (l *loader) legacyNodeGroups(e *evaluator, c *moduleCall, a *hcl.Attribute, args map[string]cty.Value, workerDefaults cty.Value, prefix string) {
	keys, objs, ok := entries(args["node_groups"])
	if !ok {
		l.groups = append(l.groups, inventory.NodeGroupSpec{Name: prefix + ".node_groups", Source: "terraform:" + eksModule + " node_groups",
			Location: position(a.Expr.Range()), UnknownTypes: "node_groups depends on " + e.unknownReason(a.Expr), Ignores: c.ignores})
		return
	}
	ngDefaults := args["node_groups_defaults"]
	var defaultsExpr hcl.Expression
	if d := c.attrs["node_groups_defaults"]; d != nil {
		defaultsExpr = d.Expr
	}
	for i, k := range keys {
		obj := objs[i]
		// instance_types defaults to the workers' instance type, not to EKS's t3.medium.
		if field(obj, ngDefaults, "instance_types") == cty.NilVal && obj.IsKnown() && !obj.IsNull() {
			obj = withAttr(obj, "instance_types", cty.TupleVal([]cty.Value{field(workerDefaults, cty.NilVal, "instance_type")}))
		}
		obj = withAttr(obj, "labels", mergeMaps(field(ngDefaults, cty.NilVal, "k8s_labels"), field(obj, cty.NilVal, "k8s_labels")))
		groupExpr := e.fieldExpr(a.Expr, k)
		exprOf := func(name string) hcl.Expression {
			if name == "labels" {
				name = "k8s_labels"
			}
			if x := e.fieldExpr(groupExpr, name); x != nil {
				return x
			}
			return e.fieldExpr(defaultsExpr, name)
		}
		g := l.eksGroup(e, prefix, nameOr(field(obj, cty.NilVal, "name"), k), obj, ngDefaults, false, position(e.itemRange(a.Expr, k)), nil, exprOf, c.ignores)
		g.Source = "terraform:" + eksModule + " node_groups"
		g.Address = fmt.Sprintf("%s.module.node_groups.aws_eks_node_group.workers[%q]", prefix, k) // v17 and earlier
		l.groups = append(l.groups, g)
	}
}

// withAttr returns an object (or map) value with one attribute set.
func withAttr(obj cty.Value, name string, v cty.Value) cty.Value {
	if !obj.IsKnown() || obj.IsNull() || !(obj.Type().IsObjectType() || obj.Type().IsMapType()) {
		return obj
	}
	attrs := map[string]cty.Value{}
	for it := obj.ElementIterator(); it.Next(); {
		k, val := it.Element()
		attrs[k.AsString()] = val
	}
	attrs[name] = v
	return cty.ObjectVal(attrs)
}

// mergeMaps merges two label maps as Terraform's merge() does; an unknown one makes the result
// unknown, a missing one counts as empty.
func mergeMaps(a, b cty.Value) cty.Value {
	out := map[string]cty.Value{}
	for _, m := range []cty.Value{a, b} {
		if m == cty.NilVal || m.IsNull() {
			continue
		}
		if !m.IsKnown() {
			return cty.DynamicVal
		}
		if !(m.Type().IsObjectType() || m.Type().IsMapType()) {
			continue
		}
		for it := m.ElementIterator(); it.Next(); {
			k, v := it.Element()
			out[k.AsString()] = v
		}
	}
	return cty.ObjectVal(out)
}

// kubeletLabelsAndTaints reads --node-labels=a=b,c=d and --register-with-taints=k=v:Effect
// from kubelet arguments, the only way a self-managed worker group gets them.
func kubeletLabelsAndTaints(args string) (map[string]string, []inventory.Taint) {
	labels := map[string]string{}
	var taints []inventory.Taint
	fields := strings.Fields(args)
	for i := 0; i < len(fields); i++ {
		flag, value, hasValue := strings.Cut(fields[i], "=")
		if !hasValue && i+1 < len(fields) {
			value = fields[i+1]
		}
		switch flag {
		case "--node-labels":
			for _, kv := range strings.Split(value, ",") {
				if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
					labels[k] = v
				}
			}
		case "--register-with-taints":
			for _, t := range strings.Split(value, ",") {
				kv, effect, _ := strings.Cut(t, ":")
				k, v, _ := strings.Cut(kv, "=")
				if k != "" {
					taints = append(taints, inventory.Taint{Key: k, Value: v, Effect: effect})
				}
			}
		}
	}
	return labels, taints
}

// blueprintsModule reads the node groups of the EKS Blueprints v4 root module
// (github.com/aws-ia/terraform-aws-eks-blueprints, v4.x; v5 has none). Defaults read at tag
// v4.32.1: modules/aws-eks-managed-node-groups/locals.tf (instance_types ["m5.large"],
// capacity_type ON_DEMAND, ami_type AL2_x86_64, k8s_labels, k8s_taints; main.tf passes them
// to aws_eks_node_group) and modules/aws-eks-self-managed-node-groups/locals.tf and main.tf
// (instance_types ["m4.large"]; more than one makes a mixed-instances policy over them;
// launch_template_os "windows" makes Windows nodes; labels and taints only through
// kubelet_extra_args).
func (l *loader) blueprintsModule(e *evaluator, c *moduleCall) {
	args := moduleArgs(e, c)
	prefix := e.callPath + "module." + c.name
	source := "terraform:aws-ia/terraform-aws-eks-blueprints"
	for _, kind := range []struct {
		attr string
		self bool
	}{{"managed_node_groups", false}, {"self_managed_node_groups", true}} {
		a := c.attrs[kind.attr]
		if a == nil {
			continue
		}
		keys, objs, ok := entries(args[kind.attr])
		if !ok {
			l.groups = append(l.groups, inventory.NodeGroupSpec{Name: prefix + "." + kind.attr, Source: source, Location: position(a.Expr.Range()),
				SelfManaged: kind.self, UnknownTypes: kind.attr + " depends on " + e.unknownReason(a.Expr), Ignores: c.ignores})
			continue
		}
		for i, k := range keys {
			obj := objs[i]
			groupExpr := e.fieldExpr(a.Expr, k)
			loc := position(e.itemRange(a.Expr, k))
			name := nameOr(field(obj, cty.NilVal, "node_group_name"), k)
			if !kind.self {
				defaults := cty.ObjectVal(map[string]cty.Value{
					"instance_types": cty.TupleVal([]cty.Value{cty.StringVal("m5.large")}),
					"capacity_type":  cty.StringVal("ON_DEMAND"), "ami_type": cty.StringVal("AL2_x86_64"),
				})
				obj = withAttr(obj, "labels", field(obj, cty.NilVal, "k8s_labels"))
				obj = withAttr(obj, "taints", field(obj, cty.NilVal, "k8s_taints"))
				exprOf := func(n string) hcl.Expression {
					switch n {
					case "labels":
						n = "k8s_labels"
					case "taints":
						n = "k8s_taints"
					}
					return e.fieldExpr(groupExpr, n)
				}
				g := l.eksGroup(e, prefix, name, obj, defaults, false, loc, nil, exprOf, c.ignores)
				g.Source = source + " " + kind.attr
				l.groups = append(l.groups, g)
				continue
			}
			spec := inventory.NodeGroupSpec{Name: name, Source: source + " " + kind.attr, Location: loc, SelfManaged: true, TypeLocations: []inventory.Position{loc}, Ignores: c.ignores}
			types := field(obj, cty.NilVal, "instance_types")
			if types == cty.NilVal {
				types = cty.TupleVal([]cty.Value{cty.StringVal("m4.large")})
			}
			if list, ok := asStrings(types); ok && len(list) > 0 {
				spec.InstanceTypes = list
			} else if x := e.fieldExpr(groupExpr, "instance_types"); x != nil {
				spec.UnknownTypes = "instance_types depends on " + e.unknownReason(x)
			} else {
				spec.UnknownTypes = "instance_types is not known statically (" + prefix + ")"
			}
			if s, ok := asString(field(obj, cty.NilVal, "launch_template_os")); ok && s == "windows" {
				spec.Windows = true
			}
			if s, ok := asString(field(obj, cty.NilVal, "kubelet_extra_args")); ok {
				spec.Labels, spec.Taints = kubeletLabelsAndTaints(s)
			}
			l.groups = append(l.groups, spec)
		}
	}
}
