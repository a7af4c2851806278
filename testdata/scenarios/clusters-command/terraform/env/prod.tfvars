node_type = "m5.xlarge"
