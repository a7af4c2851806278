package loaders

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
		if stats.Files != 6 || len(stats.SkippedChartTemplates) != 1 {
			t.Errorf("stats %+v", stats)
		}
		for _, f := range frags {
			if len(f.Errors) > 0 {
				t.Errorf("errors %v", f.Errors)
			}
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
	if frags[0].Workloads[0].Locations[""].File != StdinName {
		t.Errorf("file %q", frags[0].Workloads[0].Locations[""].File)
	}
}
