# kubernetes_manifest resources written the usual ways: yamldecode(file()), the kubernetes
# provider's manifest_decode_multi over a file of several documents, and manifest_decode of a
# heredoc. The files are also read as manifests: each object counts once.
resource "kubernetes_manifest" "reports_sgp" {
  manifest = yamldecode(file("${path.module}/manifests/sgp.yaml"))
}

resource "kubernetes_manifest" "jobs" {
  for_each = {
    for m in provider::kubernetes::manifest_decode_multi(file("${path.module}/manifests/jobs.yaml")) :
    "${m.kind}/${m.metadata.name}" => m
  }
  manifest = each.value
}

resource "kubernetes_manifest" "nightly" {
  manifest = provider::kubernetes::manifest_decode(<<-EOT
    apiVersion: batch/v1
    kind: CronJob
    metadata:
      name: nightly-export
      namespace: reports
    spec:
      schedule: "0 2 * * *"
      concurrencyPolicy: Forbid
      jobTemplate:
        spec:
          activeDeadlineSeconds: 1800
          ttlSecondsAfterFinished: 600
          template:
            metadata:
              labels: {app: reports}
            spec:
              restartPolicy: Never
              containers: [{name: export, image: "export:2"}]
  EOT
  )
}
