# An in-tree chart that renders its own SecurityGroupPolicy from its values, with the security
# group's id known only when Terraform applies: through yamlencode (app) and through a
# templatefile whose list is [${security_group_id}] (ledger). Each list keeps its one item, so
# each policy selects its release's CronJob, and both CronJobs count on the node group.

resource "aws_eks_node_group" "apps" {
  cluster_name    = "platform"
  node_group_name = "apps"
  instance_types  = ["m5.large"]

  scaling_config {
    min_size     = 1
    max_size     = 3
    desired_size = 2
  }
}

resource "aws_security_group" "app" {
  name = "app-pods"
}

resource "helm_release" "app" {
  name      = "app"
  chart     = "./charts/app"
  namespace = "apps"
  values = [yamlencode({
    securityGroups = {
      create           = true
      securityGroupIds = [aws_security_group.app.id]
    }
  })]
}

resource "helm_release" "ledger" {
  name      = "ledger"
  chart     = "./charts/app"
  namespace = "apps"
  values = [templatefile("${path.module}/values/ledger.yaml.tpl", {
    security_group_id = aws_security_group.app.id
  })]
}
