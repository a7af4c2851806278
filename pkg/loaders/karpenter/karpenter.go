// Package karpenter turns Karpenter NodePools (and EKS Auto Mode's, which are Karpenter
// NodePools with their own label names) into node groups.
//
// A pool is a set of instance types, each carrying the labels Karpenter puts on its nodes: the
// per-type well-known labels of the embedded catalog, the pool's template labels,
// karpenter.sh/nodepool, and the labels whose value Karpenter picks at launch among those the
// pool allows (capacity type, zone, custom requirement keys). A pod may land on a type when its
// nodeSelector and required affinity admit that type's labels, and it is judged on the smallest
// branch capacity among the types it can land on.
//
// Listing every admitted type (up to 1363) for every pool would make the model scan all of them
// for every workload. Only the label values that some workload's selectors mention can tell two
// types apart for placement, so types are grouped into classes by those values, and a class is
// represented by its smallest trunking type: every workload admits all types of a class or none,
// so that type is the worst case for each of them.
package karpenter

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
)

// Labels Karpenter puts on every node it launches.
const (
	LabelNodePool     = "karpenter.sh/nodepool"
	LabelCapacityType = "karpenter.sh/capacity-type"
	LabelZone         = "topology.kubernetes.io/zone"
	LabelRegion       = "topology.kubernetes.io/region"
	LabelZoneID       = "topology.k8s.aws/zone-id"
	// LabelComputeType marks EKS Auto Mode nodes (value "auto").
	LabelComputeType = "eks.amazonaws.com/compute-type"
)

// MaxEntriesPerPool bounds the (class × label variant) entries one pool becomes. Each entry is
// a row the model evaluates for every workload, so a pull request that mentions thousands of
// distinct zone values must not multiply the work without limit (a budget); past it, the pool
// is reported as unknown with the reason.
const MaxEntriesPerPool = 512

// capacityTypes are the values of karpenter.sh/capacity-type; "If a requirement is not
// defined for a well known label, any value available to the cloud provider may be chosen"
// (Karpenter docs, concepts/nodepools), so a pool without the requirement allows all three.
var capacityTypes = []string{"on-demand", "spot", "reserved"}

// always are the labels every Karpenter node has, whose value is picked at launch.
var always = []string{LabelCapacityType, LabelZone, LabelRegion, LabelZoneID}

// autoModeLabels are the per-type labels EKS Auto Mode sets under eks.amazonaws.com/ instead
// of karpenter.k8s.aws/ ("EKS Auto Mode Supported Labels", EKS user guide,
// latest/ug/automode/create-node-pool.adoc at commit 013856044148d6eeed4723027a45aa2180536bcb).
var autoModeLabels = []string{
	"instance-hypervisor", "instance-encryption-in-transit-supported", "instance-category",
	"instance-generation", "instance-family", "instance-size", "instance-cpu",
	"instance-cpu-manufacturer", "instance-memory", "instance-ebs-bandwidth",
	"instance-network-bandwidth", "instance-gpu-name", "instance-gpu-manufacturer",
	"instance-gpu-count", "instance-gpu-memory", "instance-local-nvme",
}

// Mention is what workloads' node selection says about one label key.
type Mention struct {
	// Values are the values named by nodeSelector, In and NotIn.
	Values map[string]bool
	// Numeric is set when some expression compares the key with Gt or Lt, so every distinct
	// value can matter.
	Numeric bool
}

// Mentions maps node label keys to what workloads' selectors say about them.
type Mentions map[string]*Mention

// MentionsOf collects the node label keys and values that workloads' nodeSelector and required
// node affinity use. Keys no workload mentions cannot change where any pod lands.
func MentionsOf(workloads []inventory.Workload) Mentions {
	m := Mentions{}
	get := func(key string) *Mention {
		if m[key] == nil {
			m[key] = &Mention{Values: map[string]bool{}}
		}
		return m[key]
	}
	for _, w := range workloads {
		for k, v := range w.Pod.NodeSelector {
			get(k).Values[v] = true
		}
		for _, term := range w.Pod.RequiredAffinity {
			for _, r := range term.MatchExpressions {
				mention := get(r.Key)
				switch r.Operator {
				case "Gt", "Lt":
					mention.Numeric = true
				default:
					for _, v := range r.Values {
						mention.Values[v] = true
					}
				}
			}
		}
	}
	return m
}

// Resolve returns one node group per NodePool, its types grouped by the label values that
// mentions names.
//
// Karpenter launches, for pods that request vpc.amazonaws.com/pod-eni, only instance types
// that offer it; so within a class only the trunking types matter, and the smallest decides.
// Classes without any trunking type are listed whole: pods that can only land there stay
// Pending (ENI004). Admitted types missing from the branch-ENI table are left out and counted
// in the source.
func Resolve(pools []inventory.NodePool, classes []inventory.NodeClass, table *limits.Table, mentions Mentions) ([]inventory.NodeGroupSpec, error) {
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
		out = append(out, resolvePool(p, amiFamily, catalog, table, mentions))
	}
	return out, nil
}

// IsAutoMode says whether a NodePool is one of EKS Auto Mode's: its nodeClassRef names the
// eks.amazonaws.com group, or its requirements use Auto Mode's label names.
func IsAutoMode(p inventory.NodePool) bool {
	if p.NodeClassGroup == "eks.amazonaws.com" {
		return true
	}
	for _, r := range p.Requirements {
		if strings.HasPrefix(r.Key, "eks.amazonaws.com/instance-") {
			return true
		}
	}
	return false
}

// typeLabels are the labels of one instance type in a pool's flavour: Karpenter's catalog as
// it stands, or Auto Mode's names for the same facts.
func typeLabels(t limits.KarpenterType, autoMode bool) map[string]string {
	if !autoMode {
		return t.Labels
	}
	out := map[string]string{LabelComputeType: "auto"}
	for _, k := range []string{inventory.LabelInstanceType, inventory.LabelArch, inventory.LabelOS} {
		if v, ok := t.Labels[k]; ok {
			out[k] = v
		}
	}
	for _, suffix := range autoModeLabels {
		if v, ok := t.Labels["karpenter.k8s.aws/"+suffix]; ok {
			out["eks.amazonaws.com/"+suffix] = v
		}
	}
	return out
}

// candidate is an admitted type with its labels and branch-ENI figures.
type candidate struct {
	name   string
	labels map[string]string
	it     limits.InstanceType
}

func resolvePool(p inventory.NodePool, amiFamily map[string]string, catalog []limits.KarpenterType, table *limits.Table, mentions Mentions) inventory.NodeGroupSpec {
	g, kind := poolGroup(p, amiFamily)
	// The keys the catalog describes for this flavour restrict types; the others are labels
	// Karpenter sets at launch (or does not set at all).
	described, admitted, labelsOf := flavourTypes(catalog, g.AutoMode)
	var typeReqs, launchReqs []inventory.Requirement
	for _, r := range p.Requirements {
		if described[r.Key] || r.Key == inventory.LabelInstanceType || r.Key == inventory.LabelArch || r.Key == inventory.LabelOS {
			typeReqs = append(typeReqs, r)
		} else {
			launchReqs = append(launchReqs, r)
		}
	}
	var cands []candidate
	total, unknown := 0, 0
	for i, t := range admitted {
		if !admits(typeReqs, labelsOf[i]) {
			continue
		}
		total++
		it, ok := table.Lookup(t.Name)
		if !ok {
			unknown++
			continue
		}
		cands = append(cands, candidate{name: t.Name, labels: labelsOf[i], it: it})
	}
	if len(cands) == 0 {
		noCandidates(&g, unknown, typeReqs, catalog)
		return g
	}
	classes := classify(cands, described, mentions)
	variants := launchVariants(launchReqs, g.Labels, mentions)
	if len(variants) == 0 {
		g.UnknownTypes = "its requirements on launch-time labels (capacity type, zone, custom keys) admit no value"
		return g
	}
	if n := len(classes) * len(variants); n > MaxEntriesPerPool {
		g.UnknownTypes = fmt.Sprintf("workloads' node selectors split it into %d label classes, more than %d (a budget); narrow the selectors or declare the pool's instance types with --node-group", n, MaxEntriesPerPool)
		return g
	}
	trunking := 0
	for _, c := range cands {
		if c.it.Trunking {
			trunking++
		}
	}
	binding := addEntries(&g, classes, variants)
	switch {
	case trunking == 0:
		g.Source = fmt.Sprintf("%s (%d types admitted, none with ENI trunking%s)", kind, total, leftOut(unknown))
	case len(binding) == 1:
		g.Source = fmt.Sprintf("%s (%d types admitted, %d with ENI trunking%s; binding type %s)", kind, total, trunking, leftOut(unknown), binding[0])
	default:
		g.Source = fmt.Sprintf("%s (%d types admitted, %d with ENI trunking%s; binding types by the labels workloads select on: %s)", kind, total, trunking, leftOut(unknown), strings.Join(binding, ", "))
	}
	return g
}

// poolGroup is the node group of a pool before its types: its name, labels, taints, where
// its types are written, and its source kind (karpenter: or eks-auto-mode: and the kind).
func poolGroup(p inventory.NodePool, amiFamily map[string]string) (inventory.NodeGroupSpec, string) {
	autoMode := IsAutoMode(p)
	kind := "karpenter:" + p.Kind
	if autoMode {
		kind = "eks-auto-mode:" + p.Kind
	}
	g := inventory.NodeGroupSpec{
		Name: p.Name, Source: kind, Location: p.Location, SelfManaged: true, PicksTrunkingTypes: true, AutoMode: autoMode,
		Labels: map[string]string{LabelNodePool: p.Name}, Taints: p.Taints,
	}
	for k, v := range p.Labels {
		g.Labels[k] = v
	}
	if strings.HasPrefix(strings.ToLower(amiFamily[p.NodeClass]), "windows") {
		g.Windows = true
	}
	at := p.Location
	if len(p.RequirementLocations) > 0 {
		at = p.RequirementLocations[0]
	}
	g.TypeLocations = []inventory.Position{at}
	return g, kind
}

// flavourTypes are the catalog's types this flavour launches (Auto Mode launches fewer), their
// labels, and the label keys those describe.
func flavourTypes(catalog []limits.KarpenterType, autoMode bool) (described map[string]bool, admitted []limits.KarpenterType, labelsOf []map[string]string) {
	described = map[string]bool{}
	for _, t := range catalog {
		if autoMode && !limits.AutoModeLaunches(t) {
			continue
		}
		labels := typeLabels(t, autoMode)
		for k := range labels {
			described[k] = true
		}
		labelsOf = append(labelsOf, labels)
		admitted = append(admitted, t)
	}
	return described, admitted, labelsOf
}

// noCandidates says why a pool has no type eni-lint can count: its types are not in the
// table, it admits none, or (Auto Mode) only types Auto Mode never launches, a known fact.
func noCandidates(g *inventory.NodeGroupSpec, unknown int, typeReqs []inventory.Requirement, catalog []limits.KarpenterType) {
	if unknown > 0 {
		g.UnknownTypes = fmt.Sprintf("the %d types its requirements admit are not in eni-lint's instance table", unknown)
		return
	}
	g.UnknownTypes = "its requirements admit no instance type Karpenter knows"
	if g.AutoMode {
		g.UnknownTypes = "its requirements admit no instance type EKS Auto Mode launches"
		// Types the catalog knows but Auto Mode never launches (t3.small, a one-vCPU size, a
		// family it does not offer): a known fact, not an unknown.
		if never := neverLaunched(typeReqs, catalog); len(never) > 0 {
			g.UnknownTypes = ""
			g.LaunchesNothing = fmt.Sprintf("its requirements admit only instance types EKS Auto Mode never launches (%s)", strings.Join(never, ", "))
		}
	}
}

// addEntries writes one entry per type of each class and launch variant (one per class and
// variant for a class without trunking, when there are several) and returns the binding types,
// sorted: each class's first type that has trunking.
func addEntries(g *inventory.NodeGroupSpec, classes [][]candidate, variants []variant) []string {
	var binding []string
	for _, class := range classes {
		if class[0].it.Trunking {
			binding = append(binding, class[0].name)
		} else if len(classes)*len(variants) > 1 {
			// One entry per class and variant keeps the budget; the class's other types
			// without trunking would tell nothing more.
			class = class[:1]
		}
		for _, v := range variants {
			for _, c := range class {
				labels := map[string]string{}
				for k, val := range c.labels {
					labels[k] = val
				}
				for k, val := range v.labels {
					labels[k] = val
				}
				g.InstanceTypes = append(g.InstanceTypes, c.name)
				g.TypeLabels = append(g.TypeLabels, labels)
				g.TypeVariants = append(g.TypeVariants, v.describe)
			}
		}
	}
	sort.Strings(binding)
	return binding
}

// neverLaunched lists (up to five, and how many more) the catalog types an Auto Mode pool's
// requirements admit although Auto Mode never launches them.
func neverLaunched(reqs []inventory.Requirement, catalog []limits.KarpenterType) []string {
	var names []string
	more := 0
	for _, t := range catalog {
		if limits.AutoModeLaunches(t) || !admits(reqs, typeLabels(t, true)) {
			continue
		}
		if len(names) < 5 {
			names = append(names, t.Name)
		} else {
			more++
		}
	}
	if more > 0 {
		names = append(names, fmt.Sprintf("and %d more", more))
	}
	return names
}

// classify groups candidates by the values of the mentioned keys the catalog describes, and
// returns each class as the list of types that represent it: its smallest trunking type, or
// every type when none trunks. Classes come in a stable order.
func classify(cands []candidate, described map[string]bool, mentions Mentions) [][]candidate {
	var keys []string
	for k := range mentions {
		if described[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	bySig := map[string][]candidate{}
	var order []string
	for _, c := range cands {
		var sig strings.Builder
		for _, k := range keys {
			v, has := c.labels[k]
			switch {
			case !has:
				sig.WriteString("\x00-")
			case mentions[k].Numeric || mentions[k].Values[v]:
				sig.WriteString("\x00=" + v)
			default:
				sig.WriteString("\x00*")
			}
		}
		s := sig.String()
		if _, seen := bySig[s]; !seen {
			order = append(order, s)
		}
		bySig[s] = append(bySig[s], c)
	}
	var out [][]candidate
	for _, s := range order {
		class := bySig[s]
		var trunking []candidate
		for _, c := range class {
			if c.it.Trunking {
				trunking = append(trunking, c)
			}
		}
		if len(trunking) == 0 {
			sort.Slice(class, func(i, j int) bool { return class[i].name < class[j].name })
			out = append(out, class)
			continue
		}
		sort.Slice(trunking, func(i, j int) bool {
			if trunking[i].it.BranchInterfaces != trunking[j].it.BranchInterfaces {
				return trunking[i].it.BranchInterfaces < trunking[j].it.BranchInterfaces
			}
			return trunking[i].name < trunking[j].name
		})
		out = append(out, trunking[:1])
	}
	// Trunking classes by their binding type's capacity first, so the group's first type is
	// the smallest one.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i][0].it, out[j][0].it
		if a.Trunking != b.Trunking {
			return a.Trunking
		}
		if a.BranchInterfaces != b.BranchInterfaces {
			return a.BranchInterfaces < b.BranchInterfaces
		}
		return out[i][0].name < out[j][0].name
	})
	return out
}

// variant is one combination of launch-time label values a node of the pool can get.
type variant struct {
	labels   map[string]string
	describe string
}

// anyOtherValue stands for "a value no workload names": the pool allows values beyond those
// mentioned, and a node with one of them is admitted by no In and by every NotIn.
const anyOtherValue = "(any other value)"

// launchVariants lists the combinations of launch-time labels that workloads can tell apart:
// for each such key a workload mentions, the mentioned values the pool allows, plus one other
// allowed value when there is one. Keys no workload mentions do not split the pool.
func launchVariants(reqs []inventory.Requirement, fixed map[string]string, mentions Mentions) []variant {
	keys := map[string]bool{}
	for _, k := range always {
		keys[k] = true
	}
	for _, r := range reqs {
		keys[r.Key] = true
	}
	var sorted []string
	for k := range keys {
		if _, isFixed := fixed[k]; isFixed {
			continue // a template label wins: the node always has that value
		}
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	out := []variant{{labels: map[string]string{}}}
	for _, k := range sorted {
		mention := mentions[k]
		if mention == nil {
			continue // no workload selects on it: its value cannot change where a pod lands
		}
		onKey := requirementsOn(reqs, k)
		var domain []string
		for v := range mention.Values {
			domain = append(domain, v)
		}
		sort.Strings(domain)
		if k == LabelCapacityType {
			domain = capacityTypes // Karpenter sets no other value
		} else {
			domain = append(append(domain, listed(onKey)...), anyOtherValue)
		}
		// "" in values means the node lacks the label; the labels every node has cannot be
		// missing.
		values := collapseUnnamed(allowedValues(onKey, domain, !slices.Contains(always, k)), mention)
		if len(values) == 0 {
			return nil
		}
		var next []variant
		for _, v := range out {
			for _, val := range values {
				next = append(next, v.with(k, val, len(values) > 1))
			}
			if len(next) > MaxEntriesPerPool {
				return next // the caller reports the budget
			}
		}
		out = next
	}
	return out
}

// with is the variant with label k set to val ("" for absent); named says the description
// shows it, as it does when k takes more than one value.
func (v variant) with(k, val string, named bool) variant {
	labels := map[string]string{}
	for a, b := range v.labels {
		labels[a] = b
	}
	if val != "" {
		labels[k] = val
	}
	d := v.describe
	if named {
		shown := val
		if val == "" {
			shown = "(absent)"
		}
		if d != "" {
			d += ", "
		}
		d += k + "=" + shown
	}
	return variant{labels: labels, describe: d}
}

// collapseUnnamed keeps one value among those no workload names: they behave alike.
func collapseUnnamed(values []string, mention *Mention) []string {
	var out []string
	other := false
	for _, v := range values {
		if v != "" && !mention.Values[v] && !mention.Numeric {
			if other {
				continue
			}
			other = true
		}
		out = append(out, v)
	}
	return out
}

func requirementsOn(reqs []inventory.Requirement, key string) []inventory.Requirement {
	var out []inventory.Requirement
	for _, r := range reqs {
		if r.Key == key {
			out = append(out, r)
		}
	}
	return out
}

// listed are the values In requirements name.
func listed(reqs []inventory.Requirement) []string {
	var out []string
	for _, r := range reqs {
		if r.Operator == "In" {
			out = append(out, r.Values...)
		}
	}
	return out
}

// allowedValues filters a domain by requirements on one key; with absent, a node without the
// label ("") is tried too.
func allowedValues(reqs []inventory.Requirement, domain []string, absent bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range domain {
		if seen[v] {
			continue
		}
		seen[v] = true
		key := ""
		if len(reqs) > 0 {
			key = reqs[0].Key
		}
		if len(reqs) == 0 || admits(reqs, map[string]string{key: v}) {
			out = append(out, v)
		}
	}
	if absent && (len(reqs) == 0 || admits(reqs, map[string]string{})) {
		out = append(out, "")
	}
	return out
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

// admits evaluates requirements (ANDed) against labels, with Kubernetes node selector
// semantics: NotIn and DoesNotExist admit a missing key.
func admits(reqs []inventory.Requirement, labels map[string]string) bool {
	for _, r := range reqs {
		v, has := labels[r.Key]
		switch r.Operator {
		case "In":
			if !has || !slices.Contains(r.Values, v) {
				return false
			}
		case "NotIn":
			if has && slices.Contains(r.Values, v) {
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
