resource "aws_eks_node_group" "g" {
  count          = 1000000000
  node_group_name = "g${count.index}"
  instance_types = ["m5.large"]
}
