variable "batch_types" {
  type        = list(string)
  description = "Set by the pipeline (TF_VAR_batch_types)."
}

resource "random_pet" "pool" {}

resource "aws_security_group" "jobs" {
  name   = "jobs"
  vpc_id = "vpc-0a1b2c3d"
}

resource "aws_eks_node_group" "web" {
  cluster_name    = "prod"
  node_group_name = "web"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["m5.large"]

  scaling_config {
    min_size     = 2
    max_size     = 6
    desired_size = 2
  }
}

# The types come from the pipeline, which the plan knows; the label from a resource created in
# the same apply, which even the plan does not: the group stays unknown, field by field.
resource "aws_eks_node_group" "batch" {
  cluster_name    = "prod"
  node_group_name = "batch"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-node"
  subnet_ids      = ["subnet-1"]
  instance_types  = var.batch_types
  labels          = { pool = random_pet.pool.id }

  scaling_config {
    min_size     = 0
    max_size     = 4
    desired_size = 0
  }
}

# The group id exists after apply only: the policy is read without it.
resource "kubernetes_manifest" "jobs_sgp" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata   = { name = "jobs", namespace = "jobs" }
    spec = {
      podSelector    = { matchLabels = { tier = "jobs" } }
      securityGroups = { groupIds = [aws_security_group.jobs.id] }
    }
  }
}
