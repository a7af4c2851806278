# Manifests applied by kubectl_manifest over fileset(): each file is a template Terraform
# renders with the namespace, so it is read through Terraform, not as a manifest of its own.

locals {
  namespace = "ingest"
}

resource "aws_eks_node_group" "workers" {
  cluster_name    = "data"
  node_group_name = "workers"
  instance_types  = ["r5.large"]

  scaling_config {
    min_size     = 1
    max_size     = 6
    desired_size = 3
  }
}

resource "kubectl_manifest" "batch" {
  for_each  = fileset("${path.module}/manifests/batch", "*.yaml")
  yaml_body = templatefile("${path.module}/manifests/batch/${each.value}", { namespace = local.namespace })
}
