# A release of a chart from a registry (not read: charts are not downloaded) whose set blocks
# and values give its pods the label a SecurityGroupPolicy of the tree selects: its pods hold
# branch ENIs that no row counts, so the unread chart is a warning, not info. The other
# release's pods carry no selected label: info, as any unread remote chart.

resource "aws_eks_node_group" "apps" {
  cluster_name    = "apps"
  node_group_name = "apps"
  instance_types  = ["m6i.2xlarge"]

  scaling_config {
    min_size     = 2
    max_size     = 6
    desired_size = 3
  }
}

resource "aws_security_group" "orders_db_clients" {
  name   = "orders-db-clients"
  vpc_id = "vpc-0123456789abcdef0"
}

resource "kubernetes_namespace_v1" "orders" {
  metadata {
    name = "orders"
  }
}

resource "kubernetes_manifest" "orders_db" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata = {
      name      = "orders-db"
      namespace = kubernetes_namespace_v1.orders.metadata[0].name
    }
    spec = {
      podSelector    = { matchLabels = { "example.com/access-orders-db" = "true" } }
      securityGroups = { groupIds = [aws_security_group.orders_db_clients.id] }
    }
  }
}

resource "helm_release" "orders" {
  name       = "orders"
  repository = "oci://registry.example.com/charts"
  chart      = "orders"
  version    = "4.2.0"
  namespace  = kubernetes_namespace_v1.orders.metadata[0].name

  values = [yamlencode({
    worker = {
      podLabels = { "example.com/access-orders-db" = "true" }
    }
  })]

  set {
    name  = "migrations.podLabels.example\\.com/access-orders-db"
    value = "true"
  }
}

resource "helm_release" "metrics" {
  name       = "metrics"
  repository = "https://charts.example.com"
  chart      = "metrics-exporter"
  namespace  = kubernetes_namespace_v1.orders.metadata[0].name

  set {
    name  = "podLabels.team"
    value = "observability"
  }
}
