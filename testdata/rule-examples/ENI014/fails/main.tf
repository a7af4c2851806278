resource "aws_eks_node_group" "jobs" {
  cluster_name    = "prod"
  node_group_name = "jobs"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["m5.large"]

  scaling_config {
    min_size     = 1
    max_size     = 4
    desired_size = 1
  }
}
