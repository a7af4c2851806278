module "nodes" {
  source = "../../outside"
}
