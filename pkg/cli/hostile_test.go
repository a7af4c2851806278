//go:build unix

package cli

import (
	"bytes"
	"context"
	"fmt"
	"github.com/eni-lint/eni-lint/pkg/witness"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
)

const canaryText = "CANARY-d41d8cd9-outside-the-tree"

// hostileCase is one folder of testdata/hostile with what the test adds and expects.
type hostileCase struct {
	name  string
	args  []string                                 // after "check"; the repository is the working folder
	setup func(t *testing.T, repo, outside string) // links, pipes and big files
	exit  int
	want  []string // in stdout or stderr
	// noGood is set where the run stops before reporting (a usage error or a refused policy).
	noGood bool
	// fixExit and fixWant, when fixWant is set, are what fix on the same tree must end with.
	fixExit int
	fixWant []string
	// duringFix runs after fix checked its changes and before it writes them.
	duringFix func(t *testing.T, repo string)
	// slow marks a case that spends seconds on purpose (a budget that trips after a million
	// iterations or a parse of megabytes): it runs with -tags slow, as .ci/run does.
	slow bool
}

// overlay puts a kustomize overlay in the repository (testdata/scenarios) whose CronJob has
// no ttlSecondsAfterFinished: ENI002's fix for it is a new patch file in the overlay,
// overlays/prod/eni-lint-fix-cronjob-prod-db-report.yaml.
func overlay(t *testing.T, repo string, withoutTTL bool) {
	t.Helper()
	root, _ := scenarioEntries(t)
	copyTree(t, filepath.Join(root, "fix-kustomize-overlay-patch"), filepath.Join(repo, "kust"))
	os.Remove(filepath.Join(repo, "kust", "args"))
	if !withoutTTL {
		return
	}
	cronjob := filepath.Join(repo, "kust", "base", "cronjob.yaml")
	data, _ := os.ReadFile(cronjob)
	write(t, cronjob, strings.Replace(string(data), "      ttlSecondsAfterFinished: 60\n", "", 1))
}

const overlayPatch = "kust/overlays/prod/eni-lint-fix-cronjob-prod-db-report.yaml"

func link(t *testing.T, target, name string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func fifo(t *testing.T, name string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := syscall.Mkfifo(name, 0o644); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, name, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

var hostileCases = []hostileCase{
	{name: "kustomize-upload-pack", exit: 2, want: []string{"app/kustomization.yaml:2:5", "is remote: remote resources and bases are not fetched"}},
	{name: "kustomize-remote-base", exit: 2, want: []string{"github.com/org/repo//deploy?ref=v1", "is remote"}},
	{name: "kustomize-http-resource", exit: 2, want: []string{"is remote"}},
	{name: "kustomize-cycle", exit: 2, want: []string{"b/kustomization.yaml:1:13", "leads back to a/kustomization.yaml", "a cycle"}},
	{name: "kustomize-includes-itself", exit: 2, want: []string{"self/kustomization.yaml:3:5", "leads back to self/kustomization.yaml", "a cycle"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "self/kustomization.yaml"), "resources:\n  - cm.yaml\n  - .\n")
			write(t, filepath.Join(repo, "self/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
		}},
	{name: "yaml-invalid-utf8", exit: 2, want: []string{"bad.yaml:6:7", "invalid leading UTF-8 octet"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"\xff\xfe\"\n")
		}},
	{name: "helm-template-error-line", args: []string{"--helm-chart", "chart"}, exit: 2, want: []string{"chart/templates/cm.yaml:4:26", "name is required"},
		setup: func(t *testing.T, repo, _ string) {
			// Chart.yaml names the chart otherwise than its folder: Helm's error names "app/…".
			write(t, filepath.Join(repo, "chart/Chart.yaml"), "apiVersion: v2\nname: app\nversion: 0.1.0\n")
			write(t, filepath.Join(repo, "chart/templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name | required \"name is required\" }}\n")
		}},
	{name: "helm-source-outside", exit: 1, want: []string{"ENI001"}},
	{name: "helm-repeat-bomb", args: []string{"--helm-chart", "chart"}, exit: 2, want: []string{"chart/templates/cm.yaml:5", "repeat 2000000000 asks for more than 100000 items"}},
	{name: "terraform-helm-release-bomb", exit: 2, want: []string{"chart/templates/cm.yaml:5", "repeat 2000000000 asks for more than 100000 items"}},
	{name: "helm-until-bomb", args: []string{"--helm-chart", "chart"}, exit: 2, want: []string{"until 50000000 asks for more than"}},
	{name: "helm-file-outside", args: []string{"--helm-chart", "chart"}, exit: 2, want: []string{"chart/files/x", "leads outside"},
		setup: func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(repo, "chart/Chart.yaml"), "apiVersion: v2\nname: chart\nversion: 0.1.0\n")
			write(t, filepath.Join(repo, "chart/templates/x.yaml"), "{{ fail (.Files.Get \"files/x\") }}\n")
			link(t, outside, filepath.Join(repo, "chart/files/x"))
		}},
	{name: "tfvars-link-outside", exit: 2, want: []string{"terraform.tfvars.json", "leads outside"},
		setup: func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(repo, "infra/main.tf"), "variable \"types\" {}\nresource \"aws_eks_node_group\" \"g\" {\n  instance_types = var.types\n}\n")
			link(t, outside, filepath.Join(repo, "infra/terraform.tfvars.json"))
		}},
	{name: "terraform-module-outside", exit: 2, want: []string{"infra/main.tf:1", "leads outside the repository"},
		setup: func(t *testing.T, repo, outside string) {
			write(t, filepath.Join(filepath.Dir(repo), "outside", "main.tf"), "resource \"aws_eks_node_group\" \"x\" {\n  instance_types = [\""+canaryText+"\"]\n}\n")
		}},
	{name: "terraform-module-self", exit: 2, want: []string{"infra/main.tf:1", "a cycle"}},
	{name: "terraform-count-billion", exit: 2, want: []string{"infra/main.tf:2", "more than 1024 instances"}},
	{name: "terraform-count-negative", exit: 2, want: []string{"must not be negative", "must be a whole number"}},
	{name: "terraform-nested-for", slow: true, exit: 2, want: []string{"iterate more than 1000000 times"}},
	{name: "terraform-nested-dynamic", exit: 1, want: []string{"infra/main.tf", "generate more than 10000 blocks (a budget; nested ones multiply)", "ENI001"}},
	{name: "terraform-huge-string", exit: 2, want: []string{"infra/main.tf:3", "arguments larger than 4194304 characters and elements (a budget)"}},
	{name: "terraform-huge-number", exit: 2, want: []string{"infra/main.tf:4", "Number too large", "infra/squares.tf:3", "exponent passes ±400 (a budget)"}},
	{name: "terraform-file-outside", exit: 1, want: []string{"infra/main.tf", "outside the repository"}},
	{name: "terraform-json-nested-for", slow: true, exit: 2, want: []string{"infra/main.tf.json:3", "iterate more than 1000000 times"}},
	// A few megabytes of nesting overflowed Go's stack in hcl's recursive parsers: a fatal
	// error that no recover() catches, so the whole report was lost.
	{name: "terraform-deep-json", exit: 2, want: []string{"infra/main.tf.json:2", "more than 500 levels deep (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			n := 3000000
			write(t, filepath.Join(repo, "infra/main.tf.json"), "{\"locals\":\n{\"x\": "+strings.Repeat("[", n)+strings.Repeat("]", n)+"}}\n")
		}},
	{name: "terraform-deep-operators", exit: 2, want: []string{"infra/main.tf:2", "more than 500 levels deep (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "infra/main.tf"), "locals {\n  x = "+strings.Repeat("!", 1000000)+"true\n}\n")
		}},
	// One expression of hundreds of thousands of operations: hcl parses a chain of
	// conditionals, and evaluates a chain of subtractions, one stack frame per operation.
	{name: "terraform-deep-conditionals", slow: true, exit: 2, want: []string{"infra/main.tf:2", "more than 500 levels deep (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "infra/main.tf"), "locals {\n  x = "+strings.Repeat("true ? 1 : ", 800000)+"1\n}\n")
		}},
	{name: "terraform-long-subtraction", slow: true, exit: 2, want: []string{"infra/main.tf:2", "more than 500 levels deep (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "infra/main.tf"), "locals {\n  x = "+strings.Repeat("1 - ", 2000000)+"1\n}\n"+
				"resource \"aws_eks_node_group\" \"g\" {\n  instance_types = [local.x == 1 ? \"m5.large\" : \"m5.xlarge\"]\n}\n")
		}},
	{name: "terraform-deep-blocks", slow: true, exit: 2, want: []string{"infra/main.tf:501", "more than 500 levels deep (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "infra/main.tf"), strings.Repeat("a {\n", 500000)+strings.Repeat("}\n", 500000))
		}},
	{name: "yaml-merge-cycle", exit: 2, want: []string{"bad.yaml:2", "alias cycle"}},
	{name: "yaml-list-cycle", exit: 2, want: []string{"bad.yaml:1", "alias cycle"}},
	{name: "yaml-alias-bomb", exit: 2, want: []string{"bomb.yaml:", "an alias bomb"},
		setup: func(t *testing.T, repo, _ string) {
			var b strings.Builder
			b.WriteString("apiVersion: v1\nkind: List\nitems: &a0 [{apiVersion: batch/v1, kind: Job, metadata: {name: j}}]\n")
			for i := 1; i < 12; i++ {
				fmt.Fprintf(&b, "x%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
			}
			write(t, filepath.Join(repo, "bomb.yaml"), b.String())
		}},
	{name: "yaml-duplicate-spec", exit: 2, want: []string{"job.yaml:7", "duplicate key \"spec\" (first at line 4)"}},
	{name: "yaml-million-documents", exit: 2, want: []string{"many.yaml:", "more than 10000 documents"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "many.yaml"), strings.Repeat("a: 1\n---\n", 1000000))
		}},
	{name: "file-over-budget", args: []string{"--max-file-size", "1KiB"}, exit: 2, want: []string{"big.yaml", "more than the 1024-byte budget"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "big.yaml"), "a: "+strings.Repeat("x", 4096)+"\n")
		}},
	// 1 + a retry limit near the largest int wrapped to a negative pod count: "0 finished
	// pods", exit 0. Counts from input saturate at the budget instead.
	{name: "argo-retry-limit-overflow", exit: 1, want: []string{"wf.yaml", "ENI001", "retryStrategy.limit 9223372036854775807: more than 1048576 pods per run (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "wf.yaml"), "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: w, namespace: billing}\nspec:\n"+
				"  entrypoint: main\n  templates:\n    - name: main\n      retryStrategy: {limit: 9223372036854775807}\n      steps:\n"+
				"        - - name: leaf\n            template: leaf\n            withItems: [a, b]\n"+
				"    - name: leaf\n      metadata: {labels: {rds-access: \"true\"}}\n      container: {image: x}\n")
		}},
	{name: "argo-sequence-overflow", exit: 1, want: []string{"wf.yaml", "ENI001", "more than 1048576 pods per run (a budget)"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "wf.yaml"), "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: w, namespace: billing}\nspec:\n"+
				"  entrypoint: main\n  templates:\n    - name: main\n      steps:\n"+
				"        - - name: leaf\n            template: leaf\n            withSequence: {start: \"-9223372036854775808\", end: \"9223372036854775807\"}\n"+
				"    - name: leaf\n      metadata: {labels: {rds-access: \"true\"}}\n      container: {image: x}\n")
		}},
	{name: "cloudformation-default-ref", exit: 1, want: []string{"not a literal value"}},
	{name: "cloudformation-sub-self", exit: 1, want: []string{"ENI001"}},
	{name: "cloudformation-labels-cycle", exit: 2, want: []string{"stack.yaml:7", "alias cycle"}},
	{name: "fifos-and-devices", exit: 2, want: []string{"Not read", "x.tf", "named pipe", "zero.yaml", "leads outside"},
		setup: func(t *testing.T, repo, _ string) {
			fifo(t, filepath.Join(repo, "infra/x.tf"))
			fifo(t, filepath.Join(repo, "infra/terraform.tfvars"))
			write(t, filepath.Join(repo, "infra/main.tf"), "resource \"aws_eks_node_group\" \"g\" {\n  instance_types = [\"m5.large\"]\n}\n")
			fifo(t, filepath.Join(repo, "kust/kustomization.yaml"))
			link(t, "/dev/zero", filepath.Join(repo, "zero.yaml"))
			link(t, filepath.Dir(repo), filepath.Join(repo, "up"))
		}},
	{name: "fifo-on-the-command-line", args: []string{"pipe.yaml"}, exit: 2, want: []string{"pipe.yaml", "named pipe"}, noGood: true,
		setup: func(t *testing.T, repo, _ string) { fifo(t, filepath.Join(repo, "pipe.yaml")) }},
	{name: "manifest-link-outside", exit: 1, want: []string{"Not read", "stolen.yaml", "leads outside"},
		setup: func(t *testing.T, repo, outside string) { link(t, outside, filepath.Join(repo, "stolen.yaml")) }},
	{name: "named-folder-is-a-link-out", args: []string{"manifests"}, exit: 2, want: []string{"manifests", "leads outside"}, noGood: true,
		setup: func(t *testing.T, repo, outside string) {
			link(t, filepath.Dir(outside), filepath.Join(repo, "manifests"))
		}},
	{name: "policy-numbers-range", args: []string{"--policy", "policies"}, exit: 2, want: []string{"numbers.range is not allowed", "bomb.rego:5"}, noGood: true},
	{name: "config-outside", exit: 2, want: []string{".eni-lint.yaml:1", "outside the config file's folder"}, noGood: true},
	{name: "kustomize-helm-outside", exit: 2, want: []string{"kustomization.yaml:6:5", "leads outside", "kustomization.yaml:7:5", "/etc/passwd"}},
	{name: "config-chart-outside", exit: 2, want: []string{".eni-lint.yaml:1", "charts", "outside the config file's folder"}, noGood: true},
	{name: "config-cluster-outside", exit: 2, want: []string{".eni-lint.yaml:1", "clusters", "outside the config file's folder"}, noGood: true},
	// Write paths: fix and the report files never write through what the pull request planted.
	{name: "fix-patch-link-outside", exit: 1, want: []string{"ENI001"}, fixExit: 2, fixWant: []string{overlayPatch, "symbolic link", "nothing was written"},
		setup: func(t *testing.T, repo, outside string) {
			overlay(t, repo, true)
			link(t, outside, filepath.Join(repo, overlayPatch))
		}},
	{name: "fix-patch-dangling-link", exit: 1, want: []string{"ENI001"}, fixExit: 2, fixWant: []string{overlayPatch, "symbolic link", "nothing was written"},
		setup: func(t *testing.T, repo, outside string) {
			overlay(t, repo, true)
			link(t, filepath.Join(filepath.Dir(outside), "planted"), filepath.Join(repo, overlayPatch))
		}},
	{name: "fix-patch-fifo", exit: 1, want: []string{"ENI001"}, fixExit: 2, fixWant: []string{overlayPatch, "named pipe", "nothing was written"},
		setup: func(t *testing.T, repo, _ string) { overlay(t, repo, true); fifo(t, filepath.Join(repo, overlayPatch)) }},
	{name: "fix-overlay-folder-link-outside", exit: 1, want: []string{"Not read", "kust/overlays", "leads outside"}, fixExit: 1,
		fixWant: []string{"fixed ENI002 at good/db-migrate-cronjob.yaml"},
		setup: func(t *testing.T, repo, outside string) {
			overlay(t, repo, false)
			dir := filepath.Join(filepath.Dir(outside), "elsewhere")
			os.Rename(filepath.Join(repo, "kust/overlays"), dir)
			link(t, dir, filepath.Join(repo, "kust/overlays"))
		}},
	{name: "fix-concurrent-edit", exit: 1, want: []string{"ENI001"}, fixExit: 2,
		fixWant: []string{"good/db-migrate-cronjob.yaml changed on disk since eni-lint read it", "nothing was written"},
		duringFix: func(t *testing.T, repo string) {
			f, err := os.OpenFile(filepath.Join(repo, "good/db-migrate-cronjob.yaml"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("# saved by the user's editor while fix ran\n")
			f.Close()
		}},
	{name: "output-link-outside", args: []string{"--output", "sarif=eni-lint.sarif"}, exit: 2, want: []string{"eni-lint.sarif", "symbolic link"}, fixExit: 0, fixWant: []string{"fixed ENI002"},
		setup: func(t *testing.T, repo, outside string) { link(t, outside, filepath.Join(repo, "eni-lint.sarif")) }},
	{name: "output-link-in-parent-folder", args: []string{"--output", "json=reports/secret.txt"}, exit: 2, want: []string{"reports is a symbolic link"}, fixExit: 0, fixWant: []string{"fixed ENI002"},
		setup: func(t *testing.T, repo, outside string) {
			link(t, filepath.Dir(outside), filepath.Join(repo, "reports"))
		}},
	{name: "baseline-dangling-link", args: []string{"--write-baseline", "baseline.json"}, exit: 2, want: []string{"baseline.json", "symbolic link"}, fixExit: 0, fixWant: []string{"fixed ENI002"},
		setup: func(t *testing.T, repo, outside string) {
			link(t, filepath.Join(filepath.Dir(outside), "planted"), filepath.Join(repo, "baseline.json"))
		}},
	{name: "policy-schema-file-ref", args: []string{"--policy", "policies"}, exit: 2, want: []string{`schema $ref "../secret.txt" is not resolved`}, noGood: true},
	{name: "changed-since-option", args: []string{"--changed-since=--output=x.txt"}, exit: 2, want: []string{"is not a git revision"}, noGood: true},
	// The file name is made here, not committed: ':' is not allowed in a module zip (the Go
	// proxy would refuse the module) nor in a Windows checkout.
	// Names written to forge output: a finding line, a workflow command, a diff header, an
	// escape sequence. Every human-readable output shows them on one line, escaped.
	{name: "forged-lines-in-names", exit: 1, want: []string{"w\\n:\u200b:error file=x:\u200b:pwned\\nk8s/x.yaml:1:1  error  ENI001", `\x1b[2J`},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "job.yaml"), "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: \"w\\n::error file=x::pwned\\nk8s/x.yaml:1:1  error  ENI001\\e[2J\"\n  namespace: billing\n"+
				"spec: {template: {metadata: {labels: {rds-access: \"true\"}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n")
			write(t, filepath.Join(repo, "a\n+++ b/etc/passwd\n.yaml"), "apiVersion: batch/v1\nkind: Job\nmetadata: {name: named, namespace: billing}\n"+
				"spec: {template: {metadata: {labels: {rds-access: \"true\"}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n")
		}},
	{name: "legacy-workflow-command-name", exit: 1, want: []string{"pwned.yaml"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "##[error]pwned.yaml"), "apiVersion: batch/v1\nkind: Job\nmetadata: {name: w, namespace: billing}\n"+
				"spec: {template: {metadata: {labels: {rds-access: \"true\"}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n")
		}},
	{name: "workflow-command-name", exit: 1, want: []string{"pwned.yaml"},
		setup: func(t *testing.T, repo, _ string) {
			write(t, filepath.Join(repo, "::error::pwned.yaml"), "apiVersion: batch/v1\nkind: Job\nmetadata: {name: w, namespace: billing}\n"+
				"spec: {template: {metadata: {labels: {rds-access: \"true\"}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}\n")
		}},
}

// TestHostileCorpus runs every case of testdata/hostile as a pull request would present it.
func TestHostileCorpus(t *testing.T) {
	// What is checked (files written, verdicts, refusals) does not depend on the witnesses:
	// the runs search none.
	witnessBudget = &witness.Budget{}
	t.Cleanup(func() { witnessBudget = nil })
	corpus, err := filepath.Abs("../../testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	quickstart, _ := filepath.Abs("../../examples/quickstart")
	// Nothing may start a process: a git (and friends) on PATH leaves a mark if run.
	bin := t.TempDir()
	marker := filepath.Join(bin, "EXECUTED")
	for _, name := range []string{"git", "helm", "kubectl", "kustomize", "terraform", "sh", "bash", "touch"} {
		write(t, filepath.Join(bin, name), "#!/bin/sh\necho \"$0 $*\" >> "+marker+"\n")
		os.Chmod(filepath.Join(bin, name), 0o755)
	}
	t.Setenv("PATH", bin)
	// Nothing may open a connection: a loopback listener counts them, and the default
	// transport is the binary's refusing one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var connections atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			connections.Add(1)
			c.Close()
		}
	}()
	saved, savedClient := http.DefaultTransport, http.DefaultClient.Transport
	DenyDefaultNetwork()
	defer func() { http.DefaultTransport, http.DefaultClient.Transport = saved, savedClient }()
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)

	seen := map[string]bool{}
	for _, tc := range hostileCases {
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			if tc.slow {
				testtool.SkipUnlessSlow(t, "a budget that takes seconds to trip")
			}
			base := t.TempDir()
			// scripts/bench-hostile.sh keeps each case's tree to measure the real binary on it.
			if keep := os.Getenv("ENI_LINT_HOSTILE_KEEP"); keep != "" {
				base = filepath.Join(keep, tc.name)
			}
			repo := filepath.Join(base, "repo")
			outside := filepath.Join(base, "secret.txt")
			write(t, outside, canaryText+"\n")
			src := filepath.Join(corpus, tc.name)
			filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() {
					return nil
				}
				rel, _ := filepath.Rel(src, p)
				data, _ := os.ReadFile(p)
				write(t, filepath.Join(repo, rel), strings.ReplaceAll(string(data), "PORT", port))
				return nil
			})
			for _, f := range []string{"db-migrate-cronjob.yaml", "sgp.yaml"} {
				data, _ := os.ReadFile(filepath.Join(quickstart, f))
				write(t, filepath.Join(repo, "good", f), string(data))
			}
			if tc.setup != nil {
				tc.setup(t, repo, outside)
			}
			t.Chdir(repo)
			var stdout, stderr bytes.Buffer
			args := append([]string{"check", "--node-group", "default=m5.large", "--timeout", "2m"}, tc.args...)
			code := Run(context.Background(), args, IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" },
				Exit: func(c int) { t.Errorf("the guard ended the run with %d: %s", c, stderr.String()) }})
			all := stdout.String() + stderr.String()
			if code != tc.exit {
				t.Errorf("exit %d, want %d\n%s", code, tc.exit, all)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q\n%s", w, all)
				}
			}
			if !tc.noGood && !strings.Contains(stdout.String(), "good/db-migrate-cronjob.yaml") {
				t.Errorf("the good files' ENI001 is lost\n%s", all)
			}
			if strings.Contains(all, canaryText) {
				t.Errorf("text from outside the tree in the output\n%s", all)
			}
			for _, line := range strings.Split(stdout.String(), "\n") {
				if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "::") || strings.HasPrefix(trimmed, "##[") {
					t.Errorf("a workflow command in the text output: %q", line)
				}
			}
			if data, err := os.ReadFile(marker); err == nil {
				t.Errorf("a process was started: %s", data)
			}
			for _, f := range []string{"pwned", "x.txt"} {
				if _, err := os.Stat(filepath.Join(repo, f)); err == nil {
					t.Errorf("%s was created", f)
				}
			}
			if _, err := os.Lstat(filepath.Join(base, "planted")); err == nil {
				t.Errorf("a file was created through a dangling link")
			}
			if n := connections.Load(); n != 0 {
				t.Errorf("%d connections were made", n)
			}
			// fix on the same tree writes only what the check could read: a run that did not
			// load everything writes nothing, and nothing outside the tree ever changes.
			beforeFix := treeOf(t, base)
			if tc.duringFix != nil {
				beforeFixWrites = func([]string) { tc.duringFix(t, repo); beforeFix = treeOf(t, base) }
				defer func() { beforeFixWrites = func([]string) {} }()
			}
			var fixOnly []string // fix has no --output or --write-baseline
			for i := 0; i < len(tc.args); i++ {
				if tc.args[i] == "--output" || tc.args[i] == "--write-baseline" {
					i++
					continue
				}
				fixOnly = append(fixOnly, tc.args[i])
			}
			fixArgs := append([]string{"fix", "--node-group", "default=m5.large", "--timeout", "2m"}, fixOnly...)
			stdout.Reset()
			stderr.Reset()
			fixCode := Run(context.Background(), fixArgs, IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" },
				Exit: func(c int) { t.Errorf("the guard ended fix with %d: %s", c, stderr.String()) }})
			afterFix := treeOf(t, base)
			for _, line := range strings.Split(stdout.String()+stderr.String(), "\n") {
				if trimmed := strings.TrimSpace(line); strings.HasPrefix(trimmed, "::") || strings.HasPrefix(trimmed, "##[") || strings.Contains(line, "\x1b") {
					t.Errorf("fix printed a forged or raw line: %q", line)
				}
			}
			if len(tc.fixWant) > 0 {
				if fixCode != tc.fixExit {
					t.Errorf("fix: exit %d, want %d\n%s%s", fixCode, tc.fixExit, stdout.String(), stderr.String())
				}
				for _, w := range tc.fixWant {
					if !strings.Contains(stdout.String()+stderr.String(), w) {
						t.Errorf("fix output lacks %q\n%s%s", w, stdout.String(), stderr.String())
					}
				}
				if tc.fixExit == 2 && !equalTrees(beforeFix, afterFix) {
					t.Errorf("fix failed but changed files")
				}
			}
			for name, data := range afterFix {
				if beforeFix[name] == data {
					continue
				}
				inGood := strings.HasPrefix(name, filepath.Join("repo", "good")+string(filepath.Separator))
				// A check that failed (exit 2) leaves fix nothing to write, unless the case
				// says what fix does on its own (a report file fix does not write).
				fixMayWrite := tc.exit != 2 || len(tc.fixWant) > 0 && tc.fixExit != 2
				if !fixMayWrite || !inGood {
					t.Errorf("fix (exit %d) changed %s\n%s%s", fixCode, name, stdout.String(), stderr.String())
				}
			}
			if len(afterFix) != len(beforeFix) {
				t.Errorf("fix made or removed files: %d before, %d after", len(beforeFix), len(afterFix))
			}
			if data, _ := os.ReadFile(outside); string(data) != canaryText+"\n" {
				t.Errorf("fix changed the file outside the tree")
			}
			if data, err := os.ReadFile(marker); err == nil {
				t.Errorf("fix started a process: %s", data)
			}
			if n := connections.Load(); n != 0 {
				t.Errorf("fix made %d connections", n)
			}
		})
	}
	entries, _ := os.ReadDir(corpus)
	for _, e := range entries {
		if e.IsDir() && !seen[e.Name()] {
			t.Errorf("testdata/hostile/%s has no case in hostileCases", e.Name())
		}
	}
}

// A module beside the scanned folder but inside the checkout is read, as terraform would: an
// example that calls "../.." still finds its node groups when only examples/ is scanned.
func TestModuleBesideTheScannedFolderIsRead(t *testing.T) {
	repo := t.TempDir()
	write(t, filepath.Join(repo, "main.tf"), "variable \"types\" {\n  default = [\"m5.xlarge\"]\n}\nresource \"aws_eks_node_group\" \"g\" {\n  instance_types = var.types\n}\n")
	write(t, filepath.Join(repo, "examples/basic/main.tf"), "module \"eks\" {\n  source = \"../..\"\n}\n")
	t.Chdir(repo)
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), []string{"check", "examples", "--format", "json"}, IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" }})
	if code != 0 || !strings.Contains(stdout.String(), "m5.xlarge") {
		t.Errorf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}
