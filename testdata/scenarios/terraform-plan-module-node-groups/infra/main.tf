variable "general_types" {
  type        = list(string)
  description = "Chosen per environment by the pipeline (TF_VAR_general_types)."
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name    = "prod"
  cluster_version = "1.30"

  eks_managed_node_groups = {
    general = {
      instance_types = var.general_types
      min_size       = 2
      max_size       = 10
    }
    gpu = {
      instance_types = ["g5.xlarge"]
      labels         = { workload = "gpu" }
      taints = {
        gpu = { key = "nvidia.com/gpu", value = "true", effect = "NO_SCHEDULE" }
      }
    }
  }
}
