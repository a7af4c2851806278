package cli

import (
	"context"
	"fmt"
	"github.com/eni-lint/eni-lint/pkg/witness"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/analysis"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/fix"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/rules"
	"github.com/pmezard/go-difflib/difflib"
	"github.com/spf13/cobra"
)

type fixFlags struct {
	prefer string
	dryRun bool
	check  bool
	ttl    int
	failOn string
}

func newFix(stdio IO) *cobra.Command {
	var f checkFlags
	var x fixFlags
	cmd := &cobra.Command{
		Use:   "fix [PATH...]",
		Short: "Write each ENI001, ENI002 and ENI003 fix, checked before writing",
		Long: `Fix reads what check reads, picks one change for each ENI001, ENI002 and ENI003 finding, and
writes it where the object comes from: a manifest is edited in place (only the changed or
inserted lines differ); an object a kustomize overlay builds gets a JSON patch in that overlay,
listed under its patches; a Helm template is edited only where the field is a literal in it,
otherwise the values key or template line is shown; Terraform gets the YAML of its heredoc or
the attribute of its kubernetes_* resource edited (hclwrite).

Every change is checked first: the check runs again on the changed files in memory, and a change
after which its finding is still there, or which adds a finding, is not written. A second run
changes nothing.

Each finding gets its first remedy, the one every report lists first: for ENI001 a
ttlSecondsAfterFinished (alone, or with an activeDeadlineSeconds or startingDeadlineSeconds),
then one change of the deadline or schedule, then history limits, then backoffLimit. fix never
writes backoffLimit: 0 or a history limit of 0 (no retries, no finished Job left to read)
unless --prefer names that lever, and leaves concurrencyPolicy to you. --prefer LEVER takes the
first remedy that uses it. A larger instance type is an infrastructure decision: it is shown,
and written only with --prefer instance-type, where the node group lists the type as a literal.

Exit codes: 0 the files (as fixed) have no finding at or above --fail-on; 1 findings remain
(with --check: fixes would be written); 2 the run failed.`,
		Example: `  eni-lint fix examples/quickstart --node-group default=m5.large --dry-run
  eni-lint fix k8s/ --prefer backoff
  eni-lint fix . --check   # in CI: fail when a fix would change the files`,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.failOn = x.failOn
			return runFix(cmd, stdio, f, x, args)
		},
	}
	fl := cmd.Flags()
	inputFlags(fl, &f)
	fl.StringVar(&x.prefer, "prefer", "", "take the first remedy that changes this: ttl, deadline, starting-deadline, history, backoff or instance-type (written only where the group lists the type as a literal)")
	fl.BoolVar(&x.dryRun, "dry-run", false, "print the changes as a unified diff and write nothing")
	fl.BoolVar(&x.check, "check", false, "write nothing; exit 1 when fixes would be written (for CI)")
	fl.IntVar(&x.ttl, "ttl", 600, "ttlSecondsAfterFinished that ENI002's fix sets")
	fl.StringVar(&x.failOn, "fail-on", "", "lowest severity of a remaining finding that makes the exit code 1 (default: the config's, else error)")
	return cmd
}

func runFix(cmd *cobra.Command, stdio IO, f checkFlags, x fixFlags, args []string) error {
	order, err := fix.Order(x.prefer)
	if err != nil {
		return usageError{err}
	}
	if x.ttl < 0 {
		return usageError{fmt.Errorf("--ttl must be 0 or more")}
	}
	for _, a := range args {
		if a == "-" {
			return usageError{fmt.Errorf("fix changes files: it cannot read standard input")}
		}
	}
	run, err := prepare(cmd, stdio, f, args)
	if err != nil {
		return err
	}
	defer run.stop()
	ctx, opts := run.ctx, run.opts
	opts.FixTTLSeconds = x.ttl
	eng, err := engine(ctx, run.policies)
	if err != nil {
		return err
	}
	// Files are read within the boundary the check reads in (the repository and the paths
	// named), and written only through the one writer (writeFixed).
	fsys, err := rootsOf(opts)
	if err != nil {
		return err
	}
	defer fsys.Close()
	res, err := fixRun(ctx, checkWith(opts, eng), fix.NewWorkspace(fsys.ReadFile), order)
	if err != nil {
		return err
	}
	if len(res.Before.Errors) > 0 {
		for _, e := range res.Before.Errors {
			fmt.Fprintln(stdio.Err, report.TerminalSafe(report.OneLine(fmt.Sprintf("eni-lint: %s: %s", at(e.Position), e.Message)), false))
		}
		fmt.Fprintln(stdio.Err, "eni-lint: the inputs did not all load: nothing was fixed")
		return exitError{findings.ExitFailed}
	}
	changed := res.Workspace.Changed()
	summary, err := writeFixes(stdio, x, res, changed)
	if err != nil {
		return err
	}
	writeSummary(summary, res, changed, x.dryRun || x.check)
	if x.check {
		if len(changed) > 0 {
			return exitError{findings.ExitFindings}
		}
		return nil
	}
	if code := res.After.ExitCode(); code != findings.ExitClean {
		return exitError{code}
	}
	return nil
}

// writeFixes prints the diff (--dry-run) or writes the changed files (unless --check), and
// returns where the summary goes: standard error when the diff is alone on standard output,
// for git apply. A write that fails is said, with how many files were written before it.
func writeFixes(stdio IO, x fixFlags, res *fix.Result, changed []string) (io.Writer, error) {
	if x.dryRun {
		if err := writeDiff(stdio.Out, res.Workspace, changed); err != nil {
			return nil, err
		}
		return stdio.Err, nil
	}
	if x.check {
		return stdio.Out, nil
	}
	beforeFixWrites(changed)
	written, err := writeFixed(res.Workspace, changed, locatedFiles(res.Before))
	if err == nil {
		return stdio.Out, nil
	}
	writeSummary(stdio.Out, res, changed, true)
	fmt.Fprintln(stdio.Err, report.TerminalSafe(report.OneLine("eni-lint: "+err.Error()), false))
	if written == 0 {
		fmt.Fprintln(stdio.Err, "eni-lint fix: nothing was written")
	} else {
		fmt.Fprintf(stdio.Err, "eni-lint fix: %d of %s were written before it\n", written, plural(len(changed), "file"))
	}
	return nil, exitError{findings.ExitFailed}
}

// fixRun is fix.Run; a test wraps it to try every remedy with the same check and files.
var fixRun = fix.Run

// checkWith is the check fix runs on changed files: the run's options with the files read
// from the overlay, and the workloads kept.
func checkWith(opts analysis.Options, eng *rules.Engine) fix.Check {
	return func(ctx context.Context, overlay map[string][]byte) (*findings.Report, map[string]inventory.Workload, error) {
		o := opts
		o.Overlay = overlay
		hook, collected := fix.CollectWorkloads()
		o.Workloads = hook
		rep, err := analysis.Check(ctx, eng, o)
		if err != nil {
			return nil, nil, err
		}
		return rep, collected(), nil
	}
}

// rootsOf is the file system fix reads what it changes through: the boundary the check
// reads in (the repository and the paths named).
func rootsOf(opts analysis.Options) (*confine.FS, error) {
	fsys, err := confine.New("", opts.MaxFileSize)
	if err != nil {
		return nil, err
	}
	for _, p := range opts.Paths {
		if _, err := fsys.AddPath(p); err != nil {
			fsys.Close()
			return nil, fmt.Errorf("%s: %s", p, confine.Reason(err))
		}
	}
	analysis.NamePaths(fsys, opts)
	return fsys, nil
}

// attachEdits gives every finding `eni-lint fix` would fix the edits of its fix, for the
// reporters that offer them (SARIF fixes, review suggestions). The fixes are checked as fix
// checks them; a run with nothing to fix costs nothing more.
func attachEdits(ctx context.Context, opts analysis.Options, eng *rules.Engine, rep *findings.Report, workloads map[string]inventory.Workload) error {
	fixable := false
	for _, f := range rep.Findings {
		fixable = fixable || f.Suppressed == nil && slices.Contains(fix.Rules, f.Rule) && len(fix.FixesOf(f)) > 0
	}
	if !fixable || len(rep.Errors) > 0 || slices.Contains(opts.Paths, "-") {
		return nil
	}
	fsys, err := rootsOf(opts)
	if err != nil {
		return nil // the check itself reported what it could not read
	}
	defer fsys.Close()
	order, _ := fix.Order("")
	res, err := fix.RunFrom(ctx, checkWith(opts, eng), fix.NewWorkspace(fsys.ReadFile), order, rep, workloads)
	if err != nil {
		return err
	}
	edits := fix.Edits(res, workloads, fsys.ReadFile)
	for i := range rep.Findings {
		rep.Findings[i].Edits = edits[fix.Identity(rep.Findings[i])]
	}
	return nil
}

func at(p inventory.Position) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
	}
	return p.File
}

// relative is a path as the user gave the folder: relative to the working folder when inside it.
func relative(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

// writeDiff prints every changed file as a unified diff (a/ and b/ prefixes, as git does).
func writeDiff(w io.Writer, ws *fix.Workspace, changed []string) error {
	for _, p := range changed {
		name := filepath.ToSlash(relative(p))
		from, old := gitQuote("a/"+name), ws.Original(p)
		if old == nil {
			from = "/dev/null"
		}
		text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: diffLines(old), B: diffLines(ws.Current(p)),
			FromFile: from, ToFile: gitQuote("b/" + name), Context: 3,
		})
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
	}
	return nil
}

// gitQuote writes a file name of a diff header as git does: as it is when it holds only
// printable ASCII, else in double quotes with C escapes and every other byte in octal
// (core.quotePath). A name with a newline could otherwise forge the next header line; git
// apply reads the quoted form back.
func gitQuote(name string) string {
	plain := true
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// diffLines splits a file for the diff, each line with its newline; a last line without one
// is followed by git's marker line, so the diff still applies.
func diffLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	return lines
}

// writeSummary says what happened to every finding fix looked at, and what remains.
func writeSummary(w io.Writer, res *fix.Result, changed []string, preview bool) {
	verb := "wrote"
	if preview {
		verb = "would write"
	}
	// Object and file names come from the pull request: one line each, no control
	// characters, no line that starts a workflow command.
	safe := func(s string) string { return report.TerminalSafe(report.OneLine(s), false) }
	for _, o := range res.Outcomes {
		fmt.Fprintln(w, safe(o.Describe(preview)))
	}
	if len(changed) == 0 {
		fmt.Fprintln(w, "eni-lint fix: nothing to change")
	} else {
		var names []string
		for _, p := range changed {
			names = append(names, safe(relative(p)))
		}
		if len(names) > 10 { // the lines above name every change; this line stays short
			names = append(names[:10], fmt.Sprintf("and %d more", len(names)-10))
		}
		fmt.Fprintf(w, "eni-lint fix: %s %s: %s\n", verb, plural(len(changed), "file"), strings.Join(names, ", "))
	}
	res.After.Count()
	s := res.After.Summary
	fmt.Fprintf(w, "eni-lint fix: after the fixes: %s, %s, %d info (%s)\n", plural(s.Errors, "error"), plural(s.Warnings, "warning"), s.Info, res.After.Model.Description)
}

// witnessBudget, when set, replaces the run's witness budget: tests that compare numbers
// only (the release models against each other) search no witness.
var witnessBudget *witness.Budget

// beforeFixWrites runs after the fixes are checked and before they are written: the moment a
// user's editor may save a file fix is about to change. Tests put an edit here.
var beforeFixWrites = func(changed []string) {}

// writeFixed writes every changed file through the one writer, all or none: each is prepared
// beside its target first, and only when every one was prepared (no link or special file on
// the way, no file changed since fix read it, no new file that exists already) are they put
// in place. A manifest fix read through a symbolic link (a file a finding of the check is
// located in: the workload fix changes) is written at the file the link leads to when that is
// inside the repository, the boundary reads keep (monorepos share manifests that way): its
// content is what the check read and fix changed, and the writer checks the resolved path
// from the repository down. Any other link is refused, and the message names where it leads:
// one that leads outside the repository or into .git, and one at a file fix did not read as a
// manifest, such as the name of a kustomize patch it is about to write, which a pull request
// may have made a link to a workflow to have fix write over it.
func writeFixed(ws *fix.Workspace, changed []string, manifests map[string]bool) (written int, err error) {
	var pending []*confine.PendingWrite
	defer func() {
		for _, p := range pending {
			p.Abort()
		}
	}()
	for _, p := range changed {
		original := ws.Original(p)
		data := ws.Current(p)
		target, name := p, relative(p)
		if resolved, ok := confine.ResolveLinkWithin(p); ok && original != nil && manifests[absPath(p)] {
			target, name = resolved, relative(p)+" (the file its link leads to, "+relative(resolved)+")"
		}
		w, err := confine.Prepare(target, confine.WriteOptions{Original: original, New: original == nil, Name: name}, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("fix: %s", err)
		}
		pending = append(pending, w)
	}
	// Between two commits only a rename happens: a refusal here is a file replaced in the
	// last moment, after every check passed.
	for i, w := range pending {
		if err := w.Commit(); err != nil {
			return i, fmt.Errorf("fix: %s", err)
		}
	}
	return len(pending), nil
}

// plural is "1 file", "2 files".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// locatedFiles are the files the report's findings are located in, by absolute path: the
// manifests the check read the workloads from.
func locatedFiles(r *findings.Report) map[string]bool {
	out := map[string]bool{}
	if r == nil {
		return out
	}
	for _, f := range r.Findings {
		if f.Location.File != "" {
			out[absPath(f.Location.File)] = true
		}
	}
	return out
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
