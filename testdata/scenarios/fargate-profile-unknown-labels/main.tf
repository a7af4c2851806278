# The Fargate profiles' labels come from a data source, known only when Terraform runs: the
# selectors are left out (their pods stay counted on the node group, the worst case) and ENI006
# names the attribute for each profile.
locals {
  fargate_profiles = {
    batch = {
      namespace = "batch"
    }
    jobs = {
      namespace = "jobs"
      labels    = { runtime = "fargate" }
    }
  }
}

resource "aws_eks_node_group" "default" {
  node_group_name = "default"
  instance_types  = ["m5.large"]
}

resource "aws_eks_fargate_profile" "this" {
  for_each             = local.fargate_profiles
  fargate_profile_name = each.key
  selector {
    namespace = each.value.namespace
    labels    = data.external.profile_labels.result
  }
}
