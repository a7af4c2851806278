variable "namespace" { default = "billing" }

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
      namespace = var.namespace
    }
    spec = {
      podSelector    = { matchLabels = { "rds-access" = "true" } }
      securityGroups = { groupIds = ["sg-0123456789abcdef0"] }
    }
  }
}

resource "kubernetes_cron_job_v1" "report" {
  metadata {
    name      = "db-report"
    namespace = var.namespace
  }
  spec {
    schedule                      = "*/5 * * * *"
    concurrency_policy            = "Forbid"
    successful_jobs_history_limit = 3
    failed_jobs_history_limit     = 1
    job_template {
      metadata {}
      spec {
        backoff_limit = 6
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

resource "kubernetes_job_v1" "migrate" {
  metadata {
    name      = "migrate"
    namespace = var.namespace
  }
  spec {
    completions                = 2
    ttl_seconds_after_finished = "300"
    template {
      metadata {
        labels = { "rds-access" = "true" }
      }
      spec {
        service_account_name = "migrator"
        container {
          name  = "migrate"
          image = "flyway"
        }
        toleration {
          key      = "dedicated"
          operator = "Exists"
        }
      }
    }
  }
}

resource "kubernetes_service_account_v1" "migrator" {
  metadata {
    name      = "migrator"
    namespace = var.namespace
    labels    = { team = "billing" }
  }
}
