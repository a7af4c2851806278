// Package karpenter turns Karpenter NodePools into node groups: their requirements are
// evaluated against the instance types Karpenter can launch (with the labels it puts on each),
// and the group is judged on the smallest branch capacity among the types it admits.
package karpenter

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
)

// LabelNodePool is the label Karpenter puts on every node of a NodePool.
const LabelNodePool = "karpenter.sh/nodepool"

// Resolve returns one node group per NodePool.
//
// Karpenter launches, for pods that request vpc.amazonaws.com/pod-eni, only instance types
// that offer it; so a NodePool's capacity for SGP pods is decided by the smallest branch
// capacity among its trunking types (the binding type, which the group lists). Types without
// trunking matter only when they are all the pool admits: then SGP pods stay Pending (ENI004).
// Admitted types missing from the branch-ENI table are left out and counted in the source.
func Resolve(pools []inventory.NodePool, classes []inventory.NodeClass, table *limits.Table) ([]inventory.NodeGroupSpec, error) {
	catalog, err := limits.KarpenterCatalog()
	if err != nil {
		return nil, err
	}
	amiFamily := map[string]string{}
	for _, c := range classes {
		amiFamily[c.Name] = c.AMIFamily
	}
	var out []inventory.NodeGroupSpec
	for _, p := range pools {
		g := inventory.NodeGroupSpec{
			Name: p.Name, Source: "karpenter:" + p.Kind, Location: p.Location, SelfManaged: true,
			Labels: map[string]string{LabelNodePool: p.Name}, Taints: p.Taints, TypeLabels: map[string]map[string]string{},
		}
		for k, v := range p.Labels {
			g.Labels[k] = v
		}
		if strings.HasPrefix(strings.ToLower(amiFamily[p.NodeClass]), "windows") {
			g.Windows = true
		}
		var admitted []limits.KarpenterType
		for _, t := range catalog {
			if admits(p.Requirements, t.Labels) {
				admitted = append(admitted, t)
			}
		}
		var trunking, without []limits.InstanceType
		unknown := 0
		labelsOf := map[string]map[string]string{}
		for _, t := range admitted {
			it, ok := table.Lookup(t.Name)
			if !ok {
				unknown++
				continue
			}
			labelsOf[t.Name] = t.Labels
			if it.Trunking {
				trunking = append(trunking, it)
			} else {
				without = append(without, it)
			}
		}
		at := p.Location
		if len(p.RequirementLocations) > 0 {
			at = p.RequirementLocations[0]
		}
		switch {
		case len(trunking) > 0:
			sort.Slice(trunking, func(i, j int) bool {
				if trunking[i].BranchInterfaces != trunking[j].BranchInterfaces {
					return trunking[i].BranchInterfaces < trunking[j].BranchInterfaces
				}
				return trunking[i].Name < trunking[j].Name
			})
			binding := trunking[0]
			g.InstanceTypes = []string{binding.Name}
			g.TypeLabels[binding.Name] = labelsOf[binding.Name]
			g.Source = fmt.Sprintf("karpenter:%s (%d types admitted, %d with ENI trunking%s; binding type %s)", p.Kind, len(admitted), len(trunking), leftOut(unknown), binding.Name)
		case len(without) > 0:
			for _, it := range without {
				g.InstanceTypes = append(g.InstanceTypes, it.Name)
				g.TypeLabels[it.Name] = labelsOf[it.Name]
			}
			g.Source = fmt.Sprintf("karpenter:%s (%d types admitted, none with ENI trunking%s)", p.Kind, len(admitted), leftOut(unknown))
		case unknown > 0:
			g.UnknownTypes = fmt.Sprintf("the %d types its requirements admit are not in eni-lint's instance table", unknown)
		default:
			g.UnknownTypes = "its requirements admit no instance type Karpenter knows"
		}
		g.TypeLocations = []inventory.Position{at}
		out = append(out, g)
	}
	return out, nil
}

// leftOut says how many admitted types the verdict ignores because eni-lint's instance table
// has no branch-ENI figures for them (types newer than the table), so a reader knows the
// binding type was chosen among fewer than Karpenter may launch.
func leftOut(unknown int) string {
	if unknown == 0 {
		return ""
	}
	return fmt.Sprintf(", %d left out: not in eni-lint's instance table", unknown)
}

// admits evaluates NodePool requirements (ANDed) against a type's labels. Keys the catalog
// does not describe (capacity type, zone) do not restrict the instance type.
func admits(reqs []inventory.Requirement, labels map[string]string) bool {
	for _, r := range reqs {
		if !describes(r.Key) {
			continue
		}
		v, has := labels[r.Key]
		switch r.Operator {
		case "In":
			if !has || !contains(r.Values, v) {
				return false
			}
		case "NotIn":
			if has && contains(r.Values, v) {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		case "Gt", "Lt":
			if !has || len(r.Values) != 1 {
				return false
			}
			a, err1 := strconv.ParseFloat(v, 64)
			b, err2 := strconv.ParseFloat(r.Values[0], 64)
			if err1 != nil || err2 != nil || (r.Operator == "Gt" && !(a > b)) || (r.Operator == "Lt" && !(a < b)) {
				return false
			}
		}
	}
	return true
}

// describes says whether the catalog knows a label key.
func describes(key string) bool {
	return strings.HasPrefix(key, "karpenter.k8s.aws/instance-") || key == "node.kubernetes.io/instance-type" ||
		key == "kubernetes.io/arch" || key == "kubernetes.io/os"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
