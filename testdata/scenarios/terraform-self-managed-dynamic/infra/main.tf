# Self-managed node groups in the shapes real stacks use: a module whose Auto Scaling group
# writes launch_template and mixed_instances_policy as dynamic blocks (as the
# terraform-aws-modules/eks self-managed node group does), and an older group built from a
# launch configuration.

variable "spot_pools" {
  description = "Set by the pipeline: no default, so the overrides cannot be known"
  type        = list(string)
}

module "workers" {
  source   = "./modules/workers"
  for_each = {
    general = { instance_type = "m5.large", mixed = false, overrides = [] }
    mixed = {
      instance_type = "m5.large"
      mixed         = true
      overrides     = [{ instance_type = "c5.xlarge" }, { instance_type = "m5.2xlarge" }]
    }
    by-attributes = {
      instance_type = null
      mixed         = true
      overrides     = [{ instance_type = null, instance_requirements = { vcpu_min = 2, memory_min = 8192 } }]
    }
  }

  name          = each.key
  instance_type = each.value.instance_type
  mixed         = each.value.mixed
  overrides     = each.value.overrides
}

# Terraform 0.11 style: a launch configuration, named by reference.
resource "aws_launch_configuration" "legacy" {
  name_prefix   = "legacy-"
  image_id      = "ami-0123456789abcdef0"
  instance_type = "c5.large"
}

resource "aws_autoscaling_group" "legacy" {
  name                 = "legacy-workers"
  launch_configuration = aws_launch_configuration.legacy.name
  min_size             = 1
  max_size             = 3
}

# The same, named by the literal name of a launch configuration of this configuration.
resource "aws_launch_configuration" "batch" {
  name          = "batch-lc"
  image_id      = "ami-0123456789abcdef0"
  instance_type = "r5.large"
}

resource "aws_autoscaling_group" "batch" {
  name                 = "batch-workers"
  launch_configuration = "batch-lc"
  min_size             = 0
  max_size             = 2
}

# A mixed instances policy whose overrides come from a variable the pipeline sets: the
# group's types cannot be known (ENI006), and it is not dropped.
resource "aws_launch_template" "spot" {
  name_prefix   = "spot-"
  instance_type = "m5.large"
}

resource "aws_autoscaling_group" "spot" {
  name     = "spot-workers"
  min_size = 0
  max_size = 10

  mixed_instances_policy {
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.spot.id
      }
      dynamic "override" {
        for_each = var.spot_pools
        content {
          instance_type = override.value
        }
      }
    }
  }
}
