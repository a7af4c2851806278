# The platform stack deploys the report CronJob and its policy through the kubectl provider,
# the YAML written inline. With --prefer instance-type the node group gets the type that fits
# (written, since the type is a literal in the list); the TTL of ENI002 still comes first.
resource "aws_eks_node_group" "general" {
  node_group_name = "general"
  instance_types  = ["m5.large"]
}

resource "kubectl_manifest" "db_access" {
  yaml_body = <<-YAML
    apiVersion: vpcresources.k8s.aws/v1beta1
    kind: SecurityGroupPolicy
    metadata:
      name: db-access
      namespace: billing
    spec:
      podSelector:
        matchLabels:
          app: db-report
      securityGroups:
        groupIds: [sg-0123456789abcdef0]
  YAML
}

resource "kubectl_manifest" "report" {
  depends_on = [kubectl_manifest.db_access]
  yaml_body  = <<-YAML
    apiVersion: batch/v1
    kind: CronJob
    metadata:
      name: db-report
      namespace: billing
    spec:
      schedule: "*/5 * * * *"
      concurrencyPolicy: Forbid
      jobTemplate:
        spec:
          template:
            metadata:
              labels:
                app: db-report
            spec:
              restartPolicy: Never
              containers:
                - name: report
                  image: postgres:16
  YAML
}
