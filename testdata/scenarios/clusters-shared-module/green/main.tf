module "cluster" {
  source    = "../modules/cluster"
  node_type = "m5.xlarge"
}
