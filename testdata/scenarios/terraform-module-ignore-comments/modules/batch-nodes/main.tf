variable "instance_type" {
  type = string
}

resource "aws_eks_node_group" "this" {
  cluster_name    = "platform"
  node_group_name = "batch"
  instance_types  = [var.instance_type]

  scaling_config {
    min_size     = 0
    max_size     = 10
    desired_size = 0
  }
}
