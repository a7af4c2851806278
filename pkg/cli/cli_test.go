package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/config"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
)

func run(t *testing.T, stdin string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, IO{
		In: strings.NewReader(stdin), Out: &out, Err: &errOut,
		Getenv:     func(k string) string { return env[k] },
		IsTerminal: func() bool { return true },
	})
	return code, out.String(), errOut.String()
}

var quickstart = filepath.Join("..", "..", "examples", "quickstart")

func TestCommands(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		stdin     string
		env       map[string]string
		code      int
		stdout    []string
		stderr    []string
		notStdout []string
	}{
		{name: "rules", args: []string{"rules"}, stdout: []string{"ENI001  error", "ENI008  warning", "ENI007  info"}},
		{name: "rules json", args: []string{"rules", "--format", "json"}, stdout: []string{`"id": "ENI003"`, `"remediation"`}},
		{name: "explain", args: []string{"explain", "eni001"}, stdout: []string{"ENI001: Branch ENIs can be exceeded", "What and why", "The numbers it uses", "How to fix", "Under the other release model"}},
		{name: "explain unknown", args: []string{"explain", "ENI999"}, code: 2, stderr: []string{"no rule \"ENI999\""}},
		{name: "limits", args: []string{"limits", "m5.large", "t3.medium"}, stdout: []string{"m5.large   true      9", "t3.medium  false     0"}},
		{name: "limits unknown", args: []string{"limits", "m5.large", "z9.nope"}, code: 1, stderr: []string{"z9.nope"}},
		{name: "version", args: []string{"version"}, stdout: []string{"eni-lint test", "1316 instance types"}},
		{name: "version flag", args: []string{"--version"}, stdout: []string{"eni-lint test"}},
		{name: "bad flag", args: []string{"check", "--nope"}, code: 2, stderr: []string{"unknown flag: --nope"}},
		{name: "bad release", args: []string{"check", quickstart, "--eni-release", "sometimes"}, code: 2, stderr: []string{"onDelete or onCompletion"}},
		{name: "bad fail-on", args: []string{"check", quickstart, "--fail-on", "loud"}, code: 2},
		{name: "bad format", args: []string{"check", quickstart, "--format", "xml"}, code: 2, stderr: []string{"unknown format"}},
		{name: "bad node group", args: []string{"check", quickstart, "--node-group", "m5.large"}, code: 2},
		{name: "quickstart fails", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--no-color"}, code: 1,
			stdout: []string{"Release model: onDelete", "ENI001", "exceeds", "exit 1 (fail-on error)"}},
		{name: "fail-on none", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--fail-on", "none"}, code: 0},
		{name: "without node groups the gate fails", args: []string{"check", quickstart}, code: 1, stdout: []string{"capacity is unknown", "ENI002", "ENI011", "no node group is known", "--node-group NAME=TYPE"}},
		{name: "fail-on warning", args: []string{"check", quickstart, "--fail-on", "warning"}, code: 1},
		{name: "on completion", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--eni-release", "onCompletion", "--no-color"}, code: 0,
			stdout: []string{"Release model: onCompletion", "90s after it ends"}},
		{name: "cooldown below the floor", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--eni-release", "onCompletion", "--cooldown", "10s"}, code: 0,
			stderr: []string{"below the controller's minimum"}, stdout: []string{"cool-down 30s"}},
		{name: "colors on a terminal", args: []string{"check", quickstart}, code: 1, stdout: []string{"\x1b["}},
		{name: "NO_COLOR", args: []string{"check", quickstart}, env: map[string]string{"NO_COLOR": "1"}, code: 1, notStdout: []string{"\x1b["}},
		{name: "--no-color", args: []string{"check", quickstart, "--no-color"}, code: 1, notStdout: []string{"\x1b["}},
		{name: "TERM=dumb", args: []string{"check", quickstart}, env: map[string]string{"TERM": "dumb"}, code: 1, notStdout: []string{"\x1b["}},
		{name: "--color never", args: []string{"check", quickstart, "--color", "never"}, code: 1, notStdout: []string{"\x1b["}},
		{name: "--color always wins over NO_COLOR", args: []string{"check", quickstart, "--color", "always"}, env: map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, code: 1, stdout: []string{"\x1b["}},
		{name: "--color bogus", args: []string{"check", quickstart, "--color", "sometimes"}, code: 2, stderr: []string{"want always, never or auto"}},
		{name: "stdin", args: []string{"check", "-", "--node-group", "g=m5.large", "--no-color"}, code: 1,
			stdin:  "apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: s}\nspec: {podSelector: {}, securityGroups: {groupIds: [sg-1]}}\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {completions: 5}\n",
			stdout: []string{"<stdin>", "ENI003"}},
		{name: "missing path", args: []string{"check", "does-not-exist"}, code: 2, stdout: []string{"does-not-exist  cannot read"}},
		{name: "bad output", args: []string{"check", quickstart, "--output", "sarif"}, code: 2, stderr: []string{"want FORMAT=FILE"}},
		{name: "unknown output format", args: []string{"check", quickstart, "--output", "pdf=x.pdf"}, code: 2, stderr: []string{"unknown format"}},
		// The test runs in pkg/cli of this repository: annotations name the file from its root.
		{name: "github format", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--format", "github"}, code: 1,
			stdout: []string{"::error file=examples/quickstart/db-migrate-cronjob.yaml,line=13,col=5,title=ENI001::"}},
		{name: "sarif from the root", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--format", "sarif"}, code: 1,
			stdout: []string{`"uri": "examples/quickstart/db-migrate-cronjob.yaml"`}, notStdout: []string{`"uri": "../`}},
		{name: "text stays relative", args: []string{"check", quickstart, "--node-group", "default=m5.large", "--no-color"}, code: 1,
			stdout: []string{"../../examples/quickstart/db-migrate-cronjob.yaml"}},
	}
	Version = "test"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tc.stdin, tc.env, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tc.notStdout {
				if strings.Contains(stdout, s) {
					t.Errorf("stdout has %q", s)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
}

func TestOutputFiles(t *testing.T) {
	dir := t.TempDir()
	sarif, md := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "summary.md")
	env := map[string]string{"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "org/repo", "GITHUB_SHA": "abc"}
	code, stdout, stderr := run(t, "", env, "check", quickstart, "--node-group", "default=m5.large", "--no-color",
		"--output", "sarif="+sarif, "--output", "markdown="+md)
	if code != 1 || !strings.Contains(stdout, "ENI001") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(sarif)
	if err != nil || !strings.Contains(string(b), `"ruleId": "ENI001"`) {
		t.Errorf("sarif file: %v\n%s", err, b)
	}
	b, err = os.ReadFile(md)
	// On GitHub the Markdown names and links the file from the repository root (the test runs
	// in pkg/cli), where the commit's blob is.
	if err != nil || !strings.Contains(string(b), "(https://github.com/org/repo/blob/abc/examples/quickstart/db-migrate-cronjob.yaml#L13)") {
		t.Errorf("markdown file: %v\n%s", err, b)
	}
	if code, _, stderr := run(t, "", nil, "check", quickstart, "--output", "json="+filepath.Join(dir, "missing", "x.json")); code != 2 || !strings.Contains(stderr, "--output") {
		t.Errorf("unwritable output: exit %d, %s", code, stderr)
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	tests := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"go install at a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"a pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201094106-a448897abcde"}}, "v0.0.0-20261201094106-a448897abcde"},
		{"a checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a448897abcdef0123456789"}}}, "0.0.0-dev+a448897abcde"},
		{"a modified checkout", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a448897abcdef0123456789"}, {Key: "vcs.modified", Value: "true"}}}, "0.0.0-dev+a448897abcde-dirty"},
		{"nothing known", debug.BuildInfo{}, "0.0.0-dev"},
	}
	for _, tc := range tests {
		if got := versionFrom(&tc.info); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMistypedInstanceTypeIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".eni-lint.yaml"), []byte("nodeGroups:\n  - name: batch\n    instanceTypes: [c5.xlareg]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, args := range [][]string{{"check", ".", "--node-group", "default=m5.lrage"}, {"check", "."}} {
		var stdout, stderr bytes.Buffer
		code := Run(context.Background(), args, IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" }})
		if code != 2 || !strings.Contains(stderr.String(), "did you mean") || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, stderr.String(), stdout.String())
		}
	}
}

func TestUseColor(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		terminal bool
		env      map[string]string
		want     bool
	}{
		{"auto", true, nil, true},
		{"auto", false, nil, false},
		{"auto", true, map[string]string{"NO_COLOR": "1"}, false},
		{"auto", true, map[string]string{"TERM": "dumb"}, false},
		{"auto", true, map[string]string{"TERM": "xterm-256color"}, true},
		{"always", false, map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, true},
		{"never", true, nil, false},
	} {
		if got := useColor(tc.mode, tc.terminal, func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%s terminal=%v env=%v: %v, want %v", tc.mode, tc.terminal, tc.env, got, tc.want)
		}
	}
}

// On a terminal the text wraps to its width, continuation lines under the message; piped, it
// does not (IO.Width is only asked when IsTerminal).
func TestTextWrapsToTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool
		width    int
		longest  int // the longest finding line allowed
	}{
		{"an 80-column terminal", true, 80, 80},
		{"a pipe", false, 80, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			code := Run(context.Background(), []string{"check", quickstart, "--node-group", "default=m5.large", "--color", "never"}, IO{
				In: strings.NewReader(""), Out: &out, Err: &bytes.Buffer{}, Getenv: func(string) string { return "" },
				IsTerminal: func() bool { return tc.terminal }, Width: func() int { return tc.width },
			})
			if code != 1 {
				t.Fatalf("exit %d\n%s", code, out.String())
			}
			longest, lines := 0, 0
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(line, "  13:5 ") || strings.HasPrefix(line, "                           ") {
					lines++
					if n := len([]rune(line)); n > longest {
						longest = n
					}
				}
			}
			if longest > tc.longest || (tc.terminal && lines < 8) || (!tc.terminal && longest <= 80) {
				t.Errorf("longest finding line %d over %d lines\n%s", longest, lines, out.String())
			}
		})
	}
}

func TestHelmChartFlags(t *testing.T) {
	for _, tc := range []struct {
		name   string
		flags  []string
		values []string
		sets   []string
		want   map[string][]string // dir -> values
		inline string              // the --set values, printed
		err    string
	}{
		{name: "--set on one chart", flags: []string{"a"}, sets: []string{"jobs.ttl=60,jobs.on=true", "tags[0]=x"}, want: map[string][]string{"a": nil}, inline: "[map[jobs:map[on:true ttl:60]] map[tags:[x]]]"},
		{name: "--set with two charts is ambiguous", flags: []string{"a", "b"}, sets: []string{"x=1"}, err: "charts: in .eni-lint.yaml"},
		{name: "--set alone", sets: []string{"x=1"}, err: "--set needs --helm-chart"},
		{name: "--set without a value", flags: []string{"a"}, sets: []string{"x"}, err: `--set "x"`},
		{name: "one chart, --values", flags: []string{"charts/a"}, values: []string{"prod.yaml"}, want: map[string][]string{"charts/a": {"prod.yaml"}}},
		{name: "each chart its own", flags: []string{"charts/a:a.yaml,a-prod.yaml", "charts/b:b.yaml"}, want: map[string][]string{"charts/a": {"a.yaml", "a-prod.yaml"}, "charts/b": {"b.yaml"}}},
		{name: "own files, then --values", flags: []string{"a:x.yaml"}, values: []string{"y.yaml"}, want: map[string][]string{"a": {"x.yaml", "y.yaml"}}},
		{name: "a Windows drive", flags: []string{`C:\charts\a:C:\v.yaml`}, want: map[string][]string{`C:\charts\a`: {`C:\v.yaml`}}},
		{name: "no values", flags: []string{"a", "b"}, want: map[string][]string{"a": nil, "b": nil}},
		{name: "--values with two charts is ambiguous", flags: []string{"a", "b"}, values: []string{"v.yaml"}, err: "ambiguous"},
		{name: "--values alone", values: []string{"v.yaml"}, err: "needs --helm-chart"},
		{name: "no folder", flags: []string{":v.yaml"}, err: "want DIR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			charts, err := helmChartFlags(tc.flags, tc.values, tc.sets)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			for _, c := range charts {
				got[c.Dir] = c.Values
				if tc.inline != "" && fmt.Sprint(c.Inline) != tc.inline {
					t.Errorf("inline %v, want %s", c.Inline, tc.inline)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}

// TestConfigCharts: charts: entries become charts with their values, set, release and
// namespace; a flag for the same folder replaces the entry.
func TestConfigCharts(t *testing.T) {
	entries := []config.Chart{
		{Path: "charts/a", Values: []string{"charts/a/prod.yaml"}, Set: []string{"cron.ttl=60"}, ReleaseName: "billing", Namespace: "billing"},
		{Path: "charts/b"},
	}
	got, err := withConfigCharts(entries, []helm.Chart{{Dir: "charts/b", Values: []string{"b.yaml"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Dir != "charts/a" || got[0].Release != "billing" || got[0].Namespace != "billing" ||
		fmt.Sprint(got[0].Inline) != "[map[cron:map[ttl:60]]]" || got[1].Dir != "charts/b" || got[1].Values[0] != "b.yaml" {
		t.Errorf("%+v", got)
	}
	if _, err := withConfigCharts([]config.Chart{{Path: "a", Set: []string{"a[999999999]=x"}}}, nil); err == nil {
		t.Error("a huge list index was accepted")
	}
}

// First-hour polish: --help shows booleans plainly, config show lists charts, and a tree
// without any SecurityGroupPolicy says so instead of printing a table of zeros.
func TestFirstRunGuidance(t *testing.T) {
	_, out, _ := run(t, "", nil, "check", "--help")
	if strings.Contains(out, "[=true|false]") || !strings.Contains(out, "--render-charts ") {
		t.Errorf("check --help:\n%s", out)
	}
	dir := t.TempDir()
	job, err := os.ReadFile(filepath.Join(quickstart, "db-migrate-cronjob.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(strings.ReplaceAll(string(job), "rds-access: \"true\"", "tier: batch")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".eni-lint.yaml"), []byte("charts:\n  - path: charts/app\n    values: [ci/values.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if _, out, _ := run(t, "", nil, "config", "show"); !strings.Contains(out, "charts/app:ci/values.yaml") {
		t.Errorf("config show lacks the chart:\n%s", out)
	}
	os.Remove(".eni-lint.yaml")
	code, out, errOut := run(t, "", nil, "check", ".", "--node-group", "default=m5.large")
	if code != 0 || !strings.Contains(out, "no SecurityGroupPolicy found") || strings.Contains(out, "NODE GROUP") {
		t.Errorf("no SGP: exit %d\n%s%s", code, out, errOut)
	}
}

// --help groups the flags under headings and fits 80 columns when it is no terminal; a
// misspelled flag names the nearest ones; rules --help lists no generator flag.
func TestHelpIsGroupedAndFits(t *testing.T) {
	for _, command := range [][]string{{"--help"}, {"check", "--help"}, {"fix", "--help"}, {"audit", "--help"}, {"clusters", "--help"}, {"rules", "--help"}, {"config", "show", "--help"}} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), command, IO{In: strings.NewReader(""), Out: &out, Err: &errOut,
			Getenv: func(string) string { return "" }, IsTerminal: func() bool { return false }})
		if code != 0 {
			t.Fatalf("%v: exit %d %s", command, code, errOut.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if len([]rune(line)) > 80 {
				t.Errorf("%v: a line of %d characters: %q", command, len([]rune(line)), line)
			}
		}
		if command[0] == "check" {
			for _, heading := range []string{"Common flags:", "Inputs:", "Helm and Kustomize:", "Terraform:", "Output:", "GitHub:", "Budgets:", "Terraform node\ngroups"} {
				if !strings.Contains(out.String(), heading) && !strings.Contains(strings.Join(strings.Fields(out.String()), " "), strings.Join(strings.Fields(heading), " ")) {
					t.Errorf("check --help has no %q\n%s", heading, out.String())
				}
			}
		}
		if command[0] == "rules" && strings.Contains(out.String(), "--out-dir") {
			t.Errorf("rules --help lists the docs generator's --out-dir\n%s", out.String())
		}
	}
	if code, _, stderr := run(t, "", nil, "check", "--nodegroup", "default=m5.large"); code != 2 || !strings.Contains(stderr, "did you mean --node-group?") {
		t.Errorf("--nodegroup: exit %d %s", code, stderr)
	}
	if code, _, stderr := run(t, "", nil, "check", quickstart, "--node-group", "m5.large"); code != 2 || !strings.Contains(stderr, "--node-group default=m5.large") {
		t.Errorf("--node-group m5.large: exit %d %s", code, stderr)
	}
}
