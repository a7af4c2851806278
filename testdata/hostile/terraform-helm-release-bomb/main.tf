resource "helm_release" "bomb" {
  name  = "bomb"
  chart = "${path.module}/chart"
}
