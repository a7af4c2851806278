package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
)

// TestFixScenariosWrite runs every testdata/scenarios/fix-* folder's command in write mode on
// a copy: the files change only by inserted or replaced lines, the check on the result has no
// finding at or above error unless the scenario leaves one (a Helm chart's values), a second
// fix changes nothing, and fix --check then exits 0. The dry-run output itself is the
// scenario's golden file (TestScenarios).
func TestFixScenariosWrite(t *testing.T) {
	root, entries := scenarioEntries(t)
	n := 0
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "fix-") {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join(root, e.Name()), dir)
			argsText, err := os.ReadFile(filepath.Join(dir, "args"))
			if err != nil {
				t.Fatal(err)
			}
			fixArgs, checkArgs, checkMode := writeModeArgs(strings.Fields(string(argsText)))
			t.Chdir(dir)
			before := treeOf(t, dir)
			code, out, errOut := run(t, "", nil, fixArgs...)
			if checkMode {
				// --check writes nothing and says fixes would be written.
				if code != 1 || !equalTrees(before, treeOf(t, dir)) {
					t.Fatalf("fix --check: exit %d (want 1), files changed: %v\n%s%s", code, !equalTrees(before, treeOf(t, dir)), out, errOut)
				}
				return
			}
			if code == 2 {
				t.Fatalf("fix failed:\n%s%s", out, errOut)
			}
			after := treeOf(t, dir)
			for name, data := range after {
				old, existed := before[name]
				if !existed {
					continue // a new file: a kustomize patch
				}
				if old != data {
					onlyInsertedOrReplaced(t, name, old, data)
				}
			}
			wantClean := !strings.Contains(e.Name(), "helm")
			if code, out, _ := run(t, "", nil, checkArgs...); (code == 0) != wantClean {
				t.Errorf("check after fix: exit %d, want clean %v\n%s", code, wantClean, out)
			}
			again, out, _ := run(t, "", nil, fixArgs...)
			if !equalTrees(after, treeOf(t, dir)) || !strings.Contains(out, "nothing to change") {
				t.Errorf("a second fix changed files (exit %d):\n%s", again, out)
			}
			if code, out, _ := run(t, "", nil, append(fixArgs, "--check")...); code != 0 && wantClean {
				t.Errorf("fix --check after fix: exit %d\n%s", code, out)
			}
		})
	}
	if n < 6 {
		t.Errorf("%d fix scenarios; expected plain, multi-document, Helm, kustomize, Terraform and --check", n)
	}
}

// writeModeArgs turns a scenario's fix command into the same command that writes (no
// --dry-run), and into the check of the same inputs.
func writeModeArgs(args []string) (fix, check []string, checkMode bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--dry-run":
			continue
		case a == "--check":
			checkMode = true
			fix = append(fix, a)
			continue
		case a == "--prefer" || a == "--ttl":
			fix = append(fix, a, args[i+1])
			i++
			continue
		case a == "fix":
			fix, check = append(fix, a), append(check, "check")
			continue
		}
		fix, check = append(fix, a), append(check, a)
	}
	return fix, check, checkMode
}

// onlyInsertedOrReplaced fails unless every difference is an inserted line or a line replaced
// one for one (a changed value): what `git diff` of a fix shows.
func onlyInsertedOrReplaced(t *testing.T, name, old, data string) {
	t.Helper()
	m := difflib.NewMatcher(diffLines([]byte(old)), diffLines([]byte(data)))
	for _, op := range m.GetOpCodes() {
		switch op.Tag {
		case 'e', 'i':
		case 'r':
			if op.I2-op.I1 != op.J2-op.J1 {
				t.Errorf("%s: lines %d-%d replaced by %d lines", name, op.I1+1, op.I2, op.J2-op.J1)
			}
		default:
			t.Errorf("%s: lines %d-%d deleted", name, op.I1+1, op.I2)
		}
	}
}

func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if rel == "expected.json" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), bytes.Clone(data), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
