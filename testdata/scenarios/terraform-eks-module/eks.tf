module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name = "main"

  cluster_addons = {
    vpc-cni = {
      configuration_values = jsonencode({ env = { ENABLE_POD_ENI = "true" } })
    }
  }

  eks_managed_node_group_defaults = {
    ami_type = "AL2023_ARM_64_STANDARD"
  }

  eks_managed_node_groups = {
    general = {
      instance_types = ["m7g.large", "m7g.xlarge"]
      labels         = { workload = "general" }
    }
    batch = {
      name           = "batch-nodes"
      instance_types = ["c7g.large"]
      taints = {
        dedicated = {
          key    = "dedicated"
          value  = "batch"
          effect = "NO_SCHEDULE"
        }
      }
    }
    # No instance_types: EKS chooses t3.medium.
    plain = {
      ami_type = "AL2023_x86_64_STANDARD"
    }
  }

  self_managed_node_groups = {
    legacy = {
      instance_type = "m5.large"
    }
    unset = {}
  }
}

module "windows" {
  source         = "terraform-aws-modules/eks/aws//modules/eks-managed-node-group"
  name           = "windows"
  cluster_name   = "main"
  ami_type       = "WINDOWS_CORE_2022_x86_64"
  instance_types = ["m5.large"]
}
