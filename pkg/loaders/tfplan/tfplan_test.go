package tfplan

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

var opts = kubernetes.Options{DefaultNamespace: "default", YAML: yamlpos.Limits{MaxDocuments: 100, MaxAliasNodes: yamlpos.DefaultMaxAliasNodes}}

// planJSON writes a plan in the shape Terraform 1.5+ emits: resources with their module,
// values and after_unknown marks, and optionally the configuration's expressions.
type planResource struct {
	module, address, typ string
	values               map[string]any
	unknown              map[string]any
}

func planJSON(t testing.TB, resources []planResource, configuration map[string]any) []byte {
	t.Helper()
	modules := map[string]map[string]any{"": {"resources": []any{}}}
	var order []string
	var changes []any
	for _, r := range resources {
		m := modules[r.module]
		if m == nil {
			m = map[string]any{"address": r.module, "resources": []any{}}
			modules[r.module] = m
			order = append(order, r.module)
		}
		m["resources"] = append(m["resources"].([]any), map[string]any{
			"address": r.address, "mode": "managed", "type": r.typ, "name": "this",
			"provider_name": "registry.terraform.io/hashicorp/aws", "schema_version": 0, "values": r.values,
		})
		changes = append(changes, map[string]any{"address": r.address, "mode": "managed", "type": r.typ, "name": "this",
			"change": map[string]any{"actions": []string{"create"}, "after": r.values, "after_unknown": r.unknown}})
	}
	var children []any
	for _, name := range order {
		children = append(children, modules[name])
	}
	root := modules[""]
	if len(children) > 0 {
		root["child_modules"] = children
	}
	plan := map[string]any{"format_version": "1.2", "terraform_version": "1.7.5", "planned_values": map[string]any{"root_module": root}, "resource_changes": changes}
	if configuration != nil {
		plan["configuration"] = map[string]any{"root_module": configuration}
	}
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func groups(f inventory.Fragment) string {
	var out []string
	for _, g := range f.NodeGroups {
		s := g.Name + "=" + strings.Join(g.InstanceTypes, ",")
		if g.UnknownTypes != "" {
			s += " unknown: " + g.UnknownTypes
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func TestNodeGroups(t *testing.T) {
	lt := func(module, name string, typ any, unknown map[string]any) planResource {
		return planResource{module, module + ".aws_launch_template.this[0]", "aws_launch_template", map[string]any{"name": name, "instance_type": typ}, unknown}
	}
	ng := func(module string, values, unknown map[string]any) planResource {
		address := "aws_eks_node_group.this[0]"
		if module != "" {
			address = module + "." + address
		}
		return planResource{module, address, "aws_eks_node_group", values, unknown}
	}
	cases := []struct {
		name      string
		resources []planResource
		config    map[string]any
		want      string
	}{
		{"types written", []planResource{ng("", map[string]any{"node_group_name": "a", "instance_types": []any{"m5.large", "m5.xlarge"}}, nil)}, nil, "a=m5.large,m5.xlarge"},
		{"computed types, launch template of the module (registry module shape)", []planResource{
			ng("module.ng", map[string]any{"node_group_name_prefix": "gpu-", "launch_template": []any{map[string]any{}}}, map[string]any{"instance_types": true, "launch_template": []any{map[string]any{"id": true}}}),
			lt("module.ng", "", "g5.xlarge", map[string]any{"id": true}),
		}, nil, "gpu-*=g5.xlarge"},
		{"launch template by name", []planResource{
			ng("", map[string]any{"node_group_name": "b", "launch_template": []any{map[string]any{"name": "tpl-b"}}}, map[string]any{"instance_types": true}),
			lt("module.x", "tpl-b", "c6i.large", nil), lt("module.y", "tpl-c", "c6i.2xlarge", nil),
		}, nil, "b=c6i.large"},
		{"launch template without a type, types not written: the EKS default", []planResource{
			ng("module.ng", map[string]any{"node_group_name": "c", "launch_template": []any{map[string]any{}}}, map[string]any{"instance_types": true}),
			lt("module.ng", "", nil, nil),
		}, map[string]any{"module_calls": map[string]any{"ng": map[string]any{"module": map[string]any{"resources": []any{
			map[string]any{"address": "aws_eks_node_group.this", "expressions": map[string]any{"launch_template": []any{}}},
		}}}}}, "c=t3.medium"},
		{"types written from a value only apply gives", []planResource{
			ng("", map[string]any{"node_group_name": "d"}, map[string]any{"instance_types": true}),
		}, map[string]any{"resources": []any{map[string]any{"address": "aws_eks_node_group.this", "expressions": map[string]any{"instance_types": map[string]any{"references": []any{"random_shuffle.t.result"}}}}}}, "d= unknown: instance_types is known only after apply (after_unknown in the plan)"},
		{"labels only apply gives: the whole group is unknown", []planResource{
			ng("", map[string]any{"node_group_name": "e", "instance_types": []any{"m5.large"}}, map[string]any{"labels": true}),
		}, nil, "e= unknown: labels is known only after apply (after_unknown in the plan)"},
		{"the launch template's type only apply gives", []planResource{
			ng("module.ng", map[string]any{"node_group_name": "f", "launch_template": []any{map[string]any{}}}, map[string]any{"instance_types": true}),
			lt("module.ng", "", nil, map[string]any{"instance_type": true}),
		}, nil, "f= unknown: the instance_type of module.ng.aws_launch_template.this[0] is known only after apply (after_unknown in the plan)"},
		{"values of the wrong type read as absent", []planResource{
			ng("", map[string]any{"node_group_name": 7, "instance_types": "m5.large", "labels": []any{1}, "taint": "x", "scaling_config": []any{"y"}}, map[string]any{"labels": "odd"}),
		}, nil, "aws_eks_node_group.this[0]=t3.medium"},
		{"auto scaling group: overrides", []planResource{
			{"", "aws_autoscaling_group.w[\"a\"]", "aws_autoscaling_group", map[string]any{"name": "w-a", "mixed_instances_policy": []any{map[string]any{"launch_template": []any{map[string]any{
				"launch_template_specification": []any{map[string]any{"launch_template_id": "lt-1"}},
				"override":                      []any{map[string]any{"instance_type": "m5.large"}, map[string]any{"instance_type": "m5a.large"}},
			}}}}}, nil},
		}, nil, "w-a=m5.large,m5a.large"},
		{"auto scaling group: launch configuration by name", []planResource{
			{"", "aws_autoscaling_group.old", "aws_autoscaling_group", map[string]any{"name": "old", "launch_configuration": "workers-lc"}, nil},
			{"", "aws_launch_configuration.workers", "aws_launch_configuration", map[string]any{"name": "workers-lc", "instance_type": "m4.large"}, nil},
		}, nil, "old=m4.large"},
		{"auto scaling group without a template it can name", []planResource{
			{"", "aws_autoscaling_group.x", "aws_autoscaling_group", map[string]any{"name": "x", "launch_template": []any{map[string]any{"id": "lt-404"}}}, nil},
			lt("module.a", "", "m5.large", nil), lt("module.b", "", "m5.large", nil),
		}, nil, "x= unknown: the launch template (lt-404) is not one this plan holds, so its instance type is unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Load("plan.json", planJSON(t, c.resources, c.config), opts)
			if len(f.Errors) > 0 {
				t.Fatalf("errors %+v", f.Errors)
			}
			if got := groups(f); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestManifests(t *testing.T) {
	sgp := "apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: db, namespace: pay}\nspec:\n  podSelector: {matchLabels: {app: pay}}\n  securityGroups: {groupIds: [sg-1]}\n"
	manifest := map[string]any{"apiVersion": "vpcresources.k8s.aws/v1beta1", "kind": "SecurityGroupPolicy",
		"metadata": map[string]any{"name": "jobs", "namespace": "jobs"},
		"spec":     map[string]any{"podSelector": map[string]any{}, "securityGroups": map[string]any{"groupIds": []any{nil}}}}
	data := planJSON(t, []planResource{
		{"module.apps", "module.apps.kubectl_manifest.sgp[\"db\"]", "kubectl_manifest", map[string]any{"yaml_body": sgp}, nil},
		{"", "kubernetes_manifest.jobs", "kubernetes_manifest", map[string]any{"manifest": manifest}, map[string]any{"manifest": map[string]any{"spec": map[string]any{"securityGroups": map[string]any{"groupIds": []any{true}}}}}},
		{"", "kubectl_manifest.later", "kubectl_manifest", map[string]any{}, map[string]any{"yaml_body": true}},
		{"", "kubernetes_manifest.named_later", "kubernetes_manifest", map[string]any{"manifest": map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"namespace": "x"}}}, map[string]any{"manifest": map[string]any{"metadata": map[string]any{"name": true}}}},
	}, nil)
	f := Load("plan.json", data, opts)
	if len(f.Errors) > 0 {
		t.Fatalf("errors %+v", f.Errors)
	}
	var got []string
	for _, p := range f.SecurityGroupPolicies {
		got = append(got, fmt.Sprintf("%s/%s from %s at %s:%d", p.Namespace, p.Name, p.Origin.Resource, p.Locations.At("").File, p.Locations.At("").Line))
	}
	sort.Strings(got)
	if len(got) != 2 || !strings.HasPrefix(got[1], `pay/db from module.apps.kubectl_manifest.sgp["db"] at plan.json:1`) || !strings.HasPrefix(got[0], "jobs/jobs from kubernetes_manifest.jobs") {
		t.Errorf("policies %v", got)
	}
	var reasons []string
	for _, u := range f.Unresolved {
		reasons = append(reasons, u.Source+": "+u.Reason)
	}
	want := "kubectl_manifest.later: yaml_body is known only after apply (after_unknown in the plan); kubernetes_manifest.named_later: metadata.name is known only after apply (after_unknown in the plan)"
	if strings.Join(reasons, "; ") != want {
		t.Errorf("unresolved %v", reasons)
	}
	if f.Plan == nil || len(f.Plan.Addresses) != 4 || f.Plan.Kind != "plan" {
		t.Errorf("plan %+v", f.Plan)
	}
}

func TestStateAndPositions(t *testing.T) {
	state := `{"format_version":"1.0","terraform_version":"1.9.8","values":{"root_module":{
  "resources":[],
  "child_modules":[{"address":"module.eks","resources":[
    {"address":"module.eks.aws_eks_node_group.this[\"a\"]","mode":"managed","type":"aws_eks_node_group","name":"this","index":"a","values":{"node_group_name":"a","instance_types":["r6i.large"]}}]}]}}}`
	f := Load("state.json", []byte(state), opts)
	if len(f.Errors) > 0 || groups(f) != "a=r6i.large" || f.Plan.Kind != "state" {
		t.Fatalf("errors %+v groups %s plan %+v", f.Errors, groups(f), f.Plan)
	}
	// Reported where its address is written.
	if at := f.NodeGroups[0].Location; at.File != "state.json" || at.Line != 4 || at.Column != 6 {
		t.Errorf("location %+v", at)
	}
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{`{"format_version":"1.2","terraform_version":"1.5.7"}`, true},
		{` {"planned_values":{},"terraform_version":"1.5.7","format_version":"1.2"}`, true},
		{`{"apiVersion":"v1","kind":"ConfigMap","format_version":"1","terraform_version":"1"}`, false},
		// A manifest whose first keys are a plan's: the rest of the top level decides.
		{`{"format_version":"1.0","terraform_version":"1.6.0","apiVersion":"batch/v1","kind":"CronJob","spec":{}}`, false},
		{`{"format_version":"1.0","terraform_version":"1.6.0","Resources":{}}`, false},
		{`{"format_version":1.2,"terraform_version":"1.5.7"}`, false},
		{`{"format_version":"1.2"}`, false},
		{"format_version: '1.2'\nterraform_version: 1.5.7\n", false},
		{`[{"format_version":"1.2","terraform_version":"1.5.7"}]`, false},
		{`{"format_version":"1.2","terraform_version"`, false},
	} {
		if got := Sniff([]byte(c.data)); got != c.want {
			t.Errorf("Sniff(%s) = %v", c.data, got)
		}
	}
}

// Hostile and broken files: each is a located error or a partial read, never a crash.
func TestHostilePlans(t *testing.T) {
	deep := `{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":` + strings.Repeat(`{"child_modules":[`, 100) + `{}` + strings.Repeat(`]}`, 100) + `}}`
	wrongTypes := `{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":{"resources":{"a":1}}}}`
	future := `{"format_version":"2.0","terraform_version":"2.0.0","planned_values":{}}`
	unknownOdd := `{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":{"resources":[{"address":"aws_eks_node_group.x","mode":"managed","type":"aws_eks_node_group","values":{"instance_types":["m5.large"]}}]}},
"resource_changes":[{"address":"aws_eks_node_group.x","change":{"after_unknown":[true,{"instance_types":{"deep":[true]}}]}}]}`
	for _, c := range []struct {
		name, data, wantError string
		wantGroups            string
	}{
		{"not a plan", `{"apiVersion":"v1","kind":"List"}`, "not a Terraform plan or state", ""},
		{"not JSON", "format_version: 1", "not a Terraform plan or state", ""},
		{"modules nested past the budget", deep, "nest more than 64 deep", ""},
		{"resources of the wrong type", wrongTypes, "cannot read this Terraform plan", ""},
		{"a format version this reader does not know", future, "cannot read this Terraform plan", ""},
		{"after_unknown of an odd shape", unknownOdd, "", "x=m5.large"},
		{"a lone surrogate escape", `{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":{"resources":[{"address":"\ud800"}]}}}`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := Load("plan.json", []byte(c.data), opts)
			var errs []string
			for _, e := range f.Errors {
				if e.Position.File != "plan.json" || e.Position.Line < 1 {
					t.Errorf("error not located at a line of the file: %+v", e)
				}
				errs = append(errs, e.Message)
			}
			if c.wantError == "" && len(errs) > 0 || c.wantError != "" && (len(errs) != 1 || !strings.Contains(errs[0], c.wantError)) {
				t.Errorf("errors %q, want %q", errs, c.wantError)
			}
			if c.wantGroups != "" && groups(f) != strings.Replace(c.wantGroups, "x=", "aws_eks_node_group.x=", 1) {
				t.Errorf("groups %s", groups(f))
			}
		})
	}
}

func TestResourceBudget(t *testing.T) {
	defer func(n int) { MaxResources = n }(MaxResources)
	MaxResources = 3
	var rs []planResource
	for i := 0; i < 5; i++ {
		rs = append(rs, planResource{"", fmt.Sprintf("aws_eks_node_group.g%d", i), "aws_eks_node_group", map[string]any{"instance_types": []any{"m5.large"}}, nil})
	}
	f := Load("plan.json", planJSON(t, rs, nil), opts)
	if len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Message, "more than 3 resources (a budget)") || len(f.NodeGroups) != 0 {
		t.Errorf("errors %+v groups %d", f.Errors, len(f.NodeGroups))
	}
}

func TestSplitAddress(t *testing.T) {
	got := strings.Join(splitAddress(`module.a["x.y"].module.b[0].aws_eks_node_group.this["k]"]`), " ")
	if got != "module a module b aws_eks_node_group this" {
		t.Errorf("got %q", got)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":{"resources":[{"address":"aws_eks_node_group.x","mode":"managed","type":"aws_eks_node_group","values":{"instance_types":["m5.large"],"launch_template":[{"name":"t"}]}}]}}}`))
	f.Add([]byte(`{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{"resources":[{"address":"kubectl_manifest.s","mode":"managed","type":"kubectl_manifest","values":{"yaml_body":"kind: Job\napiVersion: batch/v1\nmetadata: {name: j}\n"}}]}}}`))
	f.Add([]byte(`{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":{"resources":[{"address":"kubernetes_manifest.m","mode":"managed","type":"kubernetes_manifest","values":{"manifest":{"kind":"SecurityGroupPolicy","apiVersion":"vpcresources.k8s.aws/v1beta1","metadata":{"name":"a"},"spec":{}}}}]}},"resource_changes":[{"address":"kubernetes_manifest.m","change":{"after_unknown":{"manifest":{"spec":true}}}}]}`))
	f.Add([]byte(`{"format_version":"1.2"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		frag := Load("plan.json", data, opts)
		for _, e := range frag.Errors {
			if e.Position.File != "plan.json" || e.Message == "" {
				t.Fatalf("error not located: %+v", e)
			}
		}
		for _, g := range frag.NodeGroups {
			if g.UnknownTypes == "" && len(g.InstanceTypes) == 0 {
				t.Fatalf("a group with neither types nor a reason: %+v", g)
			}
		}
	})
}

// BenchmarkLoad reads a plan of 20,000 resources (2,000 node groups), about 20 MB.
func BenchmarkLoad(b *testing.B) {
	var rs []planResource
	for i := 0; i < 20000; i++ {
		module := fmt.Sprintf("module.svc%d", i/10)
		if i%10 == 0 {
			rs = append(rs, planResource{module, module + ".aws_eks_node_group.this[0]", "aws_eks_node_group", map[string]any{"node_group_name": fmt.Sprint("g", i), "instance_types": []any{"m5.large"}, "labels": map[string]any{"team": "t"}}, map[string]any{"arn": true, "id": true}})
			continue
		}
		rs = append(rs, planResource{module, fmt.Sprintf("%s.aws_s3_bucket.b%d", module, i), "aws_s3_bucket", map[string]any{"bucket": fmt.Sprint("b", i), "tags": map[string]any{"a": strings.Repeat("b", 200)}}, map[string]any{"arn": true}})
	}
	data := planJSON(b, rs, nil)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f := Load("plan.json", data, opts); len(f.NodeGroups) != 2000 {
			b.Fatalf("%d groups", len(f.NodeGroups))
		}
	}
}

// BenchmarkManyNodeGroups: a plan of many node groups, each with its configuration (issue #47:
// 25,000 of them took minutes while each looked its configuration up in a list).
func BenchmarkManyNodeGroups(b *testing.B) {
	const n = 5000
	var res, conf []string
	for i := 0; i < n; i++ {
		res = append(res, fmt.Sprintf(`{"address":"aws_eks_node_group.g%d","mode":"managed","type":"aws_eks_node_group","name":"g%d","values":{"node_group_name":"g%d","instance_types":["m5.large"]}}`, i, i, i))
		conf = append(conf, fmt.Sprintf(`{"address":"aws_eks_node_group.g%d","mode":"managed","type":"aws_eks_node_group","name":"g%d","expressions":{"instance_types":{"constant_value":["m5.large"]}}}`, i, i))
	}
	data := []byte(`{"format_version":"1.2","terraform_version":"1.5.7","planned_values":{"root_module":{"resources":[` + strings.Join(res, ",") +
		`]}},"configuration":{"root_module":{"resources":[` + strings.Join(conf, ",") + `]}}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if f := Load("plan.json", data, kubernetes.Options{}); len(f.NodeGroups) != n {
			b.Fatalf("%d node groups", len(f.NodeGroups))
		}
	}
}
