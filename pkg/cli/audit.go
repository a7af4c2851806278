package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/eni-lint/eni-lint/pkg/analysis"
	"github.com/eni-lint/eni-lint/pkg/audit"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/snapshot"
)

// SnapshotCommand is the kubectl command the audit documents: everything it reads, in one List.
const SnapshotCommand = "kubectl get nodes,pods,jobs,cronjobs,events --all-namespaces -o json --chunk-size=500 > snapshot.json"

// auditFlags are audit's flags as given.
type auditFlags struct {
	release, at, format, failOn, color string
	cooldown                           time.Duration
	manifests, outputs                 []string
	noColor                            bool
	maxItems                           int
	maxSize                            int64
	timeout                            time.Duration
}

func newAudit(stdio IO) *cobra.Command {
	var f auditFlags
	cmd := &cobra.Command{
		Use:   "audit SNAPSHOT... [-- MANIFEST PATHS...]",
		Short: "Show the branch ENIs finished pods hold now (a kubectl snapshot)",
		Long: "audit reads what `" + SnapshotCommand + "` wrote (JSON or YAML, several files, or - for stdin) and never a live cluster.\n" +
			"Per node it puts the scheduler's count of SGP pods beside the branch ENIs held, by running pods and by finished pods the scheduler no longer counts.\n" +
			"With manifest or infrastructure paths after -- (or --manifests), it also compares what it sees with the static worst case of `eni-lint check`.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runAudit(cmd, stdio, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.release, "eni-release", string(inventory.ReleaseOnDelete), "release model: onDelete (a finished pod holds its ENI until deleted) or onCompletion (for the cool-down after it ends)")
	fl.DurationVar(&f.cooldown, "cooldown", 60*time.Second, "branch-ENI cool-down for onCompletion (minimum 30s)")
	fl.StringVar(&f.at, "at", "", "when the snapshot was taken (RFC 3339); default: the newest time stamp in it")
	fl.StringVar(&f.format, "format", "text", fmt.Sprintf("format of standard output %v", report.AuditFormats))
	fl.StringArrayVar(&f.outputs, "output", nil, "also write FORMAT=FILE (repeatable)")
	fl.StringVar(&f.failOn, "fail-on", "at-risk", "mildest node verdict that makes the exit code 1: waiting, exhausted, at-risk or none")
	fl.StringArrayVar(&f.manifests, "manifests", nil, "manifests or infrastructure to compare with (repeatable; the same as paths after --)")
	fl.StringVar(&f.color, "color", "auto", "colors in text output: always, never or auto")
	fl.BoolVar(&f.noColor, "no-color", false, "the same as --color never")
	fl.IntVar(&f.maxItems, "max-items", 0, fmt.Sprintf("most items read from all snapshots (default %d)", snapshot.DefaultLimits.MaxItems))
	fl.Int64Var(&f.maxSize, "max-snapshot-size", 64<<30, "largest snapshot file, in bytes")
	fl.DurationVar(&f.timeout, "timeout", 10*time.Minute, "stop reading snapshots after this long (0: no limit); what was read is reported with an error")
	return cmd
}

// runAudit reads the snapshots, audits them (and compares them with the manifests after --)
// and writes the reports.
func runAudit(cmd *cobra.Command, stdio IO, f auditFlags, args []string) error {
	snapshots := args
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		snapshots, f.manifests = args[:dash], append(f.manifests, args[dash:]...)
	}
	if len(snapshots) == 0 {
		return usageError{fmt.Errorf("audit needs at least one snapshot (%s)", SnapshotCommand)}
	}
	settings, err := f.settings()
	if err != nil {
		return err
	}
	lim := snapshot.DefaultLimits
	if f.maxItems > 0 {
		lim.MaxItems = f.maxItems
	}
	snap := snapshot.New()
	ctx := cmd.Context()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	if err := readSnapshots(ctx, f.timeout, snap, snapshots, stdio.In, lim, f.maxSize); err != nil {
		return err
	}
	rep := audit.Audit(snap, settings, currentVersion())
	if len(f.manifests) > 0 {
		if err := compareWithManifests(cmd.Context(), stdio, snap, rep, settings, f.manifests); err != nil {
			return err
		}
	}
	terminal := stdio.IsTerminal != nil && stdio.IsTerminal()
	if err := report.WriteAudit(stdio.Out, rep, f.format, useColor(f.color, terminal, stdio.Getenv)); err != nil {
		return usageError{err}
	}
	if err := writeAuditOutputs(rep, f.outputs); err != nil {
		return err
	}
	if code := rep.ExitCode(); code != 0 {
		return exitError{code}
	}
	return nil
}

// settings checks the flags and gives the audit's settings; f.color is settled (--no-color).
func (f *auditFlags) settings() (audit.Settings, error) {
	model, err := inventory.ParseRelease(f.release)
	if err != nil {
		return audit.Settings{}, usageError{fmt.Errorf("--eni-release %v", err)}
	}
	failOn := f.failOn
	switch failOn {
	case audit.Waiting, audit.Exhausted, "at-risk", "none":
	default:
		return audit.Settings{}, usageError{fmt.Errorf("--fail-on %q: want waiting, exhausted, at-risk or none", failOn)}
	}
	if failOn == "at-risk" {
		failOn = audit.AtRisk
	}
	if f.cooldown < time.Duration(inventory.MinCooldownSeconds)*time.Second {
		return audit.Settings{}, usageError{fmt.Errorf("--cooldown %s: the controller's minimum is %ds", f.cooldown, inventory.MinCooldownSeconds)}
	}
	var when time.Time
	if f.at != "" {
		t, err := time.Parse(time.RFC3339, f.at)
		if err != nil {
			return audit.Settings{}, usageError{fmt.Errorf("--at %q: want an RFC 3339 time such as 2026-12-01T10:00:00Z", f.at)}
		}
		when = t
	}
	if f.noColor {
		f.color = "never"
	}
	switch f.color {
	case "always", "never", "auto":
	default:
		return audit.Settings{}, usageError{fmt.Errorf("--color %q: want always, never or auto", f.color)}
	}
	table, err := limits.Builtin()
	if err != nil {
		return audit.Settings{}, err
	}
	return audit.Settings{ENIRelease: model, Cooldown: f.cooldown, At: when, Table: table, FailOn: failOn}, nil
}

// compareWithManifests checks the manifests on the snapshot's nodes and puts what the
// snapshot shows beside that static worst case (the report's model check).
func compareWithManifests(ctx context.Context, stdio IO, snap *snapshot.Snapshot, rep *audit.Report, settings audit.Settings, manifests []string) error {
	eng, err := engine(ctx, nil)
	if err != nil {
		return err
	}
	static, err := analysis.Check(ctx, eng, analysis.Options{
		Paths: manifests, Stdin: stdio.In, Version: currentVersion(), NodeGroups: audit.NodeGroups(snap),
		ENIRelease: settings.ENIRelease, CooldownSeconds: int(settings.Cooldown / time.Second), DefaultNamespace: "default",
		FailOn: findings.Error,
	})
	if err != nil {
		return err
	}
	rep.Errors = append(rep.Errors, static.Errors...)
	rep.ModelCheck = audit.CheckModel(snap, rep, static, settings)
	return nil
}

// writeAuditOutputs writes each --output FORMAT=FILE through the confined writer.
func writeAuditOutputs(rep *audit.Report, outputs []string) error {
	for _, o := range outputs {
		f, path, ok := strings.Cut(o, "=")
		if !ok || path == "" {
			return usageError{fmt.Errorf("--output %q: want FORMAT=FILE", o)}
		}
		var b bytes.Buffer
		if err := report.WriteAudit(&b, rep, f, false); err != nil {
			return usageError{err}
		}
		if err := confine.WriteFile(path, b.Bytes(), confine.WriteOptions{}); err != nil {
			return fmt.Errorf("--output: %w", err)
		}
	}
	return nil
}

// readSnapshots reads each snapshot file (confined to its folder, streamed) or stdin ("-").
func readSnapshots(ctx context.Context, timeout time.Duration, snap *snapshot.Snapshot, paths []string, stdin io.Reader, lim snapshot.Limits, maxSize int64) error {
	fsys, err := confine.New("", maxSize)
	if err != nil {
		return err
	}
	defer fsys.Close()
	for _, p := range paths {
		if p == "-" {
			snap.Read("<stdin>", stopping{ctx, timeout, io.LimitReader(stdin, maxSize)}, lim)
			continue
		}
		if err := fsys.AddRootFor(p); err != nil {
			snap.Errors = append(snap.Errors, inventory.LoadError{Position: inventory.Position{File: p}, Message: confine.Reason(err)})
			continue
		}
		r, err := fsys.Open(p, maxSize)
		if err != nil {
			snap.Errors = append(snap.Errors, inventory.LoadError{Position: inventory.Position{File: p}, Message: confine.Reason(err)})
			continue
		}
		snap.Read(p, stopping{ctx, timeout, r}, lim)
		r.Close()
	}
	return nil
}

// stopping ends a snapshot's reading when --timeout is over: the reader fails, and the reader
// of the snapshot reports it at the place it got to.
type stopping struct {
	ctx     context.Context
	timeout time.Duration
	r       io.Reader
}

func (s stopping) Read(p []byte) (int, error) {
	if s.ctx.Err() != nil {
		return 0, fmt.Errorf("stopped after --timeout %s", s.timeout)
	}
	return s.r.Read(p)
}
