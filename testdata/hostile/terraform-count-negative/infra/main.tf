resource "aws_eks_node_group" "a" {
  count          = -5
  instance_types = ["m5.large"]
}
resource "aws_eks_node_group" "b" {
  count          = 1.5
  instance_types = ["m5.large"]
}
