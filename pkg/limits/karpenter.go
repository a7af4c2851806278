package limits

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"
)

//go:embed karpenter-labels.tsv
var karpenterLabels string

// KarpenterType is an instance type as Karpenter describes it: the node labels it sets
// (karpenter.k8s.aws/instance-family, -cpu, -memory, kubernetes.io/arch, …).
type KarpenterType struct {
	Name   string
	Labels map[string]string
}

var (
	karpenterOnce    sync.Once
	karpenterCatalog []KarpenterType
	karpenterErr     error
)

// KarpenterCatalog returns the instance types Karpenter can launch, with their labels,
// sorted by name. It is parsed once per process.
func KarpenterCatalog() ([]KarpenterType, error) {
	karpenterOnce.Do(func() { karpenterCatalog, karpenterErr = parseKarpenter(karpenterLabels) })
	return karpenterCatalog, karpenterErr
}

func parseKarpenter(text string) ([]KarpenterType, error) {
	var cols []string
	var out []KarpenterType
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if cols == nil {
			cols = f
			continue
		}
		if len(f) != len(cols) {
			return nil, fmt.Errorf("karpenter labels line %d: %d fields, want %d", i+1, len(f), len(cols))
		}
		t := KarpenterType{Name: f[0], Labels: map[string]string{}}
		for j := 1; j < len(f); j++ {
			if f[j] != "-" {
				t.Labels[cols[j]] = f[j]
			}
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
