package rules

import (
	"fmt"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// noteRemainingExcess makes ENI002 promise only what its change does. ENI002 is evaluated in a
// query of its own (FannedOutQuery), without the rows; ENI001 checks, for each contributor it
// lists that ENI002 warns about, whether ENI002's TTL clears the node group (details.ttlChecks,
// the model evaluated again). Where it does not, the warning says that its change resolves the
// warning only, names the ENI001 that stays, and the remedy that clears both.
func noteRemainingExcess(fs []findings.Finding) {
	type remaining struct {
		group, instanceType string
		demand, branchENIs  int
		ttl                 int
		remedy              string
		atLeast             bool
	}
	left := map[string]remaining{}
	for _, f := range fs {
		if f.Rule != "ENI001" {
			continue
		}
		d, _ := f.Exceed()
		for _, c := range d.TTLChecks {
			if _, seen := left[c.Workload]; seen || c.Workload == "" {
				continue
			}
			left[c.Workload] = remaining{group: d.NodeGroup, instanceType: d.InstanceType, demand: c.DemandAfter, branchENIs: d.BranchInterfaces, ttl: c.TTL, atLeast: c.AtLeast, remedy: c.Remedy}
		}
	}
	if len(left) == 0 {
		return
	}
	for i := range fs {
		f := &fs[i]
		if f.Rule != "ENI002" {
			continue
		}
		r, ok := left[f.ObjectID]
		if !ok {
			continue
		}
		what := fmt.Sprintf("%s in node group %q", r.instanceType, r.group)
		atLeast := ""
		if r.atLeast {
			atLeast = "at least "
		}
		f.Message += fmt.Sprintf(". A TTL of %d s resolves this warning, not the ENI001 on %s: with it %s%d branch ENIs can still be in use where %d exist", r.ttl, what, atLeast, r.demand, r.branchENIs)
		if r.remedy != "" {
			f.Message += "; this clears both: " + r.remedy
		} else {
			f.Message += "; no change of this workload's TTL clears that one (see its remedies)"
		}
		if f.Details == nil {
			f.Details = map[string]any{}
		}
		f.Details["remainingExcess"] = map[string]any{"nodeGroup": r.group, "instanceType": r.instanceType, "demandAfter": r.demand, "branchInterfaces": r.branchENIs, "remedy": r.remedy}
	}
}
