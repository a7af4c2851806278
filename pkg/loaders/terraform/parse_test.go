package terraform

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
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
