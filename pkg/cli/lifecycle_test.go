package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func jsonReport(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	return r
}

func openRules(r map[string]any) []string {
	var out []string
	for _, f := range r["findings"].([]any) {
		m := f.(map[string]any)
		if m["suppressed"] == nil {
			out = append(out, m["rule"].(string)+" "+m["location"].(map[string]any)["file"].(string))
		}
	}
	return out
}

func TestBaselineWriteThenRead(t *testing.T) {
	dir := t.TempDir()
	example := filepath.Join("..", "..", "examples", "quickstart")
	copyFile(t, filepath.Join(example, "sgp.yaml"), filepath.Join(dir, "sgp.yaml"))
	copyFile(t, filepath.Join(example, "db-migrate-cronjob.yaml"), filepath.Join(dir, "old.yaml"))
	t.Chdir(dir)
	code, _, stderr := run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--write-baseline", "baseline.json", "--format", "json")
	if code != 1 || !strings.Contains(stderr, "wrote 2 baseline entries") {
		t.Fatalf("write: exit %d %s", code, stderr)
	}
	// Lines move above the old finding, a new Job appears: only the new findings count, its
	// own ENI003 and the node's ENI001, which has a contributor the baseline did not (a TTL
	// does not lower a Job's peak: all its pods exist when it finishes).
	old, _ := os.ReadFile("old.yaml")
	if err := os.WriteFile("old.yaml", append([]byte("# a comment that moves every line\n\n"), old...), 0o644); err != nil {
		t.Fatal(err)
	}
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: fresh, namespace: billing}\nspec:\n  ttlSecondsAfterFinished: 60\n  completions: 4\n  template:\n    metadata: {labels: {rds-access: \"true\"}}\n    spec: {containers: [{name: c, image: x}]}\n"
	if err := os.WriteFile("new.yaml", []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--baseline", "baseline.json", "--format", "json")
	r := jsonReport(t, stdout)
	if got := strings.Join(openRules(r), ","); got != "ENI003 new.yaml,ENI001 old.yaml" || code != 1 {
		t.Errorf("exit %d, open findings %s", code, got)
	}
	if s := r["summary"].(map[string]any)["suppressed"].(float64); s != 1 {
		t.Errorf("suppressed %v", s)
	}
	// The old CronJob is fixed: its ENI002 is stale and listed (the node's ENI001 stays, with the
	// new Job).
	if err := os.Remove("old.yaml"); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--baseline", "baseline.json", "--no-color")
	if !strings.Contains(stdout, "Baseline entries that no longer occur") ||
		!strings.Contains(stdout, "ENI002 old.yaml CronJob billing/db-report") {
		t.Errorf("stale entries not listed:\n%s", stdout)
	}
	// A baseline that cannot be read (missing, over the file budget) costs its suppressions,
	// not the report: exit 2 with every finding and a located error naming the file.
	for _, tc := range []struct{ name, file, budget string }{{"missing", "missing.json", "10MiB"}, {"over the budget", "baseline.json", "400"}} {
		code, stdout, _ := run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--baseline", tc.file, "--max-file-size", tc.budget, "--format", "json")
		r := jsonReport(t, stdout)
		errs, _ := r["errors"].([]any)
		if code != 2 || len(errs) != 1 || !strings.Contains(fmt.Sprint(errs[0]), tc.file) || len(openRules(r)) == 0 {
			t.Errorf("%s baseline: exit %d, errors %v, open findings %v", tc.name, code, errs, openRules(r))
		}
	}
}

// gitIn runs git in the current folder with a committer of its own (and file:// clones
// allowed); the test fails when git does.
func gitIn(t *testing.T) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "protocol.file.allow=always"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func TestChangedSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	example := filepath.Join("..", "..", "examples", "quickstart")
	copyFile(t, filepath.Join(example, "sgp.yaml"), filepath.Join(dir, "policies", "sgp.yaml"))
	copyFile(t, filepath.Join(example, "db-migrate-cronjob.yaml"), filepath.Join(dir, "jobs", "report.yaml"))
	t.Chdir(dir)
	git := gitIn(t)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	// A new Job in its own file: its own finding is reported, and so is the CronJob's ENI001,
	// because the new Job is one of its contributors; the CronJob's ENI002, about a file the
	// change did not touch, is not. The whole tree is read either way.
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: fresh, namespace: billing}\nspec:\n  completions: 2\n  template:\n    metadata: {labels: {rds-access: \"true\"}}\n    spec: {containers: [{name: c, image: x}]}\n"
	if err := os.WriteFile(filepath.Join("jobs", "new.yaml"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr := run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--changed-since", "HEAD", "--format", "json")
	r := jsonReport(t, stdout)
	got := strings.Join(openRules(r), ",")
	if got != "ENI002 jobs/new.yaml,ENI001 jobs/report.yaml" || r["changedSince"] != "HEAD" {
		t.Errorf("changed-since HEAD: %s (%s)", got, stderr)
	}
	// Touching only the CronJob's file: its findings, not the new Job's.
	git("add", ".")
	git("commit", "-qm", "new job")
	report, _ := os.ReadFile(filepath.Join("jobs", "report.yaml"))
	if err := os.WriteFile(filepath.Join("jobs", "report.yaml"), append(report, []byte("# touched\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--changed-since", "HEAD", "--format", "json")
	got = strings.Join(openRules(jsonReport(t, stdout)), ",")
	if got != "ENI001 jobs/report.yaml,ENI002 jobs/report.yaml" {
		t.Errorf("after touching the CronJob: %s", got)
	}
	// Editing only the SecurityGroupPolicy changes the verdict of workloads it selects: their
	// findings are kept though their files did not change.
	git("add", ".")
	git("commit", "-qm", "touch")
	sgp, _ := os.ReadFile(filepath.Join("policies", "sgp.yaml"))
	if err := os.WriteFile(filepath.Join("policies", "sgp.yaml"), append(sgp, []byte("# edited\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--changed-since", "HEAD", "--format", "json")
	got = strings.Join(openRules(jsonReport(t, stdout)), ",")
	if !strings.Contains(got, "ENI002 jobs/new.yaml") || !strings.Contains(got, "ENI002 jobs/report.yaml") || !strings.Contains(got, "ENI001 jobs/report.yaml") {
		t.Errorf("after editing the policy only: %s", got)
	}
	// A renamed and edited file keeps its findings, under its new name.
	git("add", ".")
	git("commit", "-qm", "policy")
	git("mv", filepath.Join("jobs", "new.yaml"), filepath.Join("jobs", "renamed.yaml"))
	renamed, _ := os.ReadFile(filepath.Join("jobs", "renamed.yaml"))
	if err := os.WriteFile(filepath.Join("jobs", "renamed.yaml"), append(renamed, []byte("# and edited\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--changed-since", "HEAD", "--format", "json")
	if got = strings.Join(openRules(jsonReport(t, stdout)), ","); !strings.Contains(got, "ENI002 jobs/renamed.yaml") {
		t.Errorf("after a rename and an edit: %s", got)
	}
	if code, _, stderr := run(t, "", nil, "check", ".", "--changed-since", "no-such-ref"); code != 2 || !strings.Contains(stderr, "--changed-since: no such revision no-such-ref") || strings.Contains(stderr, "exit status") {
		t.Errorf("bad ref: exit %d %s", code, stderr)
	}
	// Without git (the released image has none) the flag is refused with that reason.
	t.Setenv("PATH", t.TempDir())
	if code, _, stderr := run(t, "", nil, "check", ".", "--changed-since", "HEAD"); code != 2 || !strings.Contains(stderr, "needs git, which is not on PATH") {
		t.Errorf("without git: exit %d %s", code, stderr)
	}
}

func TestCustomPolicies(t *testing.T) {
	custom := filepath.Join("..", "..", "examples", "custom-policy")
	code, stdout, _ := run(t, "", nil, "check", quickstart, "--node-group", "default=m5.4xlarge", "--policy", custom, "--format", "sarif")
	if code != 0 || !strings.Contains(stdout, `"id": "ORG001"`) || !strings.Contains(stdout, `"ruleId": "ORG001"`) {
		t.Errorf("custom rule in SARIF: exit %d\n%.2000s", code, stdout)
	}
	_, stdout, _ = run(t, "", nil, "rules", "--policy", custom)
	if !strings.Contains(strings.Join(strings.Fields(stdout), " "), "ORG001 warning SGP workloads must name an owning team") {
		t.Errorf("rules:\n%s", stdout)
	}
	_, stdout, _ = run(t, "", nil, "explain", "ORG001", "--policy", custom)
	if !strings.Contains(stdout, "Add `team: <name>`") {
		t.Errorf("explain:\n%s", stdout)
	}
	code, _, stderr := run(t, "", nil, "check", quickstart, "--policy", filepath.Join("..", "..", "testdata", "policies", "network"))
	if code != 2 || !strings.Contains(stderr, "http.send is not allowed") {
		t.Errorf("http.send: exit %d %s", code, stderr)
	}
	if code, _, stderr := run(t, "", nil, "check", quickstart, "--policy", t.TempDir()); code != 2 || !strings.Contains(stderr, "no .rego files") {
		t.Errorf("empty policy folder: exit %d %s", code, stderr)
	}
}

func TestConfigShowAndPrecedence(t *testing.T) {
	dir := t.TempDir()
	cfg := "eniRelease: onCompletion\nfailOn: warning\nnamespace: apps\ncooldown: 90s\n"
	if err := os.WriteFile(filepath.Join(dir, ".eni-lint.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	example, err := filepath.Abs(quickstart)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	env := map[string]string{"ENI_LINT_FAIL_ON": "error", "ENI_LINT_NAMESPACE": "from-env"}
	_, stdout, _ := run(t, "", env, "config", "show")
	var rows []string
	for _, line := range strings.Split(stdout, "\n") {
		rows = append(rows, strings.Join(strings.Fields(line), " "))
	}
	shown := strings.Join(rows, "\n")
	for _, want := range []string{
		"config ../../.eni-lint.yaml found",
		"eniRelease onCompletion ../../.eni-lint.yaml:1",
		"failOn error env ENI_LINT_FAIL_ON",
		"namespace from-env env ENI_LINT_NAMESPACE",
		"cooldown 90s ../../.eni-lint.yaml:4",
		"allowInlineIgnores true default",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("config show lacks %q:\n%s", want, stdout)
		}
	}
	// A flag wins over the environment and the file.
	code, stdout, _ := run(t, "", env, "check", example, "--eni-release", "onDelete", "--fail-on", "warning", "--no-color")
	if code != 1 || !strings.Contains(stdout, "Release model: onDelete") {
		t.Errorf("flags: exit %d\n%s", code, stdout)
	}
	if err := os.WriteFile(filepath.Join(dir, ".eni-lint.yaml"), []byte("eniRelease: onDelete\nnodeGroupz: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, "", nil, "config", "show"); code != 2 || !strings.Contains(stderr, ".eni-lint.yaml:2: unknown key \"nodeGroupz\"") {
		t.Errorf("unknown key: exit %d %s", code, stderr)
	}
}

// Names git would quote (a tab, a quote, non-ASCII) are changed files like any other, and a
// shallow checkout that lacks the base says how to get it.
func TestChangedSinceNamesAndShallowClones(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	example := filepath.Join("..", "..", "examples", "quickstart")
	repo := filepath.Join(dir, "repo")
	copyFile(t, filepath.Join(example, "sgp.yaml"), filepath.Join(repo, "sgp.yaml"))
	t.Chdir(repo)
	git := gitIn(t)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s, namespace: billing}\nspec:\n  template:\n    metadata: {labels: {rds-access: \"true\"}}\n    spec: {containers: [{name: c, image: x}]}\n"
	names := []string{"jobs/ünï\tcode.yaml", "jobs/a \"quoted\" name.yaml"}
	for i, name := range names {
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(fmt.Sprintf(job, fmt.Sprintf("j%d", i))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "jobs/ünï\tcode.yaml") // one committed since the base, one untracked
	git("commit", "-qm", "one job")
	_, stdout, stderr := run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--changed-since", "HEAD~1", "--format", "json")
	got := strings.Join(openRules(jsonReport(t, stdout)), ",")
	for _, name := range names {
		if !strings.Contains(got, "ENI002 "+name) {
			t.Errorf("%q is not reported as changed: %s (%s)", name, got, stderr)
		}
	}
	git("clone", "-q", "--depth", "1", "file://"+repo, filepath.Join(dir, "shallow"))
	t.Chdir(filepath.Join(dir, "shallow"))
	code, _, stderr := run(t, "", nil, "check", ".", "--changed-since", "HEAD~1")
	if code != 2 || !strings.Contains(stderr, "shallow") || !strings.Contains(stderr, "fetch-depth: 0") {
		t.Errorf("shallow clone: exit %d %s", code, stderr)
	}
}

// A new rendered file whose `# Source:` names a committed template: its findings are located
// in the template, which did not change, and still count as changed.
func TestChangedSinceKeepsRenderedFilesChanged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	example := filepath.Join("..", "..", "examples", "quickstart")
	copyFile(t, filepath.Join(example, "sgp.yaml"), filepath.Join(dir, "sgp.yaml"))
	copyFile(t, filepath.Join(example, "db-migrate-cronjob.yaml"), filepath.Join(dir, "charts", "billing", "templates", "cronjob.yaml"))
	job, err := os.ReadFile(filepath.Join(example, "db-migrate-cronjob.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	git := gitIn(t)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "base")
	if err := os.MkdirAll("rendered", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("rendered", "billing.yaml"), append([]byte("---\n# Source: billing/templates/cronjob.yaml\n"), job...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr := run(t, "", nil, "check", "rendered", "sgp.yaml", "--node-group", "default=m5.large", "--changed-since", "HEAD", "--format", "json")
	got := strings.Join(openRules(jsonReport(t, stdout)), ",")
	if !strings.Contains(got, "ENI001 charts/billing/templates/cronjob.yaml") {
		t.Errorf("the new render's findings are hidden: %q (%s)", got, stderr)
	}
}
