package loaders

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

const twoGroups = `resource "aws_eks_node_group" "web" {
  node_group_name = "web"
  instance_types  = ["m5.large"]
}

resource "aws_eks_node_group" "old" {
  node_group_name = "old"
  instance_types  = ["m4.large"]
}

resource "aws_eks_cluster" "auto" {
  name = "auto"
  compute_config {
    enabled    = true
    node_pools = ["general-purpose"]
  }
}

resource "aws_eks_node_group" "pools" {
  for_each        = data.external.pools.result
  node_group_name = each.key
  instance_types  = [each.value]
}
`

// The plan's groups stand, at the code's lines; where the two differ, or one declares what the
// other does not, the summary says so.
func TestPlanReplacesTheRootsEvaluation(t *testing.T) {
	root := t.TempDir()
	plan := `{"format_version":"1.2","terraform_version":"1.6.0","planned_values":{"root_module":{"resources":[
{"address":"aws_eks_node_group.web","mode":"managed","type":"aws_eks_node_group","name":"web","values":{"node_group_name":"web","instance_types":["m5.xlarge"]}},
{"address":"aws_eks_node_group.pools[\"a\"]","mode":"managed","type":"aws_eks_node_group","name":"pools","index":"a","values":{"node_group_name":"a","instance_types":["c5.large"]}},
{"address":"aws_eks_node_group.pools[\"b\"]","mode":"managed","type":"aws_eks_node_group","name":"pools","index":"b","values":{"node_group_name":"b","instance_types":["c5.xlarge"]}},
{"address":"aws_eks_node_group.extra","mode":"managed","type":"aws_eks_node_group","name":"extra","values":{"node_group_name":"extra","instance_types":["r5.large"]}}]}}}`
	write(t, root, map[string]string{"infra/main.tf": twoGroups, "infra/plan.json": plan})
	frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var got, pools []string
	for _, f := range frags {
		for _, p := range f.NodePools {
			pools = append(pools, p.Name)
		}
		for _, g := range f.NodeGroups {
			got = append(got, g.Name+"="+strings.Join(g.InstanceTypes, ",")+"@"+filepath.Base(g.Location.File))
		}
	}
	sort.Strings(got)
	if s := strings.Join(got, " "); s != "a=c5.large@main.tf b=c5.xlarge@main.tf extra=r5.large@plan.json web=m5.xlarge@main.tf" {
		t.Errorf("groups %s", s)
	}
	// Auto Mode's built-in pools are not read from a plan: the code's stand.
	if strings.Join(pools, " ") != "general-purpose" {
		t.Errorf("pools %v", pools)
	}
	if len(stats.TerraformPlans) != 1 {
		t.Fatalf("plans %+v", stats.TerraformPlans)
	}
	p := stats.TerraformPlans[0]
	if p.Joined != 3 || p.PlanOnly != 1 || p.Kind != "plan" || p.TerraformVersion != "1.6.0" || filepath.Base(p.Root) != "infra" {
		t.Errorf("summary %+v", p)
	}
	want := []string{"aws_eks_node_group.web: the code gives instance types m5.large", "aws_eks_node_group.old (", "declared in the code, not in the plan"}
	all := strings.Join(p.Disagreements, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("disagreements %q lack %q", p.Disagreements, w)
		}
	}
}

// A file named with --terraform-plan that is no plan is a located error; a plan beside no
// scanned code stands alone as its folder's root, located at the plan.
func TestNamedPlans(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"k8s/job.yaml":    jobNamed("a"),
		"ci/notplan.json": `{"hello": "world"}`,
		"ci/state.json":   `{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{"resources":[{"address":"aws_eks_node_group.x","mode":"managed","type":"aws_eks_node_group","values":{"instance_types":["m6i.large"]}}]}}}`,
	})
	frags, stats := Load(context.Background(), []string{filepath.Join(root, "k8s")}, Options{DefaultNamespace: "default", TerraformPlans: []TerraformPlan{
		{File: filepath.Join(root, "ci/notplan.json")}, {File: filepath.Join(root, "ci/state.json"), Root: filepath.Join(root, "infra")},
	}})
	var errs []inventory.LoadError
	var standalone *inventory.Fragment
	for i, f := range frags {
		errs = append(errs, f.Errors...)
		if len(f.NodeGroups) > 0 {
			standalone = &frags[i]
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "not a Terraform plan or state") || filepath.Base(errs[0].Position.File) != "notplan.json" {
		t.Errorf("errors %+v", errs)
	}
	if standalone == nil || filepath.Base(standalone.TerraformRoot) != "infra" || filepath.Base(standalone.NodeGroups[0].Location.File) != "state.json" {
		t.Errorf("standalone %+v", standalone)
	}
	if len(stats.TerraformPlans) != 1 || stats.TerraformPlans[0].Kind != "state" || stats.TerraformPlans[0].PlanOnly != 1 {
		t.Errorf("summaries %+v", stats.TerraformPlans)
	}
}

// A NodePool the code applies from a file the walk reads, and the plan declares again: one
// pool, joined (aws-ia/terraform-aws-eks-blueprints patterns/eks-automode has this shape).
func TestPlanNodePoolFromAFileIsCountedOnce(t *testing.T) {
	root := t.TempDir()
	pool := "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: general}\nspec: {template: {spec: {requirements: []}}}\n"
	body, _ := json.Marshal(pool)
	plan := `{"format_version":"1.2","terraform_version":"1.9.0","planned_values":{"root_module":{"resources":[
{"address":"kubectl_manifest.pool[\"pool.yaml\"]","mode":"managed","type":"kubectl_manifest","name":"pool","index":"pool.yaml","values":{"yaml_body":` + string(body) + `}}]}}}`
	write(t, root, map[string]string{
		"main.tf":          "resource \"kubectl_manifest\" \"pool\" {\n  for_each  = toset([\"pool.yaml\"])\n  yaml_body = file(\"${path.module}/config/${each.value}\")\n}\n",
		"config/pool.yaml": pool,
		"plan.json":        plan,
	})
	frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var pools []string
	for _, f := range frags {
		for _, p := range f.NodePools {
			pools = append(pools, p.Name+"@"+filepath.Base(p.Location.File))
		}
	}
	if strings.Join(pools, " ") != "general@pool.yaml" {
		t.Errorf("pools %v: the pool once, at its file", pools)
	}
	if len(stats.TerraformPlans) != 1 || stats.TerraformPlans[0].Joined != 1 {
		t.Errorf("summary %+v", stats.TerraformPlans)
	}
}

// Two plans of one root: the second is a located error, not a second set of node groups.
func TestTwoPlansOfOneRoot(t *testing.T) {
	root := t.TempDir()
	state := `{"format_version":"1.0","terraform_version":"1.9.0","values":{"root_module":{"resources":[{"address":"aws_eks_node_group.x","mode":"managed","type":"aws_eks_node_group","values":{"instance_types":["m6i.large"]}}]}}}`
	write(t, root, map[string]string{"infra/main.tf": twoGroups, "infra/a.json": state, "infra/b.json": state})
	frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var errs []string
	groups := 0
	for _, f := range frags {
		groups += len(f.NodeGroups)
		for _, e := range f.Errors {
			errs = append(errs, filepath.Base(e.Position.File)+": "+e.Message)
		}
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "b.json: a second Terraform plan of the root module") || groups != 1 || len(stats.TerraformPlans) != 1 {
		t.Errorf("errors %v, %d groups, %d plans", errs, groups, len(stats.TerraformPlans))
	}
}

func TestCodeGroupOf(t *testing.T) {
	groups := []inventory.NodeGroupSpec{
		{Address: "module.eks"},
		{Address: `module.eks.module.eks_managed_node_group["gpu"]`},
		{Address: "aws_eks_node_group.pools"},
		{Address: "module.legacy"}, {Address: "module.legacy"}, // two groups of one module: no guess
		{Name: "unnamed"},
	}
	for address, want := range map[string]int{
		`module.eks.module.eks_managed_node_group["gpu"].aws_eks_node_group.this[0]`: 1,
		`module.eks.aws_eks_node_group.this[0]`:                                      0,
		`aws_eks_node_group.pools["a"]`:                                              2,
		`aws_eks_node_group.poolsX`:                                                  -1,
		`module.legacy.aws_autoscaling_group.workers[0]`:                             -1,
		`aws_eks_node_group.other`:                                                   -1,
	} {
		if got := codeGroupOf(groups, address); got != want {
			t.Errorf("%s: %d, want %d", address, got, want)
		}
	}
}
