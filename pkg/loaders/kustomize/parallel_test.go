package kustomize

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// TestBuildsOnEveryCoreGiveTheSame: overlays built by several workers at once give the
// fragments, in the same order, that building them one after the other gives: overlays that
// share a base, a base with a Helm chart, and one that fails.
func TestBuildsOnEveryCoreGiveTheSame(t *testing.T) {
	files := map[string]string{
		"base/kustomization.yaml":      "resources: [job.yaml]\nhelmCharts:\n  - {name: jobs, releaseName: r}\n",
		"base/job.yaml":                "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  completions: 2\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n",
		"base/charts/jobs/Chart.yaml":  "apiVersion: v2\nname: jobs\nversion: 1.2.3\n",
		"base/charts/jobs/values.yaml": "backoffLimit: 6\n",
		"base/charts/jobs/templates/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}-sync\nspec:\n" +
			"  backoffLimit: {{ .Values.backoffLimit }}\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: x}]\n",
		"broken/kustomization.yaml": "resources: [missing.yaml]\n",
	}
	dirs := []string{"base", "broken"}
	for i := range 7 {
		dir := fmt.Sprintf("env%d", i)
		files[dir+"/kustomization.yaml"] = fmt.Sprintf("namespace: env%d\nnameSuffix: \"-v%d\"\nresources: [../base]\n", i, i)
		dirs = append(dirs, dir)
	}
	root := t.TempDir()
	fsys := tree(t, root, files)
	var paths []string
	for _, d := range dirs {
		paths = append(paths, filepath.Join(root, d))
	}
	load := func(procs int) []inventory.Fragment {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return Load(fsys, paths, kubernetes.Options{DefaultNamespace: "default"}, helm.Limits{})
	}
	one, many := load(1), load(4)
	if !reflect.DeepEqual(one, many) {
		t.Fatalf("built on four workers:\n%+v\none after the other:\n%+v", many, one)
	}
	workloads := 0
	for _, f := range many {
		workloads += len(f.Workloads)
	}
	if len(many) != 8 || workloads != 14 {
		t.Fatalf("%d fragments, %d workloads: want the 7 overlays and the broken one, two Jobs each", len(many), workloads)
	}
}
