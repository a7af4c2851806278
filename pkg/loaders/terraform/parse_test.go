package terraform

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// TestParsingOnEveryCoreReadsTheSame: the folders parsed by several workers at once give the
// fragments, errors and positions that parsing them one after the other gives: roots that
// call a shared local module directly or through another, and a file with a syntax error.
func TestParsingOnEveryCoreReadsTheSame(t *testing.T) {
	files := map[string]string{
		"modules/ng/main.tf": nodeGroup + `variable "type" { default = "m5.large" }
`,
		"modules/only-called/main.tf": `variable "name" {}
module "ng" {
  source = "../ng"
  name   = var.name
}
`,
		"broken/main.tf": "resource \"aws_eks_node_group\" \"g\" {\n  node_group_name = \n",
	}
	var dirs []string
	for i := range 9 {
		dir := fmt.Sprintf("env%d", i)
		source := "../modules/ng"
		if i%3 == 0 {
			source = "../modules/only-called"
		}
		files[dir+"/main.tf"] = fmt.Sprintf(`module "workers" {
  source = %q
  name   = "workers-%d"
}
`, source, i)
		dirs = append(dirs, dir)
	}
	root := writeTree(t, files)
	var paths []string
	for _, d := range append(dirs, "modules/ng", "modules/only-called", "broken") {
		paths = append(paths, filepath.Join(root, d))
	}
	load := func(procs int) []inventory.Fragment {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return Load(paths, Options{})
	}
	one, many := load(1), load(4)
	if !reflect.DeepEqual(one, many) {
		t.Fatalf("parsed on four workers:\n%+v\none after the other:\n%+v", many, one)
	}
	if groups := groupsOf(t, many); len(groups) < 9 {
		t.Fatalf("%d node groups read: the tree does not exercise the modules", len(groups))
	}
}

// nestedDynamicASG is a self-managed group whose overrides come from three nested dynamic
// blocks over n instance types each.
func nestedDynamicASG(n int) string {
	return fmt.Sprintf(`locals {
  types = [for i in range(%d) : "m5.large"]
}
resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 3
  min_size = 1
  dynamic "mixed_instances_policy" {
    for_each = local.types
    content {
      dynamic "launch_template" {
        for_each = local.types
        content {
          launch_template_specification {
            launch_template_id = "lt-1"
          }
          dynamic "override" {
            for_each = local.types
            content {
              instance_type = override.value
            }
          }
        }
      }
    }
  }
}
`, n)
}

// TestNestedDynamicBlocksAreBudgeted: dynamic blocks nested three deep over 1,000 items would
// make a billion blocks (81 s and 4 GB before this budget); the blocks they generate are
// charged before they are made, and past MaxDynamicBlocks the group's types are unknown, with
// the reason, while the rest of the module is read. Within the budget every block is read,
// and a type the overrides list again is one type.
func TestNestedDynamicBlocksAreBudgeted(t *testing.T) {
	for _, tc := range []struct {
		n       int
		unknown string
	}{
		{n: 10},
		{n: 1000, unknown: "generate more than 10000 blocks (a budget; nested ones multiply): the dynamic \"override\" block at line 17"},
	} {
		root := writeTree(t, map[string]string{"main.tf": nestedDynamicASG(tc.n)})
		g, ok := groupsOf(t, Load([]string{root}, Options{}))["workers"]
		switch {
		case !ok:
			t.Fatalf("%d types: the group is not read", tc.n)
		case !reflect.DeepEqual(g.InstanceTypes, []string{"m5.large"}):
			t.Errorf("%d types: instance types %v, want m5.large once", tc.n, g.InstanceTypes)
		case tc.unknown == "" && g.UnknownTypes != "":
			t.Errorf("%d types: unknown: %s", tc.n, g.UnknownTypes)
		case !strings.Contains(g.UnknownTypes, tc.unknown):
			t.Errorf("%d types: unknown %q, want it to say %q", tc.n, g.UnknownTypes, tc.unknown)
		}
	}
}
