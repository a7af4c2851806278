instance_type = "m5.2xlarge"
