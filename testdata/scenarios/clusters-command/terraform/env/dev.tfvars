node_type = "m5.large"
