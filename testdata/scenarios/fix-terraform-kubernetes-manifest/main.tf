# Everything as kubernetes_manifest, the HCL object form: the fix replaces or adds the item in
# the object, by byte range; the rest of the file keeps its bytes.
resource "aws_eks_node_group" "general" {
  node_group_name = "general"
  instance_types  = ["m5.large"]
}

resource "kubernetes_manifest" "sgp" {
  manifest = {
    apiVersion = "vpcresources.k8s.aws/v1beta1"
    kind       = "SecurityGroupPolicy"
    metadata   = { name = "rds-access", namespace = "billing" }
    spec = {
      podSelector    = { matchLabels = { "rds-access" = "true" } }
      securityGroups = { groupIds = ["sg-0123456789abcdef0"] }
    }
  }
}

resource "kubernetes_manifest" "import" {
  manifest = {
    apiVersion = "batch/v1"
    kind       = "Job"
    metadata   = { name = "import", namespace = "billing" }
    spec = {
      completions             = 5
      backoffLimit            = 6
      ttlSecondsAfterFinished = 300
      template = {
        metadata = { labels = { "rds-access" = "true" } }
        spec = {
          restartPolicy = "Never"
          containers    = [{ name = "import", image = "busybox:1.36" }]
        }
      }
    }
  }
}
