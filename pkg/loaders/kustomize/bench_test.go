package kustomize

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// BenchmarkBuildLargeFile builds one overlay of a base whose one file holds n Jobs, with a
// name prefix, and checks that every built Job points back at its own document. Matching each
// built object to its source used to scan the whole file per object.
func BenchmarkBuildLargeFile(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			root := b.TempDir()
			var docs []string
			for i := 0; i < n; i++ {
				docs = append(docs, fmt.Sprintf("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job-%d\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n", i))
			}
			files := map[string]string{
				"base/kustomization.yaml": "resources: [jobs.yaml]\n",
				"base/jobs.yaml":          strings.Join(docs, "---\n"),
				"prod/kustomization.yaml": "namePrefix: prod-\nresources: [../base]\n",
			}
			fsys := tree(b, root, files)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				frags := Load(fsys, []string{filepath.Join(root, "prod")}, kubernetes.Options{DefaultNamespace: "default"}, helm.Limits{})
				if len(frags) != 1 || len(frags[0].Workloads) != n {
					b.Fatalf("built %d fragments", len(frags))
				}
				w := frags[0].Workloads[n-1]
				if want := 9*(n-1) + 4; w.Locations.At("metadata.name").Line != want && w.Locations.At("").Line != 9*(n-1)+1 {
					b.Fatalf("%s at %v, want line %d", w.Name, w.Locations.At(""), 9*(n-1)+1)
				}
			}
		})
	}
}
