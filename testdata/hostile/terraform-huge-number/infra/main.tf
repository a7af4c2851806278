# Twelve bytes of exponent: printing the count in the error message took 12 s, and 1e100000000
# would take hours. The squared local reaches the same size without a large literal.
resource "aws_eks_node_group" "g" {
  count = 1e10000000
}
