package inventory

import (
	"reflect"
	"testing"
)

// notParts are the slice fields of Fragment that are no kind of object: what a fragment says
// about how it was read. Each says why; a new slice field of Fragment must be a part (parts)
// or be listed here, or TestEverySliceIsAPart fails.
var notParts = map[string]string{
	"Charts":         "chart folders a release renders: they stay with the fragment that rendered them",
	"RenderedCharts": "chart folders a loader rendered, for the report's list of charts",
	"VarFiles":       "the Terraform environment's var files, which name the cluster",
}

// inventoryNotMerged are the slice and map fields of Inventory that no fragment part fills:
// the run resolves or configures them.
var inventoryNotMerged = map[string]string{
	"NodeGroups":       "resolved from the node group, NodePool and config parts once every file is read",
	"InstanceFamilies": "the limits table",
	"ConfigIgnores":    "the config file's ignores",
}

// TestEverySliceIsAPart: every slice field of Fragment is one part of the table (identity,
// positions, provenance and merging go through it), and every slice of Inventory is filled by
// one part's merge or is listed as resolved elsewhere. Adding a kind without an entry fails here.
func TestEverySliceIsAPart(t *testing.T) {
	var f Fragment
	fields := map[uintptr]string{}
	ft := reflect.TypeOf(f)
	fv := reflect.ValueOf(&f).Elem()
	for i := 0; i < ft.NumField(); i++ {
		if ft.Field(i).Type.Kind() == reflect.Slice {
			fields[fv.Field(i).Addr().Pointer()] = ft.Field(i).Name
		}
	}
	covered := map[string]bool{}
	for _, p := range parts {
		if p.slice == nil {
			t.Errorf("part %q names no fragment field", p.name)
			continue
		}
		name, ok := fields[reflect.ValueOf(p.slice(&f)).Pointer()]
		if !ok {
			t.Errorf("part %q is not a slice field of Fragment", p.name)
		}
		if covered[name] {
			t.Errorf("two parts for Fragment.%s", name)
		}
		covered[name] = true
	}
	for _, name := range fields {
		if !covered[name] && notParts[name] == "" {
			t.Errorf("Fragment.%s is neither a part (fragment.go, parts) nor listed in notParts with why", name)
		}
	}

	// Inventory: fill each part's fragment slice with one zero element, merge, and see which
	// inventory slices received it.
	var all Fragment
	for _, p := range parts {
		v := reflect.ValueOf(p.slice(&all)).Elem()
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	}
	var inv Inventory
	Merge(&inv, []Fragment{all})
	// The object parts that merge into the inventory are its object kinds (objectKinds), which
	// Objects, Reconcile and the run's unique IDs go through.
	objectParts := 0
	for _, p := range parts {
		if p.object != nil && p.merge != nil {
			objectParts++
		}
	}
	visited := 0
	inv.EachObject(func(*Object, string) { visited++ })
	if visited != objectParts {
		t.Errorf("the inventory's object kinds visit %d objects; %d object parts merge into it", visited, objectParts)
	}
	it := reflect.TypeOf(inv)
	iv := reflect.ValueOf(inv)
	for i := 0; i < it.NumField(); i++ {
		k := it.Field(i).Type.Kind()
		if k != reflect.Slice && k != reflect.Map {
			continue
		}
		name := it.Field(i).Name
		filled := iv.Field(i).Len() > 0
		switch {
		case filled && inventoryNotMerged[name] != "":
			t.Errorf("Inventory.%s is filled by a part and also listed as resolved elsewhere", name)
		case !filled && inventoryNotMerged[name] == "":
			t.Errorf("Inventory.%s is filled by no part's merge and not listed in inventoryNotMerged with why", name)
		}
	}
}

// MovePositions moves every position a fragment's parts carry, the CNI settings', Fargate
// profiles', unresolved declarations' and plan disagreements' too (they were once left where
// the YAML inside a heredoc had them).
func TestMovePositionsMovesEveryPart(t *testing.T) {
	p := Position{File: "in.yaml", Line: 3}
	f := Fragment{
		Workloads:         []Workload{{Object: Object{Locations: FieldPositionsOf(map[string]Position{"": p, "spec": p})}, Pod: PodTemplate{PodENIRequests: []PodENIRequest{{Location: p}}}}},
		CNISettings:       []CNISetting{{Location: p}},
		FargateProfiles:   []FargateProfile{{Location: p}},
		Unresolved:        []UnresolvedObject{{Location: p}},
		PlanDisagreements: []PlanDisagreement{{Location: p}},
		NodeGroups:        []NodeGroupSpec{{Location: p, TypeLocations: []Position{p}}},
		NodePools:         []NodePool{{Location: p, RequirementLocations: []Position{p}}},
		Errors:            []LoadError{{Position: p}},
	}
	moved := 0
	f.MovePositions(func(at Position) Position {
		moved++
		return Position{File: "main.tf", Line: at.Line + 10}
	})
	if moved != 12 {
		t.Errorf("moved %d positions, want 12", moved)
	}
	for _, got := range []Position{f.Workloads[0].Locations.At(""), f.Workloads[0].Locations.At("spec"), f.Workloads[0].Pod.PodENIRequests[0].Location,
		f.CNISettings[0].Location, f.FargateProfiles[0].Location, f.Unresolved[0].Location, f.PlanDisagreements[0].Location,
		f.NodeGroups[0].Location, f.NodeGroups[0].TypeLocations[0], f.NodePools[0].Location, f.NodePools[0].RequirementLocations[0], f.Errors[0].Position} {
		if got != (Position{File: "main.tf", Line: 13}) {
			t.Errorf("a position stayed at %v", got)
		}
	}
}
