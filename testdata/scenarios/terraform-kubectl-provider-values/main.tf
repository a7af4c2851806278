# SecurityGroupPolicies declared through the kubectl provider with values only Terraform
# knows where they decide nothing: the namespace by its resource's id (the provider sets a
# namespace's id to its name) and the security groups by aws_security_group ids.

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

resource "aws_security_group" "reports_db" {
  name   = "reports-db-clients"
  vpc_id = "vpc-0123456789abcdef0"
}

resource "kubernetes_namespace_v1" "reports" {
  metadata {
    name = "reports"
  }
}

resource "kubernetes_namespace" "exports" {
  metadata {
    name = "exports"
  }
}

resource "kubectl_manifest" "reports_sgp" {
  yaml_body = <<-YAML
    apiVersion: vpcresources.k8s.aws/v1beta1
    kind: SecurityGroupPolicy
    metadata:
      name: reports-db
      namespace: ${kubernetes_namespace_v1.reports.id}
    spec:
      podSelector:
        matchLabels:
          app: report
      securityGroups:
        groupIds:
          - ${aws_security_group.reports_db.id}
  YAML
}

resource "kubectl_manifest" "exports_sgp" {
  yaml_body = yamlencode({
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata = {
      name      = "exports-db"
      namespace = kubernetes_namespace.exports.id
    }
    spec = {
      podSelector    = { matchLabels = { app = "export" } }
      securityGroups = { groupIds = [aws_security_group.reports_db.id, "sg-0fedcba9876543210"] }
    }
  })
}

resource "kubernetes_cron_job_v1" "export" {
  metadata {
    name      = "export"
    namespace = kubernetes_namespace.exports.id
  }
  spec {
    schedule           = "*/15 * * * *"
    concurrency_policy = "Forbid"
    job_template {
      metadata {}
      spec {
        ttl_seconds_after_finished = 300
        template {
          metadata {
            labels = {
              app = "export"
            }
          }
          spec {
            restart_policy = "Never"
            container {
              name  = "export"
              image = "postgres:16"
            }
          }
        }
      }
    }
  }
}
