variable "name" {
  type = string
}

variable "instance_type" {
  type    = string
  default = null
}

variable "mixed" {
  type    = bool
  default = false
}

variable "overrides" {
  type = list(object({
    instance_type = optional(string)
    instance_requirements = optional(object({
      vcpu_min   = number
      memory_min = number
    }))
  }))
  default = []
}

resource "aws_launch_template" "this" {
  name_prefix   = "${var.name}-"
  image_id      = "ami-0123456789abcdef0"
  instance_type = var.instance_type
}

locals {
  launch_template_id = aws_launch_template.this.id
}

resource "aws_autoscaling_group" "this" {
  name     = var.name
  min_size = 1
  max_size = 5

  dynamic "launch_template" {
    for_each = var.mixed ? [] : [1]
    content {
      id      = local.launch_template_id
      version = "$Latest"
    }
  }

  dynamic "mixed_instances_policy" {
    for_each = var.mixed ? [{ overrides = var.overrides }] : []
    iterator = policy
    content {
      launch_template {
        launch_template_specification {
          launch_template_id = local.launch_template_id
        }
        # The outer block's iterator, read from inside a nested dynamic block.
        dynamic "override" {
          for_each = policy.value.overrides
          content {
            instance_type = override.value.instance_type
            dynamic "instance_requirements" {
              for_each = override.value.instance_requirements != null ? [override.value.instance_requirements] : []
              content {
                vcpu_count {
                  min = instance_requirements.value.vcpu_min
                }
                memory_mib {
                  min = instance_requirements.value.memory_min
                }
              }
            }
          }
        }
      }
    }
  }
}
