package kustomize

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

func TestBuildPointsAtSources(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"base/kustomization.yaml":   "resources: [job.yaml]\n",
		"base/job.yaml":             "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  completions: 2\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n",
		"prod/kustomization.yaml":   "namespace: prod\nnameSuffix: -v2\nresources: [../base]\n",
		"broken/kustomization.yaml": "resources: [missing.yaml]\n",
	}
	fsys := tree(t, root, files)
	frags := Load(fsys, []string{filepath.Join(root, "base"), filepath.Join(root, "prod"), filepath.Join(root, "broken")}, kubernetes.Options{DefaultNamespace: "default"})
	if len(frags) != 2 {
		t.Fatalf("built %d kustomizations, want prod and broken (base is used by prod)", len(frags))
	}
	var prod, broken = frags[1], frags[0]
	if len(prod.Workloads) != 1 {
		t.Fatalf("prod: %+v", prod)
	}
	w := prod.Workloads[0]
	if w.Namespace != "prod" || w.Name != "migrate-v2" {
		t.Errorf("object %s/%s", w.Namespace, w.Name)
	}
	if got := w.Locations["spec.completions"]; got.File != filepath.Join(root, "base", "job.yaml") || got.Line != 6 {
		t.Errorf("spec.completions at %+v, want base/job.yaml:6", got)
	}
	if len(broken.Errors) != 1 {
		t.Errorf("broken: %+v", broken.Errors)
	}
}

func TestBuildOverTheObjectBudgetIsRefusedBeforeItStarts(t *testing.T) {
	root := t.TempDir()
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j%d}\n"
	var base strings.Builder
	for i := 0; i < MaxObjects/2+1; i++ {
		if i > 0 {
			base.WriteString("---\n")
		}
		fmt.Fprintf(&base, job, i)
	}
	files := map[string]string{
		"base/kustomization.yaml": "resources: [jobs.yaml]\n",
		"base/jobs.yaml":          base.String(),
		"a/kustomization.yaml":    "namePrefix: a-\nresources: [../base]\n",
		"b/kustomization.yaml":    "namePrefix: b-\nresources: [../base]\n",
		"top/kustomization.yaml":  "resources: [../a, ../b]\n",
	}
	fsys := tree(t, root, files)
	frags := Load(fsys, []string{filepath.Join(root, "top"), filepath.Join(root, "a")}, kubernetes.Options{DefaultNamespace: "default"})
	// top uses the base twice (through a and b): over the budget; a alone is within it, but
	// top uses a, so only top is a root.
	if len(frags) != 1 || len(frags[0].Errors) != 1 || len(frags[0].Workloads) != 0 {
		t.Fatalf("want top refused with one error, got %d fragments: %+v", len(frags), frags)
	}
	e := frags[0].Errors[0]
	if e.Position.File != filepath.Join(root, "top", "kustomization.yaml") || !strings.Contains(e.Message, "more than 5000 objects") || !strings.Contains(e.Message, "a budget") {
		t.Errorf("error %s: %s", e.Position.File, e.Message)
	}
}

// tree writes files below root and opens the confined file system over it.
func tree(t testing.TB, root string, files map[string]string) *confine.FS {
	t.Helper()
	testtool.WriteFiles(t, root, files)
	fsys, err := confine.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	return fsys
}
