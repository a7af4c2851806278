package terraform

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// cniFromConfiguration reads ENABLE_POD_ENI from an add-on's configuration_values, a JSON
// document such as {"env": {"ENABLE_POD_ENI": "true"}}.
func cniFromConfiguration(v cty.Value, s *inventory.CNISetting) {
	text, ok := asString(v)
	if !ok {
		return
	}
	var doc struct {
		Env map[string]any `json:"env"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return
	}
	if raw, ok := doc.Env["ENABLE_POD_ENI"]; ok {
		b := strings.EqualFold(strings.TrimSpace(toText(raw)), "true")
		s.EnablePodENI = &b
	}
}

func toText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// extractCNI finds aws_eks_addon resources for vpc-cni.
func (l *loader) extractCNI(e *evaluator) {
	for _, key := range e.mod.order {
		r := e.mod.resources[key]
		if r.typ != "aws_eks_addon" {
			continue
		}
		v, _, _, ok := e.attr(r.attrs, "addon_name", nil)
		if name, good := asString(v); !ok || !good || name != "vpc-cni" {
			continue
		}
		s := inventory.CNISetting{Source: "terraform:aws_eks_addon", Location: position(r.declare)}
		if cfg, _, _, ok := e.attr(r.attrs, "configuration_values", nil); ok {
			cniFromConfiguration(cfg, &s)
		}
		l.cni = append(l.cni, s)
	}
}

// cniFromEKSModule reads the EKS module's cluster_addons (v20) or addons (v21) vpc-cni entry.
// Only the add-on map must be known: an IRSA role ARN beside configuration_values (the usual
// shape) must not hide ENABLE_POD_ENI.
func (l *loader) cniFromEKSModule(e *evaluator, args map[string]cty.Value, c *moduleCall) {
	for _, attr := range []string{"cluster_addons", "addons"} {
		addons, ok := args[attr]
		if !ok || !addons.IsKnown() || addons.IsNull() || !(addons.Type().IsObjectType() || addons.Type().IsMapType()) {
			continue
		}
		entry := field(addons, cty.NilVal, "vpc-cni")
		if entry == cty.NilVal || !entry.IsKnown() {
			continue
		}
		s := inventory.CNISetting{Source: "terraform:" + eksModule + " " + attr, Location: position(c.declare)}
		if a := c.attrs[attr]; a != nil {
			s.Location = position(e.itemRange(a.Expr, "vpc-cni"))
		}
		cniFromConfiguration(field(entry, cty.NilVal, "configuration_values"), &s)
		l.cni = append(l.cni, s)
	}
}
