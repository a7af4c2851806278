package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"go.yaml.in/yaml/v3"
)

// TestPreCommitHook runs the README's pre-commit snippet with the real pre-commit tool
// (Debian's package, which .ci/run installs) in a fresh git repository holding the quickstart.
// The snippet is used as written; only its repo URL is this checkout, committed as it is now
// and tagged with the snippet's rev.
func TestPreCommitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook with pre-commit: skipped in -short mode")
	}
	// pre-commit builds the hook in an environment of its own and runs it seven times: 30 s of
	// CPU, half of this package's, on a laptop that has pre-commit installed.
	testtool.SkipUnlessSlow(t, "builds and runs the hook with the real pre-commit")
	testtool.Program(t, "pre-commit", "apt-get install pre-commit; .ci/run installs it")
	snippet := readmeBlock(t, "# .pre-commit-config.yaml")
	var cfg struct {
		Repos []struct {
			Repo string `yaml:"repo"`
			Rev  string `yaml:"rev"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal([]byte(snippet), &cfg); err != nil || len(cfg.Repos) != 1 {
		t.Fatalf("README pre-commit snippet: %v %+v", err, cfg)
	}
	hookRepo := snapshotRepo(t, cfg.Repos[0].Rev)
	verbatim := strings.Replace(snippet, "repo: "+cfg.Repos[0].Repo, "repo: "+hookRepo, 1)
	argsLine := regexp.MustCompile(`(?m)^\s+args: \[--node-group, default=m5\.large\].*\n`)
	if !argsLine.MatchString(verbatim) {
		t.Fatalf("the snippet gives no node group on its args line:\n%s", snippet)
	}

	home := t.TempDir() // pre-commit's cache: the hook is built once for every run
	// pre-commit gives the hook its own GOPATH; sharing the module and build caches keeps the
	// build from downloading and compiling every dependency again.
	modCache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	buildCache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	ws := workspaceWithExample(t, false)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	run := func(config string) (int, string) {
		write(t, filepath.Join(ws, ".pre-commit-config.yaml"), config)
		cmd := exec.Command("pre-commit", "run", "--all-files", "--verbose")
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "PRE_COMMIT_HOME="+home, "NO_COLOR=1",
			"GOMODCACHE="+strings.TrimSpace(string(modCache)), "GOCACHE="+strings.TrimSpace(string(buildCache)))
		out, err := cmd.CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode(), string(out)
			}
			t.Fatalf("pre-commit: %v\n%s", err, out)
		}
		return 0, string(out)
	}
	// As written: m5.large, where the CronJob exceeds the branch ENIs.
	code, out := run(verbatim)
	if code == 0 || !strings.Contains(out, "ENI001") || !strings.Contains(out, "Failed") {
		t.Fatalf("the README snippet: exit %d\n%s", code, out)
	}
	// Without node groups no capacity can be checked: the hook fails with ENI011 instead of
	// passing by accident.
	code, out = run(argsLine.ReplaceAllString(verbatim, ""))
	if code == 0 || !strings.Contains(out, "ENI011") || !strings.Contains(out, "Failed") {
		t.Fatalf("without node groups: exit %d\n%s", code, out)
	}
	// On m5.4xlarge the CronJob fits: only ENI002, a warning, and the hook passes.
	code, out = run(strings.Replace(verbatim, "default=m5.large", "default=m5.4xlarge", 1))
	if code != 0 || !strings.Contains(out, "ENI002") || !strings.Contains(out, "Passed") {
		t.Fatalf("m5.4xlarge: exit %d\n%s", code, out)
	}
	// A mistyped instance type is a usage error that names the nearest type.
	code, out = run(strings.Replace(verbatim, "default=m5.large", "default=m5.lrage", 1))
	if code == 0 || !strings.Contains(out, "did you mean m5.large") {
		t.Fatalf("m5.lrage: exit %d\n%s", code, out)
	}
	// The fix hook writes the fixes: pre-commit fails the run because files changed, and the
	// next run, on the fixed files, passes.
	fixHook := strings.Replace(verbatim, "- id: eni-lint\n", "- id: eni-lint-fix\n", 1)
	code, out = run(fixHook)
	if code == 0 || !strings.Contains(out, "files were modified by this hook") || !strings.Contains(out, "backoffLimit") && !strings.Contains(out, "fixed ENI001") {
		t.Fatalf("the fix hook: exit %d\n%s", code, out)
	}
	if code, out = run(fixHook); code != 0 || !strings.Contains(out, "nothing to change") {
		t.Fatalf("the fix hook on fixed files: exit %d\n%s", code, out)
	}
	if code, out = run(verbatim); code != 0 {
		t.Fatalf("the check hook on fixed files: exit %d\n%s", code, out)
	}
}

// snapshotRepo commits this checkout's files as they are now (tracked and new, not ignored)
// to a fresh git repository tagged tag, which pre-commit can clone like the real one.
func snapshotRepo(t *testing.T, tag string) string {
	t.Helper()
	root := repoRoot(t)
	list, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	repo := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(repo, name), string(b))
	}
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "."},
		{"-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "snapshot"},
		{"tag", tag},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return repo
}
