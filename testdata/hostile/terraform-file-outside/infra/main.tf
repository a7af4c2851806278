# file() reads files of the tree only: the secret beside the checkout must not reach a message.
resource "aws_eks_node_group" "leak" {
  node_group_name = "leak"
  instance_types  = [file("${path.module}/../../secret.txt")]
}
