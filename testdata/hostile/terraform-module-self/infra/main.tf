module "again" {
  source = "./"
}
module "again2" {
  source = "./"
}
