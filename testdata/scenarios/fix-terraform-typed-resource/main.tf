resource "aws_eks_node_group" "general" {
  node_group_name = "general"
  instance_types  = ["m5.large"]
}

resource "kubernetes_manifest" "sgp" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata = {
      name      = "rds-access"
      namespace = "billing"
    }
    spec = {
      podSelector    = { matchLabels = { "rds-access" = "true" } }
      securityGroups = { groupIds = ["sg-0123456789abcdef0"] }
    }
  }
}

# A typed resource: the fix sets its attributes with hclwrite, every other token unchanged.
resource "kubernetes_cron_job_v1" "report" {
  metadata {
    name      = "db-report"
    namespace = "billing"
  }
  spec {
    schedule                      = "*/5 * * * *"
    concurrency_policy            = "Forbid"
    successful_jobs_history_limit = 3
    failed_jobs_history_limit     = 1
    job_template {
      metadata {}
      spec {
        ttl_seconds_after_finished = 60
        template {
          metadata {
            labels = { "rds-access" = "true" }
          }
          spec {
            restart_policy = "Never"
            container {
              name  = "report"
              image = "postgres:16"
            }
          }
        }
      }
    }
  }
}
