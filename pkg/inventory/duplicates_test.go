package inventory

import (
	"strings"
	"testing"
)

func TestReconcileMarksDuplicates(t *testing.T) {
	w := func(kind, ns, name, file, by string) Workload {
		return Workload{Object: Object{Kind: kind, Namespace: ns, Name: name, Locations: FieldPositionsOf(map[string]Position{"": {File: file, Line: 1}})}, BuiltBy: by}
	}
	ws := []Workload{w("CronJob", "a", "x", "base.yaml", "dev"), w("CronJob", "a", "x", "base.yaml", "prod"), w("CronJob", "b", "x", "other.yaml", ""), w("Job", "a", "x", "job.yaml", "")}
	inv := &Inventory{Workloads: ws, SecurityGroupPolicies: []SecurityGroupPolicy{
		{Object: Object{Kind: "SecurityGroupPolicy", Namespace: "a", Name: "db", Locations: FieldPositionsOf(map[string]Position{"": {File: "base/sgp.yaml", Line: 1}})}},
		{Object: Object{Kind: "SecurityGroupPolicy", Namespace: "a", Name: "db", Locations: FieldPositionsOf(map[string]Position{"": {File: "tf/main.tf", Line: 9}})}},
		{Object: Object{Kind: "SecurityGroupPolicy", Namespace: "b", Name: "db", Locations: FieldPositionsOf(map[string]Position{"": {File: "b.yaml", Line: 1}})}},
	}}
	Reconcile(inv)
	ws = inv.Workloads
	if p := inv.SecurityGroupPolicies; len(p[0].Duplicates) != 2 || p[0].Duplicates[1].Location.File != "tf/main.tf" || p[2].Duplicates != nil {
		t.Errorf("policies: %+v %+v", p[0].Duplicates, p[2].Duplicates)
	}
	if len(ws[0].Duplicates) != 2 || ws[0].Duplicates[1].BuiltBy != "prod" || len(ws[1].Duplicates) != 2 {
		t.Errorf("the two overlays: %+v %+v", ws[0].Duplicates, ws[1].Duplicates)
	}
	if ws[2].Duplicates != nil || ws[3].Duplicates != nil {
		t.Error("another namespace or kind is another object")
	}
}

func TestDuplicateNodePools(t *testing.T) {
	at := func(file string) Position { return Position{File: file, Line: 1, Column: 1} }
	pools := []NodePool{
		{Kind: "NodePool", Name: "default", Location: at("a.yaml")},
		{Kind: "NodePool", Name: "gpu", Location: at("b.yaml")},
		{Kind: "Provisioner", Name: "default", Location: at("c.yaml")}, // another kind: another object
		{Kind: "NodePool", Name: "default", Location: at("d.yaml")},
	}
	got := DuplicateNodePools(pools)
	for i, want := range [][]string{{"a.yaml", "d.yaml"}, nil, nil, {"a.yaml", "d.yaml"}} {
		if len(got[i]) != len(want) {
			t.Fatalf("pool %d: %+v, want %v", i, got[i], want)
		}
		for j, file := range want {
			if got[i][j].Location.File != file {
				t.Errorf("pool %d definition %d: %s, want %s", i, j, got[i][j].Location.File, file)
			}
		}
	}
}

func TestReadOnce(t *testing.T) {
	obj := func(kind, ns, name, file string) Object {
		return Object{Kind: kind, Namespace: ns, Name: name, Locations: FieldPositionsOf(map[string]Position{"": {File: file, Line: 1}})}
	}
	job := func(name, file string) Workload { return Workload{Object: obj("Job", "a", name, file)} }
	walked := Fragment{File: "k8s/job.yaml", Workloads: []Workload{job("migrate", "k8s/job.yaml")}}
	pools := Fragment{File: "k8s/pool.yaml", NodePools: []NodePool{{Kind: "NodePool", Name: "general", Location: Position{File: "k8s/pool.yaml", Line: 1}}}}
	emptied := Fragment{File: "tpl/job.yaml"} // a template Terraform renders: the walk kept nothing
	tf := Fragment{File: "infra/*.tf", TerraformRoot: "infra",
		ReadFiles: []string{"/repo/k8s/pool.yaml"},
		Workloads: []Workload{
			job("migrate", "k8s/job.yaml"),  // yaml_body = file("../k8s/job.yaml"): the same document
			job("migrate", "infra/main.tf"), // another document of the same identity: a duplicate, kept
			job("render", "tpl/job.yaml"),   // from a template: only Terraform has it
		},
		// kubectl_file_documents(file("../k8s/pool.yaml")): located at the resource, read from the file.
		NodePools:             []NodePool{{Kind: "NodePool", Name: "general", Location: Position{File: "infra/main.tf", Line: 4}}},
		SecurityGroupPolicies: []SecurityGroupPolicy{{Object: obj("SecurityGroupPolicy", "a", "db", "infra/main.tf")}},
	}
	frags := []Fragment{walked, pools, emptied, tf}
	ReadOnce(frags, func(f string) string {
		if strings.HasPrefix(f, "/repo/") {
			return f
		}
		return "/repo/" + f
	})
	var kept []string
	for _, w := range frags[3].Workloads {
		kept = append(kept, w.Name+"@"+w.Locations.At("").File)
	}
	if got := strings.Join(kept, " "); got != "migrate@infra/main.tf render@tpl/job.yaml" {
		t.Errorf("Terraform's workloads %s", got)
	}
	if len(frags[3].NodePools) != 0 || len(frags[3].SecurityGroupPolicies) != 1 {
		t.Errorf("pools %+v, policies %+v: the pool read from the file once, the policy kept", frags[3].NodePools, frags[3].SecurityGroupPolicies)
	}
	if len(frags[0].Workloads) != 1 || len(frags[1].NodePools) != 1 {
		t.Error("the copies read as manifests stay")
	}
}
