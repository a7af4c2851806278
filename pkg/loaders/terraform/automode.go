package terraform

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// EKS Auto Mode's built-in node pools, enabled by aws_eks_cluster's compute_config block
// (enabled, node_pools) or by the terraform-aws-modules/eks module's compute_config (v21, read
// at terraform-aws-modules/terraform-aws-eks bef29c4d, main.tf: node_pools passed to the
// cluster as given, optional(list(string)) without default) or cluster_compute_config (v20,
// same shape). Custom pools are NodePool manifests and come through the Kubernetes loaders.

// autoModeFromCluster reads compute_config blocks of one aws_eks_cluster instance.
func (l *loader) autoModeFromCluster(e *evaluator, r *resource, inst *instance, address string) {
	blocks, why := e.blocks(r.body, "compute_config", inst)
	if why != "" {
		l.groups = append(l.groups, inventory.NodeGroupSpec{Name: address + ".compute_config", Source: "terraform:eks-auto-mode", Location: position(r.declare),
			SelfManaged: true, AutoMode: true, Ignores: r.ignores, UnknownTypes: "whether EKS Auto Mode is enabled depends on " + why})
	}
	for _, b := range blocks {
		enabled, why, rng, ok := e.attr(b.attrs, "enabled", b.inst)
		pools, poolsWhy, poolsRng, hasPools := e.attr(b.attrs, "node_pools", b.inst)
		l.autoModePools(address+".compute_config", enabled, why, rng, ok, pools, poolsWhy, poolsRng, hasPools, r.ignores)
	}
}

// autoModeFromModule reads the EKS module's compute_config or cluster_compute_config argument.
func (l *loader) autoModeFromModule(e *evaluator, c *moduleCall, args map[string]cty.Value, prefix string) {
	for _, name := range []string{"compute_config", "cluster_compute_config"} {
		a := c.attrs[name]
		if a == nil {
			continue
		}
		v := args[name]
		at := prefix + "." + name
		if v == cty.NilVal {
			continue
		}
		if !v.IsKnown() {
			l.groups = append(l.groups, inventory.NodeGroupSpec{Name: at, Source: "terraform:" + eksModule, Location: position(a.Expr.Range()),
				SelfManaged: true, AutoMode: true, Ignores: c.ignores, UnknownTypes: name + " depends on " + e.unknownReason(a.Expr)})
			continue
		}
		if v.IsNull() || !v.CanIterateElements() {
			continue
		}
		enabled, pools := field(v, cty.NilVal, "enabled"), field(v, cty.NilVal, "node_pools")
		enabledExpr, poolsExpr := a.Expr, a.Expr
		if x := e.fieldExpr(a.Expr, "enabled"); x != nil {
			enabledExpr = x
		}
		if x := e.fieldExpr(a.Expr, "node_pools"); x != nil {
			poolsExpr = x
		}
		enabledWhy, poolsWhy := "", ""
		if enabled != cty.NilVal && !enabled.IsWhollyKnown() {
			enabledWhy = e.unknownReason(enabledExpr)
		}
		if pools != cty.NilVal && !pools.IsWhollyKnown() {
			poolsWhy = e.unknownReason(poolsExpr)
		}
		enabledRng, poolsRng := enabledExpr.Range(), poolsExpr.Range()
		l.autoModePools(at, enabled, enabledWhy, enabledRng, enabled != cty.NilVal, pools, poolsWhy, poolsRng, pools != cty.NilVal, c.ignores)
	}
}

// autoModePools turns enabled and node_pools into built-in pools, or into an unknown node
// group when either cannot be known.
func (l *loader) autoModePools(at string, enabled cty.Value, enabledWhy string, enabledRng hcl.Range, hasEnabled bool,
	pools cty.Value, poolsWhy string, poolsRng hcl.Range, hasPools bool, ignores []inventory.Ignore) {
	unknown := func(reason string, rng hcl.Range) {
		l.groups = append(l.groups, inventory.NodeGroupSpec{Name: at, Source: "terraform:eks-auto-mode", Location: position(rng),
			SelfManaged: true, AutoMode: true, Ignores: ignores, UnknownTypes: reason})
	}
	switch {
	case !hasEnabled:
		return // enabled defaults to false
	case enabledWhy != "":
		unknown("whether EKS Auto Mode is enabled depends on "+enabledWhy, enabledRng)
		return
	}
	if enabled.IsNull() || enabled.Type() != cty.Bool || enabled.False() {
		return
	}
	if !hasPools {
		return // Auto Mode without built-in pools: only custom NodePools launch nodes
	}
	if poolsWhy != "" {
		unknown("node_pools depends on "+poolsWhy, poolsRng)
		return
	}
	names, ok := asStrings(pools)
	if !ok {
		if pools.IsNull() {
			return
		}
		unknown("node_pools is not a list of strings", poolsRng)
		return
	}
	for _, name := range names {
		p, ok := inventory.AutoModeBuiltinPool(name, position(poolsRng))
		if !ok {
			unknown(fmt.Sprintf("node_pools names %q, which is not a built-in EKS Auto Mode node pool (general-purpose, system)", name), poolsRng)
			continue
		}
		l.pools = append(l.pools, p)
	}
}
