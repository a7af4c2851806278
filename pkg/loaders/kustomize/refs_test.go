package kustomize

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/confine"
)

func TestRemote(t *testing.T) {
	for ref, want := range map[string]bool{
		"../base": false, "job.yaml": false, "overlays/prod": false,
		"file:///nonexistent//x?ref=--upload-pack=touch${IFS}pwned": true,
		"github.com/org/repo//deploy?ref=v1":                        true, "GitHub.com:org/repo": true,
		"git@gitlab.com:org/repo.git": true, "git::https://example.com/r": true,
		"https://raw.example.com/x.yaml": true, "ssh://host/r": true, "dir//sub": true, "x?ref=y": true,
	} {
		if got := Remote(ref); got != want {
			t.Errorf("Remote(%q) = %v, want %v", ref, got, want)
		}
	}
}

// FuzzCheckTree reads any kustomization text: no panic, and a reference that looks remote is
// always reported.
func FuzzCheckTree(f *testing.F) {
	f.Add("resources:\n  - \"file:///nonexistent//x?ref=--upload-pack=touch${IFS}pwned\"\n")
	f.Add("resources: [github.com/org/repo//deploy?ref=v1, job.yaml]\n")
	f.Add("resources: [.]\n")
	f.Add("components: [&a ../x]\npatches: [{path: *a}]\n")
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		fsys, err := confine.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer fsys.Close()
		problems := checkTree(newKustomizations(fsys), dir)
		k, _ := readKustomization(fsys, dir)
		for _, r := range k.refs {
			if Remote(r.value) && len(problems) == 0 {
				t.Fatalf("remote %q not reported", r.value)
			}
		}
	})
}
