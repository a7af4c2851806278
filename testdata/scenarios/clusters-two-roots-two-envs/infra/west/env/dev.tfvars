environment = "dev"
node_type   = "m5.large"
