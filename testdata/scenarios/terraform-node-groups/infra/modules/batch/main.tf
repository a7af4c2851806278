variable "name" {}
variable "types" { type = list(string) }

resource "aws_autoscaling_group" "this" {
  name     = var.name
  min_size = 0
  max_size = 10

  mixed_instances_policy {
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.this.id
      }
      dynamic "override" {
        for_each = var.types
        content {
          instance_type = override.value
        }
      }
    }
  }
}

resource "aws_launch_template" "this" {
  name_prefix   = var.name
  instance_type = var.types[0]
}
