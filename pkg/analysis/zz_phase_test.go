package analysis

import (
	"context"
	"os"
	"testing"
	"time"
	"runtime/pprof"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/loaders"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

func TestPhases(t *testing.T) {
	ctx := context.Background()
	t0 := time.Now()
	eng, _ := rules.New(ctx)
	t.Log("compile", time.Since(t0))
	t0 = time.Now()
	frags, _ := loaders.Load(ctx, []string{os.Getenv("DUMP_DIR")}, loaders.Options{DefaultNamespace: "default"})
	inv := &inventory.Inventory{Settings: inventory.Settings{ENIRelease: "onDelete", CooldownSeconds: 60, WindowSeconds: 90, DefaultNamespace: "default"}}
	inventory.Merge(inv, frags)
	t.Log("load", time.Since(t0))
	table, _ := limits.Builtin()
	inv.NodeGroups = []inventory.NodeGroup{inventory.BuildNodeGroup(inventory.NodeGroupSpec{Name: "default", InstanceTypes: []string{"m5.large", "m5.xlarge"}}, table)}
	inv.InstanceFamilies = inventory.Families(inv.NodeGroups, table)
	ensureSlices(inv)
	t0 = time.Now()
	v, _ := rules.InputValue(inv)
	_ = v
	t.Log("input", time.Since(t0))
	f, _ := os.Create("/tmp/cpu.prof")
	pprof.StartCPUProfile(f)
	t0 = time.Now()
	res, err := eng.Evaluate(ctx, inv)
	pprof.StopCPUProfile()
	t.Log("eval", time.Since(t0), err, len(res.Findings))
}
