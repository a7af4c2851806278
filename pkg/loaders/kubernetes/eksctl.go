package kubernetes

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
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
			r.locs.Set(p, r.pos(ng))
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
				g.TypeLocations = []inventory.Position{r.locs.At(p + ".instanceType")}
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
				eksctlDefaultTypes(r, ng, p, list.managed, &g)
			}
			g.Taints = readEksctlTaints(r, ng, p)
			out = append(out, g)
		}
	}
	return out
}

// eksctlDefaultTypes gives a group that lists no instance type eksctl's choice
// (pkg/eks/nodegroup_service.go, Normalize): what its instanceSelector picks, unknown for a
// managed group's launch template (whose instance type then decides), else m5.large.
func eksctlDefaultTypes(r *fieldReader, ng *yaml.Node, p string, managed bool, g *inventory.NodeGroupSpec) {
	sel := r.mapping(ng, p, "instanceSelector")
	lt := r.mapping(ng, p, "launchTemplate")
	switch {
	case sel != nil:
		g.InstanceTypes, g.UnknownTypes, g.Source = instanceSelector(r, sel, p+".instanceSelector", g.Source)
		g.TypeLocations = make([]inventory.Position, len(g.InstanceTypes))
		for i := range g.TypeLocations {
			g.TypeLocations[i] = r.locs.At(p + ".instanceSelector")
		}
		if len(g.InstanceTypes) == 0 {
			g.TypeLocations = []inventory.Position{r.locs.At(p + ".instanceSelector")}
		}
	case lt != nil && managed:
		id := "its launch template"
		if s := r.str(lt, p+".launchTemplate", "id"); s != nil {
			id = "launch template " + *s
		}
		g.UnknownTypes = "the instance type comes from " + id + ", which eksctl does not read and gives no default; list it with instanceType on the node group"
		g.TypeLocations = []inventory.Position{r.locs.At(p + ".launchTemplate")}
	default:
		g.InstanceTypes = []string{EksctlDefaultInstanceType}
		g.TypeLocations = []inventory.Position{r.pos(ng)}
	}
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

// instanceSelector resolves eksctl's instanceSelector as eksctl does (expandInstanceSelector
// in pkg/eks/nodegroup_service.go): exactly vCPUs, exactly memory (GiB when no unit), exactly
// gpus, cpuArchitecture (default x86_64), allow and deny as regular expressions on the name.
// It runs against the instance types Karpenter's reference lists; eksctl also keeps only the
// types offered in the cluster's zones, which the code does not say, so the group is judged
// on a superset. A field eni-lint cannot evaluate leaves the types unknown.
func instanceSelector(r *fieldReader, sel *yaml.Node, p, source string) (types []string, unknown, src string) {
	catalog, err := limits.KarpenterCatalog()
	if err != nil {
		return nil, "instanceSelector: " + err.Error(), source
	}
	var vcpus, gpus *int
	if v := r.integer(sel, p, "vCPUs"); v != nil {
		vcpus = v
	}
	if v := r.integer(sel, p, "gpus"); v != nil {
		gpus = v
	}
	memoryMiB := -1
	if s := r.str(sel, p, "memory"); s != nil && *s != "" {
		m, ok := mebibytes(*s)
		if !ok {
			return nil, fmt.Sprintf("instanceSelector.memory %q is not a size eni-lint reads (such as 16 or 16GiB)", *s), source
		}
		memoryMiB = m
	}
	if r.get(sel, p, "neuronDevices") != nil {
		return nil, "instanceSelector.neuronDevices is not in eni-lint's instance catalog; list the types with instanceTypes", source
	}
	arch := "amd64"
	if s := r.str(sel, p, "cpuArchitecture"); s != nil && *s != "" {
		switch *s {
		case "x86_64", "amd64":
		case "arm64":
			arch = "arm64"
		default:
			return nil, fmt.Sprintf("instanceSelector.cpuArchitecture %q is not x86_64 or arm64", *s), source
		}
	}
	var allow, deny *regexp.Regexp
	for _, f := range []struct {
		key string
		re  **regexp.Regexp
	}{{"allow", &allow}, {"deny", &deny}} {
		if s := r.str(sel, p, f.key); s != nil && *s != "" {
			re, err := regexp.Compile(*s)
			if err != nil {
				return nil, fmt.Sprintf("instanceSelector.%s is not a regular expression: %v", f.key, err), source
			}
			*f.re = re
		}
	}
	for _, t := range catalog {
		l := t.Labels
		if l["kubernetes.io/arch"] != arch ||
			vcpus != nil && l["karpenter.k8s.aws/instance-cpu"] != strconv.Itoa(*vcpus) ||
			memoryMiB >= 0 && l["karpenter.k8s.aws/instance-memory"] != strconv.Itoa(memoryMiB) ||
			gpus != nil && gpuCount(l) != *gpus ||
			allow != nil && !allow.MatchString(t.Name) || deny != nil && deny.MatchString(t.Name) {
			continue
		}
		types = append(types, t.Name)
	}
	if len(types) == 0 {
		return nil, "instanceSelector matches no instance type in eni-lint's catalog; list the types with instanceTypes", source
	}
	return types, "", fmt.Sprintf("%s (instanceSelector: %d types match in eni-lint's catalog; eksctl also keeps only those offered in the cluster's zones)", source, len(types))
}

func gpuCount(labels map[string]string) int {
	n, err := strconv.Atoi(labels["karpenter.k8s.aws/instance-gpu-count"])
	if err != nil {
		return 0
	}
	return n
}

// mebibytes reads a size as eksctl's bytequantity does: a number with an optional unit (MiB,
// GiB, TiB, or their M/G/T and MB/GB/TB spellings), GiB when there is none.
func mebibytes(s string) (int, bool) {
	m := sizePattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil || n < 0 || n > 1<<20 {
		return 0, false
	}
	unit := map[string]float64{"": 1024, "m": 1, "g": 1024, "t": 1024 * 1024}[strings.ToLower(m[2])]
	return int(n * unit), true
}

var sizePattern = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)\s*(?i:([mgt])(?:i?b?)?)?$`)

// readAutoModeConfig returns the built-in EKS Auto Mode pools an eksctl ClusterConfig enables:
// autoModeConfig.nodePools, or both built-in pools when it is absent (eksctl's defaults.go,
// eksctl-io/eksctl at 99984adb: "if cfg.IsAutoModeEnabled() && cfg.AutoModeConfig.NodePools ==
// nil" sets AutoModeKnownNodePools).
func readAutoModeConfig(r *fieldReader, doc *yaml.Node) []inventory.NodePool {
	cfg := r.mapping(doc, "", "autoModeConfig")
	if cfg == nil {
		return nil
	}
	r.locs.Set("autoModeConfig", r.pos(cfg))
	if on := r.boolean(cfg, "autoModeConfig", "enabled"); on == nil || !*on {
		return nil
	}
	names := inventory.AutoModeBuiltinPools
	at := r.pos(cfg)
	if hasKey(cfg, "nodePools") {
		names = r.stringList(cfg, "autoModeConfig", "nodePools")
		if _, v := yamlpos.Lookup(cfg, "nodePools"); v != nil {
			at = r.pos(v)
		}
	}
	var out []inventory.NodePool
	for _, name := range names {
		p, ok := inventory.AutoModeBuiltinPool(name, at)
		if !ok {
			_, v := yamlpos.Lookup(cfg, "nodePools")
			r.errorf(v, "autoModeConfig.nodePools names %q, which is not a built-in EKS Auto Mode node pool (general-purpose, system)", name)
			continue
		}
		out = append(out, p)
	}
	return out
}

func hasKey(m *yaml.Node, key string) bool {
	_, v := yamlpos.Lookup(m, key)
	return v != nil
}
