variable "environment" {}
variable "node_type" {}

resource "aws_eks_node_group" "apps" {
  node_group_name = "apps-${var.environment}"
  instance_types  = [var.node_type]
}
