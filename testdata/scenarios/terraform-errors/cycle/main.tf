locals {
  a = local.b
  b = local.a
}

resource "aws_eks_node_group" "cyclic" {
  node_group_name = "cyclic"
  instance_types  = [local.a]
}
