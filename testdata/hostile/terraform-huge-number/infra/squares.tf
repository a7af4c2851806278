locals {
  a0  = 1e300
  a1  = local.a0 * local.a0
  a2  = local.a1 * local.a1
  a3  = local.a2 * local.a2
  a4  = local.a3 * local.a3
  a5  = local.a4 * local.a4
  a6  = local.a5 * local.a5
  a7  = local.a6 * local.a6
  a8  = local.a7 * local.a7
  a9  = local.a8 * local.a8
  a10 = local.a9 * local.a9
  a11 = local.a10 * local.a10
  a12 = local.a11 * local.a11
  a13 = local.a12 * local.a12
  a14 = local.a13 * local.a13
  a15 = local.a14 * local.a14
  a16 = local.a15 * local.a15
  a17 = local.a16 * local.a16
  a18 = local.a17 * local.a17
  a19 = local.a18 * local.a18
  a20 = local.a19 * local.a19
}
resource "aws_eks_node_group" "h" {
  node_group_name = "h-${local.a20}"
  instance_types  = ["m5.large"]
}
