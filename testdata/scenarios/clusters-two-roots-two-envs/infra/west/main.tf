variable "environment" {}
variable "node_type" {}

resource "aws_eks_node_group" "batch" {
  node_group_name = "batch-${var.environment}"
  instance_types  = [var.node_type]
}
