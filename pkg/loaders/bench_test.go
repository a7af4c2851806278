package loaders

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkTerraformIgnoreComments loads one .tf file of n blocks, each with an ignore comment
// above it. Each block used to split the whole file again to read its comments (20,000
// blocks: more than 60 s); one line index per file makes it linear.
func BenchmarkTerraformIgnoreComments(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			var src strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&src, "# eni-lint:ignore ENI006 reviewed\nresource \"aws_eks_node_group\" \"g%d\" {\n  node_group_name = \"g%d\"\n  instance_types  = [\"m5.large\"]\n}\n", i, i)
			}
			root := b.TempDir()
			write(b, root, map[string]string{"infra/main.tf": src.String()})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				frags, _ := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
				groups := 0
				for _, f := range frags {
					for _, g := range f.NodeGroups {
						if len(g.Ignores) != 1 {
							b.Fatalf("%s has %d ignores", g.Name, len(g.Ignores))
						}
						groups++
					}
				}
				if groups != n {
					b.Fatalf("%d node groups, want %d", groups, n)
				}
			}
		})
	}
}

// BenchmarkRenderedSources loads one file of n rendered documents that each name their
// template with "# Source:". A locator per document used to read and index the chart again
// for each (20,000 documents: more than 60 s); the run's one locator reads each template once.
// (10,000 is the default document budget of one file.)
func BenchmarkRenderedSources(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		b.Run(fmt.Sprintf("documents=%d", n), func(b *testing.B) {
			var out strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&out, "---\n# Source: chart/templates/job.yaml\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job-%d\n", i)
			}
			root := b.TempDir()
			write(b, root, map[string]string{
				"chart/Chart.yaml":         "apiVersion: v2\nname: chart\nversion: 0.1.0\n",
				"chart/templates/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Values.name }}\n",
				"rendered/all.yaml":        out.String(),
			})
			opts := Options{DefaultNamespace: "default", HelmRoots: []string{root}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				frags, _ := Load(context.Background(), []string{filepath.Join(root, "rendered")}, opts)
				if got := len(names(frags)); got != n {
					b.Fatalf("%d workloads, want %d", got, n)
				}
			}
		})
	}
}
