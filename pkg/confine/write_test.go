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

// TestRepository: the boundary is the nearest folder up with a .git entry (a worktree has a
// .git file), else the folder itself.
func TestRepository(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "a", "b"), 0o755)
	worktree := filepath.Join(base, "wt")
	os.MkdirAll(filepath.Join(worktree, "x"), 0o755)
	os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: ../repo/.git/worktrees/wt\n"), 0o644)
	plain := filepath.Join(base, "plain", "k8s")
	os.MkdirAll(plain, 0o755)
	for dir, want := range map[string]string{
		repo:                           repo,
		filepath.Join(repo, "a", "b"):  repo,
		filepath.Join(worktree, "x"):   worktree,
		plain:                          plain,
		filepath.Join(repo, "a") + "/": repo,
	} {
		if got := Repository(dir); got != want {
			t.Errorf("Repository(%s) = %s, want %s", dir, got, want)
		}
	}
}

// A link that leaves the scanned folder but stays in the repository is followed (a Terraform
// root whose variables file links to a shared one); a path the command line names outside the
// repository is readable, a file named alone and not its neighbours.
func TestBoundaryIsTheRepositoryAndThePathsNamed(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	write := func(p, s string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	write(filepath.Join(repo, "variables", "common.tf"), "shared\n")
	write(filepath.Join(repo, "aws", "eks", "main.tf"), "main\n")
	os.Symlink("../../variables/common.tf", filepath.Join(repo, "aws", "eks", "variables-common.tf"))
	os.Symlink("../../../secret.txt", filepath.Join(repo, "aws", "eks", "out.tf"))
	write(filepath.Join(base, "secret.txt"), "CANARY\n")
	write(filepath.Join(base, "ci", "values.yaml"), "named\n")
	write(filepath.Join(base, "ci", "other.yaml"), "CANARY\n")
	write(filepath.Join(base, "charts", "x", "Chart.yaml"), "chart\n")

	f, err := New(filepath.Join(repo, "aws"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.RepositoryFolder() != repo {
		t.Fatalf("repository %s, want %s", f.RepositoryFolder(), repo)
	}
	if isDir, err := f.AddPath("eks"); err != nil || !isDir {
		t.Fatalf("AddPath(eks) = %v, %v", isDir, err)
	}
	if isDir, err := f.AddPath(filepath.Join(base, "ci", "values.yaml")); err != nil || isDir {
		t.Fatalf("AddPath(values) = %v, %v", isDir, err)
	}
	if isDir, err := f.AddPath(filepath.Join(base, "charts")); err != nil || !isDir {
		t.Fatalf("AddPath(charts) = %v, %v", isDir, err)
	}
	var outside *OutsideError
	for p, want := range map[string]string{
		"eks/variables-common.tf":                        "shared\n",
		"../variables/common.tf":                         "shared\n", // beside the scanned folder, in the repository
		filepath.Join(base, "ci", "values.yaml"):         "named\n",
		filepath.Join(base, "charts", "x", "Chart.yaml"): "chart\n",
		"eks/out.tf":                            "outside",
		filepath.Join(base, "ci", "other.yaml"): "outside", // a neighbour of a named file
		filepath.Join(base, "secret.txt"):       "outside",
	} {
		data, err := f.ReadFile(p)
		if want == "outside" {
			if !errors.As(err, &outside) {
				t.Errorf("%s: %q, %v; want refused", p, data, err)
			}
			continue
		}
		if err != nil || string(data) != want {
			t.Errorf("%s: %q, %v; want %q", p, data, err, want)
		}
	}
	var walked []string
	f.Walk("eks", func(p string, isDir bool) error {
		if !isDir {
			walked = append(walked, p)
		}
		return nil
	}, func(s Skip) { walked = append(walked, "skip "+s.Path+": "+s.Reason) })
	got := strings.Join(walked, "\n")
	if !strings.Contains(got, "eks/variables-common.tf") || !strings.Contains(got, "skip eks/out.tf: leads outside the repository (to "+filepath.Join(base, "secret.txt")+")") {
		t.Errorf("walk:\n%s", got)
	}
}

// writeCase sets up one target in the repository and says what Write must do with it.
type writeCase struct {
	name   string
	target string                                   // relative to the repository
	setup  func(t *testing.T, repo, outside string) // links, pipes, existing files
	opts   func(repo string) WriteOptions
	during func(t *testing.T, repo string) // between Prepare and Commit
	want   string                          // "" written; else a part of the error
}

var writeCases = []writeCase{
	{name: "new file", target: "k8s/new.yaml"},
	{name: "replace keeps the mode", target: "k8s/job.yaml",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "k8s/job.yaml"), []byte("old\n"), 0o600)
		}},
	{name: "link to outside", target: "k8s/eni-lint.sarif", want: "symbolic link",
		setup: func(t *testing.T, repo, outside string) {
			os.Symlink(outside, filepath.Join(repo, "k8s/eni-lint.sarif"))
		}},
	{name: "dangling link", target: "k8s/patch.yaml", want: "symbolic link",
		setup: func(t *testing.T, repo, outside string) {
			os.Symlink(filepath.Join(filepath.Dir(outside), "created-by-link"), filepath.Join(repo, "k8s/patch.yaml"))
		}},
	{name: "link inside the repository", target: "k8s/x.yaml", want: "symbolic link",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "ci.yml"), []byte("workflow\n"), 0o644)
			os.Symlink("../ci.yml", filepath.Join(repo, "k8s/x.yaml"))
		}},
	{name: "link in a parent folder", target: "overlay/prod/patch.yaml", want: "is a symbolic link",
		setup: func(t *testing.T, repo, outside string) {
			os.Symlink(filepath.Dir(outside), filepath.Join(repo, "overlay"))
		}},
	{name: "fifo", target: "k8s/pipe.yaml", want: "named pipe",
		setup: func(t *testing.T, repo, _ string) {
			syscall.Mkfifo(filepath.Join(repo, "k8s/pipe.yaml"), 0o644)
		}},
	{name: "a file where a folder is expected", target: "k8s/job.yaml/x", want: "not a folder",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "k8s/job.yaml"), []byte("old\n"), 0o644)
		}},
	{name: "a new file that exists", target: "k8s/job.yaml", want: "exists already",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "k8s/job.yaml"), []byte("old\n"), 0o644)
		},
		opts: func(string) WriteOptions { return WriteOptions{New: true} }},
	{name: "changed before the write", target: "k8s/job.yaml", want: "changed on disk since eni-lint read it",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "k8s/job.yaml"), []byte("old\nedited by the user\n"), 0o644)
		},
		opts: func(string) WriteOptions { return WriteOptions{Original: []byte("old\n")} }},
	{name: "edited while it runs", target: "k8s/job.yaml", want: "changed on disk since eni-lint read it",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "k8s/job.yaml"), []byte("old\n"), 0o644)
		},
		opts: func(string) WriteOptions { return WriteOptions{Original: []byte("old\n")} },
		during: func(t *testing.T, repo string) {
			f, err := os.OpenFile(filepath.Join(repo, "k8s/job.yaml"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("a line the user wrote\n")
			f.Close()
		}},
	{name: "replaced by a link while it runs", target: "k8s/job.yaml", want: "replaced while eni-lint ran",
		setup: func(t *testing.T, repo, _ string) {
			os.WriteFile(filepath.Join(repo, "k8s/job.yaml"), []byte("old\n"), 0o644)
		},
		during: func(t *testing.T, repo string) {
			os.Remove(filepath.Join(repo, "k8s/job.yaml"))
			os.Symlink("/etc/hostname", filepath.Join(repo, "k8s/job.yaml"))
		}},
	{name: "a new file that appears while it runs", target: "k8s/new.yaml", want: "appeared while eni-lint ran",
		during: func(t *testing.T, repo string) {
			os.Symlink("/nonexistent-eni-lint", filepath.Join(repo, "k8s/new.yaml"))
		}},
	{name: "removed after it was read", target: "k8s/gone.yaml", want: "removed since eni-lint read it",
		opts: func(string) WriteOptions { return WriteOptions{Original: []byte("old\n")} }},
}

// TestWrite: every write path a pull request can plant is refused with the reason, writes
// nothing (no temporary file left, nothing outside changed), and a plain write replaces the
// file atomically with its mode kept.
func TestWrite(t *testing.T) {
	for _, tc := range writeCases {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			repo := filepath.Join(base, "repo")
			outside := filepath.Join(base, "outside", "secret.txt")
			os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
			os.MkdirAll(filepath.Join(repo, "k8s"), 0o755)
			os.MkdirAll(filepath.Join(base, "outside", "prod"), 0o755)
			os.WriteFile(outside, []byte("CANARY\n"), 0o644)
			if tc.setup != nil {
				tc.setup(t, repo, outside)
			}
			before := snapshotTree(t, base)
			t.Chdir(filepath.Join(repo, "k8s"))
			var o WriteOptions
			if tc.opts != nil {
				o = tc.opts(repo)
			}
			target := filepath.Join(repo, tc.target)
			var modeBefore os.FileMode
			if info, err := os.Lstat(target); err == nil {
				modeBefore = info.Mode().Perm()
			}
			p, err := Prepare(target, o, func(w io.Writer) error {
				_, err := io.WriteString(w, "new content\n")
				return err
			})
			if err == nil {
				if tc.during != nil {
					tc.during(t, repo)
					before = snapshotTree(t, base)
				}
				err = p.Commit()
			}
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				info, err := os.Lstat(target)
				if err != nil || !info.Mode().IsRegular() {
					t.Fatalf("%s: %v %v", target, info, err)
				}
				if data, _ := os.ReadFile(target); string(data) != "new content\n" {
					t.Errorf("content %q", data)
				}
				if modeBefore != 0 && info.Mode().Perm() != modeBefore {
					t.Errorf("mode %v, was %v", info.Mode().Perm(), modeBefore)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				if after := snapshotTree(t, base); after != before {
					t.Errorf("the tree changed:\nbefore %s\nafter  %s", before, after)
				}
			}
			if data, _ := os.ReadFile(outside); string(data) != "CANARY\n" {
				t.Errorf("the file outside changed: %q", data)
			}
			if entries, _ := filepath.Glob(filepath.Join(filepath.Dir(target), ".*.eni-lint-*.tmp")); len(entries) > 0 {
				t.Errorf("temporary files left: %v", entries)
			}
		})
	}
}

// TestWriteAppend: the job summary is appended to, never through a link.
func TestWriteAppend(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base)
	summary := filepath.Join(base, "summary.md")
	for i := 0; i < 2; i++ {
		if err := WriteFile(summary, []byte("line\n"), WriteOptions{Append: true}); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(summary); string(data) != "line\nline\n" {
		t.Errorf("summary %q", data)
	}
	os.WriteFile(filepath.Join(base, "secret"), []byte("CANARY\n"), 0o644)
	os.Symlink(filepath.Join(base, "secret"), filepath.Join(base, "linked.md"))
	if err := WriteFile(filepath.Join(base, "linked.md"), []byte("x\n"), WriteOptions{Append: true}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("append through a link: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(base, "secret")); string(data) != "CANARY\n" {
		t.Errorf("the linked file changed: %q", data)
	}
}

// snapshotTree lists every entry below dir with its type and content, links as their target.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(p, ".tmp") && strings.Contains(p, ".eni-lint-") {
			return nil // Prepare's own file; that none is left is checked on its own
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			b.WriteString(rel + " -> " + target + "; ")
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			b.WriteString(rel + " = " + string(data) + "; ")
		default:
			b.WriteString(rel + " " + info.Mode().String() + "; ")
		}
		return nil
	})
	return b.String()
}

// TestFolders: breadth first, lexical within a level, down to the depth, hidden folders and
// links skipped, and a limit that says the listing is incomplete.
func TestFolders(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	for _, d := range []string{".git", "b/x/y/z/deep", "a/c", "a/.hidden/chart", "c"} {
		os.MkdirAll(filepath.Join(repo, d), 0o755)
	}
	os.WriteFile(filepath.Join(repo, "a", "file.yaml"), nil, 0o644)
	os.Symlink(base, filepath.Join(repo, "c", "out"))
	f, err := New(repo, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hidden := func(name string) bool { return strings.HasPrefix(name, ".") }
	got, complete := f.Folders(repo, 3, 100, hidden)
	var rel []string
	for _, p := range got {
		r, _ := filepath.Rel(repo, p)
		rel = append(rel, r)
	}
	if want := "a b c a/c b/x b/x/y"; strings.Join(rel, " ") != want || !complete {
		t.Errorf("folders %q (complete %v), want %q", strings.Join(rel, " "), complete, want)
	}
	if got, complete := f.Folders(repo, 3, 4, hidden); len(got) != 4 || complete {
		t.Errorf("limited: %v, complete %v", got, complete)
	}
	if got, _ := f.Folders(filepath.Join(base, "elsewhere"), 3, 100, nil); len(got) != 0 {
		t.Errorf("outside the boundary: %v", got)
	}
}
