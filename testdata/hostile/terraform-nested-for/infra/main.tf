locals {
  big = { for a in range(1000) : a => { for b in range(1000) : b => [for c in range(1000) : c] } }
}
resource "aws_eks_node_group" "g" {
  instance_types = [length(local.big) > 0 ? "m5.large" : "m5.xlarge"]
}
