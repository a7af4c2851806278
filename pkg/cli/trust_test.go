//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The trust boundary as a user meets it: paths typed on the command line and named in the
// config are read wherever they are, the repository is readable whatever folder is scanned,
// links inside it are followed and links out of it are listed as not read.

// boundaryRepo writes a repository (a .git folder) shaped like the ones the paths were refused
// in: manifests under deployments/eks, a chart under deployments/helm/app with CI values
// beside, a Terraform root under aws/eks whose variables file is a link to a shared one, and
// environments under env/.
func boundaryRepo(t *testing.T) (repo, outside string) {
	t.Helper()
	base := t.TempDir()
	repo = filepath.Join(base, "repo")
	outside = filepath.Join(base, "secret.txt")
	write(t, outside, canaryText+"\n")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	sgp, _ := os.ReadFile(filepath.Join(quickstart, "sgp.yaml"))
	cronjob, _ := os.ReadFile(filepath.Join(quickstart, "db-migrate-cronjob.yaml"))
	write(t, filepath.Join(repo, "deployments/eks/sgp.yaml"), string(sgp))
	write(t, filepath.Join(repo, "k8s/db-migrate-cronjob.yaml"), string(cronjob))
	write(t, filepath.Join(repo, "k8s/sgp.yaml"), string(sgp))
	write(t, filepath.Join(repo, "deployments/helm/app/Chart.yaml"), "apiVersion: v2\nname: app\nversion: 0.1.0\n")
	write(t, filepath.Join(repo, "deployments/helm/app/values.yaml"), "enabled: false\n")
	write(t, filepath.Join(repo, "deployments/helm/app/templates/cronjob.yaml"), `{{- if .Values.enabled }}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: chart-report
  namespace: billing
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          labels:
            rds-access: "true"
        spec:
          restartPolicy: Never
          containers:
            - name: report
              image: postgres:16
{{- end }}
`)
	write(t, filepath.Join(repo, "ci/values.yaml"), "enabled: true\n")
	write(t, filepath.Join(repo, "variables/common.tf"), "variable \"instance_type\" {}\n")
	write(t, filepath.Join(repo, "aws/eks/main.tf"), `resource "aws_eks_node_group" "default" {
  node_group_name = "default"
  instance_types  = [var.instance_type]
}
`)
	link(t, "../../variables/common.tf", filepath.Join(repo, "aws/eks/variables-common.tf"))
	write(t, filepath.Join(repo, "env/prod.tfvars"), "instance_type = \"m5.large\"\n")
	return repo, outside
}

func TestPathsTheUserNamesAreRead(t *testing.T) {
	tests := []struct {
		name   string
		config string
		args   []string
		exit   int
		want   []string
	}{
		{name: "chart and values beside the scanned folder",
			args: []string{"check", "deployments/eks", "--helm-chart", "deployments/helm/app", "--values", "ci/values.yaml", "--node-group", "default=m5.large"},
			exit: 1, want: []string{"ENI001", "CronJob billing/chart-report"}},
		{name: "each-var-file beside the scanned root, variables through a link",
			args: []string{"check", "aws/eks", "k8s", "--each-var-file", "env/*.tfvars"},
			exit: 1, want: []string{"env/prod/default", "m5.large", "ENI001"}},
		{name: "var-file beside the scanned root",
			args: []string{"check", "aws/eks", "k8s", "--var-file", "env/prod.tfvars"},
			exit: 1, want: []string{"m5.large", "ENI001"}},
		{name: "a chart and no positional path",
			args: []string{"check", "--helm-chart", "deployments/helm/app:ci/values.yaml", "--node-group", "default=m5.large"},
			exit: 1, want: []string{"CronJob billing/chart-report"}},
		{name: "config charts while a subset is scanned",
			config: "charts:\n  - path: deployments/helm/app\n    values: [ci/values.yaml]\n",
			args:   []string{"check", "k8s", "--node-group", "default=m5.large"},
			exit:   1, want: []string{"CronJob billing/chart-report", "CronJob billing/db-report"}},
		{name: "from a folder of the repository, paths up from it",
			args: []string{"check", "../deployments/eks", "--helm-chart", "../deployments/helm/app", "--values", "../ci/values.yaml", "--node-group", "default=m5.large"},
			exit: 1, want: []string{"CronJob billing/chart-report"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo, _ := boundaryRepo(t)
			if tc.config != "" {
				write(t, filepath.Join(repo, ".eni-lint.yaml"), tc.config)
			}
			dir := repo
			if strings.HasPrefix(tc.args[1], "../") {
				dir = filepath.Join(repo, "k8s")
			}
			t.Chdir(dir)
			code, out, errOut := run(t, "", nil, tc.args...)
			if code != tc.exit {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.exit, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q\n%s%s", w, out, errOut)
				}
			}
			if strings.Contains(out+errOut, "outside") {
				t.Errorf("something was refused\n%s%s", out, errOut)
			}
		})
	}
}

// A named file outside the repository is readable (the user typed it); the files beside it
// are not, and a link in the repository to one of them is listed as not read.
func TestAFileNamedOutsideTheRepositoryIsReadAlone(t *testing.T) {
	repo, outside := boundaryRepo(t)
	values := filepath.Join(filepath.Dir(repo), "values-outside.yaml")
	write(t, values, "enabled: true\n")
	link(t, outside, filepath.Join(repo, "k8s/stolen.yaml"))
	t.Chdir(repo)
	code, out, errOut := run(t, "", nil, "check", "k8s", "--helm-chart", "deployments/helm/app", "--values", values, "--node-group", "default=m5.large")
	if code != 1 || !strings.Contains(out, "CronJob billing/chart-report") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "k8s/stolen.yaml") || !strings.Contains(out, "leads outside the repository (to "+outside+")") {
		t.Errorf("the link out is not listed as not read\n%s", out)
	}
	if strings.Contains(out+errOut, canaryText) {
		t.Errorf("the canary was read\n%s%s", out, errOut)
	}
}

// fixRepo copies the kustomize overlay scenario (fix adds a patch file to the overlay) into a
// repository.
func fixRepo(t *testing.T) (repo, outside string) {
	t.Helper()
	root, _ := scenarioEntries(t)
	base := t.TempDir()
	repo = filepath.Join(base, "repo")
	outside = filepath.Join(base, "secret.txt")
	write(t, outside, canaryText+"\n")
	copyTree(t, filepath.Join(root, "fix-kustomize-overlay-patch"), repo)
	os.Remove(filepath.Join(repo, "args"))
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	return repo, outside
}

const patchName = "overlays/prod/eni-lint-fix-cronjob-prod-db-report.yaml"

// TestFixWritesNothingAPullRequestRedirects: every way a pull request can plant a link or a
// special file where fix writes, and a file edited while fix runs, ends in exit 2 with the
// file named, nothing written in the tree and nothing outside it touched.
func TestFixWritesNothingAPullRequestRedirects(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, repo, outside string)
		edit  func(t *testing.T, repo string) // while fix runs, after its checks
		want  string
	}{
		{name: "patch file is a link outside", want: "eni-lint-fix-cronjob-prod-db-report.yaml: it is a symbolic link (to ",
			setup: func(t *testing.T, repo, outside string) { link(t, outside, filepath.Join(repo, patchName)) }},
		{name: "patch file is a dangling link", want: "it is a symbolic link (to ",
			setup: func(t *testing.T, repo, outside string) {
				link(t, filepath.Join(filepath.Dir(outside), "planted"), filepath.Join(repo, patchName))
			}},
		{name: "patch file is a named pipe", want: "a named pipe, not a regular file: not written",
			setup: func(t *testing.T, repo, _ string) {
				if err := syscall.Mkfifo(filepath.Join(repo, patchName), 0o644); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "patch file is a link inside the repository", want: "it is a symbolic link (to ../../.github/workflows/ci.yml): not written",
			setup: func(t *testing.T, repo, _ string) {
				write(t, filepath.Join(repo, ".github/workflows/ci.yml"), "on: push\n")
				link(t, "../../.github/workflows/ci.yml", filepath.Join(repo, patchName))
			}},
		{name: "kustomization edited while fix runs", want: "overlays/prod/kustomization.yaml changed on disk since eni-lint read it",
			edit: func(t *testing.T, repo string) {
				f, err := os.OpenFile(filepath.Join(repo, "overlays/prod/kustomization.yaml"), os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("# a line the user saved while fix ran\n")
				f.Close()
			}},
		{name: "patch file created while fix runs", want: "a file of that name exists already: not written",
			edit: func(t *testing.T, repo string) {
				write(t, filepath.Join(repo, patchName), "# the user's own patch\n")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo, outside := fixRepo(t)
			if tc.setup != nil {
				tc.setup(t, repo, outside)
			}
			t.Chdir(repo)
			base := filepath.Dir(repo)
			before := treeOf(t, base)
			if tc.edit != nil {
				beforeFixWrites = func([]string) {
					tc.edit(t, repo)
					before = treeOf(t, base)
				}
				defer func() { beforeFixWrites = func([]string) {} }()
			}
			code, out, errOut := run(t, "", nil, "fix", ".", "--node-group", "default=m5.large")
			if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "nothing was written") {
				t.Errorf("exit %d, want 2 and %q\n%s%s", code, tc.want, out, errOut)
			}
			if after := treeOf(t, base); !equalTrees(before, after) {
				t.Errorf("files changed:\nbefore %v\nafter  %v", before, after)
			}
			if data, _ := os.ReadFile(outside); string(data) != canaryText+"\n" {
				t.Errorf("the file outside changed: %q", data)
			}
			if _, err := os.Lstat(filepath.Join(base, "planted")); err == nil {
				t.Errorf("a file was created through the dangling link")
			}
		})
	}
	// The same repository with nothing planted is fixed: the refusals above are the links'.
	repo, _ := fixRepo(t)
	t.Chdir(repo)
	if code, out, errOut := run(t, "", nil, "fix", ".", "--node-group", "default=m5.large"); code != 0 {
		t.Errorf("clean repository: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(repo, patchName)); err != nil {
		t.Errorf("the patch was not written: %v", err)
	}
}

// TestReportFilesAreNotWrittenThroughLinks: --output, --write-baseline and audit --output
// refuse a committed link (to a file outside, dangling, or in a parent folder) and a FIFO.
func TestReportFilesAreNotWrittenThroughLinks(t *testing.T) {
	snapshot, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "audit"))
	entries, _ := filepath.Glob(filepath.Join(snapshot, "*", "snapshot.json"))
	targets := []struct {
		name  string
		plant func(t *testing.T, repo, outside string) string // returns the path to write
		want  string
	}{
		{"link to outside", func(t *testing.T, repo, outside string) string {
			link(t, outside, filepath.Join(repo, "eni-lint.sarif"))
			return "eni-lint.sarif"
		}, "symbolic link"},
		{"dangling link", func(t *testing.T, repo, outside string) string {
			link(t, filepath.Join(filepath.Dir(outside), "planted"), filepath.Join(repo, "eni-lint.sarif"))
			return "eni-lint.sarif"
		}, "symbolic link"},
		{"link in a parent folder", func(t *testing.T, repo, outside string) string {
			link(t, filepath.Dir(outside), filepath.Join(repo, "reports"))
			return "reports/secret.txt"
		}, "reports is a symbolic link"},
		{"fifo", func(t *testing.T, repo, _ string) string {
			syscall.Mkfifo(filepath.Join(repo, "eni-lint.sarif"), 0o644)
			return "eni-lint.sarif"
		}, "named pipe"},
	}
	commands := []struct {
		name string
		args func(target string) []string
	}{
		{"check --output", func(p string) []string {
			return []string{"check", "k8s", "--node-group", "default=m5.large", "--output", "sarif=" + p}
		}},
		{"check --write-baseline", func(p string) []string {
			return []string{"check", "k8s", "--node-group", "default=m5.large", "--write-baseline", p}
		}},
	}
	if len(entries) > 0 {
		commands = append(commands, struct {
			name string
			args func(target string) []string
		}{"audit --output", func(p string) []string {
			return []string{"audit", entries[0], "--output", "json=" + p}
		}})
	}
	for _, c := range commands {
		for _, tg := range targets {
			t.Run(c.name+" "+tg.name, func(t *testing.T) {
				repo, outside := boundaryRepo(t)
				target := tg.plant(t, repo, outside)
				t.Chdir(repo)
				base := filepath.Dir(repo)
				before := treeOf(t, base)
				code, out, errOut := run(t, "", nil, c.args(target)...)
				if code != 2 || !strings.Contains(errOut, tg.want) {
					t.Errorf("exit %d, want 2 and %q\n%s%s", code, tg.want, out, errOut)
				}
				if after := treeOf(t, base); !equalTrees(before, after) {
					t.Errorf("files changed")
				}
				if _, err := os.Lstat(filepath.Join(base, "planted")); err == nil {
					t.Errorf("a file was created through the dangling link")
				}
			})
		}
	}
	if len(entries) == 0 {
		t.Errorf("no audit snapshot under %s", snapshot)
	}
}

// TestFixWritesThroughALinkWithinTheRepository: a manifest shared through a symbolic link
// whose target is inside the repository (a monorepo's app folder linking a shared CronJob) is
// fixed at the target, through the one writer, and the link stays a link; a manifest linked
// from outside the repository is not written.
func TestFixWritesThroughALinkWithinTheRepository(t *testing.T) {
	root, _ := scenarioEntries(t)
	cronjob, err := os.ReadFile(filepath.Join(root, "helm-tpl-renders-itself", "cronjob.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sgp, err := os.ReadFile(filepath.Join(root, "helm-tpl-renders-itself", "sgp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	write(t, filepath.Join(repo, "shared", "cronjob.yaml"), string(cronjob))
	write(t, filepath.Join(repo, "app", "sgp.yaml"), string(sgp))
	link(t, "../shared/cronjob.yaml", filepath.Join(repo, "app", "cronjob.yaml"))
	outside := filepath.Join(base, "elsewhere", "cronjob.yaml")
	write(t, outside, string(cronjob))
	link(t, outside, filepath.Join(repo, "app", "outside-cronjob.yaml"))
	t.Chdir(filepath.Join(repo, "app"))
	code, out, errOut := run(t, "", nil, "fix", ".", "--node-group", "default=m5.large")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	fixed, _ := os.ReadFile(filepath.Join(repo, "shared", "cronjob.yaml"))
	if !strings.Contains(string(fixed), "ttlSecondsAfterFinished") {
		t.Errorf("the shared CronJob was not fixed:\n%s\n%s%s", fixed, out, errOut)
	}
	if info, err := os.Lstat(filepath.Join(repo, "app", "cronjob.yaml")); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", info, err)
	}
	if data, _ := os.ReadFile(outside); string(data) != string(cronjob) {
		t.Errorf("the manifest outside the repository was written:\n%s", data)
	}
}
