data "aws_ssm_parameter" "node_type" {
  name = "/eks/node-type"
}

# The type is kept in SSM and reviewed by the platform team each quarter.
# eni-lint:ignore ENI006 type reviewed with the platform team; expires=2099-12-31
resource "aws_eks_node_group" "from_ssm" {
  node_group_name = "from-ssm"
  instance_types  = [data.aws_ssm_parameter.node_type.value]
}

resource "aws_eks_node_group" "general" { # eni-lint:ignore ENI006 expired exception; expires=2020-01-01
  node_group_name = "general"
  instance_types  = ["m99.large"]
}

resource "kubernetes_manifest" "sgp" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata   = { name = "all", namespace = "default" }
    spec = {
      podSelector    = {}
      securityGroups = { groupIds = ["sg-1"] }
    }
  }
}

// eni-lint:ignore ENI002
resource "kubernetes_job_v1" "once" {
  metadata {
    name = "once"
  }
  spec {
    template {
      metadata {}
      spec {
        container {
          name  = "c"
          image = "busybox"
        }
      }
    }
  }
}
