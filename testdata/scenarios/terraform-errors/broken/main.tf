resource "aws_eks_node_group" "broken" {
  instance_types = ["m5.large"
}
