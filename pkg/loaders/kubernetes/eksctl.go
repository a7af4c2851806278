package kubernetes

import (
	"fmt"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"go.yaml.in/yaml/v3"
)

// EksctlDefaultInstanceType is the instance type eksctl gives a node group that names none
// (eksctl's default node type, m5.large, as AWS documents for `eksctl create nodegroup`).
const EksctlDefaultInstanceType = "m5.large"

// readClusterConfig turns an eksctl ClusterConfig's managedNodeGroups and nodeGroups into node
// groups: instanceType, instanceTypes or instancesDistribution.instanceTypes (eksctl's
// default when none), labels, taints in list or map form, and amiFamily for Windows. A group
// that picks its types with instanceSelector is unknown until eksctl runs.
func readClusterConfig(r *fieldReader, doc *yaml.Node) []inventory.NodeGroupSpec {
	var out []inventory.NodeGroupSpec
	for _, list := range []struct {
		key     string
		managed bool
	}{{"managedNodeGroups", true}, {"nodeGroups", false}} {
		for i, ng := range r.sequence(doc, "", list.key) {
			p := fmt.Sprintf("%s[%d]", list.key, i)
			r.locs[p] = r.pos(ng)
			g := inventory.NodeGroupSpec{Source: "eksctl:" + list.key, Location: r.pos(ng), SelfManaged: !list.managed}
			if s := r.str(ng, p, "name"); s != nil {
				g.Name = *s
			}
			g.Labels = r.stringMap(ng, p, "labels")
			g.Labels["alpha.eksctl.io/nodegroup-name"] = g.Name
			g.MinSize, g.MaxSize = r.integer(ng, p, "minSize"), r.integer(ng, p, "maxSize")
			if s := r.str(ng, p, "amiFamily"); s != nil && strings.HasPrefix(*s, "Windows") {
				g.Windows = true
			}
			if s := r.str(ng, p, "instanceType"); s != nil && *s != "" && *s != "mixed" {
				g.InstanceTypes = []string{*s}
				g.TypeLocations = []inventory.Position{r.locs[p+".instanceType"]}
			}
			for _, path := range []struct{ parent, key string }{{p, "instanceTypes"}, {p + ".instancesDistribution", "instanceTypes"}} {
				parent := ng
				if path.parent != p {
					parent = r.mapping(ng, p, "instancesDistribution")
				}
				for _, t := range r.sequence(parent, path.parent, path.key) {
					if t.Kind == yaml.ScalarNode && t.Value != "" {
						g.InstanceTypes = append(g.InstanceTypes, t.Value)
						g.TypeLocations = append(g.TypeLocations, r.pos(t))
					}
				}
			}
			if len(g.InstanceTypes) == 0 {
				if sel := r.mapping(ng, p, "instanceSelector"); sel != nil {
					g.UnknownTypes = "instanceSelector chooses the instance types when eksctl runs; list them with instanceTypes"
					g.TypeLocations = []inventory.Position{r.locs[p+".instanceSelector"]}
				} else {
					g.InstanceTypes = []string{EksctlDefaultInstanceType}
					g.TypeLocations = []inventory.Position{r.pos(ng)}
				}
			}
			g.Taints = readEksctlTaints(r, ng, p)
			out = append(out, g)
		}
	}
	return out
}

// readEksctlTaints reads taints as a list of {key, value, effect} or, in older configs, a map
// of key to "value:effect".
func readEksctlTaints(r *fieldReader, ng *yaml.Node, p string) []inventory.Taint {
	v := r.get(ng, p, "taints")
	if v == nil {
		return nil
	}
	var out []inventory.Taint
	switch v.Kind {
	case yaml.SequenceNode:
		out = r.taints(ng, p, "taints")
	case yaml.MappingNode:
		for key, val := range r.stringMap(ng, p, "taints") {
			value, effect, _ := strings.Cut(val, ":")
			out = append(out, inventory.Taint{Key: key, Value: value, Effect: effect})
		}
	}
	return out
}

// readFargateProfiles reads an eksctl ClusterConfig's fargateProfiles: name and selectors
// (namespace, labels).
func readFargateProfiles(r *fieldReader, doc *yaml.Node) []inventory.FargateProfile {
	var out []inventory.FargateProfile
	for i, fp := range r.sequence(doc, "", "fargateProfiles") {
		p := fmt.Sprintf("fargateProfiles[%d]", i)
		profile := inventory.FargateProfile{Source: "eksctl:fargateProfiles", Location: r.pos(fp)}
		if s := r.str(fp, p, "name"); s != nil {
			profile.Name = *s
		}
		for j, sel := range r.sequence(fp, p, "selectors") {
			sp := fmt.Sprintf("%s.selectors[%d]", p, j)
			if ns := r.str(sel, sp, "namespace"); ns != nil {
				profile.Selectors = append(profile.Selectors, inventory.FargateSelector{Namespace: *ns, Labels: r.stringMap(sel, sp, "labels")})
			}
		}
		out = append(out, profile)
	}
	return out
}
