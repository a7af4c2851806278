package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/eni-lint/eni-lint/internal/synth"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// Benchmarks of a whole check over a synthetic monorepo (internal/synth). The engine is built
// once outside the loop, as a run builds it once: each iteration loads, evaluates the one
// prepared query, and sorts the report. scripts/bench.sh measures the monorepo table with the real binary.

func benchmarkCheck(b *testing.B, docs int) {
	benchmarkCheckGroups(b, docs, []inventory.NodeGroupSpec{{Name: "default", InstanceTypes: []string{"m5.large", "m5.xlarge"}}})
}

func benchmarkCheckGroups(b *testing.B, docs int, groups []inventory.NodeGroupSpec) {
	dir := b.TempDir()
	if err := synth.Write(dir, docs, 10, docs/200+1, 10, 1); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	eng, err := rules.New(ctx)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{
		Paths: []string{dir}, ENIRelease: inventory.ReleaseOnDelete, CooldownSeconds: 60,
		DefaultNamespace: "default", FailOn: findings.Error,
		NodeGroups: groups,
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := Check(ctx, eng, opts)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Inputs.Documents != docs {
			b.Fatalf("read %d documents", rep.Inputs.Documents)
		}
	}
	b.ReportMetric(float64(docs)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkCheck1k(b *testing.B)  { benchmarkCheck(b, 1000) }
func BenchmarkCheck10k(b *testing.B) { benchmarkCheck(b, 10000) }

// BenchmarkCheck10kGroups10: the monorepo shape at a tenth of its size, ten node
// groups of two types each.
func BenchmarkCheck10kGroups10(b *testing.B) {
	var groups []inventory.NodeGroupSpec
	for i := 0; i < 10; i++ {
		groups = append(groups, inventory.NodeGroupSpec{Name: fmt.Sprintf("g%02d", i), InstanceTypes: []string{"m5.large", "m5.xlarge"}})
	}
	benchmarkCheckGroups(b, 10000, groups)
}

// BenchmarkCheck5kRows120: 40 node groups of 3 types, every workload placed on all of them,
// so the per-instance-type table has 120 rows. Karpenter pools split into label classes reach
// such row counts; the cost must follow placements, not rows × placements.
func BenchmarkCheck5kRows120(b *testing.B) {
	var groups []inventory.NodeGroupSpec
	for i := 0; i < 40; i++ {
		groups = append(groups, inventory.NodeGroupSpec{Name: fmt.Sprintf("g%02d", i), InstanceTypes: []string{"m5.large", "m5.xlarge", "c6i.large"}})
	}
	benchmarkCheckGroups(b, 5000, groups)
}

// BenchmarkEngineNew is the one-time cost every run pays: parse, compile and prepare.
func BenchmarkEngineNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := rules.New(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
