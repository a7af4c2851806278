package cli

import (
	"bytes"
	"encoding/json"
	"github.com/eni-lint/eni-lint/pkg/witness"
	"io/fs"
	"os"
	"os/exec"
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
	// What is checked (files written, verdicts, refusals) does not depend on the witnesses:
	// the runs search none.
	witnessBudget = &witness.Budget{}
	t.Cleanup(func() { witnessBudget = nil })
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
			// The dry run's exit code (the scenario's golden) is the verdict on the fixed
			// files: clean, or findings that no written change resolves.
			var golden scenarioResult
			raw, err := os.ReadFile(filepath.Join(root, e.Name(), "expected.json"))
			if err != nil || json.Unmarshal(raw, &golden) != nil {
				t.Fatalf("no expected.json: %v", err)
			}
			wantClean := golden.ExitCode == 0
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
	a, b := strings.SplitAfter(old, "\n"), strings.SplitAfter(data, "\n")
	m := difflib.NewMatcher(a, b)
	for _, op := range m.GetOpCodes() {
		switch op.Tag {
		case 'e', 'i':
		case 'r':
			// Lines added after a last line without a newline give it one: that line is the
			// same text, ended.
			if n := op.I2 - op.I1; op.I2 == len(a) && n <= op.J2-op.J1 && b[op.J1+n-1] == a[op.I2-1]+"\n" {
				continue
			}
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
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "link to " + target
			return err
		case !d.Type().IsRegular():
			out[rel] = d.Type().String() // a named pipe: never opened
			return nil
		}
		data, err := os.ReadFile(p)
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

// TestSARIFCarriesTheFixesFixWrites: on the quickstart, each SARIF result's fix applied alone
// adds lines that `eni-lint fix` writes, and together they add all of them.
func TestSARIFCarriesTheFixesFixWrites(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, quickstart, dir)
	t.Chdir(dir)
	const file = "db-migrate-cronjob.yaml"
	original, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "", nil, "check", ".", "--node-group", "default=m5.large", "--format", "sarif")
	if code != 1 {
		t.Fatalf("check: exit %d\n%s", code, errOut)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Fixes  []struct {
					ArtifactChanges []struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Replacements     []struct {
							DeletedRegion struct {
								StartLine, EndLine, StartColumn, EndColumn int
							} `json:"deletedRegion"`
							InsertedContent struct{ Text string } `json:"insertedContent"`
						} `json:"replacements"`
					} `json:"artifactChanges"`
				} `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	added := map[string]bool{}
	fixed := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		if len(r.Fixes) != 1 {
			t.Errorf("%s: %d fixes", r.RuleID, len(r.Fixes))
			continue
		}
		fixed[r.RuleID] = true
		lines := strings.SplitAfter(string(original), "\n")
		for _, ch := range r.Fixes[0].ArtifactChanges {
			if ch.ArtifactLocation.URI != file || len(ch.Replacements) != 1 {
				t.Fatalf("%s: change %+v", r.RuleID, ch)
			}
			rep := ch.Replacements[0]
			reg := rep.DeletedRegion
			if reg.StartColumn != 1 || reg.EndColumn != len(strings.TrimRight(lines[reg.EndLine-1], "\n"))+1 {
				t.Errorf("%s: region %+v is not whole lines", r.RuleID, reg)
			}
			for _, l := range strings.Split(rep.InsertedContent.Text, "\n") {
				if !strings.Contains(string(original), l+"\n") {
					added[l] = true
				}
			}
		}
	}
	if !fixed["ENI001"] || !fixed["ENI002"] {
		t.Errorf("fixes for %v, want ENI001 and ENI002", fixed)
	}
	if code, out, _ := run(t, "", nil, "fix", ".", "--node-group", "default=m5.large"); code != 0 {
		t.Fatalf("fix: exit %d\n%s", code, out)
	}
	after, _ := os.ReadFile(file)
	var written []string
	for _, l := range strings.Split(string(after), "\n") {
		if !strings.Contains(string(original), l+"\n") {
			written = append(written, l)
		}
	}
	if len(written) != len(added) {
		t.Errorf("fix wrote %q; SARIF adds %v", written, added)
	}
	for _, l := range written {
		if !added[l] {
			t.Errorf("fix wrote %q, which no SARIF fix adds", l)
		}
	}
}

// The README's example diff of fix on the quickstart is what fix prints.
func TestREADMEFixDiff(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```diff\n")
	if !ok {
		t.Fatal("README.md has no diff block")
	}
	block, _, _ = strings.Cut(block, "```")
	code, out, errOut := run(t, "", nil, "fix", quickstart, "--node-group", "default=m5.large", "--dry-run")
	if code != 0 {
		t.Fatalf("fix --dry-run: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, block) {
		t.Errorf("README diff\n%s\nis not in the output\n%s", block, out)
	}
}

// An instance type given by a flag cannot be written: --prefer instance-type shows it.
func TestPreferInstanceTypeFromAFlagIsShown(t *testing.T) {
	code, out, errOut := run(t, "", nil, "fix", quickstart, "--node-group", "default=m5.large", "--dry-run", "--prefer", "instance-type")
	if code != 1 || !strings.Contains(errOut, `not written ENI001`) || !strings.Contains(errOut, "the type is not written in a file") || strings.Contains(out, "m5.") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// A file name written to forge a diff header is quoted as git quotes it, and git apply
// reads the diff back.
func TestFixDiffQuotesFileNames(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for name, want := range map[string]string{
		"k8s/job.yaml":         "k8s/job.yaml",
		"a\n+++ b/etc/passwd":  `"a\n+++ b/etc/passwd"`,
		"tab\there \"q\" \\ é": `"tab\there \"q\" \\ \303\251"`,
		"esc\x1b[2J.yaml":      `"esc\033[2J.yaml"`,
	} {
		if got := gitQuote(name); got != want {
			t.Errorf("gitQuote(%q) = %s, want %s", name, got, want)
		}
	}
	dir := t.TempDir()
	name := "jobs\n+++ b/forged.yaml"
	copyFile(t, filepath.Join(quickstart, "sgp.yaml"), filepath.Join(dir, "sgp.yaml"))
	copyFile(t, filepath.Join(quickstart, "db-migrate-cronjob.yaml"), filepath.Join(dir, name))
	t.Chdir(dir)
	code, out, errOut := run(t, "", nil, "fix", ".", "--node-group", "default=m5.large", "--dry-run")
	if code != 0 && code != 1 {
		t.Fatalf("fix --dry-run: exit %d\n%s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if line == "+++ b/forged.yaml" {
			t.Fatalf("a forged diff header:\n%s", out)
		}
	}
	if !strings.Contains(out, `+++ "b/jobs\n+++ b/forged.yaml"`) {
		t.Errorf("the header is not quoted:\n%s", out)
	}
	for _, args := range [][]string{{"init", "-q"}, {"apply", "--check", "-"}} {
		cmd := exec.Command("git", args...)
		cmd.Stdin = strings.NewReader(out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("git %v: %v\n%s\n%s", args, err, b, out)
		}
	}
}
