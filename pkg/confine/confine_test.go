//go:build unix

package confine

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tree makes a repository (it has a .git folder) with a canary file beside it (outside) and
// the hostile entries a pull request can hold.
func tree(t testing.TB) (root, canary string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "repo")
	canary = filepath.Join(base, "secret.txt")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755))
	must(os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(os.WriteFile(canary, []byte("CANARY-OUTSIDE"), 0o644))
	must(os.WriteFile(filepath.Join(root, "a.yaml"), []byte("kind: A\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "sub", "b.yaml"), []byte("kind: B\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "big.yaml"), make([]byte, 2048), 0o644))
	must(os.Symlink("a.yaml", filepath.Join(root, "inside-link.yaml")))
	must(os.Symlink(canary, filepath.Join(root, "outside-link.yaml")))
	must(os.Symlink("../../secret.txt", filepath.Join(root, "sub", "relative-out.yaml")))
	must(os.Symlink("..", filepath.Join(root, "sub", "deep", "loop")))
	must(os.Symlink(filepath.Dir(canary), filepath.Join(root, "outside-dir")))
	must(os.Symlink("/dev/zero", filepath.Join(root, "zero.yaml")))
	must(syscall.Mkfifo(filepath.Join(root, "pipe.yaml"), 0o644))
	return root, canary
}

func TestReadFile(t *testing.T) {
	root, _ := tree(t)
	f, err := New(filepath.Join(root, "sub"), 1024) // run in a folder of the repository
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.AddRoot(root); err != nil {
		t.Fatal(err)
	}
	var outside *OutsideError
	var notRegular *NotRegularError
	var tooLarge *TooLargeError
	tests := []struct {
		path string
		want string // content, or the error kind
	}{
		{"a.yaml", "kind: A\n"},
		{"sub/b.yaml", "kind: B\n"},
		{"inside-link.yaml", "kind: A\n"},
		{"sub/../a.yaml", "kind: A\n"},
		{"outside-link.yaml", "outside"},
		{"sub/relative-out.yaml", "outside"},
		{"../secret.txt", "outside"},
		{"sub/../../secret.txt", "outside"},
		{"outside-dir/secret.txt", "outside"},
		{"zero.yaml", "outside"},
		{"pipe.yaml", "not regular"},
		{"big.yaml", "too large"},
		{"sub", "not regular"},
	}
	// Open streams the same files under the same rules.
	open := func(p string) ([]byte, error) {
		r, err := f.Open(p, 0)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	}
	for _, tc := range tests {
		for name, read := range map[string]func(string) ([]byte, error){"ReadFile": f.ReadFile, "Open": open} {
			t.Run(name+" "+tc.path, func(t *testing.T) {
				data, err := read(filepath.Join(root, tc.path))
				switch tc.want {
				case "outside":
					if !errors.As(err, &outside) {
						t.Fatalf("err = %v, want outside", err)
					}
				case "not regular":
					if !errors.As(err, &notRegular) {
						t.Fatalf("err = %v, want not a regular file", err)
					}
				case "too large":
					if !errors.As(err, &tooLarge) {
						t.Fatalf("err = %v, want too large", err)
					}
				default:
					if err != nil || string(data) != tc.want {
						t.Fatalf("read %q, %v", data, err)
					}
				}
			})
		}
	}
}

// A streamed file may be exactly at its budget; one byte more is an error while reading,
// even when the file grew after it was opened.
func TestOpenBudget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := New(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.AddRoot(dir); err != nil {
		t.Fatal(err)
	}
	var tooLarge *TooLargeError
	if r, err := f.Open(path, 10); err != nil {
		t.Fatal(err)
	} else if b, err := io.ReadAll(r); err != nil || len(b) != 10 {
		t.Errorf("at the budget: %q %v", b, err)
	}
	if _, err := f.Open(path, 9); !errors.As(err, &tooLarge) {
		t.Errorf("over the budget at open: %v", err)
	}
	r, err := f.Open(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.WriteFile(path, []byte("0123456789abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(r); !errors.As(err, &tooLarge) {
		t.Errorf("grown past the budget while read: %v", err)
	}
}

func TestWalk(t *testing.T) {
	root, canary := tree(t)
	f, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var files []string
	var skipped []string
	err = f.Walk(root, func(p string, isDir bool) error {
		if !isDir {
			rel, _ := filepath.Rel(root, p)
			files = append(files, rel)
		}
		return nil
	}, func(s Skip) {
		rel, _ := filepath.Rel(root, s.Path)
		skipped = append(skipped, rel+": "+s.Reason)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(files, " "); got != "a.yaml big.yaml sub/b.yaml" {
		t.Errorf("files %q", got)
	}
	want := map[string]string{
		"inside-link.yaml":      "the same file as",
		"outside-link.yaml":     "leads outside",
		"outside-dir":           "leads outside",
		"sub/relative-out.yaml": "leads outside",
		"sub/deep/loop":         "walked already",
		"zero.yaml":             "leads outside",
		"pipe.yaml":             "named pipe",
	}
	for _, s := range skipped {
		name, reason, _ := strings.Cut(s, ": ")
		if w, ok := want[name]; !ok || !strings.Contains(reason, w) {
			t.Errorf("skipped %s", s)
		}
		if strings.Contains(s, "CANARY") {
			t.Errorf("content of %s in a reason", canary)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("%s was not reported as skipped", name)
	}
}

// A named folder that a pull request turned into a link out of the working folder is refused.
func TestAddRootRefusesALinkedRootInsideTheWorkingFolder(t *testing.T) {
	base := t.TempDir()
	cwd := filepath.Join(base, "checkout")
	os.MkdirAll(cwd, 0o755)
	if err := os.Symlink(base, filepath.Join(cwd, "manifests")); err != nil {
		t.Fatal(err)
	}
	f, err := New(cwd, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var outside *OutsideError
	if err := f.AddRoot("manifests"); !errors.As(err, &outside) {
		t.Fatalf("err = %v, want outside", err)
	}
}

func FuzzReadFile(f *testing.F) {
	for _, s := range []string{"a.yaml", "../secret.txt", "outside-link.yaml", "sub/../../secret.txt", "sub/deep/loop/loop/a.yaml", "/etc/passwd", "pipe.yaml", "zero.yaml", "sub/relative-out.yaml"} {
		f.Add(s)
	}
	root, _ := tree(f)
	fsys, err := Open(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		data, err := fsys.ReadFile(filepath.Join(root, p))
		if err == nil && strings.Contains(string(data), "CANARY") {
			t.Fatalf("%q read the file outside the root", p)
		}
		fsys.Stat(filepath.Join(root, p))
		fsys.ReadDir(filepath.Join(root, p))
	})
}

func TestUnder(t *testing.T) {
	tests := []struct {
		p, dir string
		want   bool
	}{
		{"infra/env/prod.tfvars", "infra", true},
		{"infra", "infra", true},
		{"infra2/main.tf", "infra", false},
		{"../infra/main.tf", "infra", false},
		{"infra/../k8s/a.yaml", "infra", false},
		{"k8s/a.yaml", ".", true},
		{"/etc/passwd", ".", false},
	}
	for _, tc := range tests {
		if got := Under(tc.p, tc.dir); got != tc.want {
			t.Errorf("Under(%q, %q) = %v, want %v", tc.p, tc.dir, got, tc.want)
		}
	}
}

// TestOverlay: fix checks its changes through an overlay; reads see the overlay's contents,
// a new file of a folder inside the roots is listed and read, and one outside stays refused.
func TestOverlay(t *testing.T) {
	root, _ := tree(t)
	f, err := New(filepath.Join(root, "sub"), 1024) // run in a folder of the repository
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.AddRoot(root); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(root), "secret.txt")
	f.SetOverlay(map[string][]byte{
		filepath.Join(root, "a.yaml"):          []byte("kind: Changed\n"),
		filepath.Join(root, "sub", "new.yaml"): []byte("kind: New\n"),
		outside:                                []byte("kind: Outside\n"),
	})
	tests := []struct {
		path, want string
		refused    bool
	}{
		{path: "a.yaml", want: "kind: Changed\n"},
		{path: "sub/new.yaml", want: "kind: New\n"},
		{path: "sub/b.yaml", want: "kind: B\n"},
		{path: "../secret.txt", refused: true},
	}
	for _, tc := range tests {
		data, err := f.ReadFile(filepath.Join(root, tc.path))
		if tc.refused {
			var out *OutsideError
			if !errors.As(err, &out) {
				t.Errorf("%s: err = %v, want refused", tc.path, err)
			}
			continue
		}
		if err != nil || string(data) != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.path, data, err, tc.want)
		}
	}
	entries, err := f.ReadDir(filepath.Join(root, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, e := range entries {
		listed = listed || e.Name() == "new.yaml" && e.Type().IsRegular()
	}
	if !listed || !f.IsFile(filepath.Join(root, "sub", "new.yaml")) {
		t.Errorf("the overlay's new file is not listed in its folder: %v", entries)
	}
	r, err := f.Open(filepath.Join(root, "a.yaml"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, _ := io.ReadAll(r); string(b) != "kind: Changed\n" {
		t.Errorf("Open reads %q", b)
	}
}
