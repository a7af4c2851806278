package kustomize

import (
	"github.com/eni-lint/eni-lint/pkg/confine"
	"os"
	"path/filepath"
	"testing"

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
	for name, content := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := confine.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
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
