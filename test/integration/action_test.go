package integration

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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
	for _, in := range []string{"paths", "config", "eni-release", "fail-on", "comment", "sarif-file", "working-directory", "version", "node-groups", "var-files", "baseline", "review", "args"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("input %s missing", in)
		}
	}
	for _, out := range []string{"exit-code", "findings", "errors", "sarif-file"} {
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

// runAction runs the action's shell steps as a runner would, with the given inputs.
func runAction(t *testing.T, workspace string, inputs map[string]string, env map[string]string) (code int, stdout string, outputs map[string]string) {
	t.Helper()
	a, _ := loadAction(t)
	root := repoRoot(t)
	temp := t.TempDir()
	ghOutput := filepath.Join(temp, "github_output")
	ctx := map[string]string{"github.action_path": root, "runner.temp": temp, "github.token": "test-token-not-printed"}
	for name, in := range a.Inputs {
		ctx["inputs."+name] = expand(in.Default, ctx, t)
	}
	for k, v := range inputs {
		ctx["inputs."+k] = v
	}
	baseEnv := append(os.Environ(),
		"GITHUB_ACTIONS=true", "GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+temp,
		"GITHUB_OUTPUT="+ghOutput, "GITHUB_WORKSPACE="+workspace,
	)
	for k, v := range env {
		baseEnv = append(baseEnv, k+"="+v)
	}
	var out bytes.Buffer
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			continue // actions/setup-go: this machine has Go already
		}
		if s.Shell != "bash" {
			t.Fatalf("step %q: shell %q", s.Name, s.Shell)
		}
		dir := expand(s.WorkingDirectory, ctx, t)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(workspace, dir)
		}
		cmd := exec.Command("bash", "-e", "-c", expand(s.Run, ctx, t))
		cmd.Dir = dir
		cmd.Env = append([]string{}, baseEnv...)
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+expand(v, ctx, t))
		}
		var stepOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stepOut, &stepOut
		err := cmd.Run()
		out.Write(stepOut.Bytes())
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok && s.ID == "run" {
				code = ee.ExitCode()
				break
			}
			t.Fatalf("step %q failed: %v\n%s", s.Name, err, stepOut.String())
		}
	}
	outputs = map[string]string{}
	b, _ := os.ReadFile(ghOutput)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	if strings.Contains(out.String(), "test-token-not-printed") {
		t.Error("the token appears in the step's output")
	}
	return code, out.String(), outputs
}

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
