# The Fargate profiles of a for_each over a map, whose entries may leave out their labels:
# labels = lookup(each.value, "labels", null) is null for "batch", as Terraform evaluates it,
# so that profile selects every pod of the batch namespace. The CronJob in batch runs on
# Fargate (no node branch ENI); the one in billing is on the node group (ENI001, 41 > 9).
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
    labels    = lookup(each.value, "labels", null)
  }
}
