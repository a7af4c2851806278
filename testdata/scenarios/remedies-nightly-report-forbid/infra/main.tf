resource "aws_eks_node_group" "default" {
  cluster_name    = "prod"
  node_group_name = "default"
  node_role_arn   = "arn:aws:iam::123456789012:role/node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["m5.large"]
  scaling_config {
    desired_size = 2
    max_size     = 3
    min_size     = 1
  }
}
