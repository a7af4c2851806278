# One root module per region, one var file per environment: four clusters.
variable "environment" {}
variable "node_type" {}

resource "aws_eks_node_group" "batch" {
  node_group_name = "batch-${var.environment}"
  instance_types  = [var.node_type]
}

# Only the east clusters run the ledger export: Terraform deploys it with this root.
resource "kubectl_manifest" "ledger_export" {
  yaml_body = <<-YAML
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: ledger-export
      namespace: billing
    spec:
      completions: 4
      template:
        metadata:
          labels:
            rds-access: "true"
        spec:
          restartPolicy: Never
          containers:
            - name: main
              image: busybox
  YAML
}
