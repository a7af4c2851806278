package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/fix"
	"github.com/eni-lint/eni-lint/pkg/witness"
)

// TestEveryRemedyClearsItsFinding applies every remedy of every ENI001 of the check scenarios
// and the rule examples to the files, alone, and checks again: the finding must be gone. A
// remedy is the model evaluated again with the change (policies/lib/remedies.rego); this is
// the same promise kept end to end, through the loaders and the writers. It also holds `fix`'s
// default to what the issue asked: the remedy it writes takes no retries and no finished Job
// away (no backoffLimit: 0, no history limit of 0).
func TestEveryRemedyClearsItsFinding(t *testing.T) {
	// The verdicts do not depend on the witnesses: the checks search none.
	witnessBudget = &witness.Budget{}
	t.Cleanup(func() { witnessBudget = nil; fixRun = fix.Run })
	Version = "test"

	type folder struct{ dir, args string }
	var folders []folder
	root, entries := scenarioEntries(t)
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, "args"))
		if err != nil || !strings.HasPrefix(string(b), "check ") || strings.Contains(string(b), " - ") || strings.HasSuffix(strings.TrimSpace(string(b)), " -") {
			continue
		}
		folders = append(folders, folder{dir, strings.TrimPrefix(string(b), "check ")})
	}
	// Every scenario under -tags slow; by default every third, which keeps pkg/cli's tests within
	// a laptop's minute (each remedy is one more check) and still spans the loaders and writers.
	step := testtool.Size(3, 1)
	var sampled []folder
	for i, fo := range folders {
		if i%step == 0 || strings.HasPrefix(filepath.Base(fo.dir), "remedies-") {
			sampled = append(sampled, fo)
		}
	}
	folders = sampled
	examples := filepath.Join("..", "..", "testdata", "rule-examples")
	rules, _ := os.ReadDir(examples)
	for _, r := range rules {
		b, _ := os.ReadFile(filepath.Join(examples, r.Name(), "args"))
		folders = append(folders, folder{filepath.Join(examples, r.Name(), "fails"), string(b)})
	}

	tried, placed := 0, 0
	for _, fo := range folders {
		dir, err := filepath.Abs(fo.dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			t.Chdir(dir)
			var trials []fix.Trial
			fixRun = func(ctx context.Context, check fix.Check, ws *fix.Workspace, order []string) (*fix.Result, error) {
				before, workloads, err := check(ctx, ws.Overlay())
				if err != nil {
					return nil, err
				}
				if trials, err = fix.TryEach(ctx, check, ws, before, workloads, []string{"ENI001"}); err != nil {
					return nil, err
				}
				res, err := fix.RunFrom(ctx, check, ws, order, before, workloads)
				if err == nil {
					noZeroByDefault(t, res)
				}
				return res, err
			}
			args := append([]string{"fix"}, withoutOutputFlags(strings.Fields(fo.args))...)
			args = append(args, "--dry-run")
			var stdout, stderr bytes.Buffer
			Run(context.Background(), args, IO{
				In: bytes.NewReader(nil), Out: &stdout, Err: &stderr,
				Getenv: func(string) string { return "" }, IsTerminal: func() bool { return false },
			})
			for _, tr := range trials {
				tried++
				if !tr.Placed {
					t.Logf("not placed (%s): %s", tr.Fix.Change, tr.Why)
					continue
				}
				placed++
				if !tr.Cleared {
					t.Errorf("%s at %s: the remedy %q applied, the finding stays: %s", tr.Finding.Rule, tr.Finding.Location.File, tr.Fix.Change, tr.Why)
				}
			}
		})
	}
	if want := testtool.Size(15, 40); placed < want {
		t.Errorf("%d remedies applied (%d tried); expected the scenarios' and examples' remedies, at least %d", placed, tried, want)
	}
}

// noZeroByDefault: fix, asked for nothing in particular, writes no backoffLimit: 0 and no
// history limit of 0.
func noZeroByDefault(t *testing.T, res *fix.Result) {
	t.Helper()
	for _, o := range res.Outcomes {
		if !o.Written || o.Fix == nil {
			continue
		}
		for _, f := range o.Placed {
			if f.Value == 0 && (strings.HasSuffix(f.Path, "backoffLimit") || strings.HasSuffix(f.Path, "HistoryLimit")) {
				t.Errorf("fix wrote %s: 0 on %s for %s by default", f.Path, o.Fix.Workload, findingName(o.Finding))
			}
		}
	}
}

func findingName(f findings.Finding) string { return f.Rule + " at " + f.Location.File }

// withoutOutputFlags drops the check's output flags, which fix does not take.
func withoutOutputFlags(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--format" || args[i] == "--output" {
			i++
			continue
		}
		if strings.HasPrefix(args[i], "--format=") || strings.HasPrefix(args[i], "--output=") {
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// TestFixWritesTheFirstRemedy: on the remedies issue's CronJob (with and without a TTL and
// Forbid) and on the quickstart, `eni-lint fix` then `eni-lint check` exits 0, the change adds a
// ttlSecondsAfterFinished where there was none, and writes no backoffLimit or history limit of 0.
func TestFixWritesTheFirstRemedy(t *testing.T) {
	// What is checked (files written, verdicts, refusals) does not depend on the witnesses:
	// the runs search none.
	witnessBudget = &witness.Budget{}
	t.Cleanup(func() { witnessBudget = nil })
	root, entries := scenarioEntries(t)
	dirs := map[string][]string{filepath.Join("..", "..", "examples", "quickstart"): {"--node-group", "default=m5.large"}}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "remedies-") {
			dirs[filepath.Join(root, e.Name())] = nil
		}
	}
	if len(dirs) < 5 {
		t.Fatalf("%d folders; want the four remedies scenarios and the quickstart", len(dirs))
	}
	for src, flags := range dirs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			before := readAll(t, dir)
			if code, out, errOut := run(t, "", nil, append([]string{"fix", "."}, flags...)...); code != 0 {
				t.Fatalf("fix: exit %d\n%s%s", code, out, errOut)
			}
			if code, out, _ := run(t, "", nil, append([]string{"check", "."}, flags...)...); code != 0 {
				t.Fatalf("check after fix: exit %d\n%s", code, out)
			}
			after := readAll(t, dir)
			if !strings.Contains(before, "ttlSecondsAfterFinished") && !strings.Contains(after, "ttlSecondsAfterFinished") {
				t.Errorf("fix added no ttlSecondsAfterFinished:\n%s", after)
			}
			for _, zero := range []string{"backoffLimit: 0", "HistoryLimit: 0"} {
				if strings.Contains(after, zero) && !strings.Contains(before, zero) {
					t.Errorf("fix wrote %q:\n%s", zero, after)
				}
			}
		})
	}
}

// readAll is the folder's YAML, file after file.
func readAll(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.Write(data)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
