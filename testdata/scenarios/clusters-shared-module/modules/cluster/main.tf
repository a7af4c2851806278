# Blue/green clusters from one local module, as blue-green upgrade repositories keep them:
# the node group is declared once, here, and is a node group of each cluster that calls it.
variable "node_type" {}

resource "aws_eks_node_group" "initial" {
  node_group_name = "initial"
  instance_types  = [var.node_type]
}
