# This pull request moves the group to m5.large, but infra/plan.json was committed from an
# older commit where it was m5.2xlarge: the plan is what eni-lint checks, and ENI014 puts the
# difference on this line.
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

resource "aws_eks_node_group" "legacy" {
  cluster_name    = "prod"
  node_group_name = "legacy"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["m5.xlarge"]

  scaling_config {
    min_size     = 0
    max_size     = 2
    desired_size = 0
  }
}
