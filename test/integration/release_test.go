package integration

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"

	"github.com/eni-lint/eni-lint/internal/testtool"
)

// goreleaserConfig is the part of .goreleaser.yaml the Action, the image and the version
// command depend on.
type goreleaserConfig struct {
	Builds []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Archives []struct {
		NameTemplate    string `yaml:"name_template"`
		Formats         []string
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	DockersV2 []struct {
		Dockerfile string   `yaml:"dockerfile"`
		Platforms  []string `yaml:"platforms"`
	} `yaml:"dockers_v2"`
	Sboms []map[string]any `yaml:"sboms"`
}

func loadGoreleaser(t *testing.T) goreleaserConfig {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c goreleaserConfig
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Builds) != 1 || len(c.Archives) != 1 {
		t.Fatalf("want one build and one archive, got %d and %d", len(c.Builds), len(c.Archives))
	}
	return c
}

// The release builds every platform the Action downloads for, with the names it downloads,
// static, trimmed and stripped, with checksums and SBOMs.
func TestReleaseConfig(t *testing.T) {
	c := loadGoreleaser(t)
	b := c.Builds[0]
	if strings.Join(b.Goos, ",") != "linux,darwin,windows" || strings.Join(b.Goarch, ",") != "amd64,arm64" {
		t.Errorf("platforms %v × %v", b.Goos, b.Goarch)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") || !strings.Contains(strings.Join(b.Ldflags, " "), "-s -w") {
		t.Errorf("not a static, trimmed, stripped build: env %v flags %v ldflags %v", b.Env, b.Flags, b.Ldflags)
	}
	// The Action builds these names from the version, OS and architecture.
	script, err := os.ReadFile(filepath.Join(repoRoot(t), "scripts", "action-install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for template, inScript := range map[string]string{
		c.Archives[0].NameTemplate: `archive="eni-lint_${version}_${os}_${arch}.$ext"`,
		c.Checksum.NameTemplate:    `sums="eni-lint_${version}_checksums.txt"`,
	} {
		if !strings.Contains(string(script), inScript) {
			t.Errorf("action-install.sh does not build %s", inScript)
		}
		name := strings.NewReplacer("{{ .ProjectName }}", "eni-lint", "{{ .Version }}", "${version}", "{{ .Os }}", "${os}", "{{ .Arch }}", "${arch}").Replace(template)
		if !strings.Contains(inScript, name) {
			t.Errorf("GoReleaser names %q, the Action downloads %s", name, inScript)
		}
	}
	if c.Checksum.Algorithm != "sha256" || len(c.Sboms) == 0 {
		t.Errorf("checksum %q, %d sboms", c.Checksum.Algorithm, len(c.Sboms))
	}
	if len(c.DockersV2) != 1 || c.DockersV2[0].Dockerfile != "release.Dockerfile" || strings.Join(c.DockersV2[0].Platforms, ",") != "linux/amd64,linux/arm64" {
		t.Errorf("image %+v", c.DockersV2)
	}
}

// dockerInstructions reads a Dockerfile's instructions, one per line (none of ours continues
// a line), without comments and blank lines.
func dockerInstructions(t *testing.T, name string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), name))
	if err != nil {
		t.Fatal(err)
	}
	var instructions []string
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, "\\") {
			t.Fatalf("%s: a continued line; this test reads one instruction per line: %q", name, line)
		}
		if line != "" && !strings.HasPrefix(line, "#") {
			instructions = append(instructions, line)
		}
	}
	return instructions
}

// checkFinalStage finds the instructions every eni-lint image ends with: the binary at
// /usr/bin/eni-lint (copied by the given instruction), a non-root user, an exec-form
// entrypoint.
func checkFinalStage(t *testing.T, name string, stage []string, copyBinary string) {
	t.Helper()
	want := map[string]bool{
		copyBinary: false, "USER 65532:65532": false, `ENTRYPOINT ["/usr/bin/eni-lint"]`: false,
	}
	for _, in := range stage {
		if _, ok := want[in]; ok {
			want[in] = true
		}
		if strings.HasPrefix(in, "RUN ") {
			t.Errorf("%s: %q: the final stage runs nothing (distroless has no shell)", name, in)
		}
	}
	for in, seen := range want {
		if !seen {
			t.Errorf("%s: missing %q", name, in)
		}
	}
}

// There is no container runtime here, so the image definitions are checked as text. The
// release image (release.Dockerfile, GoReleaser's): a distroless base pinned by digest, the
// release binary copied (nothing compiled), a non-root user, an exec-form entrypoint.
func TestReleaseImageDefinition(t *testing.T) {
	instructions := dockerInstructions(t, "release.Dockerfile")
	from := regexp.MustCompile(`^FROM gcr\.io/distroless/static-debian12:nonroot@sha256:[0-9a-f]{64}$`)
	if len(instructions) == 0 || !from.MatchString(instructions[0]) {
		t.Fatalf("the first instruction must be distroless static nonroot pinned by digest: %q", instructions)
	}
	for _, in := range instructions[1:] {
		if strings.HasPrefix(in, "FROM ") {
			t.Errorf("%q: the release image copies the release binary and has one stage", in)
		}
	}
	if !slices.Contains(instructions, "ARG TARGETPLATFORM") {
		t.Errorf("no ARG TARGETPLATFORM: GoReleaser places each platform's binary under it")
	}
	checkFinalStage(t, "release.Dockerfile", instructions, "COPY $TARGETPLATFORM/eni-lint /usr/bin/eni-lint")
}

// `docker build .` compiles from the checkout (no release needed): a Go stage of go.mod's Go
// release on the build machine's platform, cross-compiling with the release's flags, then the
// release image's pinned base. The build command's ldflags set only variables the release build
// sets (which TestReleaseLdflagsReachEveryReport links and finds in every report), one of them
// to $VERSION, so a renamed variable or package fails here, not in a user's build.
func TestSourceImageDefinition(t *testing.T) {
	instructions := dockerInstructions(t, "Dockerfile")
	var stages [][]string
	for _, in := range instructions {
		if strings.HasPrefix(in, "FROM ") {
			stages = append(stages, nil)
		}
		if len(stages) == 0 {
			t.Fatalf("%q before the first FROM", in)
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], in)
	}
	if len(stages) != 2 {
		t.Fatalf("want a build stage and the image, got %d stages", len(stages))
	}
	build, image := stages[0], stages[1]

	goMod, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(goMod)
	if goVersion == nil {
		t.Fatal("go.mod has no go directive")
	}
	wantFrom := regexp.MustCompile(`^FROM --platform=\$BUILDPLATFORM golang:` + regexp.QuoteMeta(string(goVersion[1])) + `(\.\d+)?-[a-z]+ AS build$`)
	if !wantFrom.MatchString(build[0]) {
		t.Errorf("build stage %q: want golang:%s on $BUILDPLATFORM (cross-compiling, no emulation)", build[0], goVersion[1])
	}
	if release := dockerInstructions(t, "release.Dockerfile"); image[0] != release[0] {
		t.Errorf("the source image's base %q differs from the release image's %q", image[0], release[0])
	}
	checkFinalStage(t, "Dockerfile", image, "COPY --from=build /out/eni-lint /usr/bin/eni-lint")

	var command string
	for _, in := range build {
		if strings.HasPrefix(in, "RUN ") && strings.Contains(in, "go build") {
			command = in
		}
	}
	for _, part := range []string{"CGO_ENABLED=0", "GOOS=$TARGETOS", "GOARCH=$TARGETARCH", " -trimpath ", "-o /out/eni-lint ./" + filepath.Clean(loadGoreleaser(t).Builds[0].Main)} {
		if !strings.Contains(command, part) {
			t.Errorf("the build command has no %q: %q", part, command)
		}
	}
	for _, arg := range []string{"ARG TARGETOS", "ARG TARGETARCH"} {
		if !slices.Contains(build, arg) {
			t.Errorf("the build stage does not declare %q", arg)
		}
	}
	ldflags := regexp.MustCompile(`-ldflags "([^"]*)"`).FindStringSubmatch(command)
	if ldflags == nil || !strings.Contains(ldflags[1], "-s -w") || !strings.Contains(ldflags[1], "$VERSION") {
		t.Fatalf("the build command's ldflags must strip and set $VERSION: %q", command)
	}
	// Every variable the build sets is one the release build sets too: that build is linked
	// by TestReleaseLdflagsReachEveryReport, which finds its version in every report, so a
	// renamed variable (which -X ignores silently) fails there or here without a link of its
	// own here (5 s of CPU).
	release := strings.Join(loadGoreleaser(t).Builds[0].Ldflags, " ")
	sets := regexp.MustCompile(`-X ([^=\s]+)=(\S+)`).FindAllStringSubmatch(ldflags[1], -1)
	if len(sets) == 0 || !slices.ContainsFunc(sets, func(m []string) bool { return m[2] == "$VERSION" }) {
		t.Errorf("the build command sets no variable to $VERSION: %q", ldflags[1])
	}
	for _, m := range sets {
		if !strings.Contains(release, "-X "+m[1]+"=") {
			t.Errorf("the build command sets %s, which the release build (.goreleaser.yaml) does not", m[1])
		}
	}

	// The context leaves out what the build does not need, and nothing it does.
	ignore, err := os.ReadFile(filepath.Join(repoRoot(t), ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	patterns := strings.Fields(regexp.MustCompile(`(?m)#.*$`).ReplaceAllString(string(ignore), ""))
	if !slices.Contains(patterns, ".git") {
		t.Errorf(".dockerignore does not leave out .git: %q", patterns)
	}
	for _, needed := range []string{"go.mod", "go.sum", "cmd", "pkg", "internal", "policies"} {
		for _, p := range patterns {
			if matched, _ := filepath.Match(p, needed); matched || strings.HasPrefix(p, "!") {
				t.Errorf(".dockerignore pattern %q affects %s, which the build needs", p, needed)
			}
		}
	}
}

// A release build prints the version, commit and date GoReleaser injects, in `version`, in
// SARIF and in the Markdown of the PR comment. The ldflags come from .goreleaser.yaml, so a
// renamed variable (which -X would ignore silently) fails here. The build flags and
// environment are go test's, not the release's (-trimpath, CGO_ENABLED=0, which
// TestReleaseConfig checks): they change every package's compilation, not what -X writes, and
// compiling everything again costs minutes of `go test ./...`.
func TestReleaseLdflagsReachEveryReport(t *testing.T) {
	c := loadGoreleaser(t)
	ldflags := strings.NewReplacer("{{ .Version }}", "9.8.7", "{{ .FullCommit }}", "0123456789abcdef0123456789abcdef01234567", "{{ .CommitDate }}", "2026-12-01T10:00:00Z").
		Replace(strings.Join(c.Builds[0].Ldflags, " "))
	if strings.Contains(ldflags, "{{") {
		t.Fatalf("a template the test does not fill: %s", ldflags)
	}
	bin := filepath.Join(t.TempDir(), "eni-lint")
	build := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, "./"+filepath.Clean(c.Builds[0].Main))
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	checkVersionEverywhere(t, bin, "9.8.7", "eni-lint 9.8.7 (commit 0123456789ab, 2026-12-01T10:00:00Z, go")
}

// checkVersionEverywhere runs a built eni-lint and finds version in `version`, `--version`,
// SARIF's tool.driver.version and the Markdown footer the PR comment uses.
func checkVersionEverywhere(t *testing.T, bin, version, versionLine string) {
	t.Helper()
	quickstart := filepath.Join(repoRoot(t), "examples", "quickstart")
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), versionLine) {
		t.Errorf("version: %v %q, want prefix %q", err, out, versionLine)
	}
	if out, err := exec.Command(bin, "--version").Output(); err != nil || !strings.Contains(string(out), version) {
		t.Errorf("--version: %v %q", err, out)
	}
	sarif, _ := exec.Command(bin, "check", quickstart, "--node-group", "default=m5.large", "--format", "sarif").Output()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif, &log); err != nil || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Version != version {
		t.Errorf("SARIF driver version: %v %+v", err, log.Runs)
	}
	md, _ := exec.Command(bin, "check", quickstart, "--node-group", "default=m5.large", "--format", "markdown").Output()
	if !strings.Contains(string(md), "<sub>eni-lint "+version+" ·") {
		t.Errorf("Markdown footer has no %s:\n%s", version, md)
	}
}

// `go install github.com/eni-lint/eni-lint/cmd/eni-lint@VERSION` reports VERSION. The module is
// served from a file-system module proxy holding this checkout's zip at a pseudo-version of a
// tag, exactly as proxy.golang.org would serve a pushed commit; dependencies come from the
// module cache.
func TestGoInstallReportsTheModuleVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds eni-lint from a module zip: skipped in -short mode")
	}
	// A module at another version compiles every package of eni-lint again (20 s of CPU).
	testtool.SkipUnlessSlow(t, "compiles eni-lint again from a module zip")
	const path = "github.com/eni-lint/eni-lint"
	root := repoRoot(t)
	// The module cache keeps a version once extracted: the revision part of the
	// pseudo-version is a hash of this checkout, so a changed tree is a new version.
	var probe bytes.Buffer
	if err := zip.CreateFromDir(&probe, module.Version{Path: path, Version: "v0.3.1-0.20261201100000-000000000000"}, root); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	sum := sha256.Sum256(probe.Bytes())
	version := "v0.3.1-0.20261201100000-" + hex.EncodeToString(sum[:6])
	proxy := t.TempDir()
	dir := filepath.Join(proxy, path, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromDir(f, module.Version{Path: path, Version: version}, root); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := fmt.Sprintf(`{"Version": %q, "Time": %q}`, version, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).Format(time.RFC3339))
	for name, body := range map[string]string{version + ".mod": string(mod), version + ".info": info, "list": version + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gobin := t.TempDir()
	goproxy, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	install := exec.Command("go", "install", path+"/cmd/eni-lint@"+version)
	install.Dir = t.TempDir()
	install.Env = append(os.Environ(),
		"GOBIN="+gobin, "GOWORK=off", // go test's flags: the dependencies are compiled already
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+strings.TrimSpace(string(goproxy)),
		"GONOSUMDB="+path, // our zip is not in the checksum database; its dependencies are checked by go.sum
	)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	checkVersionEverywhere(t, filepath.Join(gobin, "eni-lint"), version, "eni-lint "+version+" (go")
}

// releaseWorkflow is the part of .github/workflows/release.yml this test runs.
type releaseWorkflow struct {
	Jobs map[string]struct {
		RunsOn string `yaml:"runs-on"`
		Steps  []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// writeStub writes an executable shell script into dir.
func writeStub(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The release workflow runs on a GitHub-hosted runner, where the job is not root and
// apt-get needs sudo. Its run: steps are played here as the runner plays them (bash -e, a
// GITHUB_OUTPUT file): the tests step's package installation (the block of .ci/run that
// installs pre-commit and shellcheck, with apt-get and sudo stubbed) as the hosted runner's
// user and as root (this CI's machine), and the step that reads the image digest out of
// GoReleaser's artifacts, with an image and without one.
func TestReleaseWorkflowOnAHostedRunner(t *testing.T) {
	root := repoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf releaseWorkflow
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	job, ok := wf.Jobs["release"]
	if !ok || !strings.HasPrefix(job.RunsOn, "ubuntu-") {
		t.Fatalf("want a release job on a hosted ubuntu runner, got %+v", job.RunsOn)
	}
	bash := testtool.Program(t, "bash", "bash runs every run: step")

	t.Run("tests step installs with sudo when not root", func(t *testing.T) {
		var runsCI bool
		for _, s := range job.Steps {
			runsCI = runsCI || strings.TrimSpace(s.Run) == "bash .ci/run"
		}
		if !runsCI {
			t.Fatal("the release job does not run bash .ci/run")
		}
		ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
		if err != nil {
			t.Fatal(err)
		}
		block := regexp.MustCompile(`(?ms)^if ! command -v pre-commit .*?^fi$`).Find(ci)
		if block == nil {
			t.Fatal(".ci/run has no block installing pre-commit")
		}
		for _, uid := range []string{"1001", "0"} {
			stubs := t.TempDir()
			calls := filepath.Join(stubs, "calls")
			writeStub(t, stubs, "id", `[ "$1" = -u ] && echo `+uid)
			// sudo -E runs the command as root; apt-get refuses to run as anyone else.
			writeStub(t, stubs, "sudo", `[ "$1" = -E ] && shift; echo "sudo $*" >>"`+calls+`"; ROOT=1 "$@"`)
			writeStub(t, stubs, "apt-get", `if [ "$ROOT" != 1 ] && [ "$(id -u)" != 0 ]; then echo "E: Could not open lock file - open (13: Permission denied)" >&2; exit 100; fi; echo "apt-get $*" >>"`+calls+`"`)
			script := "set -euo pipefail\nstep() { :; }\n" + string(block)
			cmd := exec.Command(bash, "--noprofile", "--norc", "-c", script)
			// Only the stubs: pre-commit and shellcheck are not installed, as on a fresh runner.
			cmd.Env = []string{"PATH=" + stubs, "HOME=" + t.TempDir()}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("uid %s: the install block failed: %v\n%s", uid, err, out)
			}
			got, _ := os.ReadFile(calls)
			want := "apt-get update -qq\napt-get install -y -qq pre-commit shellcheck jq\n"
			if uid != "0" {
				want = "sudo apt-get update -qq\napt-get update -qq\nsudo apt-get install -y -qq pre-commit shellcheck jq\napt-get install -y -qq pre-commit shellcheck jq\n"
			}
			if string(got) != want {
				t.Errorf("uid %s: calls\n%s\nwant\n%s", uid, got, want)
			}
		}
	})

	t.Run("image digest step", func(t *testing.T) {
		jq := testtool.Program(t, "jq", "apt-get install jq; .ci/run installs it")
		var script string
		var env map[string]string
		for _, s := range job.Steps {
			if strings.Contains(s.Run, "Docker Image") {
				script, env = s.Run, s.Env
			}
		}
		if script == "" || env["ARTIFACTS"] != "${{ steps.goreleaser.outputs.artifacts }}" {
			t.Fatalf("no step reads the image digest from GoReleaser's artifacts (env %v)", env)
		}
		digest := "sha256:" + strings.Repeat("ab", 32)
		for _, tc := range []struct {
			name, artifacts, want string
			code                  int
		}{
			{"an image", `[{"name":"eni-lint_0.1.0_linux_amd64.tar.gz","type":"Archive"},{"name":"ghcr.io/eni-lint/eni-lint:0.1.0","type":"Docker Image","extra":{"Digest":"` + digest + `"}}]`, "digest=" + digest + "\n", 0},
			{"no image", `[{"name":"eni-lint_0.1.0_linux_amd64.tar.gz","type":"Archive"}]`, "", 1},
		} {
			output := filepath.Join(t.TempDir(), "output")
			if err := os.WriteFile(output, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			// GitHub's bash for run: steps: bash --noprofile --norc -eo pipefail {0}.
			cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
			cmd.Env = []string{"PATH=" + filepath.Dir(jq) + ":/usr/bin:/bin", "ARTIFACTS=" + tc.artifacts, "GITHUB_OUTPUT=" + output}
			out, err := cmd.CombinedOutput()
			code := 0
			if err != nil {
				code = cmd.ProcessState.ExitCode()
			}
			got, _ := os.ReadFile(output)
			if code != tc.code || string(got) != tc.want {
				t.Errorf("%s: exit %d, output %q; want exit %d, %q\n%s", tc.name, code, got, tc.code, tc.want, out)
			}
			if tc.code != 0 && !strings.Contains(string(out), "::error::") {
				t.Errorf("%s: the failure is not annotated: %s", tc.name, out)
			}
		}
	})
}
