variable "node_type" {
  default = "m5.large"
}
variable "env" {
  default = "default"
}

resource "aws_eks_node_group" "main" {
  cluster_name    = "main"
  node_group_name = "main-${var.env}"
  instance_types  = [var.node_type]
}
