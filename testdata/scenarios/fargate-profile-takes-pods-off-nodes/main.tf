# One managed node group and one Fargate profile for the batch namespace. The same CronJob runs
# in billing (on the node group: ENI001, 35 > 9) and in batch (on Fargate: no node branch ENI,
# so it counts nowhere and no rule about node capacity fires for it).
resource "aws_eks_node_group" "default" {
  node_group_name = "default"
  instance_types  = ["m5.large"]
}

resource "aws_eks_fargate_profile" "batch" {
  fargate_profile_name = "batch"
  selector {
    namespace = "batch"
  }
}
