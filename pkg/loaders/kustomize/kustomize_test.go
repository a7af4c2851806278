package kustomize

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
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
	frags := Load(fsys, []string{filepath.Join(root, "base"), filepath.Join(root, "prod"), filepath.Join(root, "broken")}, kubernetes.Options{DefaultNamespace: "default"}, helm.Limits{})
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
	if got := w.Locations.At("spec.completions"); got.File != filepath.Join(root, "base", "job.yaml") || got.Line != 6 {
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
	frags := Load(fsys, []string{filepath.Join(root, "top"), filepath.Join(root, "a")}, kubernetes.Options{DefaultNamespace: "default"}, helm.Limits{})
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

// helmCharts are rendered in-process from the vendored chart, with kustomize's values order,
// and the kustomization's transformations apply to what they render.
func TestHelmChartsInflated(t *testing.T) {
	chart := map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: jobs\nversion: 1.2.3\n",
		"values.yaml": "backoffLimit: 6\ncompletions: 1\nparallelism: 1\n",
		"templates/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}-sync\nspec:\n" +
			"  backoffLimit: {{ .Values.backoffLimit }}\n  completions: {{ .Values.completions }}\n  parallelism: {{ .Values.parallelism }}\n" +
			"  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: x}]\n",
	}
	withChart := func(at string, files map[string]string) map[string]string {
		for k, v := range chart {
			files[at+"/"+k] = v
		}
		return files
	}
	tests := []struct {
		name  string
		files map[string]string
		// want is "namespace/name backoffLimit completions parallelism", or "" for no Job
		want, err, unresolved string
		line                  int // where spec.backoffLimit is reported in the template
	}{
		{name: "inline overrides the values file", files: withChart("app/charts/jobs", map[string]string{
			"app/kustomization.yaml": "namespace: sync\nhelmCharts:\n  - name: jobs\n    releaseName: nightly\n    valuesFile: prod.yaml\n    valuesInline: {backoffLimit: 2}\n    additionalValuesFiles: [more.yaml]\n",
			"app/prod.yaml":          "backoffLimit: 4\ncompletions: 3\n",
			"app/more.yaml":          "parallelism: 2\n",
		}), want: "sync/nightly-sync 2 3 2", line: 6},
		{name: "merge: the file wins", files: withChart("app/charts/jobs", map[string]string{
			"app/kustomization.yaml": "helmCharts:\n  - {name: jobs, releaseName: r, valuesFile: prod.yaml, valuesInline: {backoffLimit: 2, completions: 5}, valuesMerge: merge}\n",
			"app/prod.yaml":          "backoffLimit: 4\n",
		}), want: "default/r-sync 4 5 1", line: 6},
		{name: "repo and version: chartHome/NAME-VERSION/NAME", files: withChart("app/vendor/jobs-1.2.3/jobs", map[string]string{
			"app/kustomization.yaml": "helmGlobals: {chartHome: vendor}\nhelmCharts:\n  - {name: jobs, repo: https://charts.example.com, version: 1.2.3, releaseName: r}\n",
		}), want: "default/r-sync 6 1 1", line: 6},
		{name: "a base's charts reach the overlay", files: withChart("base/charts/jobs", map[string]string{
			"base/kustomization.yaml": "helmCharts:\n  - {name: jobs, releaseName: r}\n",
			"app/kustomization.yaml":  "namespace: prod\nnamePrefix: p-\nresources: [../base]\n",
		}), want: "prod/p-r-sync 6 1 1", line: 6},
		{name: "not vendored", files: map[string]string{
			"app/kustomization.yaml": "resources: []\nhelmCharts:\n  - {name: jobs, repo: https://charts.example.com, version: 1.2.3}\n",
		}, unresolved: "not vendored"},
		{name: "chartHome outside", files: withChart("charts/jobs", map[string]string{
			"app/kustomization.yaml": "helmCharts:\n  - {name: jobs, chartHome: ../charts}\n",
		}), err: "leads outside"},
		{name: "values file outside", files: withChart("app/charts/jobs", map[string]string{
			"app/kustomization.yaml": "helmCharts:\n  - {name: jobs, valuesFile: /etc/passwd}\n",
		}), err: "outside the kustomization's folder"},
		{name: "bad valuesMerge", files: withChart("app/charts/jobs", map[string]string{
			"app/kustomization.yaml": "helmCharts:\n  - {name: jobs, valuesMerge: sometimes}\n",
		}), err: "valuesMerge"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			fsys := tree(t, root, tc.files)
			var dirs []string
			for _, d := range []string{"app", "base"} {
				if IsKustomization(fsys, filepath.Join(root, d)) {
					dirs = append(dirs, filepath.Join(root, d))
				}
			}
			frags := Load(fsys, dirs, kubernetes.Options{DefaultNamespace: "default"}, helm.Limits{})
			var got, errs, unresolved string
			line := 0
			for _, f := range frags {
				for _, w := range f.Workloads {
					got = fmt.Sprintf("%s/%s %d %d %d", w.Namespace, w.Name, w.Job.BackoffLimit, *w.Job.Completions, w.Job.Parallelism)
					line = w.Locations.At("spec.backoffLimit").Line
					if file := w.Locations.At("spec.backoffLimit").File; !strings.HasSuffix(file, filepath.Join("jobs", "templates", "job.yaml")) {
						t.Errorf("located in %s", file)
					}
				}
				for _, e := range f.Errors {
					errs += e.Message
				}
				for _, u := range f.Unresolved {
					unresolved += u.Reason
				}
			}
			if got != tc.want || line != tc.line || !strings.Contains(errs, tc.err) || (tc.err == "") != (errs == "") || !strings.Contains(unresolved, tc.unresolved) {
				t.Errorf("got %q at line %d, errors %q, unresolved %q", got, line, errs, unresolved)
			}
		})
	}
}

// FuzzInflateHelmCharts reads any kustomization text beside a vendored chart: rendering never
// panics, and every rendered file it hands to kustomize is inside the kustomization's folder.
func FuzzInflateHelmCharts(f *testing.F) {
	f.Add("helmCharts:\n  - {name: jobs, releaseName: r, valuesInline: {a: 1}}\n")
	f.Add("helmGlobals: {chartHome: ../..}\nhelmCharts:\n  - {name: jobs}\n")
	f.Add("helmCharts:\n  - {name: jobs, valuesFile: ../../../etc/passwd, additionalValuesFiles: [/dev/zero]}\n")
	f.Add("helmCharts: {name: jobs}\nresources: 3\n")
	f.Add("helmCharts:\n  - {name: jobs, repo: oci://x, version: '1', chartHome: charts, valuesMerge: replace}\n")
	root := f.TempDir()
	fsys := tree(f, root, map[string]string{
		"app/charts/jobs/Chart.yaml":         "apiVersion: v2\nname: jobs\nversion: 1.0.0\n",
		"app/charts/jobs/templates/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata: {name: {{ .Release.Name }}}\nspec: {backoffLimit: {{ .Values.a | default 1 }}}\n",
	})
	dir := filepath.Join(root, "app")
	f.Fuzz(func(t *testing.T, text string) {
		inf := inflateHelmCharts(fsys, dir, filepath.Join(dir, "kustomization.yaml"), []byte(text), helm.Limits{})
		if inf == nil {
			return
		}
		for p := range inf.files {
			if !confine.Within(dir, p) {
				t.Fatalf("rendered file %s outside %s", p, dir)
			}
		}
	})
}
