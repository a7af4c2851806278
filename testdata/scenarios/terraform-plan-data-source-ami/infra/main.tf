# The node type is kept in SSM and the AMI is the latest EKS-optimised one: neither exists
# before Terraform runs, so the code alone cannot say what the nodes are. plan.json, written
# by `terraform show -json plan.out`, can.
data "aws_ssm_parameter" "node_type" {
  name = "/platform/eks/batch-node-type"
}

data "aws_ami" "eks" {
  most_recent = true
  owners      = ["amazon"]

  filter {
    name   = "name"
    values = ["amazon-eks-node-1.30-*"]
  }
}

resource "aws_launch_template" "batch" {
  name_prefix   = "batch-"
  image_id      = data.aws_ami.eks.id
  instance_type = data.aws_ssm_parameter.node_type.value
}

resource "aws_eks_node_group" "batch" {
  cluster_name    = "prod"
  node_group_name = "batch"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-node"
  subnet_ids      = ["subnet-1", "subnet-2"]

  launch_template {
    id      = aws_launch_template.batch.id
    version = aws_launch_template.batch.latest_version
  }

  scaling_config {
    min_size     = 1
    max_size     = 6
    desired_size = 2
  }
}
