# Ignore comments on module calls: above a local module's block (its node groups and objects
# take them), and inside the registry EKS module's block, above one node group's entry or its
# instance types.

variable "batch_type" {
  description = "Set per environment by the pipeline"
  type        = string
}

# eni-lint:ignore ENI006 the batch type is set per environment and reviewed there; expires=2099-12-31
module "batch_nodes" {
  source        = "./modules/batch-nodes"
  instance_type = var.batch_type
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name = "platform"

  eks_managed_node_groups = {
    general = {
      instance_types = ["m5.large"]
    }
    # eni-lint:ignore ENI006 GPU type is picked at apply time from the quota; expires=2099-12-31
    gpu = {
      instance_types = [var.batch_type]
    }
    spot = {
      # eni-lint:ignore ENI006 spot pools come from the pipeline; expires=2099-12-31
      instance_types = [var.batch_type]
    }
    reports = {
      instance_types = [var.batch_type]
    }
  }
  # eni-lint:ignore ENI001 left after the reports group moved; matches no node group
  cluster_version = "1.31"
}
