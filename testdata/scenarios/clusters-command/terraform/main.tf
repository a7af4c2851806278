variable "node_type" {
  default = "m5.large"
}

resource "aws_eks_node_group" "apps" {
  node_group_name = "apps"
  instance_types  = [var.node_type]
}
