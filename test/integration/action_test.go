package integration

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"
)

type actionFile struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func loadAction(t *testing.T) (actionFile, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		// KnownFields rejects keys the test does not model; name, description, branding…
		// are modelled loosely below instead.
		if err := yaml.Unmarshal(raw, &a); err != nil {
			t.Fatal(err)
		}
	}
	return a, string(raw)
}

var pinned = regexp.MustCompile(`^[\w.-]+/[\w.-]+@[0-9a-f]{40}$`)

func TestActionDefinition(t *testing.T) {
	a, raw := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using %q", a.Runs.Using)
	}
	for _, in := range []string{"paths", "config", "eni-release", "fail-on", "comment", "sarif-file", "working-directory", "version", "go-version", "token", "node-groups", "var-files", "terraform-plans", "baseline", "review", "args"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("input %s missing", in)
		}
	}
	for _, out := range []string{"exit-code", "findings", "errors", "sarif-file", "eni-lint-version"} {
		if _, ok := a.Outputs[out]; !ok {
			t.Errorf("output %s missing", out)
		}
	}
	for _, s := range a.Runs.Steps {
		if s.Uses != "" && !pinned.MatchString(s.Uses) {
			t.Errorf("step %q uses %q: actions must be pinned by commit SHA", s.Name, s.Uses)
		}
	}
	if strings.Contains(raw, "latest") {
		t.Error("action.yml mentions latest")
	}
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]+?)\s*\}\}`)

// expand evaluates the expressions the action uses, as a runner would.
func expand(s string, ctx map[string]string, t *testing.T) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		key := expression.FindStringSubmatch(m)[1]
		v, ok := ctx[key]
		if !ok {
			t.Fatalf("expression %q has no value in the simulated runner", key)
		}
		return v
	})
}

// actionRun is what one simulated run of the action left behind.
type actionRun struct {
	code    int               // the Run step's exit code; -1 when an earlier step failed
	log     string            // everything the steps printed
	outputs map[string]string // the action's outputs, as a workflow sees them
	ran     []string          // names of the steps that ran (uses: steps included, not executed)
	failed  string            // the step that failed before Run, if any
}

// runner is the part of a GitHub runner the action depends on.
type runner struct {
	ref       string // github.action_ref: a tag, a branch or a commit
	repo      string // github.action_repository (default eni-lint/eni-lint)
	toolCache string // RUNNER_TOOL_CACHE, kept between runs to test caching
	temp      string // RUNNER_TEMP, shared by the steps of one job (default: a new folder)
}

// runAction runs the action at a release ref whose binary an earlier job left in the tool
// cache (this checkout's eni-lint, built once), so a run costs no build. Installing and
// building have tests of their own.
func runAction(t *testing.T, workspace string, inputs map[string]string, env map[string]string) (code int, stdout string, outputs map[string]string) {
	t.Helper()
	r := runner{ref: "v0.0.1", toolCache: cachedRelease(t, "0.0.1")}.run(t, workspace, inputs, env)
	if !strings.Contains(r.log, "eni-lint v0.0.1 from the tool cache") {
		t.Fatalf("the release was not taken from the tool cache:\n%s", r.log)
	}
	if r.failed != "" {
		t.Fatalf("step %q failed\n%s", r.failed, r.log)
	}
	return r.code, r.log, r.outputs
}

// withSetupGo stands in for actions/setup-go: a go first on PATH, this machine's, which builds
// with the flags go test compiled the packages with (no -trimpath, the default cgo setting), so
// the action's build step links what the tests compiled rather than compiling every package
// again. The action's own build command (go build -trimpath -o OUT ./cmd/eni-lint) gives, with
// those flags, what buildEniLint linked once for this test binary: it is copied rather than
// linked again (5-10 s of CPU each). TestActionDefinition checks the step's own flags.
func withSetupGo(t *testing.T, env []string) []string {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/bash\nargs=()\nfor a in \"$@\"; do [ \"$a\" = -trimpath ] || args+=(\"$a\"); done\nunset CGO_ENABLED\n" +
		"if [ \"${#args[@]}\" -eq 4 ] && [ \"${args[0]}\" = build ] && [ \"${args[1]}\" = -o ] && [ \"${args[3]}\" = ./cmd/eni-lint ] && [ -f \"$PWD/go.mod\" ]; then\n" +
		"  exec cp " + buildEniLint(t) + " \"${args[2]}\"\nfi\n" +
		"exec " + real + " \"${args[@]}\"\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := append([]string{}, env...)
	for i, kv := range out {
		if strings.HasPrefix(kv, "PATH=") {
			out[i] = "PATH=" + dir + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
			return out
		}
	}
	return append(out, "PATH="+dir)
}

// run executes the action's shell steps as a runner would: each step's `if` is evaluated,
// each step has its own GITHUB_OUTPUT whose values later steps and the action's outputs read,
// and `uses:` steps (actions/setup-go) are recorded but not executed: this machine has Go.
func (rn runner) run(t *testing.T, workspace string, inputs map[string]string, env map[string]string) actionRun {
	t.Helper()
	a, _ := loadAction(t)
	root := repoRoot(t)
	temp := rn.temp
	if temp == "" {
		temp = t.TempDir()
	}
	if rn.toolCache == "" {
		rn.toolCache = t.TempDir()
	}
	if rn.repo == "" {
		rn.repo = "eni-lint/eni-lint"
	}
	ctx := map[string]string{"github.action_path": root, "github.action_ref": rn.ref, "github.action_repository": rn.repo, "runner.temp": temp, "github.token": "test-token-not-printed"}
	for name, in := range a.Inputs {
		ctx["inputs."+name] = expand(in.Default, ctx, t)
	}
	for k, v := range inputs {
		ctx["inputs."+k] = v
	}
	baseEnv := append(os.Environ(),
		"GITHUB_ACTIONS=true", "GITHUB_ACTION_PATH="+root, "GITHUB_ACTION_REF="+rn.ref, "RUNNER_TEMP="+temp,
		"RUNNER_TOOL_CACHE="+rn.toolCache, "GITHUB_WORKSPACE="+workspace,
	)
	for k, v := range env {
		baseEnv = append(baseEnv, k+"="+v)
	}
	res := actionRun{code: -1}
	var out bytes.Buffer
	for i, s := range a.Runs.Steps {
		if s.If != "" && !evalIf(t, s.If, ctx) {
			continue
		}
		res.ran = append(res.ran, s.Name)
		if s.Uses != "" {
			if strings.HasPrefix(s.Uses, "actions/setup-go@") {
				baseEnv = withSetupGo(t, baseEnv)
			}
			continue
		}
		if s.Shell != "bash" {
			t.Fatalf("step %q: shell %q", s.Name, s.Shell)
		}
		dir := expand(s.WorkingDirectory, ctx, t)
		if dir == "" {
			dir = "."
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(workspace, dir)
		}
		stepOutput := filepath.Join(temp, fmt.Sprintf("output-%d", i))
		cmd := exec.Command("bash", "-e", "-c", expand(s.Run, ctx, t))
		cmd.Dir = dir
		cmd.Env = append(append([]string{}, baseEnv...), "GITHUB_OUTPUT="+stepOutput)
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+expand(v, ctx, t))
		}
		var stepOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stepOut, &stepOut
		err := cmd.Run()
		out.Write(stepOut.Bytes())
		b, _ := os.ReadFile(stepOutput)
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && s.ID != "" {
				ctx["steps."+s.ID+".outputs."+k] = v
			}
		}
		if s.ID == "run" {
			res.code = 0
			if ee, ok := err.(*exec.ExitError); ok {
				res.code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil {
			res.failed = s.Name
			break
		}
	}
	res.log = out.String()
	res.outputs = map[string]string{}
	for name, o := range a.Outputs {
		res.outputs[name] = expression.ReplaceAllStringFunc(o.Value, func(m string) string {
			return ctx[expression.FindStringSubmatch(m)[1]] // a skipped step has no outputs: ""
		})
	}
	if strings.Contains(res.log, "test-token-not-printed") {
		t.Error("the token appears in the step's output")
	}
	return res
}

// evalIf evaluates the conditions action.yml uses: clauses `CONTEXT == 'text'` or
// `CONTEXT != 'text'` joined by &&. A step output that was never written is "", as on GitHub.
func evalIf(t *testing.T, cond string, ctx map[string]string) bool {
	t.Helper()
	for _, clause := range strings.Split(cond, "&&") {
		m := condition.FindStringSubmatch(strings.TrimSpace(clause))
		if m == nil {
			t.Fatalf("the simulated runner cannot evaluate %q", clause)
		}
		key := m[1]
		if _, ok := ctx[key]; !ok && !strings.HasPrefix(key, "steps.") {
			t.Fatalf("condition %q: %s has no value in the simulated runner", cond, key)
		}
		if (ctx[key] == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

var condition = regexp.MustCompile(`^([\w.-]+) (==|!=) '([^']*)'$`)

func workspaceWithExample(t *testing.T, nodeGroups bool) string {
	t.Helper()
	ws := t.TempDir()
	src := filepath.Join(repoRoot(t), "examples", "quickstart")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "k8s"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, "k8s", e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if nodeGroups {
		cfg := "nodeGroups:\n  - name: default\n    instanceTypes: [m5.large]\n"
		if err := os.WriteFile(filepath.Join(ws, ".eni-lint.yaml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func TestActionRunsInASimulatedRunner(t *testing.T) {
	ws := workspaceWithExample(t, true)
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"ref": "refs/heads/main"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := map[string]string{
		"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": event, "GITHUB_REPOSITORY": "org/repo",
		"GITHUB_SHA": "0123456789abcdef", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_STEP_SUMMARY": summary,
		"GITHUB_API_URL": "http://127.0.0.1:1", // never reached: a push event has no pull request
	}
	code, stdout, outputs := runAction(t, ws, map[string]string{"paths": "k8s"}, env)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (findings)\n%s", code, stdout)
	}
	if outputs["exit-code"] != "1" || outputs["findings"] != "2" || outputs["sarif-file"] != "eni-lint.sarif" {
		t.Errorf("outputs %v", outputs)
	}
	if !strings.Contains(stdout, "::error file=k8s/db-migrate-cronjob.yaml,line=13,col=5,title=ENI001::") {
		t.Errorf("annotations missing:\n%s", stdout)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "eni-lint.sarif")); err != nil || !bytes.Contains(b, []byte(`"ruleId": "ENI001"`)) {
		t.Errorf("sarif: %v", err)
	}
	if b, err := os.ReadFile(summary); err != nil || !bytes.Contains(b, []byte("https://github.com/org/repo/blob/0123456789abcdef/k8s/db-migrate-cronjob.yaml#L13")) {
		t.Errorf("summary: %v\n%s", err, b)
	}

	// fail-on none: the step passes, the outputs still count the findings.
	code, _, outputs = runAction(t, ws, map[string]string{"paths": "k8s", "fail-on": "none", "sarif-file": "", "comment": "false"}, env)
	if code != 0 || outputs["exit-code"] != "0" || outputs["findings"] != "2" || outputs["sarif-file"] != "" {
		t.Errorf("fail-on none: exit %d outputs %v", code, outputs)
	}

	// Node groups from the input replace the config's: on m5.4xlarge the CronJob fits, and
	// only ENI002 (a warning) is left.
	code, stdout, outputs = runAction(t, ws, map[string]string{"paths": "k8s", "node-groups": "default=m5.4xlarge\n", "sarif-file": "", "comment": "false"}, env)
	if code != 0 || outputs["findings"] != "1" || outputs["errors"] != "0" || strings.Contains(stdout, "ENI001") {
		t.Errorf("node-groups: exit %d outputs %v\n%s", code, outputs, stdout)
	}

	// A plan named by the input is read: one that is no plan is an input that could not be
	// read (exit 2), with the file named.
	if err := os.WriteFile(filepath.Join(ws, "notplan.json"), []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, outputs = runAction(t, ws, map[string]string{"paths": "k8s", "terraform-plans": "notplan.json\n", "sarif-file": "", "comment": "false"}, env)
	if code != 2 || outputs["errors"] != "1" || !strings.Contains(stdout, "notplan.json") {
		t.Errorf("terraform-plans: exit %d outputs %v\n%s", code, outputs, stdout)
	}

	// Extra flags, and an input that could not be read is counted.
	code, _, outputs = runAction(t, ws, map[string]string{"paths": "k8s missing-folder", "args": "--eni-release onCompletion", "sarif-file": "", "comment": "false"}, env)
	if code != 2 || outputs["errors"] != "1" {
		t.Errorf("args and a missing path: exit %d outputs %v", code, outputs)
	}

	// A bad input is a usage error.
	for _, bad := range []map[string]string{{"comment": "maybe"}, {"review": "sometimes"}} {
		if code, _, _ = runAction(t, ws, bad, env); code != 2 {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}

// release is a stand-in for the GitHub release host: the archives and checksums of one or more
// versions under /vX.Y.Z/, the release list under /releases, and a count of requests.
type release struct {
	dir      string
	requests atomic.Int64
}

// archiveName is the GoReleaser archive name for this machine's platform, and the runner's
// RUNNER_OS and RUNNER_ARCH for it.
func archiveName(t *testing.T, version string) (name string, env map[string]string) {
	t.Helper()
	osNames := map[string]string{"linux": "Linux", "darwin": "macOS"}
	archNames := map[string]string{"amd64": "X64", "arm64": "ARM64"}
	if osNames[runtime.GOOS] == "" || archNames[runtime.GOARCH] == "" {
		t.Skipf("no release archive for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return fmt.Sprintf("eni-lint_%s_%s_%s.tar.gz", version, runtime.GOOS, runtime.GOARCH),
		map[string]string{"RUNNER_OS": osNames[runtime.GOOS], "RUNNER_ARCH": archNames[runtime.GOARCH]}
}

// publish builds eni-lint with the version and commit injected by ldflags as the release does,
// packs it as GoReleaser does and writes the checksums file; tamper writes a wrong checksum.
// It is built with go test's flags (see buildEniLint): ldflags only change the link.
func (rel *release) publish(t *testing.T, version, commit string, tamper bool) map[string]string {
	t.Helper()
	// A tampered archive is refused before it is unpacked: what it holds is never run, so it
	// holds the plain build rather than a link of its own.
	bin := buildEniLint(t)
	if !tamper {
		bin = linkEniLint(t, "-s -w -X github.com/eni-lint/eni-lint/pkg/cli.Version="+version+" -X github.com/eni-lint/eni-lint/pkg/cli.Commit="+commit)
	}
	name, env := archiveName(t, version)
	var buf bytes.Buffer
	// The fastest level: the archive's size does not matter here, and the default level
	// spent seconds on each 50 MB binary.
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(gz)
	for _, f := range []struct{ name, path string }{{"README.md", filepath.Join(repoRoot(t), "README.md")}, {"eni-lint", bin}} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(b))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if tamper {
		sum[0] ^= 0xff
	}
	dir := filepath.Join(rel.dir, "v"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sums := fmt.Sprintf("%x  eni-lint_%s_windows_amd64.zip\n%x  %s\n", sha256.Sum256(nil), version, sum, name)
	if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "eni-lint_"+version+"_checksums.txt"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return env
}

func (rel *release) serve(t *testing.T, tags ...string) *httptest.Server {
	t.Helper()
	files := http.FileServer(http.Dir(rel.dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel.requests.Add(1)
		if r.URL.Path == "/releases" {
			var list []string
			for _, tag := range tags {
				list = append(list, fmt.Sprintf(`{"tag_name": "%s", "draft": false}`, tag))
			}
			fmt.Fprintf(w, "[%s]", strings.Join(list, ", "))
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The Action installs the release the ref names: downloaded once with its checksum checked,
// then from the tool cache without a request; Go is never set up and nothing is compiled.
func TestActionInstallsTheRelease(t *testing.T) {
	rel := &release{dir: t.TempDir()}
	const commit = "1234567890abcdef1234567890abcdef12345678"
	env := rel.publish(t, "1.2.3", commit, false)
	rel.publish(t, "1.2.4", strings.Repeat("0", 40), true)
	srv := rel.serve(t, "v2.0.0", "v1.10.0-rc.1", "v1.2.4", "v1.2.3", "v1.1.0", "v0.9.0")
	env["ENI_LINT_RELEASES"] = srv.URL
	env["ENI_LINT_API"] = srv.URL
	env["GITHUB_EVENT_NAME"] = "push"
	ws := workspaceWithExample(t, true)
	in := map[string]string{"paths": "k8s", "comment": "false"}
	buildSteps := func(r actionRun) []string {
		var b []string
		for _, name := range r.ran {
			if strings.Contains(name, "Go") || strings.HasPrefix(name, "Build") {
				b = append(b, name)
			}
		}
		return b
	}

	cache := t.TempDir()
	first := runner{ref: "v1.2.3", toolCache: cache}.run(t, ws, in, env)
	if first.failed != "" || first.code != 1 || !strings.Contains(first.log, "downloaded, SHA-256 checked") {
		t.Fatalf("download: failed %q exit %d\n%s", first.failed, first.code, first.log)
	}
	if b := buildSteps(first); len(b) > 0 {
		t.Errorf("a release ref ran %v", b)
	}
	if first.outputs["eni-lint-version"] != "v1.2.3" || first.outputs["findings"] != "2" {
		t.Errorf("outputs %v", first.outputs)
	}
	// The downloaded binary is the one that ran: its version is in the SARIF.
	if b, err := os.ReadFile(filepath.Join(ws, "eni-lint.sarif")); err != nil || !bytes.Contains(b, []byte(`"version": "1.2.3"`)) {
		t.Errorf("SARIF of the downloaded binary: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "eni-lint", "1.2.3", archNameOf(env), "eni-lint")); err != nil {
		t.Errorf("not in the tool cache: %v", err)
	}

	before := rel.requests.Load()
	second := runner{ref: "v1.2.3", toolCache: cache}.run(t, ws, in, env)
	if second.failed != "" || second.code != 1 || !strings.Contains(second.log, "from the tool cache") {
		t.Fatalf("cache: failed %q exit %d\n%s", second.failed, second.code, second.log)
	}
	if n := rel.requests.Load() - before; n != 0 {
		t.Errorf("a cached release made %d requests", n)
	}

	// @v1 is the newest v1.x.y release: v1.2.4 (not the release candidate, not v2).
	// Its checksum is wrong, so nothing is installed and eni-lint never runs.
	major := runner{ref: "v1", toolCache: t.TempDir()}.run(t, ws, in, env)
	if major.failed == "" || major.code != -1 || !strings.Contains(major.log, "eni-lint_1.2.4_") || !strings.Contains(major.log, "the release says") {
		t.Errorf("tampered v1.2.4 via @v1: failed %q exit %d\n%s", major.failed, major.code, major.log)
	}
	// The version input overrides the ref.
	// (From the tool cache the first run filled: the download itself is checked above.)
	pinnedRun := runner{ref: "v1", toolCache: cache}.run(t, ws, map[string]string{"paths": "k8s", "comment": "false", "version": "v1.2.3"}, env)
	if pinnedRun.failed != "" || pinnedRun.outputs["eni-lint-version"] != "v1.2.3" {
		t.Errorf("version input: failed %q outputs %v\n%s", pinnedRun.failed, pinnedRun.outputs, pinnedRun.log)
	}
	// Pinned by commit, with the version of that commit's release: installed and checked to
	// be built from that commit. Another commit with the same version input is refused.
	withVersion := map[string]string{"paths": "k8s", "comment": "false", "version": "v1.2.3"}
	bySHA := runner{ref: commit, toolCache: cache}.run(t, ws, withVersion, env)
	if bySHA.failed != "" || bySHA.code != 1 || bySHA.outputs["eni-lint-version"] != "v1.2.3" {
		t.Errorf("pinned by commit: failed %q exit %d outputs %v\n%s", bySHA.failed, bySHA.code, bySHA.outputs, bySHA.log)
	}
	otherSHA := runner{ref: strings.Repeat("9", 40), toolCache: cache}.run(t, ws, withVersion, env)
	if otherSHA.failed == "" || !strings.Contains(otherSHA.log, "pinned at commit 999999999999") {
		t.Errorf("another commit: failed %q\n%s", otherSHA.failed, otherSHA.log)
	}
	// A tag with no release (not published yet): the tag's code is the action's checkout.
	missing := runner{ref: "v1.9.9", toolCache: t.TempDir()}.run(t, ws, in, env)
	if missing.failed != "" || missing.code != 1 || !strings.Contains(missing.log, "has no release v1.9.9") || !slices.Contains(missing.ran, "Build eni-lint from the action's checkout") {
		t.Errorf("missing release: failed %q exit %d ran %v\n%s", missing.failed, missing.code, missing.ran, missing.log)
	}
	// A version asked for by name that has no release fails the step: it is never replaced by
	// a build of the action's checkout, which is other code.
	unpublished := runner{ref: "v1", toolCache: t.TempDir()}.run(t, ws, map[string]string{"paths": "k8s", "comment": "false", "version": "v1.9.9"}, env)
	if unpublished.failed == "" || !strings.Contains(unpublished.log, "input version v1.9.9") || !strings.Contains(unpublished.log, "has no release v1.9.9") ||
		slices.Contains(unpublished.ran, "Build eni-lint from the action's checkout") {
		t.Errorf("version with no release: failed %q ran %v\n%s", unpublished.failed, unpublished.ran, unpublished.log)
	}
	bad := runner{ref: "v1.2.3", toolCache: t.TempDir()}.run(t, ws, map[string]string{"version": "latest-please"}, env)
	if bad.failed == "" || !strings.Contains(bad.log, "input version must be a release") {
		t.Errorf("bad version input: failed %q\n%s", bad.failed, bad.log)
	}
}

// A ref that names no release (a branch, a commit) sets up Go and builds from the checkout.
func TestActionBuildsAnUntaggedRef(t *testing.T) {
	ws := workspaceWithExample(t, true)
	r := runner{ref: strings.Repeat("ab", 20)}.run(t, ws, map[string]string{"paths": "k8s", "comment": "false", "go-version": "1.26"}, map[string]string{"GITHUB_EVENT_NAME": "push"})
	if r.failed != "" || r.code != 1 {
		t.Fatalf("failed %q exit %d\n%s", r.failed, r.code, r.log)
	}
	want := []string{"Install eni-lint (tool cache, else the release archive, checksum verified)", "Set up Go (inputs.go-version)", "Build eni-lint from the action's checkout", "Run eni-lint"}
	if strings.Join(r.ran, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps %q, want %q", r.ran, want)
	}
	if r.outputs["eni-lint-version"] != "" || !strings.Contains(r.log, "names no release") {
		t.Errorf("outputs %v\n%s", r.outputs, r.log)
	}
}

// cachedRelease is a tool cache holding this checkout's eni-lint as release version, in the
// layout action-install.sh reads (RUNNER_ARCH unset is X64: amd64).
func cachedRelease(t *testing.T, version string) string {
	t.Helper()
	bin := buildEniLint(t)
	cache := t.TempDir()
	dir := filepath.Join(cache, "eni-lint", version, "amd64")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(dir, "eni-lint")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+".complete", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return cache
}

func archNameOf(env map[string]string) string {
	if env["RUNNER_ARCH"] == "ARM64" {
		return "arm64"
	}
	return "amd64"
}

// A repository with no release yet (a new fork, or before the first tag): the release list
// is empty, which is no error, and @v1 builds from the action's checkout with a note.
func TestActionWithNoReleaseYetBuilds(t *testing.T) {
	rel := &release{dir: t.TempDir()}
	srv := rel.serve(t) // an empty list
	ws := workspaceWithExample(t, true)
	env := map[string]string{"GITHUB_EVENT_NAME": "push", "ENI_LINT_RELEASES": srv.URL, "ENI_LINT_API": srv.URL}
	r := runner{ref: "v1", toolCache: t.TempDir()}.run(t, ws, map[string]string{"paths": "k8s", "comment": "false"}, env)
	if r.failed != "" || r.code != 1 || !strings.Contains(r.log, "has no release v1.* yet; building it from the action's checkout") {
		t.Fatalf("failed %q exit %d\n%s", r.failed, r.code, r.log)
	}
	if !slices.Contains(r.ran, "Build eni-lint from the action's checkout") || r.outputs["eni-lint-version"] != "" {
		t.Errorf("ran %v outputs %v", r.ran, r.outputs)
	}
}

// A fork's action downloads the fork's releases: owner and name come from
// github.action_repository, the hosts from the runner's GITHUB_SERVER_URL and GITHUB_API_URL.
func TestActionUsesTheForksReleases(t *testing.T) {
	rel := &release{dir: t.TempDir()}
	env := rel.publish(t, "1.2.3", "1234567890abcdef1234567890abcdef12345678", false) // TestActionInstallsTheRelease's build
	files := http.StripPrefix("/a-fork/eni-lint/releases/download", http.FileServer(http.Dir(rel.dir)))
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		switch {
		case r.URL.Path == "/api/repos/a-fork/eni-lint/releases":
			fmt.Fprint(w, `[{"tag_name": "v1.2.3"}]`)
		case strings.HasPrefix(r.URL.Path, "/a-fork/eni-lint/releases/download/"):
			files.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	env["GITHUB_EVENT_NAME"] = "push"
	env["GITHUB_SERVER_URL"] = srv.URL
	env["GITHUB_API_URL"] = srv.URL + "/api"
	ws := workspaceWithExample(t, true)
	r := runner{ref: "v1", repo: "a-fork/eni-lint", toolCache: t.TempDir()}.run(t, ws, map[string]string{"paths": "k8s", "comment": "false"}, env)
	if r.failed != "" || r.code != 1 || r.outputs["eni-lint-version"] != "v1.2.3" {
		t.Fatalf("failed %q exit %d outputs %v\n%s", r.failed, r.code, r.outputs, r.log)
	}
	for _, p := range paths {
		if !strings.Contains(p, "a-fork/eni-lint") {
			t.Errorf("a request outside the fork: %s", p)
		}
	}
}

// working-directory: the SARIF file is written there and the output names it from the
// workspace root, where upload-sarif looks; exclude and args (shell words) reach eni-lint; a
// second step in the same job that fails before writing a report does not report the first
// step's findings.
func TestActionInputsAndTwoSteps(t *testing.T) {
	ws := workspaceWithExample(t, true)
	env := map[string]string{"GITHUB_EVENT_NAME": "push"}
	code, stdout, outputs := runAction(t, ws, map[string]string{"paths": ".", "working-directory": "k8s", "comment": "false"}, env)
	if code != 1 || outputs["sarif-file"] != "k8s/eni-lint.sarif" || outputs["findings"] != "2" {
		t.Fatalf("working-directory: exit %d outputs %v\n%s", code, outputs, stdout)
	}
	if _, err := os.Stat(filepath.Join(ws, outputs["sarif-file"])); err != nil {
		t.Errorf("the sarif-file output does not name the file from the workspace: %v", err)
	}
	// GitHub resolves annotations and code scanning results from the repository root: run in
	// k8s/, they still name k8s/db-migrate-cronjob.yaml.
	if !strings.Contains(stdout, "::error file=k8s/db-migrate-cronjob.yaml,line=") {
		t.Errorf("working-directory: the annotation does not name k8s/db-migrate-cronjob.yaml\n%s", stdout)
	}
	if b, err := os.ReadFile(filepath.Join(ws, outputs["sarif-file"])); err != nil || !bytes.Contains(b, []byte(`"uri": "k8s/db-migrate-cronjob.yaml"`)) {
		t.Errorf("working-directory: the SARIF artifact is not k8s/db-migrate-cronjob.yaml: %v", err)
	}
	// The quotes are the shell's: the glob reaches eni-lint without them.
	for name, in := range map[string]map[string]string{
		"args":    {"paths": "k8s", "args": `--exclude 'k8s/db-*' --eni-release "onDelete"`, "sarif-file": "", "comment": "false"},
		"exclude": {"paths": "k8s", "exclude": "k8s/db-*\n", "sarif-file": "", "comment": "false"},
	} {
		code, stdout, outputs := runAction(t, ws, in, env)
		if code != 0 || outputs["findings"] != "1" || strings.Contains(stdout, "ENI001") {
			t.Errorf("%s: exit %d outputs %v\n%s", name, code, outputs, stdout)
		}
	}
	if code, stdout, _ := runAction(t, ws, map[string]string{"paths": "k8s", "args": `--exclude 'unclosed`, "comment": "false"}, env); code != 2 || !strings.Contains(stdout, "not valid shell words") {
		t.Errorf("unmatched quote: exit %d\n%s", code, stdout)
	}
	// Two steps, one job (one RUNNER_TEMP): the second fails on a bad flag before it writes
	// a report, and must not count the first one's findings.
	job := runner{ref: "v0.0.1", toolCache: cachedRelease(t, "0.0.1"), temp: t.TempDir()}
	first := job.run(t, ws, map[string]string{"paths": "k8s", "sarif-file": "", "comment": "false"}, env)
	second := job.run(t, ws, map[string]string{"paths": "k8s", "args": "--eni-release sometimes", "sarif-file": "", "comment": "false"}, env)
	if first.outputs["findings"] != "2" || second.code != 2 || second.outputs["findings"] != "0" || second.outputs["exit-code"] != "2" {
		t.Errorf("two steps: first %v, second exit %d %v\n%s", first.outputs, second.code, second.outputs, second.log)
	}
}
