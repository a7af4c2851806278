variable "sgp_tolerations" {
  default = [{ key = "sgp", value = "true" }]
}

data "aws_ssm_parameter" "export_tolerations" {
  name = "/platform/export/tolerations"
}

data "aws_ssm_parameter" "api_env" {
  name = "/platform/api/env"
}

resource "aws_eks_node_group" "sgp" {
  cluster_name    = "main"
  node_group_name = "sgp"
  instance_types  = ["m5.large"]
  taint {
    key    = "sgp"
    value  = "true"
    effect = "NO_SCHEDULE"
  }
  scaling_config {
    min_size     = 1
    max_size     = 3
    desired_size = 1
  }
}

# Its toleration comes from a dynamic block over a variable with a default: the CronJob
# lands on the tainted SGP node group.
resource "kubernetes_cron_job_v1" "report" {
  metadata {
    name      = "report"
    namespace = "default"
  }
  spec {
    schedule           = "*/5 * * * *"
    concurrency_policy = "Forbid"
    job_template {
      metadata {}
      spec {
        backoff_limit = 6
        template {
          metadata {
            labels = { role = "db" }
          }
          spec {
            restart_policy = "Never"
            dynamic "toleration" {
              for_each = var.sgp_tolerations
              content {
                key      = toleration.value.key
                operator = "Equal"
                value    = toleration.value.value
                effect   = "NoSchedule"
              }
            }
            container {
              name  = "report"
              image = "busybox"
            }
          }
        }
      }
    }
  }
}

# Its tolerations are read from SSM when Terraform runs: where its pods land is not known.
resource "kubernetes_cron_job_v1" "export" {
  metadata {
    name      = "export"
    namespace = "default"
  }
  spec {
    schedule = "0 * * * *"
    job_template {
      metadata {}
      spec {
        template {
          metadata {
            labels = { role = "db" }
          }
          spec {
            restart_policy = "Never"
            dynamic "toleration" {
              for_each = jsondecode(data.aws_ssm_parameter.export_tolerations.value)
              content {
                key    = toleration.value.key
                value  = toleration.value.value
                effect = "NoSchedule"
              }
            }
            container {
              name  = "export"
              image = "busybox"
            }
          }
        }
      }
    }
  }
}

# An unknown dynamic env decides nothing: the Deployment is read without it.
resource "kubernetes_deployment_v1" "api" {
  metadata {
    name      = "api"
    namespace = "default"
  }
  spec {
    replicas = 2
    selector {
      match_labels = { app = "api" }
    }
    template {
      metadata {
        labels = { app = "api", role = "db" }
      }
      spec {
        toleration {
          key      = "sgp"
          operator = "Exists"
          effect   = "NoSchedule"
        }
        container {
          name  = "api"
          image = "busybox"
          dynamic "env" {
            for_each = jsondecode(data.aws_ssm_parameter.api_env.value)
            content {
              name  = env.key
              value = env.value
            }
          }
        }
      }
    }
  }
}
