# Pattern folders, as blueprint repositories keep them: each folder is a Terraform root with
# the manifests applied to its cluster beside it. Each cluster gets its own folder's objects.
resource "aws_eks_node_group" "batch" {
  node_group_name = "batch"
  instance_types  = ["m5.large"]
}
