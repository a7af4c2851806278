# Objects declared through the kubectl provider, as platform repositories write them: an SGP
# in a heredoc whose namespace comes from a kubernetes_namespace, a CronJob in a file of the
# tree (also scanned on its own: counted once), an SGP from templatefile(), and documents only
# Terraform can produce (for_each over a data source), which are reported as ENI006.
resource "kubernetes_namespace_v1" "billing" {
  metadata {
    name = "billing"
  }
}

resource "kubectl_manifest" "db_access" {
  yaml_body = <<-YAML
    apiVersion: vpcresources.k8s.aws/v1beta1
    kind: SecurityGroupPolicy
    metadata:
      name: db-access
      namespace: ${kubernetes_namespace_v1.billing.metadata[0].name}
    spec:
      podSelector:
        matchLabels:
          app: db-report
      securityGroups:
        groupIds: [sg-0123456789abcdef0]
  YAML
}

resource "kubectl_manifest" "report" {
  yaml_body = file("${path.module}/manifests/cronjob.yaml")
}

resource "kubectl_manifest" "extra_policy" {
  yaml_body = templatefile("${path.module}/manifests/sgp.yaml.tftpl", { namespace = "billing" })
}

data "kubectl_path_documents" "extra" {
  pattern = "${path.module}/generated/*.yaml"
}

resource "kubectl_manifest" "generated" {
  for_each  = toset(data.kubectl_path_documents.extra.documents)
  yaml_body = each.value
}
