package inventory

import (
	"reflect"
	"testing"
)

func TestFragmentAppend(t *testing.T) {
	f := Fragment{File: "kustomization.yaml", Documents: 1, Workloads: []Workload{{Object: Object{Name: "a"}}}}
	f.Append(Fragment{
		File:                  "ignored.yaml",
		Documents:             2,
		Workloads:             []Workload{{Object: Object{Name: "b"}}},
		SecurityGroupPolicies: []SecurityGroupPolicy{{}},
		ServiceAccounts:       []ServiceAccount{{}},
		Namespaces:            []Namespace{{}},
		NodeGroups:            []NodeGroupSpec{{}},
		CNISettings:           []CNISetting{{}},
		NodePools:             []NodePool{{}},
		NodeClasses:           []NodeClass{{}},
		Errors:                []LoadError{{Message: "x"}},
	})
	if f.File != "kustomization.yaml" {
		t.Errorf("File changed to %q", f.File)
	}
	got := []int{f.Documents, len(f.Workloads), len(f.SecurityGroupPolicies), len(f.ServiceAccounts), len(f.Namespaces),
		len(f.NodeGroups), len(f.CNISettings), len(f.NodePools), len(f.NodeClasses), len(f.Errors)}
	want := []int{3, 2, 1, 1, 1, 1, 1, 1, 1, 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
	if f.Workloads[1].Name != "b" {
		t.Errorf("appended workload out of order: %+v", f.Workloads)
	}
}

func TestFragmentEachObject(t *testing.T) {
	f := Fragment{
		Workloads:             []Workload{{Object: Object{Kind: "Job"}}, {Object: Object{Kind: "CronJob"}}},
		SecurityGroupPolicies: []SecurityGroupPolicy{{Object: Object{Kind: "SecurityGroupPolicy"}}},
		ServiceAccounts:       []ServiceAccount{{Object: Object{Kind: "ServiceAccount"}}},
		Namespaces:            []Namespace{{Object: Object{Kind: "Namespace"}}},
	}
	var kinds []string
	f.EachObject(func(o *Object) {
		kinds = append(kinds, o.Kind)
		o.ID = "moved"
	})
	want := []string{"Job", "CronJob", "SecurityGroupPolicy", "ServiceAccount", "Namespace"}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("visited %v, want %v", kinds, want)
	}
	if f.Workloads[1].ID != "moved" || f.Namespaces[0].ID != "moved" {
		t.Errorf("EachObject did not pass pointers into the fragment")
	}
}

// Every kind of the kind table is visited, dropped and cleared: a kind left out of one of them
// is how an HPA read twice (from a file and through kubectl_manifest) was counted twice.
func TestFragmentObjectKindsAllThreeWays(t *testing.T) {
	full := func() Fragment {
		return Fragment{
			Workloads:             []Workload{{Object: Object{Name: "w"}}},
			SecurityGroupPolicies: []SecurityGroupPolicy{{Object: Object{Name: "p"}}},
			ServiceAccounts:       []ServiceAccount{{Object: Object{Name: "s"}}},
			Namespaces:            []Namespace{{Object: Object{Name: "n"}}},
			Autoscalers:           []Autoscaler{{Object: Object{Name: "a"}}},
			NotModelled:           []Object{{Name: "m"}},
			ArgoTemplates:         []Workload{{Object: Object{Name: "t"}}},
			NodeGroups:            []NodeGroupSpec{{Name: "g"}},
			CNISettings:           []CNISetting{{}},
			Unresolved:            []UnresolvedObject{{}},
			Errors:                []LoadError{{}},
		}
	}
	f := full()
	var seen []string
	f.EachObject(func(o *Object) { seen = append(seen, o.Name) })
	if want := []string{"w", "p", "s", "n", "a", "m", "t"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("EachObject visited %v, want %v", seen, want)
	}
	f.DropObjects(func(o *Object) bool { return o.Name != "" })
	seen = nil
	f.EachObject(func(o *Object) { seen = append(seen, o.Name) })
	if len(seen) != 0 || len(f.NodeGroups) != 1 {
		t.Errorf("after DropObjects: objects %v, node groups %d", seen, len(f.NodeGroups))
	}
	f = full()
	f.ClearObjects()
	seen = nil
	f.EachObject(func(o *Object) { seen = append(seen, o.Name) })
	if len(seen) != 0 || len(f.CNISettings)+len(f.Unresolved)+len(f.Errors) != 0 || len(f.NodeGroups) != 1 {
		t.Errorf("after ClearObjects: objects %v, %d CNI, %d unresolved, %d errors, %d node groups", seen, len(f.CNISettings), len(f.Unresolved), len(f.Errors), len(f.NodeGroups))
	}
}
