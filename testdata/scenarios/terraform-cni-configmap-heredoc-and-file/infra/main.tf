resource "aws_eks_node_group" "default" {
  cluster_name    = "prod"
  node_group_name = "default"
  instance_types  = ["m5.large"]
}

resource "kubectl_manifest" "cni_file" {
  yaml_body = file("${path.module}/../k8s/cni.yaml")
}

resource "kubectl_manifest" "cni_heredoc" {
  yaml_body = <<-YAML
    # The VPC CNI's settings, as the cluster has them.
    #
    # Kept here so that the cool-down is reviewed with
    # the node groups.
    #
    # (comment lines)
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: amazon-vpc-cni
      namespace: kube-system
    data:
      branch-eni-cooldown: "45"
  YAML
}
