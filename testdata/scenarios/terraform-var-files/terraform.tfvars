env = "from-terraform-tfvars"
