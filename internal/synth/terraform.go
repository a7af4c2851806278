package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteTerraform writes one Terraform root module under out/infra: files .tf files in all,
// nodeGroups aws_eks_node_group resources spread over them (two instance types each, read
// from a variable so that evaluation has work to do), the rest IAM, security group and
// launch template resources such stacks carry. The output is deterministic.
func WriteTerraform(out string, files, nodeGroups int) error {
	if files < 1 {
		return nil
	}
	dir := filepath.Join(out, "infra")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "variables.tf"), []byte(terraformVariables), 0o644); err != nil {
		return err
	}
	for f := 0; f < files; f++ {
		var b strings.Builder
		for g := f; g < nodeGroups; g += files {
			kind := "general"
			if g%2 == 1 {
				kind = "compute"
			}
			fmt.Fprintf(&b, terraformNodeGroup, g, g, kind, g)
		}
		fmt.Fprintf(&b, terraformStack, f, f, f, f, f, f, f)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("stack-%04d.tf", f)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// terraformVariables is the root's variables.tf: the node groups' types come from a map.
const terraformVariables = `variable "environment" {
  default = "prod"
}

variable "node_types" {
  default = {
    general = ["m5.large", "m5.xlarge"]
    compute = ["c6i.large", "c6i.xlarge"]
  }
}

locals {
  tags = { environment = var.environment, team = "platform" }
}
`

// terraformNodeGroup is node group number g: g, g, its kind of types, g.
const terraformNodeGroup = `resource "aws_eks_node_group" "ng_%03d" {
  cluster_name    = "main"
  node_group_name = "ng-%03d-${var.environment}"
  instance_types  = var.node_types[%q]
  labels = {
    pool = "ng-%03d"
  }
  scaling_config {
    min_size     = 1
    max_size     = 10
    desired_size = 2
  }
  tags = local.tags
}

`

// terraformStack is the rest of file number f (seven times f): the resources that are not
// node groups.
const terraformStack = `resource "aws_iam_role" "role_%04d" {
  name = "role-%04d-${var.environment}"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "ec2.amazonaws.com" } }]
  })
  tags = local.tags
}

resource "aws_security_group" "sg_%04d" {
  name   = "sg-%04d"
  vpc_id = "vpc-0123456789abcdef0"
  ingress {
    from_port   = 5432
    to_port     = 5432
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }
  tags = merge(local.tags, { name = "sg-%04d" })
}

resource "aws_launch_template" "lt_%04d" {
  name_prefix   = "lt-%04d-"
  instance_type = "m5.large"
  metadata_options {
    http_tokens = "required"
  }
}
`
