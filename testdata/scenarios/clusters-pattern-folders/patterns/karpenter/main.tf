# Karpenter's controller runs on Fargate; the nodes come from the NodePool beside this file.
resource "aws_eks_fargate_profile" "karpenter" {
  fargate_profile_name = "karpenter"
  selector {
    namespace = "karpenter"
  }
}
