# An EKS Auto Mode cluster with both built-in node pools.
resource "aws_eks_cluster" "main" {
  name     = "analytics"
  version  = "1.33"
  role_arn = aws_iam_role.cluster.arn

  compute_config {
    enabled       = true
    node_pools    = ["general-purpose", "system"]
    node_role_arn = aws_iam_role.node.arn
  }

  vpc_config {
    subnet_ids = var.subnet_ids
  }
}
