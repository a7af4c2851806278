# Pod labels written with values Terraform knows only when it applies: an SSM parameter and a
# variable without a default. They decide whether the SecurityGroupPolicy selects the pods.

variable "export_labels" {
  description = "Labels of the export pods, set per environment."
  type        = map(string)
}

data "aws_ssm_parameter" "report_role" {
  name = "/platform/report/role"
}

resource "aws_eks_node_group" "batch" {
  cluster_name    = "main"
  node_group_name = "batch"
  instance_types  = ["m5.large"]
  scaling_config {
    min_size     = 1
    max_size     = 3
    desired_size = 1
  }
}

# The role label comes from SSM: the CronJob's pods may be selected by the policy or not.
resource "kubernetes_cron_job_v1" "report" {
  metadata {
    name      = "report"
    namespace = "reports"
  }
  spec {
    schedule           = "*/5 * * * *"
    concurrency_policy = "Forbid"
    job_template {
      metadata {}
      spec {
        template {
          metadata {
            labels = { role = data.aws_ssm_parameter.report_role.value }
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

# The same shape as a manifest's text: the label is interpolated from a variable with no
# default.
resource "kubectl_manifest" "export" {
  yaml_body = <<-YAML
    apiVersion: batch/v1
    kind: CronJob
    metadata:
      name: export
      namespace: reports
    spec:
      schedule: "*/5 * * * *"
      concurrencyPolicy: Forbid
      jobTemplate:
        spec:
          template:
            metadata:
              labels:
                role: ${var.export_labels["role"]}
            spec:
              restartPolicy: Never
              containers:
                - name: export
                  image: postgres:16
  YAML
}

# Its own labels are unknown, its pods' are written: the own labels decide nothing, and the
# CronJob is read, selected and counted.
resource "kubernetes_cron_job_v1" "cleanup" {
  metadata {
    name      = "cleanup"
    namespace = "reports"
    labels    = var.export_labels
  }
  spec {
    schedule           = "*/5 * * * *"
    concurrency_policy = "Forbid"
    job_template {
      metadata {}
      spec {
        template {
          metadata {
            labels = { role = "db" }
          }
          spec {
            restart_policy = "Never"
            container {
              name  = "cleanup"
              image = "postgres:16"
            }
          }
        }
      }
    }
  }
}
