// Package limits knows how many branch ENIs each EC2 instance type offers to pods that use
// Security groups for Pods, and whether the type supports ENI trunking at all.
//
// The figures are embedded from instance-types.tsv, which internal/tools/genlimits generates
// from the VPC resource controller's table (extended with newer types whose
// vpc.amazonaws.com/pod-eni capacity Karpenter reports). Users add or correct types with
// overrides; a type that is in neither is unknown, and callers must report it, never treat it
// as 0 or as unlimited.
package limits

//go:generate go run ../../internal/tools/genlimits -data ../../../shared/data -out instance-types.tsv -labels-out karpenter-labels.tsv

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed instance-types.tsv
var embedded string

// InstanceType is what eni-lint knows about one EC2 instance type.
type InstanceType struct {
	Name string `json:"name"`
	// Trunking is false for types that cannot attach a trunk ENI: the scheduler never places
	// an SGP pod on them because they advertise no vpc.amazonaws.com/pod-eni.
	Trunking         bool   `json:"trunking"`
	BranchInterfaces int    `json:"branchInterfaces"`
	Interfaces       int    `json:"interfaces,omitempty"`
	IPv4PerInterface int    `json:"ipv4PerInterface,omitempty"`
	Hypervisor       string `json:"hypervisor,omitempty"`
	BareMetal        bool   `json:"bareMetal,omitempty"`
	Arch             string `json:"arch,omitempty"`
	VCPUs            int    `json:"vcpus,omitempty"`
	MemoryMiB        int    `json:"memoryMiB,omitempty"`
	// MaxPods is the EKS default max-pods figure (VPC CNI formula), 0 when not known.
	MaxPods int `json:"maxPods,omitempty"`
	// Source says where the figures come from: vpc-resource-controller, karpenter or override.
	Source string `json:"source"`
}

// Family is the part of the name before the dot (m5 in m5.large).
func (t InstanceType) Family() string {
	family, _, _ := strings.Cut(t.Name, ".")
	return family
}

// Table is a set of instance types, safe for concurrent reads.
type Table struct {
	byName map[string]InstanceType
}

var (
	builtinOnce  sync.Once
	builtinTable *Table
	builtinErr   error
)

// Builtin returns the embedded table. It is parsed once per process.
func Builtin() (*Table, error) {
	builtinOnce.Do(func() { builtinTable, builtinErr = Parse(embedded) })
	return builtinTable, builtinErr
}

// Parse reads the tab-separated format of instance-types.tsv.
func Parse(text string) (*Table, error) {
	t := &Table{byName: map[string]InstanceType{}}
	header := true
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header { // the column names
			header = false
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 12 {
			return nil, fmt.Errorf("instance table line %d: %d fields, want 12", i+1, len(f))
		}
		nums := make([]int, 0, 6)
		for _, s := range []string{f[2], f[3], f[4], f[8], f[9], f[10]} {
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("instance table line %d: %q is not a number", i+1, s)
			}
			nums = append(nums, n)
		}
		undash := func(s string) string {
			if s == "-" {
				return ""
			}
			return s
		}
		it := InstanceType{
			Name: f[0], Trunking: f[1] == "true", BranchInterfaces: nums[0], Interfaces: nums[1],
			IPv4PerInterface: nums[2], Hypervisor: undash(f[5]), BareMetal: f[6] == "true",
			Arch: undash(f[7]), VCPUs: nums[3], MemoryMiB: nums[4], MaxPods: nums[5], Source: f[11],
		}
		t.byName[it.Name] = it
	}
	return t, nil
}

// Lookup returns the figures for a type and whether the table knows it.
func (t *Table) Lookup(name string) (InstanceType, bool) {
	it, ok := t.byName[name]
	return it, ok
}

// Len is the number of types in the table.
func (t *Table) Len() int { return len(t.byName) }

// Nearest returns up to n known type names closest to name (by edit distance, at most max
// edits), nearest first: the "did you mean" of a mistyped type.
func (t *Table) Nearest(name string, n, max int) []string {
	type candidate struct {
		name string
		d    int
	}
	var found []candidate
	for known := range t.byName {
		if d := editDistance(name, known, max); d <= max {
			found = append(found, candidate{known, d})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].name < found[j].name
	})
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, or max+1 once it must exceed max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Override is a user's correction or addition for one type (config key `limits:`).
type Override struct {
	BranchInterfaces int    `yaml:"branchInterfaces" json:"branchInterfaces"`
	Trunking         *bool  `yaml:"trunking,omitempty" json:"trunking,omitempty"`
	Arch             string `yaml:"arch,omitempty" json:"arch,omitempty"`
	MaxPods          int    `yaml:"maxPods,omitempty" json:"maxPods,omitempty"`
}

// WithOverrides returns a new table: the receiver plus the overrides, which win. Trunking
// defaults to BranchInterfaces > 0 when the override does not say.
func (t *Table) WithOverrides(overrides map[string]Override) (*Table, error) {
	out := &Table{byName: make(map[string]InstanceType, len(t.byName)+len(overrides))}
	for k, v := range t.byName {
		out.byName[k] = v
	}
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		o := overrides[name]
		if o.BranchInterfaces < 0 {
			return nil, fmt.Errorf("limits override %s: branchInterfaces %d is negative", name, o.BranchInterfaces)
		}
		trunking := o.BranchInterfaces > 0
		if o.Trunking != nil {
			trunking = *o.Trunking
		}
		if trunking && o.BranchInterfaces == 0 {
			return nil, fmt.Errorf("limits override %s: trunking is true but branchInterfaces is 0", name)
		}
		it := out.byName[name] // keep the known figures an override does not mention
		it.Name, it.Trunking, it.BranchInterfaces, it.Source = name, trunking, o.BranchInterfaces, "override"
		if !trunking {
			it.BranchInterfaces = 0
		}
		if o.Arch != "" {
			it.Arch = o.Arch
		}
		if o.MaxPods > 0 {
			it.MaxPods = o.MaxPods
		}
		out.byName[name] = it
	}
	return out, nil
}

// FamilyLadder returns the trunking types of a family sorted by branch capacity, then name:
// the candidates when a finding suggests a larger type.
func (t *Table) FamilyLadder(family string) []InstanceType {
	var out []InstanceType
	for _, it := range t.byName {
		if it.Trunking && it.Family() == family {
			out = append(out, it)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].BranchInterfaces != out[j].BranchInterfaces {
			return out[i].BranchInterfaces < out[j].BranchInterfaces
		}
		return out[i].Name < out[j].Name
	})
	return out
}
