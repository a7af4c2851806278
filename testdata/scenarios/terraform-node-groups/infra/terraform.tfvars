batch_types = ["m5.2xlarge"]
