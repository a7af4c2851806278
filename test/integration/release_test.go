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
	if len(c.DockersV2) != 1 || c.DockersV2[0].Dockerfile != "Dockerfile" || strings.Join(c.DockersV2[0].Platforms, ",") != "linux/amd64,linux/arm64" {
		t.Errorf("image %+v", c.DockersV2)
	}
}

// There is no container runtime here, so the image definition is checked as text: a
// distroless base pinned by digest, the release binary copied (nothing compiled), a non-root
// user, an exec-form entrypoint.
func TestImageDefinition(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var instructions []string
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			instructions = append(instructions, line)
		}
	}
	from := regexp.MustCompile(`^FROM gcr\.io/distroless/static-debian12:nonroot@sha256:[0-9a-f]{64}$`)
	if len(instructions) == 0 || !from.MatchString(instructions[0]) {
		t.Errorf("the first instruction must be distroless static nonroot pinned by digest: %q", instructions)
	}
	want := map[string]bool{
		"ARG TARGETPLATFORM": false, "COPY $TARGETPLATFORM/eni-lint /usr/bin/eni-lint": false,
		"USER 65532:65532": false, `ENTRYPOINT ["/usr/bin/eni-lint"]`: false,
	}
	for _, in := range instructions {
		if _, ok := want[in]; ok {
			want[in] = true
		}
		if strings.HasPrefix(in, "RUN ") || strings.HasPrefix(in, "FROM ") && in != instructions[0] {
			t.Errorf("%q: the image copies the release binary and runs nothing", in)
		}
	}
	for in, seen := range want {
		if !seen {
			t.Errorf("missing %q", in)
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
