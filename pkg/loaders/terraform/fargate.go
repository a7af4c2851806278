package terraform

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Fargate profiles: aws_eks_fargate_profile (selector blocks) and the EKS module's
// fargate_profiles map (each with a selectors list of {namespace, labels}), the same shape in
// v17 and in v18 and later. A selector whose namespace or labels only Terraform knows is left
// out: its pods then stay on the node groups, which is the worst case, and ENI006 names the
// attribute (never a silent drop).
func (l *loader) fargateProfile(e *evaluator, r *resource, inst *instance, address string) {
	p := inventory.FargateProfile{Name: address, Source: "terraform:aws_eks_fargate_profile", Location: position(r.declare)}
	if v, _, _, ok := e.attr(r.attrs, "fargate_profile_name", inst); ok {
		if s, ok := asString(v); ok {
			p.Name = s
		}
	}
	for _, b := range blocksOf(r.body, "selector") {
		attrs := attributesOf(b)
		ns, why, at, _ := e.attr(attrs, "namespace", inst)
		namespace, ok := asString(ns)
		if why != "" || !ok {
			l.fargateUnknown(p.Name, address, "namespace", why, at, r.declare)
			continue
		}
		sel := inventory.FargateSelector{Namespace: namespace}
		if v, why, at, ok := e.attr(attrs, "labels", inst); ok {
			if why != "" || !v.IsWhollyKnown() {
				l.fargateUnknown(p.Name, address, "labels", why, at, r.declare)
				continue
			}
			sel.Labels = asStringMap(v)
		}
		p.Selectors = append(p.Selectors, sel)
	}
	l.fargate = append(l.fargate, p)
}

// fargateFromEKSModule reads the module's fargate_profiles argument.
func (l *loader) fargateFromEKSModule(args map[string]cty.Value, c *moduleCall, prefix string) {
	a := c.attrs["fargate_profiles"]
	keys, objs, ok := entries(args["fargate_profiles"])
	if a == nil || !ok {
		return
	}
	for i, k := range keys {
		obj := objs[i]
		p := inventory.FargateProfile{Name: nameOr(field(obj, cty.NilVal, "name"), k), Source: "terraform:" + eksModule + " fargate_profiles", Location: position(a.Expr.Range())}
		sels := field(obj, cty.NilVal, "selectors")
		address := prefix + " fargate_profiles[\"" + k + "\"]"
		if sels != cty.NilVal && !sels.IsKnown() {
			l.fargateUnknown(p.Name, address, "selectors", "", a.Expr.Range(), a.Expr.Range())
			continue
		}
		if sels == cty.NilVal || sels.IsNull() || !sels.CanIterateElements() {
			continue
		}
		for it := sels.ElementIterator(); it.Next(); {
			_, s := it.Element()
			namespace, ok := asString(field(s, cty.NilVal, "namespace"))
			labels := field(s, cty.NilVal, "labels")
			if !ok {
				l.fargateUnknown(p.Name, address, "namespace", "", a.Expr.Range(), a.Expr.Range())
				continue
			}
			if labels != cty.NilVal && !labels.IsWhollyKnown() {
				l.fargateUnknown(p.Name, address, "labels", "", a.Expr.Range(), a.Expr.Range())
				continue
			}
			p.Selectors = append(p.Selectors, inventory.FargateSelector{Namespace: namespace, Labels: asStringMap(labels)})
		}
		l.fargate = append(l.fargate, p)
	}
}

// fargateUnknown records a Fargate selector left out because an attribute only Terraform
// knows: its pods are counted on the node groups (the worst case), and ENI006 says which
// attribute would decide it.
func (l *loader) fargateUnknown(profile, address, attr, why string, at, block hcl.Range) {
	if at.Filename == "" {
		at = block
	}
	if why == "" {
		why = "its value is not known before apply"
	}
	l.unresolved = append(l.unresolved, inventory.UnresolvedObject{Source: address, Location: position(at), Pods: true,
		Reason: fmt.Sprintf("selector.%s of Fargate profile %q cannot be evaluated (%s), so the selector is left out and the pods it would take stay counted on the node groups; write it as a literal or a local to decide it", attr, profile, why)})
}
