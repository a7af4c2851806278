# Values written with templatefile() directives, where a value inside the branch taken is
# known only when Terraform applies (an IAM role's ARN): only that field is unknown. When the
# directive's condition itself is unknown, the release is reported (ENI006) with the variable
# that decides it.

variable "use_irsa" {
  type    = bool
  default = true
}

variable "exports_enabled" {
  description = "Set by the pipeline"
  type        = bool
}

resource "aws_eks_node_group" "batch" {
  cluster_name    = "platform"
  node_group_name = "batch"
  instance_types  = ["m5.large"]

  scaling_config {
    min_size     = 1
    max_size     = 4
    desired_size = 2
  }
}

resource "aws_iam_role" "reports" {
  name = "reports"
}

resource "helm_release" "reports" {
  name      = "reports"
  chart     = "./charts/reports"
  namespace = "reports"
  values = [templatefile("${path.module}/values/reports.yaml.tpl", {
    irsa     = var.use_irsa
    role_arn = aws_iam_role.reports.arn
    teams    = ["billing", "ledger"]
  })]
}

resource "helm_release" "exports" {
  name      = "exports"
  chart     = "./charts/reports"
  namespace = "exports"
  values = [templatefile("${path.module}/values/exports.yaml.tpl", {
    enabled = var.exports_enabled
  })]
}
