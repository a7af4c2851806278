resource "aws_eks_addon" "vpc_cni" {
  cluster_name = "prod"
  addon_name   = "vpc-cni"
}
