package integration

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"go.yaml.in/yaml/v3"
)

// readmeBlock returns the fenced code block of README.md whose first line is firstLine, as
// a reader would copy it.
func readmeBlock(t *testing.T, firstLine string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var block []string
	in, found := false, false
	for _, line := range strings.Split(string(raw), "\n") {
		switch {
		case !in && strings.HasPrefix(line, "```"):
			in, block = true, nil
		case in && line == "```":
			in = false
			if len(block) > 0 && block[0] == firstLine {
				if found {
					t.Fatalf("README.md has two blocks starting %q", firstLine)
				}
				found = true
				return strings.Join(block, "\n") + "\n"
			}
		case in:
			block = append(block, line)
		}
	}
	t.Fatalf("README.md has no code block starting %q", firstLine)
	return ""
}

const readmeWorkflowLine = "# .github/workflows/eni-lint.yml"

// workflowStep is the part of a workflow step the README's eni-lint step uses.
type workflowStep struct {
	ID   string            `yaml:"id"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
}

func readmeEniLintStep(t *testing.T) workflowStep {
	t.Helper()
	var wf struct {
		Jobs map[string]struct {
			Steps []workflowStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(readmeBlock(t, readmeWorkflowLine)), &wf); err != nil {
		t.Fatal(err)
	}
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "eni-lint/eni-lint@") {
				return s
			}
		}
	}
	t.Fatal("the README workflow has no eni-lint/eni-lint step")
	return workflowStep{}
}

// actionlint checks the workflows of the repository, and the README's sample workflow with
// its eni-lint step pointed at this checkout's action.yml, so that every input and output it
// names is checked against the action's definition. shellcheck checks every run: script.
func TestWorkflowsPassActionlint(t *testing.T) {
	actionlint := testtool.Program(t, "actionlint", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12; .ci/run installs it")
	testtool.Program(t, "shellcheck", "apt-get install shellcheck; actionlint uses it for run: scripts")
	root := repoRoot(t)
	lint := func(dir string, files ...string) {
		t.Helper()
		cmd := exec.Command(actionlint, append([]string{"-no-color"}, files...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("actionlint %v in %s: %v\n%s", files, dir, err, out)
		}
	}
	workflows, err := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	if err != nil || len(workflows) == 0 {
		t.Fatalf("no workflows: %v", err)
	}
	lint(root, workflows...)

	sample := t.TempDir()
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	step := readmeEniLintStep(t)
	wf := strings.Replace(readmeBlock(t, readmeWorkflowLine), "uses: "+step.Uses, "uses: ./", 1)
	// actionlint finds the project, and with it local actions, by its .git folder.
	if out, err := exec.Command("git", "init", "-q", sample).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write(t, filepath.Join(sample, "action.yml"), string(action))
	write(t, filepath.Join(sample, ".github", "workflows", "eni-lint.yml"), wf)
	lint(sample, filepath.Join(".github", "workflows", "eni-lint.yml"))
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The README's workflow step, with its inputs as written, on the quickstart: the release
// its ref names is installed from a stand-in release host and fails the step with ENI001.
// Without node groups it fails with ENI011; a mistyped instance type is a usage error.
func TestReadmeWorkflowOnTheQuickstart(t *testing.T) {
	step := readmeEniLintStep(t)
	ref := strings.TrimPrefix(step.Uses, "eni-lint/eni-lint@")
	rel := &release{dir: t.TempDir()}
	env := map[string]string{}
	// A release tag is installed from the stand-in release host; a branch or a commit (what
	// the README pins before the first release) builds from the action's checkout.
	release := regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(ref)
	if release {
		env = rel.publish(t, strings.TrimPrefix(ref, "v"), strings.Repeat("0", 40), false)
	}
	srv := rel.serve(t, ref)
	env["ENI_LINT_RELEASES"], env["ENI_LINT_API"], env["GITHUB_EVENT_NAME"] = srv.URL, srv.URL, "push"
	ws := workspaceWithExample(t, false)
	cache := t.TempDir()
	with := func(change func(map[string]string)) map[string]string {
		in := map[string]string{}
		for k, v := range step.With {
			in[k] = v
		}
		change(in)
		return in
	}

	r := runner{ref: ref, toolCache: cache}.run(t, ws, step.With, env)
	if r.failed != "" || r.code != 1 || !strings.Contains(r.log, "title=ENI001::") {
		t.Fatalf("README workflow: failed %q exit %d\n%s", r.failed, r.code, r.log)
	}
	if built := slices.Contains(r.ran, "Build eni-lint from the action's checkout"); built == release {
		t.Errorf("ref %s: built from the checkout %v, want %v\n%s", ref, built, !release, r.log)
	}
	// The annotations name the files from the repository root, as GitHub resolves them:
	// paths: k8s is read from the workspace root, so they start with k8s/.
	if !strings.Contains(r.log, "::error file=k8s/db-migrate-cronjob.yaml,line=") {
		t.Errorf("the ENI001 annotation does not name k8s/db-migrate-cronjob.yaml\n%s", r.log)
	}
	r = runner{ref: ref, toolCache: cache}.run(t, ws, with(func(in map[string]string) { delete(in, "node-groups") }), env)
	if r.code != 1 || !strings.Contains(r.log, "title=ENI011::") {
		t.Errorf("without node groups: exit %d\n%s", r.code, r.log)
	}
	r = runner{ref: ref, toolCache: cache}.run(t, ws, with(func(in map[string]string) { in["node-groups"] = "default=m5.lrage\n" }), env)
	if r.code != 2 || !strings.Contains(r.log, "did you mean m5.large") {
		t.Errorf("a mistyped instance type: exit %d\n%s", r.code, r.log)
	}
}

// The README's configuration example loads as written, beside the folders it names.
func TestReadmeConfigExample(t *testing.T) {
	cfg := readmeBlock(t, "paths: [k8s, deploy]            # what `eni-lint check` reads when no path is given")
	ws := workspaceWithExample(t, false)
	write(t, filepath.Join(ws, ".eni-lint.yaml"), cfg)
	write(t, filepath.Join(ws, "deploy", "README.md"), "nothing to read here\n")
	bin := buildEniLint(t)
	cmd := exec.Command(bin, "check", "--no-color")
	cmd.Dir = ws
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// Exit 0 or 1 is a verdict on the manifests; 2 would mean the example itself is refused.
	if code == 2 {
		t.Errorf("the README config example does not load: exit 2\n%s", out)
	}
	show := exec.Command(bin, "config", "show")
	show.Dir = ws
	if out, err := show.CombinedOutput(); err != nil || !strings.Contains(string(out), "batch") {
		t.Errorf("config show: %v\n%s", err, out)
	}
}

var (
	builtOnce sync.Once
	builtPath string
	builtErr  error
)

var linked sync.Map // ldflags → *linkedBinary

type linkedBinary struct {
	once sync.Once
	path string
	err  error
}

// linkEniLint builds this checkout's eni-lint with ldflags (a release's version and commit),
// once per test binary and set of flags, as buildEniLint does without them.
func linkEniLint(t *testing.T, ldflags string) string {
	t.Helper()
	v, _ := linked.LoadOrStore(ldflags, &linkedBinary{})
	b := v.(*linkedBinary)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "eni-lint-integration-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, "eni-lint")
		cmd := exec.Command("go", "build", "-ldflags", ldflags, "-o", b.path, "./cmd/eni-lint")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatalf("go build -ldflags %q: %v", ldflags, b.err)
	}
	return b.path
}

// buildEniLint builds this checkout's eni-lint once per test binary, with the flags and
// environment `go test` compiled the packages with: linking is all that is left to do. (With
// -trimpath or CGO_ENABLED=0 every package would be compiled a second time: minutes on two
// cores, and the README's `go test ./...` hit the 10-minute test timeout on a fresh clone.)
func buildEniLint(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "eni-lint-integration-")
		if err != nil {
			builtErr = err
			return
		}
		builtPath = filepath.Join(dir, "eni-lint")
		// Stripped (-s -w, as the releases are): the link takes half the CPU without the symbol
		// and debug tables, which no test reads.
		cmd := exec.Command("go", "build", "-ldflags", "-s -w", "-o", builtPath, "./cmd/eni-lint")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			builtErr = err
			builtPath = string(out)
		}
	})
	if builtErr != nil {
		t.Fatalf("go build: %v\n%s", builtErr, builtPath)
	}
	return builtPath
}

// shellcheck checks the shell the Action and CI run (actionlint only sees run: blocks).
func TestScriptsPassShellcheck(t *testing.T) {
	shellcheck := testtool.Program(t, "shellcheck", "apt-get install shellcheck; .ci/run installs it")
	root := repoRoot(t)
	scripts, err := filepath.Glob(filepath.Join(root, "scripts", "*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	cmd := exec.Command(shellcheck, append(scripts, filepath.Join(root, ".ci", "run"))...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

// The README starts as a new user reads it: clone, then the example, then the tests, with the
// commands .ci/run runs; and every ref a snippet pins (uses:, rev:) exists: a branch or tag of
// this repository or a commit it holds. GitHub fails a job whose uses: names a missing ref
// before any step runs.
func TestReadmeFirstCommandsAndRefs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	clone := strings.Index(text, "git clone https://github.com/eni-lint/eni-lint")
	run := strings.Index(text, "go run ./cmd/eni-lint check examples/quickstart --node-group default=m5.large\n")
	test := strings.Index(text, "\ngo test ./...\n")
	if clone < 0 || run < clone || test < run {
		t.Errorf("the README does not start with clone (%d), go run on the example (%d), go test ./... (%d) in that order", clone, run, test)
	}
	if strings.Count(text, "\n") > 250 {
		t.Errorf("README.md has %d lines, more than 250", strings.Count(text, "\n"))
	}
	refs := regexp.MustCompile(`(?m)(?:uses: eni-lint/eni-lint@|^\s+rev: )(\S+)`).FindAllStringSubmatch(text, -1)
	if len(refs) < 2 {
		t.Fatalf("found %d pinned refs, want the workflow's and pre-commit's", len(refs))
	}
	for _, m := range refs {
		ref := m[1]
		if ref == "main" {
			continue // the default branch
		}
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(ref) {
			cmd := exec.Command("git", "-C", repoRoot(t), "rev-parse", "--verify", "--quiet", "refs/tags/"+ref)
			if cmd.Run() != nil {
				t.Errorf("the README pins %q, which is neither main, a commit nor a tag of this repository", ref)
			}
			continue
		}
		if exec.Command("git", "-C", repoRoot(t), "cat-file", "-e", ref+"^{commit}").Run() != nil {
			t.Errorf("the README pins commit %s, which this repository does not hold", ref)
		}
	}
}
