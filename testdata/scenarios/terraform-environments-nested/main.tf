variable "instance_type" {
  type = string
}

resource "aws_eks_node_group" "batch" {
  node_group_name = "batch"
  instance_types  = [var.instance_type]
}
