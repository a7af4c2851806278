locals {
  ten = join("", [for i in range(1000) : "xxxxxxxxxx"])
  huge = replace(local.ten, "x", join("", [for i in range(1000) : local.ten]))
}
resource "aws_eks_node_group" "g" {
  instance_types = [substr(local.huge, 0, 1) == "x" ? "m5.large" : "m5.xlarge"]
}
