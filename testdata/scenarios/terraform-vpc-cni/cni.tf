resource "aws_eks_addon" "vpc_cni" {
  cluster_name = "main"
  addon_name   = "vpc-cni"
  configuration_values = jsonencode({
    env = {
      WARM_IP_TARGET = "5"
    }
  })
}

resource "aws_eks_node_group" "general" {
  node_group_name = "general"
  instance_types  = ["m5.large"]
}
