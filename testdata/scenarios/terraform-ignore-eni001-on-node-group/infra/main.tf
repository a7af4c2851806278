# The batch group is known to exceed on paper; the platform team caps the CronJob by hand.
# eni-lint:ignore ENI001 capped by the platform team's admission policy; expires=2099-12-31
resource "aws_eks_node_group" "batch" {
  cluster_name    = "prod"
  node_group_name = "batch"
  instance_types  = ["m5.large"]
  labels          = { pool = "batch" }
}

# Not ignored: the same CronJob exceeds here too, and is reported.
resource "aws_eks_node_group" "general" {
  cluster_name    = "prod"
  node_group_name = "general"
  instance_types  = ["m5.large"]
}

# Large enough for the CronJob: the ignore matches no finding, and ENI009 says so.
# eni-lint:ignore ENI001 sized by hand last year; expires=2099-12-31
resource "aws_eks_node_group" "large" {
  cluster_name    = "prod"
  node_group_name = "large"
  instance_types  = ["m5.24xlarge"]
}
