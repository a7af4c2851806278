package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHook installs the hook with the real pre-commit tool (Debian's package, which
// .ci/run installs) from this repository and runs it in a fresh git repository: once passing,
// once failing.
func TestPreCommitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hook with pre-commit: skipped in -short mode")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pre-commit is not installed on CI: .ci/run must install it")
		}
		t.Skip("pre-commit is not installed (apt-get install pre-commit)")
	}
	root := repoRoot(t)
	home := t.TempDir() // pre-commit's cache: the hook is built once for both runs
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
	run := func() (int, string) {
		cmd := exec.Command("pre-commit", "try-repo", root, "eni-lint", "--all-files", "--verbose")
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
	// Without node groups no capacity can be checked: the hook fails with ENI011 instead of
	// passing by accident.
	code, out := run()
	if code == 0 || !strings.Contains(out, "ENI011") || !strings.Contains(out, "Failed") {
		t.Fatalf("run without node groups: exit %d\n%s", code, out)
	}
	config := func(instanceType string) {
		cfg := "nodeGroups:\n  - name: default\n    instanceTypes: [" + instanceType + "]\n"
		if err := os.WriteFile(filepath.Join(ws, ".eni-lint.yaml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", ".eni-lint.yaml")
	}
	// On m5.4xlarge the CronJob fits: only ENI002, a warning, and the hook passes.
	config("m5.4xlarge")
	code, out = run()
	if code != 0 || !strings.Contains(out, "ENI002") || !strings.Contains(out, "Passed") {
		t.Fatalf("passing run: exit %d\n%s", code, out)
	}
	// On m5.large it exceeds: the hook fails.
	config("m5.large")
	code, out = run()
	if code == 0 || !strings.Contains(out, "ENI001") || !strings.Contains(out, "Failed") {
		t.Fatalf("failing run: exit %d\n%s", code, out)
	}
}
