package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The project is Apache-2.0, the archives and the image say so, and NOTICE passes on the
// notice of every module the binary links that ships one (Apache License 2.0, section 4(d)):
// a dependency update that brings a new NOTICE fails here until NOTICE names it.
func TestLicenseAndNotice(t *testing.T) {
	root := repoRoot(t)
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil || !strings.Contains(string(license), "Apache License\n                           Version 2.0, January 2004") {
		t.Fatalf("LICENSE is not the Apache License 2.0: %v", err)
	}
	notice, err := os.ReadFile(filepath.Join(root, "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
		DockersV2 []struct {
			Labels map[string]string `yaml:"labels"`
		} `yaml:"dockers_v2"`
	}
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	for _, a := range c.Archives {
		if !slices.Contains(a.Files, "LICENSE") || !slices.Contains(a.Files, "NOTICE") {
			t.Errorf("an archive without LICENSE and NOTICE: %v", a.Files)
		}
	}
	for _, d := range c.DockersV2 {
		if d.Labels["org.opencontainers.image.licenses"] != "Apache-2.0" {
			t.Errorf("image labels %v", d.Labels)
		}
	}

	list := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Dir}}{{end}}{{end}}", "./cmd/eni-lint")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, dir, ok := strings.Cut(line, " ")
		if !ok || seen[path] {
			continue
		}
		seen[path] = true
		if dir == "" {
			t.Errorf("%s has no folder in the module cache (go mod download)", path)
			continue
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(strings.ToUpper(e.Name()), "NOTICE") && !strings.Contains(string(notice), path+"\n") {
				t.Errorf("%s ships %s, which NOTICE does not pass on", path, e.Name())
			}
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d modules listed: %s", len(seen), out)
	}
}
