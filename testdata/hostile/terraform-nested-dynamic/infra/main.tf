# Three nested dynamic blocks over 1,000 items each: a billion override blocks if every level
# were expanded for every block of the level above.
locals {
  items = [for i in range(1000) : "m5.large"]
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 3
  min_size = 1
  dynamic "mixed_instances_policy" {
    for_each = local.items
    content {
      dynamic "launch_template" {
        for_each = local.items
        content {
          launch_template_specification {
            launch_template_id = "lt-1"
          }
          dynamic "override" {
            for_each = local.items
            content {
              instance_type = override.value
            }
          }
        }
      }
    }
  }
}
