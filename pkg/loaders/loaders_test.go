package loaders

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
)

func write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	testtool.WriteFiles(t, root, files)
}

const job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s}\n"

func jobNamed(name string) string { return strings.Replace(job, "%s", name, 1) }

func names(frags []inventory.Fragment) []string {
	inv := &inventory.Inventory{}
	inventory.Merge(inv, frags)
	var out []string
	for _, w := range inv.Workloads {
		out = append(out, w.Name)
	}
	return out
}

func TestWalk(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"a.yaml":                   jobNamed("a"),
		"sub/b.yml":                jobNamed("b"),
		"sub/c.json":               `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "c"}}`,
		"sub/notes.txt":            jobNamed("txt"),
		".git/config.yaml":         jobNamed("git"),
		"node_modules/x/y.yaml":    jobNamed("nm"),
		"chart/Chart.yaml":         "apiVersion: v2\nname: chart\n",
		"chart/templates/job.yaml": "{{ .Values.broken }",
		"chart/values.yaml":        "replicas: 1\n",
		"other/templates/job.yaml": jobNamed("not-a-chart"),
	})
	for _, workers := range []int{1, 4} {
		frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default", Workers: workers})
		got := strings.Join(names(frags), ",")
		if got != "a,not-a-chart,b,c" {
			t.Errorf("workers %d: workloads %s", workers, got)
		}
		// The chart of the tree is rendered; it does not render with its own values, which is
		// a warning naming it, not an unreadable input.
		if stats.Files != 6 || len(stats.SkippedChartTemplates) != 0 || len(stats.RenderedCharts) != 0 {
			t.Errorf("stats %+v", stats)
		}
		var unresolved []string
		for _, f := range frags {
			if len(f.Errors) > 0 {
				t.Errorf("errors %v", f.Errors)
			}
			for _, u := range f.Unresolved {
				unresolved = append(unresolved, u.Source+": "+u.Reason)
			}
		}
		if len(unresolved) != 1 || !strings.Contains(unresolved[0], "chart") || !strings.Contains(unresolved[0], "does not render with its own values.yaml") {
			t.Errorf("unresolved %v", unresolved)
		}
	}
}

func TestExplicitFileAnyExtension(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"manifest.txt": jobNamed("x")})
	frags, _ := Load(context.Background(), []string{filepath.Join(root, "manifest.txt")}, Options{})
	if got := names(frags); len(got) != 1 {
		t.Errorf("workloads %v", got)
	}
}

func TestMissingPathIsALoadError(t *testing.T) {
	frags, _ := Load(context.Background(), []string{"/does/not/exist"}, Options{})
	if len(frags) != 1 || len(frags[0].Errors) != 1 || frags[0].Errors[0].Position.File != "/does/not/exist" {
		t.Fatalf("frags %+v", frags)
	}
}

func TestStdin(t *testing.T) {
	frags, stats := Load(context.Background(), []string{"-"}, Options{Stdin: strings.NewReader(jobNamed("piped"))})
	if got := names(frags); len(got) != 1 || got[0] != "piped" || stats.Files != 1 {
		t.Fatalf("workloads %v stats %+v", got, stats)
	}
	if frags[0].Workloads[0].Locations.At("").File != StdinName {
		t.Errorf("file %q", frags[0].Workloads[0].Locations.At("").File)
	}
}

// TestDocumentBudgetReachesRenderedCharts: --max-documents bounds the stream of each
// rendered chart template as it does plain files. (kustomize builds are bounded by
// kustomize.MaxObjects, counted before the build.)
func TestDocumentBudgetReachesRenderedCharts(t *testing.T) {
	var jobs []string
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		jobs = append(jobs, jobNamed(n))
	}
	five := strings.Join(jobs, "---\n")
	root := t.TempDir()
	write(t, root, map[string]string{
		"plain/jobs.yaml":           five,
		"chart/Chart.yaml":          "apiVersion: v2\nname: chart\nversion: 0.1.0\n",
		"chart/templates/jobs.yaml": five,
	})
	opts := Options{DefaultNamespace: "default", Workers: 1, HelmCharts: []helm.Chart{{Dir: filepath.Join(root, "chart")}}}
	opts.YAML.MaxDocuments = 3
	frags, _ := Load(context.Background(), []string{root}, opts)
	var where []string
	workloads := 0
	for _, f := range frags {
		workloads += len(f.Workloads)
		for _, e := range f.Errors {
			if strings.Contains(e.Message, "more than 3 documents") {
				where = append(where, filepath.Base(filepath.Dir(e.Position.File))+"/"+filepath.Base(e.Position.File))
			}
		}
	}
	sort.Strings(where)
	if got := strings.Join(where, ","); got != "plain/jobs.yaml,templates/jobs.yaml" || workloads != 6 {
		t.Errorf("budget errors at %q, %d workloads; want both files stopped after 3 documents each", got, workloads)
	}
}

// FuzzLoadBytes feeds one file to the dispatch that sends each document to its loader
// (CloudFormation, rendered Helm output, Kubernetes): it does not panic, and every error and
// workload it reports is located.
func FuzzLoadBytes(f *testing.F) {
	f.Add([]byte(jobNamed("a")))
	f.Add([]byte("AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  g: {Type: AWS::EKS::Nodegroup, Properties: {InstanceTypes: [m5.large]}}\n---\n" + jobNamed("b")))
	f.Add([]byte("---\n# Source: chart/templates/job.yaml\n" + jobNamed("c") + "---\n# Source: ../../etc/passwd\n" + jobNamed("d")))
	f.Add([]byte("apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c, region: us-east-1}\nmanagedNodeGroups: [{name: ng, instanceTypes: [m5.large, c5.large]}]\n"))
	f.Add([]byte("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  annotations: {eni-lint.io/ignore: 'ENI002: reviewed'}\n"))
	// The controllers: Argo (nested steps, items, recursion), KEDA, Spark, autoscalers.
	f.Add([]byte("apiVersion: argoproj.io/v1alpha1\nkind: CronWorkflow\nmetadata: {name: c}\nspec:\n  schedule: '* * * * *'\n  workflowSpec:\n    entrypoint: m\n    templates:\n    - {name: m, steps: [[{name: a, template: m, withItems: [1, 2]}, {name: b, template: c, withSequence: {count: '9'}}]]}\n    - {name: c, retryStrategy: {limit: 3}, container: {image: x}}\n"))
	f.Add([]byte("apiVersion: keda.sh/v1alpha1\nkind: ScaledJob\nmetadata: {name: s}\nspec: {jobTargetRef: {template: {spec: {containers: [{name: c, image: x}]}}}}\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec: {scaleTargetRef: {kind: Deployment, name: d}, maxReplicas: 3}\n"))
	f.Add([]byte("apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: s}\nspec: {driver: {labels: {a: b}}, executor: {instances: 3}, dynamicAllocation: {enabled: true}}\n"))
	root := f.TempDir()
	fsys, err := confine.Open(root)
	if err != nil {
		f.Fatal(err)
	}
	opts := Options{DefaultNamespace: "default", FS: fsys}
	opts.locator = opts.newHelmLocator()
	f.Fuzz(func(t *testing.T, data []byte) {
		frag := loadBytes(filepath.Join(root, "f.yaml"), data, opts)
		for _, e := range frag.Errors {
			if e.Position.File == "" || e.Message == "" {
				t.Fatalf("an error without a file or message: %+v", e)
			}
		}
		for _, w := range frag.Workloads {
			if w.Locations.At("").File == "" {
				t.Fatalf("a workload without a position: %+v", w.Object)
			}
		}
	})
}

// TestTerraformTemplatesAreNotManifests: a values file that Terraform renders with
// templatefile() holds %{ if } and ${…}: read as YAML it fails the run (seen on real data
// platform repositories). It is listed as not read, with the reason.
func TestTerraformTemplatesAreNotManifests(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"infra/main.tf":                   "locals {\n  values = templatefile(\"${path.module}/helm-values/operator.yaml\", { ipv6 = false })\n}\n",
		"infra/helm-values/operator.yaml": "controller:\n  replicas: 1\n%{ if ipv6 ~}\n  env: ipv6\n%{ endif ~}\n",
		"infra/values/by-key.yaml":        "a: 1\n%{ for k in keys ~}\n  ${k}: x\n%{ endfor ~}\n",
		"manifests/job.yaml":              jobNamed("a"),
	})
	frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	for _, f := range frags {
		for _, e := range f.Errors {
			t.Errorf("error %v: %s", e.Position, e.Message)
		}
	}
	// operator.yaml is named by a templatefile() call; by-key.yaml by none we can evaluate,
	// but %{ } and a YAML error say what it is.
	sort.Slice(stats.Skipped, func(i, j int) bool { return stats.Skipped[i].Path < stats.Skipped[j].Path })
	if len(stats.Skipped) != 2 || filepath.Base(stats.Skipped[0].Path) != "operator.yaml" || !strings.Contains(stats.Skipped[0].Reason, "templatefile()") ||
		filepath.Base(stats.Skipped[1].Path) != "by-key.yaml" || !strings.Contains(stats.Skipped[1].Reason, "Terraform template directives") {
		t.Errorf("skipped %+v", stats.Skipped)
	}
	if got := strings.Join(names(frags), ","); got != "a" {
		t.Errorf("workloads %s", got)
	}
}

// TestTemplateDirectivesDoNotHideAManifest: a Job followed by %{ garbage stays a manifest
// whose error fails the run; it is not waved through as a template.
func TestTemplateDirectivesDoNotHideAManifest(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"job.yaml": jobNamed("kept") + "---\n%{ if x }\n: [\n"})
	frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	errs := 0
	for _, f := range frags {
		errs += len(f.Errors)
	}
	if errs == 0 || len(stats.Skipped) != 0 {
		t.Errorf("%d errors, skipped %+v", errs, stats.Skipped)
	}
}

// TestObjectsFromAFileTerraformReadAreCountedOnce: kubectl_manifest over
// kubectl_file_documents of a manifest file the walk also reads.
func TestObjectsFromAFileTerraformReadAreCountedOnce(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"infra/main.tf":       "data \"kubectl_file_documents\" \"app\" {\n  content = file(\"${path.module}/../manifests/jobs.yaml\")\n}\nresource \"kubectl_manifest\" \"app\" {\n  for_each  = data.kubectl_file_documents.app.manifests\n  yaml_body = each.value\n}\n",
		"manifests/jobs.yaml": jobNamed("a") + "---\n" + jobNamed("b"),
	})
	frags, _ := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	if got := strings.Join(names(frags), ","); got != "a,b" {
		t.Errorf("workloads %s: each Job once", got)
	}
}

// A NodePool file applied with kubectl_manifest { yaml_body = file(…) } and read by the walk
// is one pool (seen in aws-ia/terraform-aws-eks-blueprints patterns/eks-automode).
func TestNodePoolsFromAFileTerraformReadAreCountedOnce(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"main.tf":          "resource \"kubectl_manifest\" \"pool\" {\n  for_each  = toset([\"pool.yaml\"])\n  yaml_body = file(\"${path.module}/config/${each.value}\")\n}\n",
		"config/pool.yaml": "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: general}\nspec: {template: {spec: {requirements: []}}}\n",
	})
	frags, _ := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var pools []string
	for _, f := range frags {
		for _, p := range f.NodePools {
			pools = append(pools, p.Name+"@"+p.Location.File)
		}
	}
	if len(pools) != 1 {
		t.Errorf("pools %v: the pool once", pools)
	}
}

// Charts found in the tree are rendered with their own values; one a helm_release installs is
// counted once, from Terraform with the release's values; a subchart is rendered by its parent.
func TestChartsInTheTree(t *testing.T) {
	cronjob := "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: {{ .Release.Name }}-{{ .Chart.Name }}\nspec:\n  schedule: {{ .Values.schedule | quote }}\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers: [{name: c, image: x}]\n"
	root := t.TempDir()
	write(t, root, map[string]string{
		"infra/main.tf":                             "resource \"helm_release\" \"reports\" {\n  name  = \"prod\"\n  chart = \"${path.module}/../charts/reports\"\n}\n",
		"charts/reports/Chart.yaml":                 "apiVersion: v2\nname: reports\nversion: 0.1.0\n",
		"charts/reports/values.yaml":                "schedule: '@daily'\n",
		"charts/reports/templates/cronjob.yaml":     cronjob,
		"charts/other/Chart.yaml":                   "apiVersion: v2\nname: other\nversion: 0.1.0\n",
		"charts/other/values.yaml":                  "schedule: '@hourly'\n",
		"charts/other/templates/cronjob.yaml":       cronjob,
		"charts/other/charts/sub/Chart.yaml":        "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
		"charts/other/charts/sub/values.yaml":       "schedule: '@weekly'\n",
		"charts/other/charts/sub/templates/cj.yaml": cronjob,
	})
	frags, stats := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	got := names(frags)
	sort.Strings(got)
	if got := strings.Join(got, ","); got != "prod-reports,release-other,release-sub" {
		t.Errorf("workloads %s: reports once from its helm_release, other and its subchart from the tree", got)
	}
	if len(stats.RenderedCharts) != 1 || filepath.Base(stats.RenderedCharts[0]) != "other" || len(stats.SkippedChartTemplates) != 0 {
		t.Errorf("rendered %v skipped %v", stats.RenderedCharts, stats.SkippedChartTemplates)
	}
	// A chart a helm_release installs that does not render with its defaults is reported once,
	// by Terraform, not again as a chart of the tree.
	write(t, root, map[string]string{"charts/reports/templates/broken.yaml": "a: {{ .Values.missing.key }}\n"})
	frags, _ = Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var reports []string
	for _, f := range frags {
		for _, u := range f.Unresolved {
			reports = append(reports, "unresolved "+u.Source+": "+u.Reason)
		}
		for _, e := range f.Errors {
			reports = append(reports, "error "+e.Position.File+": "+e.Message)
		}
	}
	if len(reports) != 1 || !strings.Contains(reports[0], "broken.yaml") || strings.Contains(reports[0], "its own values.yaml") {
		t.Errorf("%q: the chart's failure once, from its helm_release", reports)
	}
	// --render-charts=false: the templates are listed as not read, as before.
	frags, stats = Load(context.Background(), []string{filepath.Join(root, "charts")}, Options{DefaultNamespace: "default", SkipTreeCharts: true})
	if got := strings.Join(names(frags), ","); got != "" || len(stats.SkippedChartTemplates) != 3 {
		t.Errorf("workloads %q skipped %v", got, stats.SkippedChartTemplates)
	}
}

// A chart whose name differs from its folder is located in its folder; dependencies Chart.yaml
// declares but charts/ does not hold are named (info when a condition may turn them off).
func TestChartNameAndMissingDependencies(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"billing/Chart.yaml": "apiVersion: v2\nname: billing-service\nversion: 0.1.0\ndependencies:\n" +
			"  - name: postgresql\n    version: 15.5.0\n    repository: oci://registry-1.docker.io/bitnamicharts\n" +
			"  - name: redis\n    version: 19.0.0\n    repository: https://charts.bitnami.com/bitnami\n    condition: redis.enabled\n",
		"billing/values.yaml":            "schedule: '@daily'\n",
		"billing/templates/cronjob.yaml": "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: report\nspec:\n  schedule: {{ .Values.schedule | quote }}\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers: [{name: c, image: x}]\n",
	})
	frags, _ := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var located string
	var unresolved []string
	for _, f := range frags {
		for _, w := range f.Workloads {
			located = w.Locations.At("").File
		}
		for _, u := range f.Unresolved {
			unresolved = append(unresolved, fmt.Sprintf("%s:%d %s [%s]", filepath.Base(u.Location.File), u.Location.Line, u.Reason, u.Severity))
		}
		if len(f.Errors) > 0 {
			t.Errorf("errors %v", f.Errors)
		}
	}
	if located != filepath.Join(root, "billing", "templates", "cronjob.yaml") {
		t.Errorf("the CronJob is located at %q", located)
	}
	if len(unresolved) != 2 || !strings.HasPrefix(unresolved[0], "Chart.yaml:5 its dependency postgresql 15.5.0") || !strings.HasSuffix(unresolved[0], "[]") ||
		!strings.HasPrefix(unresolved[1], "Chart.yaml:8 its dependency redis") || !strings.HasSuffix(unresolved[1], "[info]") {
		t.Errorf("unresolved %q", unresolved)
	}
}

// Each document of a multi-document template is located at its own lines.
func TestMultiDocumentTemplateLines(t *testing.T) {
	root := t.TempDir()
	job := func(name string) string {
		return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\nspec:\n  backoffLimit: 2\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n"
	}
	tpl := job("first") + "---\n# a comment between documents\n" +
		"apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\n" + job("second")
	write(t, root, map[string]string{
		"app/Chart.yaml":          "apiVersion: v2\nname: app\nversion: 0.1.0\n",
		"app/templates/jobs.yaml": tpl,
	})
	frags, _ := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	lines := map[string][2]int{}
	for _, f := range frags {
		for _, w := range f.Workloads {
			lines[w.Name] = [2]int{w.Locations.At("").Line, w.Locations.At("spec.backoffLimit").Line}
		}
	}
	// first: kind at 2, backoffLimit at 6; second: kind at 18, backoffLimit at 22.
	if lines["first"] != [2]int{2, 6} || lines["second"] != [2]int{18, 22} {
		t.Errorf("lines %v", lines)
	}
}

// The same on standard input: `helm template` output names the template before each
// document, and the second Job of a template is located in that template's second Job.
func TestMultiDocumentTemplateFromStdin(t *testing.T) {
	root := t.TempDir()
	job := func(name string) string {
		return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\nspec:\n  backoffLimit: 2\n  template:\n    spec:\n      containers: [{name: c, image: x}]\n"
	}
	write(t, root, map[string]string{"app/templates/jobs.yaml": job("{{ .Release.Name }}-a") + "---\n" + job("{{ .Release.Name }}-b")})
	out := "---\n# Source: app/templates/jobs.yaml\n" + job("r-a") + "---\n# Source: app/templates/jobs.yaml\n" + job("r-b")
	t.Chdir(root)
	frags, _ := Load(context.Background(), []string{"-"}, Options{DefaultNamespace: "default", Stdin: strings.NewReader(out)})
	lines := map[string]int{}
	for _, f := range frags {
		for _, w := range f.Workloads {
			lines[w.Name] = w.Locations.At("spec.backoffLimit").Line
		}
	}
	if lines["r-a"] != 6 || lines["r-b"] != 16 {
		t.Errorf("lines %v", lines)
	}
}

// A dependency whose condition the values turn off is not rendered, as helm install does; one
// left on is. The disabled one here would fail to render.
func TestChartDependencyConditions(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n" +
			"  - {name: store, version: 0.1.0, condition: store.enabled}\n  - {name: metrics, version: 0.1.0, condition: metrics.enabled}\n",
		"app/values.yaml":                       "store: {enabled: false}\nmetrics: {enabled: true}\n",
		"app/templates/job.yaml":                jobNamed("app-job"),
		"app/charts/store/Chart.yaml":           "apiVersion: v2\nname: store\nversion: 0.1.0\n",
		"app/charts/store/templates/fail.yaml":  "{{ required \"connectAddr is required\" .Values.connectAddr }}\n",
		"app/charts/metrics/Chart.yaml":         "apiVersion: v2\nname: metrics\nversion: 0.1.0\n",
		"app/charts/metrics/templates/job.yaml": jobNamed("sub-job"),
	})
	opts := Options{DefaultNamespace: "default", Workers: 1, HelmCharts: []helm.Chart{{Dir: filepath.Join(root, "app")}}}
	frags, _ := Load(context.Background(), []string{root}, opts)
	for _, f := range frags {
		for _, e := range f.Errors {
			t.Errorf("error %v", e)
		}
	}
	got := names(frags)
	sort.Strings(got)
	if strings.Join(got, ",") != "app-job,sub-job" {
		t.Errorf("workloads %v; want the chart's and the enabled subchart's", got)
	}
}

// An HPA the walk reads and kubectl_manifest { yaml_body = file(…) } applies is one
// autoscaler: the de-duplication goes through inventory's kind table, so no kind is left out.
func TestAutoscalerFromAFileTerraformReadIsCountedOnce(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"infra/main.tf": "resource \"kubectl_manifest\" \"hpa\" {\n  yaml_body = file(\"${path.module}/../k8s/hpa.yaml\")\n}\n",
		"k8s/hpa.yaml":  "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: api, namespace: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}\n  maxReplicas: 12\n",
	})
	frags, _ := Load(context.Background(), []string{root}, Options{DefaultNamespace: "default"})
	var scalers []string
	for _, f := range frags {
		for _, a := range f.Autoscalers {
			scalers = append(scalers, a.Name+"@"+a.Locations.At("").File)
		}
	}
	if len(scalers) != 1 {
		t.Errorf("autoscalers %v: the HPA once", scalers)
	}
}

// Reports and baselines an earlier run left in the tree are listed as skipped, not read as
// inputs; a manifest that carries a report's marker is still a manifest.
func TestOwnOutputsAreNoInputs(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"job.yaml":       jobNamed("real"),
		"report.json":    `{"schemaVersion": "eni-lint.report/v4", "findings": []}`,
		"audit.json":     `{"schemaVersion": "eni-lint.audit/v1", "nodes": []}`,
		"baseline.json":  `{"version": "eni-lint.baseline/v2", "entries": []}`,
		"log.json":       `{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [{"tool": {"driver": {"name": "eni-lint"}}}]}`,
		"other.json":     `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "another-tool"}}}]}`,
		"disguised.json": `{"schemaVersion": "eni-lint.report/v4", "apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "disguised"}}`,
	})
	frags, stats := Load(context.Background(), []string{root}, Options{})
	skipped := map[string]string{}
	for _, s := range stats.Skipped {
		skipped[filepath.Base(s.Path)] = s.Reason
	}
	for _, name := range []string{"report.json", "audit.json", "baseline.json", "log.json"} {
		if !strings.Contains(skipped[name], "eni-lint's own output, not an input") {
			t.Errorf("%s: skipped %q", name, skipped[name])
		}
	}
	for _, name := range []string{"other.json", "disguised.json", "job.yaml"} {
		if _, ok := skipped[name]; ok {
			t.Errorf("%s was skipped: %s", name, skipped[name])
		}
	}
	got := names(frags)
	sort.Strings(got)
	if strings.Join(got, ",") != "disguised,real" {
		t.Errorf("workloads %v", got)
	}
}
