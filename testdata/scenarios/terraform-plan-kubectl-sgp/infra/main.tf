variable "namespace" {
  type        = string
  description = "Set by the pipeline (TF_VAR_namespace)."
}

resource "aws_security_group" "payments_db" {
  name   = "payments-db"
  vpc_id = "vpc-0a1b2c3d"
}

resource "aws_eks_node_group" "general" {
  cluster_name    = "prod"
  node_group_name = "general"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["m5.large"]

  scaling_config {
    min_size     = 2
    max_size     = 8
    desired_size = 2
  }
}

# The policy's namespace comes from the pipeline and its group from the security group: the
# code alone cannot say which pods it selects. The plan can.
resource "kubectl_manifest" "payments_sgp" {
  yaml_body = templatefile("${path.module}/sgp.yaml.tpl", {
    namespace = var.namespace
    sg        = aws_security_group.payments_db.id
  })
}
