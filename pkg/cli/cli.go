// Package cli is eni-lint's command line: it parses flags, merges them with the config file,
// runs the analysis and picks the reporter. It holds no analysis logic of its own.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/rules"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// IO is where a command reads and writes; tests replace it.
type IO struct {
	In     io.Reader
	Out    io.Writer
	Err    io.Writer
	Getenv func(string) string
	// IsTerminal reports whether Out is a terminal (for colors).
	IsTerminal func() bool
	// Width is the terminal width text wraps to, 0 for no wrapping; nil means 0.
	Width func() int
	// Transport carries GitHub API calls in --github mode; nil means the default.
	Transport http.RoundTripper
	// Exit ends the process when --timeout or --max-memory is overrun; nil means os.Exit.
	Exit func(int)
}

// exitError carries an exit code through cobra without printing anything more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// usageError is a misuse of the command line: exit 2 with the message.
type usageError struct{ error }

// Run executes eni-lint with args and returns the exit code.
func Run(ctx context.Context, args []string, stdio IO) int {
	root := newRoot(stdio)
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	err := root.ExecuteContext(ctx)
	var ee exitError
	switch {
	case err == nil:
		return findings.ExitClean
	case errors.As(err, &ee):
		return ee.code
	default:
		// An error may name what the pull request named (a path, a chart, a value).
		fmt.Fprintf(stdio.Err, "eni-lint: %s\n", report.TerminalSafe(report.OneLine(err.Error()), false))
		return findings.ExitFailed
	}
}

func newRoot(stdio IO) *cobra.Command {
	root := &cobra.Command{
		Use:   "eni-lint",
		Short: "Find where Security-groups-for-Pods workloads can run out of branch ENIs on EKS",
		Long: `eni-lint reads Kubernetes manifests and the node groups they run on, and reports where pods
selected by a SecurityGroupPolicy can run out of branch ENIs on a node: most often because
finished Job pods keep their ENIs while kube-scheduler no longer counts them.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       currentVersion(),
	}
	root.SetVersionTemplate("eni-lint {{.Version}}\n")
	// pflag writes a boolean flag as --comment[=true|false]; --help shows it as --comment,
	// aligned as before. The template is the parent's for every subcommand.
	cobra.AddTemplateFunc("plainBools", plainBools)
	// --help groups a command's flags under headings and wraps every line to the terminal's
	// width (80 when it is no terminal).
	width := helpWidth(stdio)
	cobra.AddTemplateFunc("groupedFlags", func(fs *pflag.FlagSet) string { return groupedFlags(fs, width) })
	cobra.AddTemplateFunc("wrapText", func(s string) string { return wrapParagraphs(s, width) })
	usage := strings.Replace(root.UsageTemplate(), "\n\nFlags:\n{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}", "\n\n{{groupedFlags .LocalFlags | trimTrailingWhitespaces}}", 1)
	root.SetUsageTemplate(strings.ReplaceAll(usage, "FlagUsages | trimTrailingWhitespaces", "FlagUsages | plainBools | trimTrailingWhitespaces"))
	root.SetHelpTemplate(`{{with (or .Long .Short)}}{{. | wrapText | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}`)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
			if near := nearestFlags(c.Flags(), name); len(near) > 0 {
				return usageError{fmt.Errorf("%v: did you mean %s? (see %s --help)", err, strings.Join(near, " or "), c.CommandPath())}
			}
		}
		return usageError{fmt.Errorf("%v (see %s --help)", err, c.CommandPath())}
	})
	root.AddCommand(newCheck(stdio), newRules(stdio), newExplain(stdio), newLimits(stdio), newVersion(stdio), newConfig(stdio), newAudit(stdio), newClusters(stdio), newFix(stdio))
	return root
}

// plainBools shows boolean flags as --name in flag usages: pflag's [=true|false] suffix is
// replaced by as many spaces, so the descriptions stay aligned.
func plainBools(usages string) string {
	const suffix = "[=true|false]"
	return strings.ReplaceAll(usages, suffix, strings.Repeat(" ", len(suffix)))
}

// engine compiles the built-in policies and any custom policy folders; every command that
// needs them calls it once.
func engine(ctx context.Context, policyDirs []string) (*rules.Engine, error) {
	e, err := rules.New(ctx, policyDirs...)
	if err != nil {
		return nil, fmt.Errorf("loading policies: %w", err)
	}
	return engineVariant(e), nil
}

// engineVariant is the identity outside tests: a test that runs every scenario with the
// policies grouping the workloads themselves (rules.WithPolicyClasses) sets it.
var engineVariant = func(e *rules.Engine) *rules.Engine { return e }

// pendingEngine starts compiling the policies, as engine does, on a goroutine.
func pendingEngine(ctx context.Context, policyDirs []string) rules.Source {
	return wrappedSource{rules.Start(ctx, policyDirs...)}
}

// wrappedSource gives a compile error the same words as engine.
type wrappedSource struct{ p *rules.Pending }

func (w wrappedSource) Wait() (*rules.Engine, error) {
	e, err := w.p.Wait()
	if err != nil {
		return nil, fmt.Errorf("loading policies: %w", err)
	}
	return engineVariant(e), nil
}

// DefaultIO is the process's own streams.
func DefaultIO() IO {
	return IO{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv,
		IsTerminal: func() bool { return isTerminal(os.Stdout) },
		Width:      func() int { return terminalWidth(os.Stdout, os.Getenv) },
	}
}
