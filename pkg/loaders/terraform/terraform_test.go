package terraform

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/internal/testtool"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	testtool.WriteFiles(t, root, files)
	return root
}

func groupsOf(t *testing.T, frags []inventory.Fragment) map[string]inventory.NodeGroupSpec {
	t.Helper()
	out := map[string]inventory.NodeGroupSpec{}
	for _, f := range frags {
		for _, g := range f.NodeGroups {
			out[g.Name] = g
		}
	}
	return out
}

const nodeGroup = `resource "aws_eks_node_group" "g" {
  node_group_name = var.name
  instance_types  = [var.type]
}
variable "name" { default = "g" }
`

func TestVariablePrecedence(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  string
		why   string
	}{
		{"default", map[string]string{"main.tf": nodeGroup + `variable "type" { default = "m5.large" }`}, Options{}, "m5.large", ""},
		{"terraform.tfvars beats the default", map[string]string{"main.tf": nodeGroup + `variable "type" { default = "m5.large" }`, "terraform.tfvars": `type = "m5.xlarge"`}, Options{}, "m5.xlarge", ""},
		{"auto tfvars in lexical order beat terraform.tfvars", map[string]string{"main.tf": nodeGroup + `variable "type" {}`, "terraform.tfvars": `type = "a"`, "b.auto.tfvars": `type = "c"`, "a.auto.tfvars.json": `{"type": "b"}`}, Options{}, "c", ""},
		{"var files then vars, in order", map[string]string{"main.tf": nodeGroup + `variable "type" {}`, "x.auto.tfvars": `type = "auto"`, "envs/prod.tfvars": `type = "prod"`}, Options{VarFiles: nil, Vars: []string{"type=cli"}}, "cli", ""},
		{"other tfvars are not loaded", map[string]string{"main.tf": nodeGroup + `variable "type" {}`, "envs/prod.tfvars": `type = "prod"`}, Options{}, "", "var.type (no default"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			frags := Load([]string{root}, tc.opts)
			g := groupsOf(t, frags)["g"]
			if tc.want != "" && (len(g.InstanceTypes) != 1 || g.InstanceTypes[0] != tc.want) {
				t.Errorf("types %v (%s), want %s", g.InstanceTypes, g.UnknownTypes, tc.want)
			}
			if tc.why != "" && !strings.Contains(g.UnknownTypes, tc.why) {
				t.Errorf("unknown reason %q, want it to mention %q", g.UnknownTypes, tc.why)
			}
		})
	}
	root := writeTree(t, map[string]string{"main.tf": nodeGroup + `variable "type" {}`, "envs/prod.tfvars": `type = "prod"`, "envs/dev.tfvars": `type = "dev"`})
	frags := Load([]string{root}, Options{VarFiles: []string{filepath.Join(root, "envs/prod.tfvars"), filepath.Join(root, "envs/dev.tfvars")}})
	if g := groupsOf(t, frags)["g"]; len(g.InstanceTypes) != 1 || g.InstanceTypes[0] != "dev" {
		t.Errorf("later --var-file must win: %v", g.InstanceTypes)
	}
}

func TestExpressions(t *testing.T) {
	src := `
locals {
  base   = ["m5.large"]
  extra  = { big = "m5.4xlarge" }
  picked = lookup(local.extra, "big", "none")
  all    = distinct(concat(local.base, [local.picked], tolist(toset(["m5.large"]))))
  labels = merge({ a = "1" }, { b = format("%s-%d", "x", 2) })
  n      = length(local.all)
  maybe  = try(local.extra.missing, "fallback")
  pick   = local.n > 1 ? coalesce("", "m6i.large") : "no"
}
resource "aws_eks_node_group" "exprs" {
  node_group_name = "exprs-${local.maybe}"
  instance_types  = [for t in local.all : t if t != ""]
  labels          = local.labels
}
resource "aws_eks_node_group" "cond" {
  node_group_name = "cond"
  instance_types  = [local.pick]
}
resource "aws_eks_node_group" "counted" {
  count           = 2
  node_group_name = "counted-${count.index}"
  instance_types  = ["c6i.large"]
}
resource "aws_eks_node_group" "each_set" {
  for_each        = toset(["a", "b"])
  node_group_name = "set-${each.key}"
  instance_types  = ["r6i.large"]
}
`
	root := writeTree(t, map[string]string{"main.tf": src})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	if g := groups["exprs-fallback"]; strings.Join(g.InstanceTypes, ",") != "m5.large,m5.4xlarge" || g.Labels["b"] != "x-2" {
		t.Errorf("exprs: %+v", g)
	}
	if g := groups["cond"]; strings.Join(g.InstanceTypes, ",") != "m6i.large" {
		t.Errorf("cond: %+v", g)
	}
	for _, n := range []string{"counted-0", "counted-1", "set-a", "set-b"} {
		if _, ok := groups[n]; !ok {
			t.Errorf("missing %s in %v", n, groups)
		}
	}
}

func TestModulesAndUnknowns(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `
module "nodes" {
  source = "./modules/nodes"
  types  = ["m6i.xlarge"]
}
module "remote" {
  source  = "example/nodes/aws"
  version = "1.0.0"
}
data "aws_ssm_parameter" "t" { name = "x" }
resource "aws_eks_node_group" "from_remote" {
  node_group_name = "from-remote"
  instance_types  = module.remote.types
}
resource "aws_eks_node_group" "from_data" {
  node_group_name = "from-data"
  instance_types  = [data.aws_ssm_parameter.t.value]
}
resource "aws_eks_node_group" "many" {
  for_each        = toset(data.aws_ssm_parameter.t.insecure_value)
  node_group_name = each.key
}
resource "aws_eks_node_group" "uses_output" {
  node_group_name = "uses-output"
  instance_types  = [module.nodes.first]
}
`,
		"modules/nodes/main.tf": `
variable "types" {}
resource "aws_eks_node_group" "inner" {
  node_group_name = "inner"
  instance_types  = var.types
}
output "first" { value = var.types[0] }
`,
	})
	// The module folder is scanned too, but as a called module it is not a root.
	groups := groupsOf(t, Load([]string{root, filepath.Join(root, "modules", "nodes")}, Options{}))
	if len(groups) != 5 {
		t.Errorf("groups %v", groups)
	}
	if g := groups["inner"]; strings.Join(g.InstanceTypes, ",") != "m6i.xlarge" {
		t.Errorf("inner: %+v", g)
	}
	if g := groups["uses-output"]; strings.Join(g.InstanceTypes, ",") != "m6i.xlarge" {
		t.Errorf("uses-output: %+v", g)
	}
	if g := groups["from-remote"]; !strings.Contains(g.UnknownTypes, `module "example/nodes/aws" is not evaluated`) {
		t.Errorf("from-remote: %q", g.UnknownTypes)
	}
	if g := groups["from-data"]; !strings.Contains(g.UnknownTypes, "data.aws_ssm_parameter.t.value") {
		t.Errorf("from-data: %q", g.UnknownTypes)
	}
	if g := groups["aws_eks_node_group.many"]; !strings.Contains(g.UnknownTypes, "how many node groups") {
		t.Errorf("many: %q", g.UnknownTypes)
	}
}

func TestNodeGroupDetails(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `
resource "aws_launch_template" "lt" {
  for_each      = { a = "m5.large", b = "c5.large" }
  instance_type = each.value
}
resource "aws_eks_node_group" "via_lt" {
  for_each        = toset(["a", "b"])
  node_group_name = "lt-${each.key}"
  capacity_type   = "SPOT"
  ami_type        = "BOTTLEROCKET_ARM_64"
  launch_template {
    id      = aws_launch_template.lt[each.key].id
    version = "$Latest"
  }
  dynamic "taint" {
    for_each = { gpu = "true" }
    content {
      key    = taint.key
      value  = taint.value
      effect = "NO_EXECUTE"
    }
  }
  scaling_config {
    min_size = 1
    max_size = 4
  }
}
resource "aws_eks_node_group" "win" {
  node_group_name = "win"
  ami_type        = "WINDOWS_FULL_2022_x86_64"
  instance_types  = ["m5.large"]
}
`})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	a, b := groups["lt-a"], groups["lt-b"]
	if strings.Join(a.InstanceTypes, ",") != "m5.large" || strings.Join(b.InstanceTypes, ",") != "c5.large" {
		t.Errorf("launch template types: %v %v (%s)", a.InstanceTypes, b.InstanceTypes, a.UnknownTypes)
	}
	if a.CapacityType != "SPOT" || a.Arch != "arm64" || *a.MinSize != 1 || *a.MaxSize != 4 {
		t.Errorf("details: %+v", a)
	}
	if len(a.Taints) != 1 || a.Taints[0] != (inventory.Taint{Key: "gpu", Value: "true", Effect: "NoExecute"}) {
		t.Errorf("taints: %+v", a.Taints)
	}
	if !groups["win"].Windows {
		t.Error("a Windows AMI type must mark the group Windows")
	}
}

func TestMalformedHCLIsLocated(t *testing.T) {
	root := writeTree(t, map[string]string{
		"bad.tf":  "resource \"aws_eks_node_group\" \"x\" {\n  instance_types = [\n",
		"good.tf": "resource \"aws_eks_node_group\" \"y\" {\n  node_group_name = \"y\"\n  instance_types = [\"m5.large\"]\n}\n",
	})
	frags := Load([]string{root}, Options{})
	if len(frags) != 1 || len(frags[0].Errors) == 0 {
		t.Fatalf("frags %+v", frags)
	}
	for _, e := range frags[0].Errors {
		if e.Position.Line == 0 || !strings.HasSuffix(e.Position.File, "bad.tf") {
			t.Errorf("unlocated error %+v", e)
		}
	}
	if _, ok := groupsOf(t, frags)["y"]; !ok {
		t.Error("the good file's node group is missing")
	}
	// The file that could not be read contributes nothing, though hcl recovers a partial body
	// that holds its node group.
	root = writeTree(t, map[string]string{
		"bad.tf":  "resource \"aws_eks_node_group\" \"x\" {\n  node_group_name = \"x\"\n  instance_types = [\"m5.large\"]\n}\nlocals {\n  broken = [1, 2\n}\n",
		"good.tf": "resource \"aws_eks_node_group\" \"y\" {\n  node_group_name = \"y\"\n  instance_types = [\"m5.large\"]\n}\n",
	})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	if _, ok := groups["x"]; ok {
		t.Error("the node group of the file with a syntax error is counted")
	}
	if _, ok := groups["y"]; !ok {
		t.Error("the good file's node group is missing")
	}
}

func FuzzLoad(f *testing.F) {
	f.Add(nodeGroup + `variable "type" { default = "m5.large" }`)
	f.Add(`locals { a = local.b
 b = local.a }
resource "aws_eks_node_group" "c" { instance_types = [local.a] }`)
	f.Add(`module "eks" {
  source = "terraform-aws-modules/eks/aws"
  eks_managed_node_groups = { a = { instance_types = ["m5.large"], taints = [{ key = "k", effect = "NO_SCHEDULE" }] } }
}`)
	f.Add(`resource "aws_autoscaling_group" "a" { mixed_instances_policy { launch_template { override { instance_type = "m5.large" } } } }`)
	// The hostile corpus: count bombs and invalid counts, nested for, huge strings, self-calls.
	f.Add(`resource "aws_eks_node_group" "g" { count = 1000000000 }`)
	f.Add(`resource "aws_eks_node_group" "g" { count = -5 }
resource "aws_eks_node_group" "h" { count = 1.5 }`)
	f.Add(`locals { big = { for a in range(1000) : a => [for b in range(1000) : [for c in range(1000) : c]] } }`)
	f.Add(`locals { s = join("", [for i in range(1000) : "xxxxxxxxxx"])
 t = replace(local.s, "", local.s) }`)
	f.Add(`module "self" { source = "./" }`)
	// EKS Auto Mode's built-in pools.
	f.Add(`resource "aws_eks_cluster" "c" { compute_config {
  enabled = true
  node_pools = ["general-purpose", "system"]
} }`)
	f.Add(`module "eks" {
  source = "terraform-aws-modules/eks/aws"
  compute_config = { enabled = var.on, node_pools = [for p in ["system"] : p] }
}`)
	// Pod labels and a ServiceAccount only Terraform knows, typed and in a manifest's text.
	f.Add(`variable "v" {}
resource "kubernetes_cron_job_v1" "c" {
  metadata { name = "c" }
  spec { schedule = "* * * * *"
    job_template { metadata {} spec { template {
      metadata { labels = merge(var.v, { a = "b" }) }
      spec { service_account_name = var.v[0] }
    } } }
  }
}
resource "kubectl_manifest" "p" { yaml_body = "kind: Pod\nmetadata:\n  name: p\n  labels:\n    sg: ${var.v}\n" }`)
	// Typed Kubernetes resources with dynamic blocks: known, unknown, nested, a bomb.
	f.Add(`resource "kubernetes_job_v1" "j" {
  metadata { name = "j" }
  spec { template { metadata {} spec {
    dynamic "toleration" {
      for_each = [for i in range(3) : { k = "t${i}" }]
      content { key = toleration.value.k }
    }
    dynamic "container" {
      for_each = var.containers
      iterator = c
      content {
        name = c.key
        dynamic "env" {
          for_each = range(100000)
          content { name = "e${env.value}" }
        }
      }
    }
  } } }
}`)
	// Dynamic blocks nested with their iterators, launch configurations, ignore comments inside
	// a module block, a dynamic block whose for_each refers to itself.
	f.Add(`resource "aws_autoscaling_group" "a" {
  dynamic "mixed_instances_policy" {
    for_each = [{ o = ["m5.large", var.x] }]
    iterator = p
    content { launch_template { dynamic "override" {
      for_each = p.value.o
      content { instance_type = override.value }
    } } }
  }
}
resource "aws_launch_configuration" "l" { instance_type = "c5.large" }
resource "aws_autoscaling_group" "b" { launch_configuration = aws_launch_configuration.l.name }`)
	f.Add(`module "eks" {
  source = "terraform-aws-modules/eks/aws"
  eks_managed_node_groups = {
    # eni-lint:ignore ENI006 reviewed
    a = { instance_types = [var.t] } # eni-lint:ignore ENI001 x
  }
  # eni-lint:ignore ENI013
}`)
	f.Add(`resource "aws_autoscaling_group" "a" { dynamic "launch_template" {
  for_each = aws_autoscaling_group.a.launch_template
  content { id = launch_template.value.id }
} }`)
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, frag := range Load([]string{dir}, Options{}) {
			for _, e := range frag.Errors {
				if strings.Contains(e.Message, "cannot evaluate this Terraform module") {
					t.Fatalf("evaluation panicked: %s", e.Message)
				}
			}
		}
	})
}

// FuzzVariableInputs loads a root module whose variables come from a terraform.tfvars and a
// terraform.tfvars.json a pull request wrote, with ignore comments above the node group.
func FuzzVariableInputs(f *testing.F) {
	f.Add(`type = "m5.xlarge"`, `{"name": "g2"}`, "# eni-lint:ignore ENI006 reviewed\n")
	f.Add(`type = [for t in ["a"] : t]`, `{"type": "${[for t in range(3) : t]}"}`, "// eni-lint:ignore\n")
	f.Add(`type = `, `{"type": `, "# eni-lint:ignore ENI001,ENI006 x\n# eni-lint:ignore\n")
	f.Add(`type = "${`+strings.Repeat("(", 600)+`"`, `[`+strings.Repeat("[", 600), "")
	f.Fuzz(func(t *testing.T, tfvars, tfvarsJSON, comments string) {
		root := writeTree(t, map[string]string{
			"main.tf":               comments + nodeGroup + `variable "type" { default = "m5.large" }`,
			"terraform.tfvars":      tfvars,
			"terraform.tfvars.json": tfvarsJSON,
		})
		for _, frag := range Load([]string{root}, Options{}) {
			for _, e := range frag.Errors {
				if e.Position.File == "" || strings.Contains(e.Message, "cannot evaluate this Terraform module") {
					t.Fatalf("error %+v", e)
				}
			}
			for _, g := range frag.NodeGroups {
				if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
					t.Fatalf("node group %q has no types and no reason", g.Name)
				}
				for _, ig := range g.Ignores {
					if ig.Location == nil || ig.Location.File == "" || ig.Location.Line < 1 {
						t.Fatalf("ignore without a position: %+v", ig)
					}
				}
			}
		}
	})
}

// TestEKSGroupSettingsAreReadOneByOne: the shape real repositories write, where each group
// of the EKS module's map sets subnets, IAM roles and policy ARNs that only exist once
// Terraform runs. Those values must not hide the instance types, labels and taints written
// beside them; an unknown setting the verdict needs names its own blocker.
func TestEKSGroupSettingsAreReadOneByOne(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `
module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}
data "aws_partition" "current" {}
resource "aws_iam_policy" "extra" {
  name   = "extra"
  policy = "{}"
}
variable "spot_types" {}
variable "gpu_labels" {}
locals {
  base   = { min_size = 1, max_size = 4, subnet_ids = module.vpc.private_subnets }
  worker = merge(local.base, { labels = { role = "worker" } })
  groups = {
    core = {
      instance_types               = ["m6a.xlarge"]
      subnet_ids                   = module.vpc.private_subnets
      iam_role_arn                 = "arn:${data.aws_partition.current.partition}:iam::1:role/x"
      iam_role_additional_policies = { extra = aws_iam_policy.extra.arn }
      labels                       = local.worker.labels
      taints                       = { db = { key = "db", value = "yes", effect = "NO_SCHEDULE" } }
      block_device_mappings        = { xvda = { ebs = { kms_key_id = aws_iam_policy.extra.arn } } }
    }
    spot = {
      instance_types = var.spot_types
      capacity_type  = "SPOT"
    }
    gpu = {
      instance_types = ["g5.xlarge"]
      labels         = var.gpu_labels
    }
  }
}
module "eks" {
  source                          = "terraform-aws-modules/eks/aws"
  eks_managed_node_groups         = local.groups
  eks_managed_node_group_defaults = { subnet_ids = module.vpc.private_subnets, ami_type = "AL2_ARM_64" }
}
`})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	core := groups["core"]
	if strings.Join(core.InstanceTypes, ",") != "m6a.xlarge" || core.UnknownTypes != "" || core.Labels["role"] != "worker" ||
		len(core.Taints) != 1 || core.Taints[0].Effect != "NoSchedule" || core.Arch != "arm64" || core.Location.Line != 16 {
		t.Errorf("core: %+v", core)
	}
	if spot := groups["spot"]; len(spot.InstanceTypes) != 0 || spot.UnknownTypes != "instance_types depends on var.spot_types (no default, and no value in tfvars or --var)" {
		t.Errorf("spot must name its own blocker: %q %v", spot.UnknownTypes, spot.InstanceTypes)
	}
	if gpu := groups["gpu"]; len(gpu.InstanceTypes) != 0 || !strings.HasPrefix(gpu.UnknownTypes, "labels depends on var.gpu_labels") {
		t.Errorf("gpu: labels decide placement, so the group is unknown: %q", gpu.UnknownTypes)
	}
	if len(groups) != 3 {
		t.Errorf("groups %v", groups)
	}
}

// TestUnknownReasons: a local used twice is no cycle, a local that failed says why, and a
// real cycle is still one.
func TestUnknownReasons(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `
variable "types" {}
locals {
  a     = var.types
  b     = local.a
  c     = local.a
  both  = concat(local.b, local.c, local.a)
  wide  = range(100000)
  loopx = local.loopy
  loopy = local.loopx
}
resource "aws_eks_node_group" "diamond" {
  node_group_name = "diamond"
  instance_types  = local.both
}
resource "aws_eks_node_group" "failed" {
  node_group_name = "failed"
  instance_types  = length(local.wide) > 0 ? ["m5.large"] : []
}
resource "aws_eks_node_group" "cycle" {
  node_group_name = "cycle"
  instance_types  = local.loopx
}
`})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	tests := map[string]string{
		"diamond": "var.types (no default, and no value in tfvars or --var)",
		"failed":  "local.wide (cannot be evaluated: ",
		"cycle":   "(it depends on itself)",
	}
	for name, want := range tests {
		if g := groups[name]; !strings.Contains(g.UnknownTypes, want) || (name == "diamond" && strings.Contains(g.UnknownTypes, "itself")) {
			t.Errorf("%s: %q, want it to say %q", name, g.UnknownTypes, want)
		}
	}
}

// TestCNIAddonBesideAnIRSARole: the vpc-cni add-on usually carries an IRSA role ARN that
// exists only after apply; ENABLE_POD_ENI beside it must still be read.
func TestCNIAddonBesideAnIRSARole(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `
module "irsa" {
  source = "terraform-aws-modules/iam/aws//modules/iam-role-for-service-accounts-eks"
}
module "eks" {
  source = "terraform-aws-modules/eks/aws"
  cluster_addons = {
    coredns = {}
    vpc-cni = {
      service_account_role_arn = module.irsa.iam_role_arn
      configuration_values     = jsonencode({ env = { ENABLE_POD_ENI = "true" } })
    }
  }
}
`})
	var got []inventory.CNISetting
	for _, f := range Load([]string{root}, Options{}) {
		got = append(got, f.CNISettings...)
	}
	if len(got) != 1 || got[0].EnablePodENI == nil || !*got[0].EnablePodENI || got[0].Location.Line != 9 {
		t.Errorf("CNI settings %+v", got)
	}
}

// TestFunctionsNotEvaluatedSpoilOnlyTheirValue: a call eni-lint does not evaluate
// (cidrsubnet, base64encode …), or a file() it cannot read here, makes its own value unknown
// and is named as the blocker; it no longer fails the whole argument it sits in.
// sensitive/nonsensitive keep the value.
func TestFunctionsNotEvaluatedSpoilOnlyTheirValue(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `
data "aws_ssm_parameter" "snapshot" { name = "x" }
module "eks" {
  source = "terraform-aws-modules/eks/aws"
  eks_managed_node_groups = {
    cache = {
      instance_types = nonsensitive(["g6e.xlarge"])
      block_device_mappings = { xvdb = { ebs = { snapshot_id = nonsensitive(data.aws_ssm_parameter.snapshot.value) } } }
      user_data = base64encode(file("${path.module}/init.sh"))
    }
    listed = {
      instance_types = split(",", file("types.txt"))
    }
  }
}
`})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	if g := groups["cache"]; strings.Join(g.InstanceTypes, ",") != "g6e.xlarge" {
		t.Errorf("cache: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
	if g := groups["listed"]; len(g.InstanceTypes) != 0 || !strings.Contains(g.UnknownTypes, `file("types.txt") (no such file or directory)`) {
		t.Errorf("listed: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
}

// TestKubectlManifestsAndNestedReferences: the shapes real repositories use to declare SGPs
// and Jobs from Terraform: kubectl_manifest with a heredoc or a file of the tree, a namespace
// taken from kubernetes_namespace.x.metadata[0].name, and bodies that only Terraform can
// produce (templatefile, for_each over a documents data source), which are reported.
func TestKubectlManifestsAndNestedReferences(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `resource "kubernetes_namespace" "db" {
  metadata {
    name = "billing"
  }
}

resource "kubectl_manifest" "sgp" {
  yaml_body = <<-YAML
    apiVersion: vpcresources.k8s.aws/v1beta1
    kind: SecurityGroupPolicy
    metadata:
      name: db-access
      namespace: ${kubernetes_namespace.db.metadata[0].name}
    spec:
      podSelector:
        matchLabels: {app: report}
      securityGroups:
        groupIds: [sg-1]
  YAML
}

resource "kubectl_manifest" "job" {
  yaml_body = file("${path.module}/manifests/job.yaml")
}

resource "kubernetes_job_v1" "migrate" {
  metadata {
    name      = "migrate"
    namespace = kubernetes_namespace.db.metadata[0].name
  }
  spec {
    template {
      metadata {}
      spec {
        container {
          name  = "m"
          image = "x"
        }
      }
    }
  }
}

resource "kubectl_manifest" "templated" {
  yaml_body = templatefile(var.template, { ns = "x" })
}

data "kubectl_file_documents" "docs" {
  content = file("${path.module}/all.yaml")
}

resource "kubectl_manifest" "docs" {
  for_each  = data.kubectl_file_documents.docs.manifests
  yaml_body = each.value
}

variable "template" {}
`,
		"manifests/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: report\n  namespace: billing\nspec:\n  template:\n    metadata:\n      labels: {app: report}\n    spec:\n      containers: [{name: c, image: x}]\n",
	})
	frags := Load([]string{root}, Options{})
	var sgps []inventory.SecurityGroupPolicy
	var workloads []inventory.Workload
	var unresolved []inventory.UnresolvedObject
	for _, f := range frags {
		sgps = append(sgps, f.SecurityGroupPolicies...)
		workloads = append(workloads, f.Workloads...)
		unresolved = append(unresolved, f.Unresolved...)
		for _, e := range f.Errors {
			t.Errorf("error %v: %s", e.Position, e.Message)
		}
	}
	if len(sgps) != 1 || sgps[0].Namespace != "billing" || sgps[0].Name != "db-access" {
		t.Fatalf("SGPs %+v", sgps)
	}
	// The heredoc's positions are the .tf file's: metadata.name is on line 12, column 7.
	if p := sgps[0].Locations.At("metadata.name"); filepath.Base(p.File) != "main.tf" || p.Line != 12 || p.Column != 7 {
		t.Errorf("SGP name at %+v, want main.tf:12:7", p)
	}
	byName := map[string]inventory.Workload{}
	for _, w := range workloads {
		byName[w.Name] = w
	}
	if w, ok := byName["report"]; !ok || w.Namespace != "billing" || filepath.Base(w.Locations.At("").File) != "job.yaml" || w.Locations.At("").Line != 1 {
		t.Errorf("report (from file()): %+v", w.Object)
	}
	if w, ok := byName["migrate"]; !ok || w.Namespace != "billing" {
		t.Errorf("migrate must be in the namespace kubernetes_namespace.db names: %+v", w.Object)
	}
	if len(unresolved) != 2 {
		t.Fatalf("unresolved %+v", unresolved)
	}
	sort.Slice(unresolved, func(i, j int) bool { return unresolved[i].Source < unresolved[j].Source })
	if u := unresolved[0]; u.Source != "kubectl_manifest.docs" || !strings.Contains(u.Reason, "data.kubectl_file_documents.docs.manifests (its content depends on file(") || u.Location.Line != 53 {
		t.Errorf("docs: %+v", u)
	}
	if u := unresolved[1]; u.Source != "kubectl_manifest.templated" || !strings.Contains(u.Reason, "var.template (no default") || u.Location.Line != 45 {
		t.Errorf("templated: %+v", u)
	}
}

func TestTypedResourceWithUnknownNamespaceIsReported(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `variable "ns" {}
resource "kubernetes_cron_job_v1" "report" {
  metadata {
    name      = "report"
    namespace = var.ns
  }
  spec {
    schedule = "*/5 * * * *"
  }
}
`})
	var workloads, unresolved int
	var reason string
	for _, f := range Load([]string{root}, Options{}) {
		workloads += len(f.Workloads)
		unresolved += len(f.Unresolved)
		for _, u := range f.Unresolved {
			reason = u.Reason
		}
	}
	if workloads != 0 || unresolved != 1 || reason != "metadata.namespace depends on var.ns (no default, and no value in tfvars or --var)" {
		t.Errorf("%d workloads, %d unresolved (%s): a CronJob whose namespace is unknown must be reported, not put in the default namespace", workloads, unresolved, reason)
	}
}

// loadedObjects are the workloads and unresolved objects of every fragment loaded from root.
func loadedObjects(root string) (workloads []inventory.Workload, unresolved []inventory.UnresolvedObject) {
	for _, f := range Load([]string{root}, Options{}) {
		workloads = append(workloads, f.Workloads...)
		unresolved = append(unresolved, f.Unresolved...)
	}
	return workloads, unresolved
}

// TestTypedResourceDynamicBlocks: a typed kubernetes_* resource's dynamic blocks are the
// blocks their for_each generates; one whose for_each is unknown is left out when no verdict
// reads it (env), and makes the object unresolved, at the block, when one does (toleration).
func TestTypedResourceDynamicBlocks(t *testing.T) {
	job := func(name, block, forEach, content string) string {
		return `resource "kubernetes_job_v1" "` + name + `" {
  metadata {
    name      = "` + name + `"
    namespace = "default"
  }
  spec {
    template {
      metadata {}
      spec {
        container {
          name  = "main"
          image = "busybox"
        }
        dynamic "` + block + `" {
          for_each = ` + forEach + `
          content {
            ` + content + `
          }
        }
      }
    }
  }
}
`
	}
	for _, tc := range []struct {
		name, block, forEach, content string
		tolerations, unresolvedLine   int
		reason                        string
	}{
		{"known", "toleration", `[{ k = "a" }, { k = "b" }]`, `key = toleration.value.k`, 2, 0, ""},
		{"iterator", "toleration", `{ x = "a" }`, "key = toleration.key", 1, 0, ""},
		{"unknown-env", "env", "var.env", "name = env.key", 0, 0, ""},
		{"unknown-toleration", "toleration", "var.t", "key = toleration.value", 0, 16, `the dynamic "toleration" block's for_each depends on var.t (no default`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"main.tf": `variable "env" {}
variable "t" {}
` + job(tc.name, tc.block, tc.forEach, tc.content)})
			workloads, unresolved := loadedObjects(root)
			if tc.unresolvedLine > 0 {
				if len(workloads) != 0 || len(unresolved) != 1 || unresolved[0].Location.Line != tc.unresolvedLine || !strings.Contains(unresolved[0].Reason, tc.reason) {
					t.Fatalf("%d workloads, unresolved %+v; want the object unresolved at line %d: %s", len(workloads), unresolved, tc.unresolvedLine, tc.reason)
				}
				return
			}
			if len(workloads) != 1 || len(unresolved) != 0 {
				t.Fatalf("%d workloads, %d unresolved; want the Job read", len(workloads), len(unresolved))
			}
			if got := len(workloads[0].Pod.Tolerations); got != tc.tolerations {
				t.Errorf("%d tolerations, want %d: %+v", got, tc.tolerations, workloads[0].Pod.Tolerations)
			}
		})
	}
}

// TestTypedResourceUnknownToleration: a toleration whose key only Terraform knows would,
// left out, tolerate less than the real one, and the pods would seem to land on fewer node
// groups: the object is unresolved at the attribute. An unknown image is left out.
func TestTypedResourceUnknownToleration(t *testing.T) {
	for _, tc := range []struct {
		name, toleration, image string
		unresolvedLine          int
	}{
		{"unknown-key", "var.k", `"busybox"`, 14},
		{"unknown-image", `"sgp"`, "var.image", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"main.tf": `variable "k" {}
variable "image" {}
resource "kubernetes_job_v1" "j" {
  metadata {
    name      = "j"
    namespace = "default"
  }
  spec {
    template {
      metadata {}
      spec {
        toleration {
          operator = "Equal"
          key      = ` + tc.toleration + `
          value    = "true"
        }
        container {
          name  = "main"
          image = ` + tc.image + `
        }
      }
    }
  }
}
`})
			workloads, unresolved := loadedObjects(root)
			if tc.unresolvedLine > 0 {
				if len(workloads) != 0 || len(unresolved) != 1 || unresolved[0].Location.Line != tc.unresolvedLine || !strings.Contains(unresolved[0].Reason, "tolerations[].key depends on var.k") {
					t.Fatalf("%d workloads, unresolved %+v; want the Job unresolved at line %d", len(workloads), unresolved, tc.unresolvedLine)
				}
				return
			}
			if len(workloads) != 1 || len(unresolved) != 0 || len(workloads[0].Pod.Tolerations) != 1 || workloads[0].Pod.Tolerations[0].Key != "sgp" {
				t.Fatalf("%d workloads, %d unresolved: want the Job read with its toleration", len(workloads), len(unresolved))
			}
		})
	}
}

// TestTypedResourceUnknownSelection: the pod template's labels and ServiceAccount, and a
// ServiceAccount's or a bare Pod's own labels, decide which SecurityGroupPolicies select the
// pods; only Terraform knowing them makes the object unresolved at the attribute, naming what
// decides it. A Job's own labels and an unknown image decide nothing, and are left out.
func TestTypedResourceUnknownSelection(t *testing.T) {
	job := func(ownLabels, podLabels, account string) string {
		return `variable "v" {}
resource "kubernetes_job_v1" "j" {
  metadata {
    name      = "j"
    namespace = "default"
    labels    = ` + ownLabels + `
  }
  spec {
    template {
      metadata {
        labels = ` + podLabels + `
      }
      spec {
        service_account_name = ` + account + `
        container {
          name  = "main"
          image = var.v
        }
      }
    }
  }
}
`
	}
	for _, tc := range []struct {
		name, tf string
		line     int // of the unresolved attribute; 0: read
		reason   string
	}{
		{"pod labels", job(`{ team = "a" }`, "var.v", `"runner"`), 11, "spec.template.metadata.labels depends on var.v"},
		{"pod label value", job(`{ team = "a" }`, `{ sg = var.v }`, `"runner"`), 11, "spec.template.metadata.labels depends on var.v"},
		{"service account", job(`{ team = "a" }`, `{ sg = "db" }`, "var.v"), 14, "spec.template.spec.serviceAccountName depends on var.v"},
		{"own labels", job("var.v", `{ sg = "db" }`, `"runner"`), 0, ""},
		{"service account labels", `variable "v" {}
resource "kubernetes_service_account_v1" "sa" {
  metadata {
    name      = "runner"
    namespace = "default"
    labels    = { sgp = var.v }
  }
}
`, 6, "metadata.labels depends on var.v"},
		{"bare pod labels", `variable "v" {}
resource "kubernetes_pod_v1" "p" {
  metadata {
    name      = "p"
    namespace = "default"
    labels    = var.v
  }
  spec {
    container {
      name  = "main"
      image = "busybox"
    }
  }
}
`, 6, "metadata.labels depends on var.v"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"main.tf": tc.tf})
			var objects int
			var unresolved []inventory.UnresolvedObject
			for _, f := range Load([]string{root}, Options{}) {
				objects += len(f.Workloads) + len(f.ServiceAccounts)
				unresolved = append(unresolved, f.Unresolved...)
			}
			if tc.line == 0 {
				if objects != 1 || len(unresolved) != 0 {
					t.Fatalf("%d objects, unresolved %+v; want the object read", objects, unresolved)
				}
				return
			}
			if objects != 0 || len(unresolved) != 1 || unresolved[0].Location.Line != tc.line || !strings.Contains(unresolved[0].Reason, tc.reason) {
				t.Fatalf("%d objects, unresolved %+v; want it unresolved at line %d: %s", objects, unresolved, tc.line, tc.reason)
			}
		})
	}
}

// TestKubectlManifestWithValuesOnlyTerraformKnows: a role name or cluster endpoint
// interpolated into a manifest leaves only that field out; an unknown namespace makes the
// object unresolved, since it decides which policies select it.
func TestKubectlManifestWithValuesOnlyTerraformKnows(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `resource "aws_iam_role" "nodes" { name = "nodes-${var.env}" }
variable "env" {}
variable "ns" {}
resource "kubectl_manifest" "sgp" {
  yaml_body = <<-YAML
    apiVersion: vpcresources.k8s.aws/v1beta1
    kind: SecurityGroupPolicy
    metadata:
      name: db
      namespace: billing
      annotations: {role: "${aws_iam_role.nodes.name}", arn: "${aws_iam_role.nodes.arn}"}
    spec:
      podSelector: {matchLabels: {app: db}}
      securityGroups: {groupIds: ["${var.env}"]}
  YAML
}
resource "kubectl_manifest" "job" {
  yaml_body = yamlencode({
    apiVersion = "batch/v1"
    kind       = "Job"
    metadata   = { name = "migrate", namespace = "billing", labels = { role = aws_iam_role.nodes.name } }
    spec       = { template = { spec = { containers = [{ name = "m", image = "x" }] } } }
  })
}
resource "kubectl_manifest" "elsewhere" {
  yaml_body = <<-YAML
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: report
      namespace: ${var.ns}
      labels: {env: "${var.env}"}
  YAML
}
`})
	var sgps []inventory.SecurityGroupPolicy
	var jobs []string
	var reasons []string
	for _, f := range Load([]string{root}, Options{}) {
		sgps = append(sgps, f.SecurityGroupPolicies...)
		for _, w := range f.Workloads {
			jobs = append(jobs, w.Namespace+"/"+w.Name)
		}
		for _, u := range f.Unresolved {
			reasons = append(reasons, u.Source+": "+u.Reason)
		}
	}
	if len(sgps) != 1 || sgps[0].Namespace != "billing" || sgps[0].Locations.At("metadata.name").Line != 9 {
		t.Errorf("SGPs %+v", sgps)
	}
	if strings.Join(jobs, ",") != "billing/migrate" {
		t.Errorf("jobs %v", jobs)
	}
	// The reason names the namespace's own blocker, not var.env elsewhere in the body.
	if len(reasons) != 1 || reasons[0] != "kubectl_manifest.elsewhere: metadata.namespace depends on var.ns (no default, and no value in tfvars or --var)" {
		t.Errorf("unresolved %v", reasons)
	}
}

func TestKubectlManifestOfAKindNotReadIsQuiet(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `variable "name" {}
resource "kubectl_manifest" "issuer" {
  yaml_body = <<-YAML
    apiVersion: cert-manager.io/v1
    kind: ClusterIssuer
    metadata:
      name: ${var.name}
  YAML
}
`})
	for _, f := range Load([]string{root}, Options{}) {
		if len(f.Unresolved) != 0 || len(f.Errors) != 0 {
			t.Errorf("a ClusterIssuer changes no verdict: %+v %+v", f.Unresolved, f.Errors)
		}
	}
}

// TestKubectlManifestFromATemplateFile: templatefile() of a file in the tree is rendered with
// its variables (budgets as for .tf files); a variable only Terraform knows leaves its field
// out; a template outside the tree is refused.
func TestKubectlManifestFromATemplateFile(t *testing.T) {
	root := writeTree(t, map[string]string{
		"infra/main.tf": `resource "aws_iam_role" "r" { name = "r" }
resource "kubectl_manifest" "sgp" {
  for_each = toset(["billing", "orders"])
  yaml_body = templatefile("${path.module}/sgp.yaml.tftpl", { namespace = each.key, role = aws_iam_role.r.arn, groups = ["sg-1", "sg-2"] })
}
resource "kubectl_manifest" "outside" {
  yaml_body = templatefile("${path.module}/../../secret.tftpl", {})
}
`,
		"infra/sgp.yaml.tftpl": `apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: db
  namespace: ${namespace}
  annotations:
    role: ${role}
spec:
  podSelector: {matchLabels: {app: db}}
  securityGroups:
    groupIds:
%{ for g in groups ~}
      - ${g}
%{ endfor ~}
`,
	})
	var namespaces []string
	var errs []string
	for _, f := range Load([]string{filepath.Join(root, "infra")}, Options{}) {
		for _, p := range f.SecurityGroupPolicies {
			namespaces = append(namespaces, p.Namespace)
		}
		for _, e := range f.Errors {
			errs = append(errs, e.Message)
		}
	}
	sort.Strings(namespaces)
	if strings.Join(namespaces, ",") != "billing,orders" {
		t.Errorf("SGPs in %v", namespaces)
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "Cannot read the template") {
		t.Errorf("errors %v: the template outside the folder must be refused", errs)
	}
}

// TestEKSModuleBeforeV18: worker_groups, worker_groups_launch_template and node_groups with
// the defaults of v17.24.0.
func TestEKSModuleBeforeV18(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}
module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "17.24.0"
  subnets = module.vpc.private_subnets

  worker_groups = [
    { name = "workers", instance_type = "c5.xlarge", kubelet_extra_args = "--node-labels=role=batch,team=data --register-with-taints=batch=true:NoSchedule" },
    { name = "defaulted", asg_max_size = 3 },
    { name = "win", instance_type = "m5.large", platform = "windows" },
  ]
  worker_groups_launch_template = [
    { name = "lt", instance_type = "m5.xlarge" },
    { name = "spot", override_instance_types = ["c5.large", "c5a.large"], spot_instance_pools = 2 },
    { name = "mixed", on_demand_allocation_strategy = "prioritized" },
  ]
  node_groups_defaults = { k8s_labels = { env = "prod" } }
  node_groups = {
    managed = { instance_types = ["m5.2xlarge"], k8s_labels = { role = "app" }, subnets = module.vpc.private_subnets }
    plain   = { capacity_type = "SPOT" }
  }
}
`})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	tests := []struct {
		name, types string
		self, win   bool
		labels      string
	}{
		{"workers", "c5.xlarge", true, false, "role=batch,team=data"},
		{"defaulted", "m4.large", true, false, ""},
		{"win", "m5.large", true, true, ""},
		{"lt", "m5.xlarge", true, false, ""},
		{"spot", "c5.large,c5a.large", true, false, ""},
		{"mixed", "m5.large,m5a.large,m5d.large,m5ad.large", true, false, ""},
		{"managed", "m5.2xlarge", false, false, "env=prod,role=app"},
		{"plain", "m4.large", false, false, "env=prod"},
	}
	for _, tc := range tests {
		g, ok := groups[tc.name]
		if !ok {
			t.Errorf("%s: missing (have %v)", tc.name, groups)
			continue
		}
		var labels []string
		for k, v := range g.Labels {
			labels = append(labels, k+"="+v)
		}
		sort.Strings(labels)
		if strings.Join(g.InstanceTypes, ",") != tc.types || g.SelfManaged != tc.self || g.Windows != tc.win || strings.Join(labels, ",") != tc.labels || g.UnknownTypes != "" {
			t.Errorf("%s: types %v self %v windows %v labels %v (%s)", tc.name, g.InstanceTypes, g.SelfManaged, g.Windows, labels, g.UnknownTypes)
		}
	}
	if w := groups["workers"]; len(w.Taints) != 1 || w.Taints[0] != (inventory.Taint{Key: "batch", Value: "true", Effect: "NoSchedule"}) {
		t.Errorf("workers taints %+v", w.Taints)
	}
	if p := groups["plain"]; p.CapacityType != "SPOT" {
		t.Errorf("plain capacity %q", p.CapacityType)
	}
}

func TestMissingLocalModuleIsReportedNotFatal(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": "module \"nodes\" {\n  source = \"./modules/nodes\"\n}\n"})
	var unresolved []inventory.UnresolvedObject
	for _, f := range Load([]string{root}, Options{}) {
		if len(f.Errors) > 0 {
			t.Errorf("errors %+v: a module folder that is not in the tree is no error of the tree", f.Errors)
		}
		unresolved = append(unresolved, f.Unresolved...)
	}
	if len(unresolved) != 1 || unresolved[0].Source != "module.nodes" || !unresolved[0].Module || unresolved[0].Location.Line != 1 || !strings.Contains(unresolved[0].Reason, `"./modules/nodes" is not a folder here`) {
		t.Errorf("unresolved %+v", unresolved)
	}
}

func TestKubernetesManifestWithSomeUnknownFields(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `resource "aws_iam_role" "r" { name = "r" }
variable "ns" {}
resource "kubernetes_manifest" "sgp" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata   = { name = "db", namespace = "billing", annotations = { role = aws_iam_role.r.arn } }
    spec       = { podSelector = { matchLabels = { app = "db" } }, securityGroups = { groupIds = ["sg-1"] } }
  }
}
resource "kubernetes_manifest" "elsewhere" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata   = { name = "db", namespace = var.ns }
  }
}
`})
	var sgps, unresolved []string
	for _, f := range Load([]string{root}, Options{}) {
		for _, p := range f.SecurityGroupPolicies {
			sgps = append(sgps, p.Namespace+"/"+p.Name)
		}
		for _, u := range f.Unresolved {
			unresolved = append(unresolved, u.Source+": "+u.Reason)
		}
	}
	if strings.Join(sgps, ",") != "billing/db" {
		t.Errorf("SGPs %v: a role ARN beside the selector must not hide the SGP", sgps)
	}
	if len(unresolved) != 1 || !strings.HasPrefix(unresolved[0], "kubernetes_manifest.elsewhere: metadata.namespace depends on var.ns") {
		t.Errorf("unresolved %v", unresolved)
	}
}

// TestHelmReleaseOfALocalChart: a helm_release whose chart is a folder of the tree is
// rendered with its namespace, values and set blocks; a remote chart is reported.
func TestHelmReleaseOfALocalChart(t *testing.T) {
	root := writeTree(t, map[string]string{
		"infra/main.tf": `resource "aws_iam_role" "r" { name = "r" }
resource "helm_release" "reports" {
  name      = "reports"
  chart     = "${path.module}/../charts/reports"
  namespace = "billing"
  values = [
    yamlencode({ schedule = "*/5 * * * *", role = aws_iam_role.r.arn }),
    <<-EOT
    ttl: 600
    EOT
  ]
  set {
    name  = "labels.app"
    value = "db-report"
  }
}
resource "helm_release" "remote" {
  name       = "karpenter"
  repository = "oci://public.ecr.aws/karpenter"
  chart      = "karpenter"
}
`,
		"charts/reports/Chart.yaml":  "apiVersion: v2\nname: reports\nversion: 0.1.0\n",
		"charts/reports/values.yaml": "schedule: '@daily'\nttl: 60\nlabels: {app: x}\n",
		"charts/reports/templates/cronjob.yaml": `apiVersion: batch/v1
kind: CronJob
metadata:
  name: {{ .Release.Name }}
spec:
  schedule: {{ .Values.schedule | quote }}
  jobTemplate:
    spec:
      ttlSecondsAfterFinished: {{ .Values.ttl }}
      template:
        metadata:
          labels: {app: {{ .Values.labels.app }}}
        spec:
          containers: [{name: c, image: x}]
`,
	})
	frags := Load([]string{filepath.Join(root, "infra"), filepath.Join(root, "charts")}, Options{Kubernetes: kubernetes.Options{DefaultNamespace: "default"}})
	var jobs []inventory.Workload
	var unresolved []string
	for _, f := range frags {
		jobs = append(jobs, f.Workloads...)
		for _, u := range f.Unresolved {
			unresolved = append(unresolved, u.Source+": "+u.Reason)
		}
		for _, e := range f.Errors {
			t.Errorf("error %v: %s", e.Position, e.Message)
		}
	}
	if len(jobs) != 1 {
		t.Fatalf("workloads %+v", jobs)
	}
	j := jobs[0]
	if j.Name != "reports" || j.Namespace != "billing" || j.CronJob == nil || j.CronJob.Schedule != "*/5 * * * *" || j.Job.TTLSecondsAfterFinished == nil || *j.Job.TTLSecondsAfterFinished != 600 ||
		j.Pod.Labels["app"] != "db-report" || filepath.Base(j.Locations.At("").File) != "cronjob.yaml" {
		t.Errorf("rendered CronJob %s/%s cron %+v ttl %v labels %v at %v", j.Namespace, j.Name, j.CronJob, j.Job.TTLSecondsAfterFinished, j.Pod.Labels, j.Locations.At(""))
	}
	if len(unresolved) != 1 || !strings.Contains(unresolved[0], "helm_release.remote: the chart karpenter from oci://public.ecr.aws/karpenter is not a folder of the tree") {
		t.Errorf("unresolved %v", unresolved)
	}
}

// TestHelmReleaseThatNeedsValuesOnlyTerraformKnows: when a left-out value breaks the
// rendering, that is an ENI006 at the chart, not a failed run.
func TestHelmReleaseThatNeedsValuesOnlyTerraformKnows(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `data "aws_availability_zones" "all" {}
resource "helm_release" "pools" {
  name  = "pools"
  chart = "./pools"
  set_list {
    name  = "zones"
    value = data.aws_availability_zones.all.names
  }
}
`,
		"pools/Chart.yaml":          "apiVersion: v2\nname: pools\nversion: 0.1.0\n",
		"pools/templates/pool.yaml": "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: p\nspec:\n  zones: {{ required \"zones\" .Values.zones }}\n",
	})
	var unresolved []string
	for _, f := range Load([]string{root}, Options{}) {
		for _, e := range f.Errors {
			t.Errorf("error %v: %s", e.Position, e.Message)
		}
		for _, u := range f.Unresolved {
			unresolved = append(unresolved, u.Source+": "+u.Reason)
		}
	}
	if len(unresolved) != 1 || !strings.HasPrefix(unresolved[0], "helm_release.pools: the chart does not render without the values only Terraform knows") {
		t.Errorf("unresolved %v", unresolved)
	}
}

// TestModulesDownloadedByTerraformInit: with .terraform/modules/modules.json, registry and
// git modules that `terraform init` put into the tree are evaluated like local ones.
func TestModulesDownloadedByTerraformInit(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `module "nodes" {
  source  = "example/nodes/aws"
  version = "1.0.0"
  type    = "c5.2xlarge"
}
module "other" {
  source = "git::https://example.com/other.git"
}
`,
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},
 {"Key":"nodes","Source":"registry.terraform.io/example/nodes/aws","Version":"1.0.0","Dir":".terraform/modules/nodes"},
 {"Key":"nodes.inner","Source":"git::https://example.com/inner.git","Dir":".terraform/modules/nodes.inner"},
 {"Key":"other","Source":"git::https://example.com/other.git","Dir":"../../outside"}]}`,
		".terraform/modules/nodes/main.tf": `variable "type" {}
module "inner" {
  source = "git::https://example.com/inner.git"
  type   = var.type
}
`,
		".terraform/modules/nodes.inner/main.tf": `variable "type" {}
resource "aws_eks_node_group" "g" {
  node_group_name = "downloaded"
  instance_types  = [var.type]
}
`,
	})
	frags := Load([]string{root}, Options{})
	groups := groupsOf(t, frags)
	if g := groups["downloaded"]; strings.Join(g.InstanceTypes, ",") != "c5.2xlarge" {
		t.Errorf("downloaded: %v (%s); groups %v", g.InstanceTypes, g.UnknownTypes, groups)
	}
	for _, f := range frags {
		for _, e := range f.Errors {
			t.Errorf("error %v: %s", e.Position, e.Message)
		}
	}
}

func TestEKSBlueprintsV4NodeGroups(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}
module "eks_blueprints" {
  source             = "github.com/aws-ia/terraform-aws-eks-blueprints?ref=v4.32.1"
  private_subnet_ids = module.vpc.private_subnets
  managed_node_groups = {
    mg_5 = {
      node_group_name = "managed-ondemand"
      instance_types  = ["m5.xlarge"]
      subnet_ids      = module.vpc.private_subnets
      k8s_labels      = { role = "app" }
      k8s_taints      = [{ key = "db", value = "true", effect = "NO_SCHEDULE" }]
    }
    mg_default = { node_group_name = "defaulted" }
  }
  self_managed_node_groups = {
    self_mg = { node_group_name = "self-ondemand", instance_types = ["c5.large", "c5a.large"], kubelet_extra_args = "--node-labels=pool=self" }
    win     = { node_group_name = "windows", launch_template_os = "windows", instance_type = "m5.large", instance_types = ["m5.large"] }
  }
}
module "addons" {
  source = "github.com/aws-ia/terraform-aws-eks-blueprints//modules/kubernetes-addons?ref=v4.32.1"
}
`})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	if g := groups["managed-ondemand"]; strings.Join(g.InstanceTypes, ",") != "m5.xlarge" || g.Labels["role"] != "app" || len(g.Taints) != 1 || g.Taints[0].Effect != "NoSchedule" || g.SelfManaged {
		t.Errorf("managed-ondemand: %+v", g)
	}
	if g := groups["defaulted"]; strings.Join(g.InstanceTypes, ",") != "m5.large" || g.CapacityType != "ON_DEMAND" {
		t.Errorf("defaulted: %+v", g)
	}
	if g := groups["self-ondemand"]; strings.Join(g.InstanceTypes, ",") != "c5.large,c5a.large" || !g.SelfManaged || g.Labels["pool"] != "self" {
		t.Errorf("self-ondemand: %+v", g)
	}
	if g := groups["windows"]; !g.Windows {
		t.Errorf("windows: %+v", g)
	}
	if len(groups) != 4 {
		t.Errorf("groups %v", groups)
	}
}

// TestModuleWithCountZeroDeclaresNothing: `count = var.enable_x ? 1 : 0` with the feature
// off creates no node group; it was evaluated anyway and counted.
func TestModuleWithCountZeroDeclaresNothing(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `variable "enable_gpu" { default = false }
module "gpu" {
  count  = var.enable_gpu ? 1 : 0
  source = "./nodes"
  name   = "gpu"
}
module "none" {
  for_each = {}
  source   = "./nodes"
  name     = "none"
}
module "cpu" {
  source = "./nodes"
  name   = "cpu"
}
`,
		"nodes/main.tf": `variable "name" {}
resource "aws_eks_node_group" "g" {
  node_group_name = var.name
  instance_types  = ["m5.large"]
}
`,
	})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	if _, ok := groups["cpu"]; !ok || len(groups) != 1 {
		t.Errorf("groups %v: only cpu exists", groups)
	}
}

func TestNullInstanceTypesAreUnset(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `variable "instance_types" { default = null }
resource "aws_eks_node_group" "g" {
  node_group_name = "g"
  instance_types  = var.instance_types
}
`})
	if g := groupsOf(t, Load([]string{root}, Options{}))["g"]; strings.Join(g.InstanceTypes, ",") != "t3.medium" || g.UnknownTypes != "" {
		t.Errorf("null instance_types is EKS's default: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
}

// TestModuleForEachEvaluatesEachInstance: a module called for each entry of a map declares
// one node group per entry, with that entry's settings.
func TestModuleForEachEvaluatesEachInstance(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `variable "groups" {
  default = {
    cpu = { types = ["m5.large"] }
    gpu = { types = ["g5.xlarge"] }
  }
}
module "ng" {
  for_each = var.groups
  source   = "./ng"
  name     = each.key
  types    = each.value.types
}
module "pair" {
  count  = 2
  source = "./ng"
  name   = "pair-${count.index}"
  types  = ["c5.large"]
}
`,
		"ng/main.tf": `variable "name" {}
variable "types" { default = null }
resource "aws_eks_node_group" "this" {
  node_group_name = var.name
  instance_types  = var.types
}
`,
	})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	want := map[string]string{"cpu": "m5.large", "gpu": "g5.xlarge", "pair-0": "c5.large", "pair-1": "c5.large"}
	for name, types := range want {
		if g := groups[name]; strings.Join(g.InstanceTypes, ",") != types {
			t.Errorf("%s: %v (%s)", name, g.InstanceTypes, g.UnknownTypes)
		}
	}
	if len(groups) != len(want) {
		t.Errorf("groups %v", groups)
	}
}

// TestModuleInputsAsTerraformTypesThem: the shape of the EKS module since v20: a map of
// objects with optional() attributes, a for_each that chooses between it and {}, values that
// only Terraform knows inside it, and a submodule variable with nullable = false that takes
// its default when the caller passes null.
func TestModuleInputsAsTerraformTypesThem(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}
locals { name = "ex-${basename(path.cwd)}" }
module "cluster" {
  source = "./cluster"
  groups = {
    core = { types = ["m6i.large"], subnets = module.vpc.private_subnets, tags = { "owner/${local.name}" = "x" } }
  }
}
`,
		"cluster/main.tf": `variable "create" { default = true }
variable "groups" {
  type = map(object({
    create  = optional(bool)
    types   = optional(list(string), ["t3.large"])
    subnets = optional(list(string))
    tags    = optional(map(string))
  }))
  default = null
}
module "group" {
  source   = "./group"
  for_each = var.create && var.groups != null ? var.groups : {}
  create   = each.value.create
  name     = each.key
  types    = each.value.types
}
`,
		"cluster/group/main.tf": `variable "create" {
  type     = bool
  default  = true
  nullable = false
}
variable "name" {}
variable "types" {}
resource "aws_eks_node_group" "this" {
  count           = var.create ? 1 : 0
  node_group_name = var.name
  instance_types  = var.types
}
`,
	})
	groups := groupsOf(t, Load([]string{root}, Options{}))
	if g := groups["core"]; strings.Join(g.InstanceTypes, ",") != "m6i.large" || g.UnknownTypes != "" || len(groups) != 1 {
		t.Errorf("groups %v", groups)
	}
}

func TestLengthAsTerraformCountsIt(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
}
locals { config = { role = module.vpc.vpc_id, ns = "x" } }
resource "aws_eks_node_group" "g" {
  count           = length(local.config) > 0 ? 1 : 0
  node_group_name = "g"
  instance_types  = [length("abc") == 3 ? "m5.large" : "c5.large"]
}
`})
	if g := groupsOf(t, Load([]string{root}, Options{}))["g"]; strings.Join(g.InstanceTypes, ",") != "m5.large" {
		t.Errorf("length of an object and of a string: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
}

func TestFargateProfiles(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `variable "ns" {}
resource "aws_eks_fargate_profile" "batch" {
  fargate_profile_name = "batch"
  selector {
    namespace = "batch"
    labels    = { compute = "fargate" }
  }
  selector {
    namespace = var.ns
  }
}
module "eks" {
  source = "terraform-aws-modules/eks/aws"
  fargate_profiles = {
    apps = { selectors = [{ namespace = "app-*" }] }
  }
}
`})
	var profiles []inventory.FargateProfile
	for _, f := range Load([]string{root}, Options{}) {
		profiles = append(profiles, f.FargateProfiles...)
	}
	if len(profiles) != 2 {
		t.Fatalf("profiles %+v", profiles)
	}
	byName := map[string]inventory.FargateProfile{}
	for _, p := range profiles {
		byName[p.Name] = p
	}
	// The selector whose namespace only Terraform knows is left out: its pods stay on nodes.
	if b := byName["batch"]; len(b.Selectors) != 1 || b.Selectors[0].Namespace != "batch" || b.Selectors[0].Labels["compute"] != "fargate" {
		t.Errorf("batch %+v", b)
	}
	if a := byName["apps"]; len(a.Selectors) != 1 || a.Selectors[0].Namespace != "app-*" {
		t.Errorf("apps %+v", a)
	}
}

func TestManagedNodeGroupWithUnknownLabels(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `variable "team" {}
resource "aws_eks_node_group" "g" {
  node_group_name = "g"
  instance_types  = ["m5.large"]
  labels          = { team = var.team }
}
`})
	if g := groupsOf(t, Load([]string{root}, Options{}))["g"]; len(g.InstanceTypes) != 0 || !strings.HasPrefix(g.UnknownTypes, "labels depends on var.team") {
		t.Errorf("labels decide placement: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
}

func TestOutputsOfModuleInstances(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `module "sizes" {
  for_each = { small = "m5.large", big = "m5.4xlarge" }
  source   = "./size"
  type     = each.value
}
module "pair" {
  count  = 2
  source = "./size"
  type   = "c5.large"
}
resource "aws_eks_node_group" "g" {
  node_group_name = "g"
  instance_types  = [module.sizes["big"].type, module.pair[1].type]
}
`,
		"size/main.tf": "variable \"type\" {}\noutput \"type\" { value = var.type }\n",
	})
	if g := groupsOf(t, Load([]string{root}, Options{}))["g"]; strings.Join(g.InstanceTypes, ",") != "m5.4xlarge,c5.large" {
		t.Errorf("module instance outputs: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
}

// TestKarpenterNodePoolInKubectlManifest: NodePools are often applied with kubectl_manifest,
// their role or cluster name interpolated.
func TestKarpenterNodePoolInKubectlManifest(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `module "eks" {
  source = "terraform-aws-modules/eks/aws"
}
resource "kubectl_manifest" "pool" {
  yaml_body = <<-YAML
    apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata:
      name: default
    spec:
      template:
        spec:
          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
          requirements:
            - key: karpenter.k8s.aws/instance-family
              operator: In
              values: ["m5"]
  YAML
}
resource "kubectl_manifest" "class" {
  yaml_body = <<-YAML
    apiVersion: karpenter.k8s.aws/v1
    kind: EC2NodeClass
    metadata:
      name: default
    spec:
      amiFamily: AL2023
      role: ${module.eks.cluster_name}-nodes
  YAML
}
`})
	var pools []inventory.NodePool
	var classes []inventory.NodeClass
	for _, f := range Load([]string{root}, Options{}) {
		pools = append(pools, f.NodePools...)
		classes = append(classes, f.NodeClasses...)
		if len(f.Unresolved) > 0 || len(f.Errors) > 0 {
			t.Errorf("unresolved %+v, errors %+v", f.Unresolved, f.Errors)
		}
	}
	if len(pools) != 1 || pools[0].Name != "default" || len(pools[0].Requirements) != 1 || pools[0].Location.Line != 6 || pools[0].RequirementLocations[0].Line != 15 {
		t.Errorf("pools %+v", pools)
	}
	if len(classes) != 1 || classes[0].AMIFamily != "AL2023" {
		t.Errorf("classes %+v", classes)
	}
}

// TestFileReadsTheTree: file() of a file in the tree is its content (kubectl_file_documents
// content, split(file("types.txt")), jsondecode(file(...))); a file outside is unknown.
func TestFileReadsTheTree(t *testing.T) {
	root := writeTree(t, map[string]string{
		"infra/main.tf": `resource "aws_eks_node_group" "g" {
  node_group_name = "g"
  instance_types  = split(",", trimspace(file("${path.module}/types.txt")))
}
resource "aws_eks_node_group" "outside" {
  node_group_name = "outside"
  instance_types  = [file("${path.module}/../../secret.txt")]
}
`,
		"infra/types.txt": "m5.large,c5.large\n",
	})
	groups := groupsOf(t, Load([]string{filepath.Join(root, "infra")}, Options{}))
	if g := groups["g"]; strings.Join(g.InstanceTypes, ",") != "m5.large,c5.large" {
		t.Errorf("g: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
	if g := groups["outside"]; len(g.InstanceTypes) != 0 || !strings.Contains(g.UnknownTypes, "outside the repository") {
		t.Errorf("outside: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
}

// TestKubectlFileDocuments: for_each over data.kubectl_file_documents of a file in the tree
// declares each of its documents.
func TestKubectlFileDocuments(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `data "kubectl_file_documents" "app" {
  content = file("${path.module}/app.yaml")
}
resource "kubectl_manifest" "app" {
  for_each  = data.kubectl_file_documents.app.manifests
  yaml_body = each.value
}
resource "kubectl_manifest" "first" {
  yaml_body = data.kubectl_file_documents.app.documents[0]
}
`,
		"manifests/.keep": "",
		"app.yaml":        "apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: db, namespace: billing}\nspec: {podSelector: {}, securityGroups: {groupIds: [sg-1]}}\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: report, namespace: billing}\n",
	})
	var sgps, jobs int
	for _, f := range Load([]string{root}, Options{}) {
		sgps += len(f.SecurityGroupPolicies)
		jobs += len(f.Workloads)
		if len(f.Unresolved) > 0 || len(f.Errors) > 0 {
			t.Errorf("unresolved %+v, errors %+v", f.Unresolved, f.Errors)
		}
	}
	// The for_each declares both documents; "first" declares the SGP again, as Terraform
	// would apply it twice. (When the walk reads app.yaml too, the loaders keep the file's.)
	if sgps != 2 || jobs != 1 {
		t.Errorf("%d SGPs, %d Jobs", sgps, jobs)
	}
}

// TestAutoModeComputeConfig: EKS Auto Mode's built-in pools from aws_eks_cluster's
// compute_config and from the EKS module's compute_config (v21) or cluster_compute_config
// (v20); an unknown node_pools is an unknown node group that says why.
func TestAutoModeComputeConfig(t *testing.T) {
	tests := []struct {
		name, src string
		pools     string
		unknown   string
	}{
		{"resource", `resource "aws_eks_cluster" "c" {
  name = "c"
  compute_config {
    enabled    = true
    node_pools = ["general-purpose", "system"]
  }
}`, "general-purpose@5,system@5", ""},
		{"resource disabled", `resource "aws_eks_cluster" "c" {
  compute_config {
    enabled    = false
    node_pools = ["general-purpose"]
  }
}`, "", ""},
		{"resource without built-in pools", `resource "aws_eks_cluster" "c" {
  compute_config {
    enabled = true
  }
}`, "", ""},
		{"module v21", `module "eks" {
  source = "terraform-aws-modules/eks/aws"
  compute_config = {
    enabled    = true
    node_pools = ["general-purpose"]
  }
}`, "general-purpose@5", ""},
		{"module v20", `module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.31"
  cluster_compute_config = {
    enabled    = true
    node_pools = ["system"]
  }
}`, "system@6", ""},
		{"unknown node_pools", `variable "pools" {}
module "eks" {
  source = "terraform-aws-modules/eks/aws"
  compute_config = {
    enabled    = true
    node_pools = var.pools
  }
}`, "", "node_pools depends on var.pools"},
		{"unknown pool name", `resource "aws_eks_cluster" "c" {
  compute_config {
    enabled    = true
    node_pools = ["gpu"]
  }
}`, "", `names "gpu"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"main.tf": tc.src})
			var pools []string
			unknown := ""
			for _, f := range Load([]string{root}, Options{}) {
				for _, p := range f.NodePools {
					pools = append(pools, fmt.Sprintf("%s@%d", p.Name, p.Location.Line))
					if p.NodeClassGroup != "eks.amazonaws.com" {
						t.Errorf("pool %+v", p)
					}
				}
				for _, g := range f.NodeGroups {
					if g.AutoMode {
						unknown += g.UnknownTypes
					}
				}
			}
			if strings.Join(pools, ",") != tc.pools || (tc.unknown == "") != (unknown == "") || !strings.Contains(unknown, tc.unknown) {
				t.Errorf("pools %v, unknown %q", pools, unknown)
			}
		})
	}
}

// unresolvedReasons lists the reasons of every unresolved declaration the fragments report.
func unresolvedReasons(frags []inventory.Fragment) []string {
	var out []string
	for _, f := range frags {
		for _, u := range f.Unresolved {
			out = append(out, u.Reason)
		}
	}
	return out
}

// fileset() lists the files of the scanned tree, so kubectl_manifest { for_each = fileset(…) }
// reads each one; a folder outside the tree or past the budget makes only its value unknown,
// and the reason names the call.
func TestFileset(t *testing.T) {
	job := func(name string) string {
		return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: " + name + ", namespace: batch}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n"
	}
	tree := map[string]string{
		"infra/manifests/a.yaml":        job("a"),
		"infra/manifests/b.yaml":        job("b"),
		"infra/manifests/nested/c.yaml": job("c"),
		"infra/manifests/notes.txt":     "not yaml",
	}
	for _, tc := range []struct {
		name, forEach, yamlBody string
		jobs                    []string
		unresolved              string
	}{
		{"star", `fileset("${path.module}/manifests", "*.yaml")`, `file("${path.module}/manifests/${each.value}")`, []string{"a", "b"}, ""},
		{"double star", `fileset(path.module, "manifests/**/*.yaml")`, `file("${path.module}/${each.value}")`, []string{"a", "b", "c"}, ""},
		{"alternatives", `fileset("manifests", "{a,nested/c}.yaml")`, `file("manifests/${each.value}")`, []string{"a", "c"}, ""},
		{"no folder", `fileset("${path.module}/missing", "*.yaml")`, `file(each.value)`, nil, ""},
		{"outside the tree", `fileset("${path.module}/../..", "*.yaml")`, `file(each.value)`, nil, `fileset("./../..", "*.yaml")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"infra/main.tf": `
resource "kubectl_manifest" "m" {
  for_each  = ` + tc.forEach + `
  yaml_body = ` + tc.yamlBody + `
}
`}
			for k, v := range tree {
				files[k] = v
			}
			root := writeTree(t, files)
			frags := Load([]string{filepath.Join(root, "infra")}, Options{})
			checkWorkloads(t, frags, tc.jobs, tc.unresolved)
		})
	}
}

// checkWorkloads compares the workloads the fragments read with want (by name), and their
// unresolved declarations with one naming unresolved (none when it is empty).
func checkWorkloads(t *testing.T, frags []inventory.Fragment, want []string, unresolved string) {
	t.Helper()
	var got []string
	for _, f := range frags {
		for _, w := range f.Workloads {
			got = append(got, w.Name)
		}
	}
	sort.Strings(got)
	reasons := unresolvedReasons(frags)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("jobs %v, want %v (unresolved %q)", got, want, reasons)
	}
	if unresolved != "" && (len(reasons) != 1 || !strings.Contains(reasons[0], unresolved)) {
		t.Errorf("unresolved %q, want one naming %s", reasons, unresolved)
	}
	if unresolved == "" && len(reasons) > 0 {
		t.Errorf("unresolved %q", reasons)
	}
}

func TestFilesetBudget(t *testing.T) {
	saved := maxFilesetEntries
	maxFilesetEntries = 5
	defer func() { maxFilesetEntries = saved }()
	files := map[string]string{"main.tf": `
resource "kubectl_manifest" "m" {
  for_each  = fileset(path.module, "m/*.yaml")
  yaml_body = file("${path.module}/m/${each.value}")
}
`}
	for i := 0; i < 10; i++ {
		files[fmt.Sprintf("m/%d.yaml", i)] = "kind: Namespace\napiVersion: v1\nmetadata: {name: n}\n"
	}
	root := writeTree(t, files)
	reasons := unresolvedReasons(Load([]string{root}, Options{}))
	if len(reasons) != 1 || !strings.Contains(reasons[0], "more than 5 entries under the folder (a budget)") {
		t.Errorf("reasons %q", reasons)
	}
}

// FuzzFileset: any pattern and folder argument gives a set, an unknown value or a located
// error, never a crash or a read outside the tree.
func FuzzFileset(f *testing.F) {
	for _, s := range []string{"*.yaml", "**/*.yaml", "{a,b}.yaml", "[", "\\", "../*", "**/../../*", "a/**/**/b"} {
		f.Add(".", s)
	}
	f.Add("../..", "*")
	f.Add("/etc", "*")
	f.Fuzz(func(t *testing.T, dir, pattern string) {
		if !utf8.ValidString(dir) || !utf8.ValidString(pattern) {
			return
		}
		root := writeTree(t, map[string]string{
			"main.tf": fmt.Sprintf(`
resource "kubectl_manifest" "m" {
  for_each  = fileset(%q, %q)
  yaml_body = file(each.value)
}
`, dir, pattern),
			"a.yaml": "kind: Namespace\napiVersion: v1\nmetadata: {name: a}\n",
		})
		for _, frag := range Load([]string{root}, Options{}) {
			for _, e := range frag.Errors {
				if e.Position.File == "" || strings.Contains(e.Message, "cannot evaluate this Terraform module") {
					t.Fatalf("error %+v", e)
				}
			}
		}
	})
}

// yaml_body = each.value over a map whose values only Terraform knows: the reason names what
// the for_each values depend on, not "the expression is not known statically".
func TestEachValueBodyNamesTheForEachBlocker(t *testing.T) {
	root := writeTree(t, map[string]string{"main.tf": `
data "aws_ssm_parameter" "role" { name = "/eks/node-role" }
locals {
  pools = { general = "kind: NodePool\nrole: ${data.aws_ssm_parameter.role.value}" }
}
resource "kubectl_manifest" "pool" {
  for_each  = local.pools
  yaml_body = each.value
}
`})
	reasons := unresolvedReasons(Load([]string{root}, Options{}))
	if len(reasons) != 1 || !strings.Contains(reasons[0], "each.value of for_each, whose values depend on") || !strings.Contains(reasons[0], "data.aws_ssm_parameter.role.value") {
		t.Errorf("reasons %q", reasons)
	}
}

// yamldecode and the kubernetes provider's manifest_decode(_multi): objects read from YAML the
// code decodes, within the YAML budgets; YAML that cannot be read makes only that value unknown.
func TestYAMLDecode(t *testing.T) {
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s, namespace: batch}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\n"
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	for _, tc := range []struct {
		name, resource string
		jobs           []string
		unresolved     string
	}{
		{"yamldecode of a file", `resource "kubernetes_manifest" "j" {
  manifest = yamldecode(file("${path.module}/one.yaml"))
}`, []string{"one"}, ""},
		{"manifest_decode_multi over for_each", `resource "kubernetes_manifest" "j" {
  for_each = { for m in provider::kubernetes::manifest_decode_multi(file("multi.yaml")) : m.metadata.name => m }
  manifest = each.value
}`, []string{"m1", "m2"}, ""},
		{"manifest_decode of a heredoc", `resource "kubernetes_manifest" "j" {
  manifest = provider::kubernetes::manifest_decode(<<-EOT
    apiVersion: batch/v1
    kind: Job
    metadata: {name: inline, namespace: batch}
    spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}
  EOT
  )
}`, []string{"inline"}, ""},
		{"two documents where one is expected", `resource "kubernetes_manifest" "j" {
  manifest = yamldecode(file("multi.yaml"))
}`, nil, "yamldecode"},
		{"an alias bomb", `resource "kubernetes_manifest" "j" {
  manifest = yamldecode(file("bomb.yaml"))
}`, nil, "yamldecode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{
				"main.tf":    tc.resource + "\n",
				"one.yaml":   fmt.Sprintf(job, "one"),
				"multi.yaml": fmt.Sprintf(job, "m1") + "---\n" + fmt.Sprintf(job, "m2") + "---\n",
				"bomb.yaml":  bomb,
			})
			frags := Load([]string{root}, Options{Kubernetes: kubernetes.Options{YAML: yamlpos.Limits{MaxDocuments: 10, MaxAliasNodes: 1000}}})
			checkWorkloads(t, frags, tc.jobs, tc.unresolved)
		})
	}
}

func FuzzYAMLDecode(f *testing.F) {
	for _, s := range []string{"a: 1\n", "[1, 2]\n", "a: &a [1]\nb: *a\n", "---\n---\n", "{a: {b: {c: [d]}}}", "? [a]\n: b\n", "!!binary aGk=\n"} {
		f.Add(s)
	}
	lim := yamlpos.Limits{MaxDocuments: 10, MaxAliasNodes: 1000}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return
		}
		for _, multi := range []bool{false, true} {
			var why string
			v, err := yamlDecodeFunc(lim, multi, func(w string) { why = w }, nil).Call([]cty.Value{cty.StringVal(src)})
			if err != nil || (why == "") != v.IsWhollyKnown() {
				t.Fatalf("value %#v, error %v, reason %q: unknown exactly when a reason is given", v, err, why)
			}
		}
	})
}
