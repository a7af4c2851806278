variable "environment" {
  type    = string
  default = "dev"
}

variable "batch_types" {
  type = list(string)
}

variable "gpu_type" {}

locals {
  common_labels = {
    environment = var.environment
    team        = "platform"
  }
  batch_taint = {
    key    = "dedicated"
    value  = "batch"
    effect = "NO_SCHEDULE"
  }
}

data "aws_ssm_parameter" "node_type" {
  name = "/eks/node-type"
}

resource "aws_launch_template" "general" {
  name_prefix   = "general-"
  instance_type = "m6i.large"
}

# No instance_types: the launch template's type.
resource "aws_eks_node_group" "general" {
  cluster_name    = "main"
  node_group_name = "general-${var.environment}"
  labels          = local.common_labels

  launch_template {
    id      = aws_launch_template.general.id
    version = aws_launch_template.general.latest_version
  }

  scaling_config {
    desired_size = 2
    min_size     = 1
    max_size     = 5
  }
}

# One group per entry: for_each over a known map.
resource "aws_eks_node_group" "pools" {
  for_each        = { small = ["m5.large"], large = concat(["m5.xlarge"], var.batch_types) }
  cluster_name    = "main"
  node_group_name = "pool-${each.key}"
  instance_types  = each.value
  capacity_type   = each.key == "small" ? "SPOT" : "ON_DEMAND"
  labels          = merge(local.common_labels, { pool = each.key })

  taint {
    key    = local.batch_taint.key
    value  = local.batch_taint.value
    effect = local.batch_taint.effect
  }

  scaling_config {
    desired_size = 1
    min_size     = 0
    max_size     = 3
  }
}

# Neither instance_types nor a launch template: EKS uses t3.medium.
resource "aws_eks_node_group" "defaulted" {
  cluster_name    = "main"
  node_group_name = "defaulted"
  scaling_config {
    desired_size = 1
    min_size     = 1
    max_size     = 1
  }
}

# A type read from a data source: unknown, and reported as such.
resource "aws_eks_node_group" "from_ssm" {
  cluster_name    = "main"
  node_group_name = "from-ssm"
  instance_types  = [data.aws_ssm_parameter.node_type.value]
  scaling_config {
    desired_size = 1
    min_size     = 1
    max_size     = 1
  }
}

# A variable with no default and no value anywhere: unknown too.
resource "aws_eks_node_group" "gpu" {
  count           = 1
  cluster_name    = "main"
  node_group_name = "gpu-${count.index}"
  instance_types  = [var.gpu_type]
  ami_type        = "AL2_ARM_64"
  scaling_config {
    desired_size = 1
    min_size     = 1
    max_size     = 1
  }
}

module "batch" {
  source = "./modules/batch"
  name   = "batch-${var.environment}"
  types  = ["c6i.large", "t3.large"]
}

# Not nodes: ignored.
resource "aws_db_instance" "db" {
  instance_class = "db.m5.large"
}
