package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/eni-lint/eni-lint/pkg/config"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/rules"
	"github.com/spf13/cobra"
)

// policyDirs are the custom policy folders of --policy, else of the config file.
func policyDirs(stdio IO, flags []string) ([]string, error) {
	if len(flags) > 0 {
		return flags, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	eff, err := config.Resolve(config.Flags{}, stdio.Getenv, wd)
	if err != nil {
		return nil, usageError{err}
	}
	return eff.Policies, nil
}

// engineWithPolicies builds the engine with the custom policies of --policy or the config.
func engineWithPolicies(cmd *cobra.Command, stdio IO, flags []string) (*rules.Engine, error) {
	dirs, err := policyDirs(stdio, flags)
	if err != nil {
		return nil, err
	}
	return engine(cmd.Context(), dirs)
}

func newRules(stdio IO) *cobra.Command {
	var format string
	var docs ruleDocsFlags
	var policies []string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List the rules: ID, default severity, title",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := engineWithPolicies(cmd, stdio, policies)
			if err != nil {
				return err
			}
			switch format {
			case "text":
				tw := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tSEVERITY\tTITLE")
				for _, r := range eng.Rules() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Title)
				}
				return tw.Flush()
			case "json":
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(eng.Rules())
			case "markdown":
				return docs.write(stdio, eng.Rules())
			}
			return usageError{fmt.Errorf("--format %q: want text, json or markdown", format)}
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, json or markdown")
	cmd.Flags().StringVar(&docs.outDir, "out-dir", "", "with --format markdown: write README.md and one page per rule into this folder")
	cmd.Flags().StringVar(&docs.examplesDir, "examples", filepath.Join("testdata", "rule-examples"), "with --out-dir: the folder of the rule pages' examples (ID/args, ID/fails/, ID/passes/)")
	cmd.Flags().StringVar(&docs.readme, "readme", "", "with --format markdown: rewrite the rules table of this README (between its marker lines)")
	cmd.Flags().StringVar(&docs.jsonReport, "json-report", "", "with --format markdown: rewrite the table of finding details of this page (docs/json-report.md, between its marker lines)")
	// The docs generator's flags (docs/rules/, the README's rules table, the details table)
	// are for contributors, who find them in docs/contributing.md; `rules --help` lists what
	// a user runs.
	for _, name := range []string{"out-dir", "examples", "readme", "json-report"} {
		_ = cmd.Flags().MarkHidden(name)
	}
	cmd.Flags().StringArrayVar(&policies, "policy", nil, "folder of custom Rego rules (repeatable)")
	return cmd
}

// ruleDocsFlags are where `rules --format markdown` writes the pages generated from the
// METADATA; with none of them it prints the index.
type ruleDocsFlags struct{ outDir, readme, jsonReport, examplesDir string }

func (d ruleDocsFlags) write(stdio IO, rules []rules.Rule) error {
	if err := rewriteTable(d.readme, rules, report.ReplaceRuleTable); err != nil {
		return err
	}
	if err := rewriteTable(d.jsonReport, rules, report.ReplaceDetailsTable); err != nil {
		return err
	}
	if d.outDir != "" {
		// The pages show the examples a test runs (testdata/rule-examples, from the
		// repository's root, where this is run).
		examples, err := report.LoadRuleExamples(d.examplesDir)
		if err != nil {
			return err
		}
		return report.WriteRuleDocs(d.outDir, report.WithExamples(rules, examples))
	}
	if d.readme != "" || d.jsonReport != "" {
		return nil
	}
	_, err := fmt.Fprint(stdio.Out, report.RuleIndexMarkdown(rules))
	return err
}

// rewriteTable regenerates the table a page keeps between marker lines; nothing without a page.
func rewriteTable(page string, rules []rules.Rule, replace func(string, []rules.Rule) (string, error)) error {
	if page == "" {
		return nil
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		return err
	}
	text, err := replace(string(raw), rules)
	if err != nil {
		return fmt.Errorf("%s: %w", page, err)
	}
	return confine.WriteFile(page, []byte(text), confine.WriteOptions{})
}

// ExplainText renders a rule's full documentation.
func ExplainText(r rules.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\nDefault severity: %s\n\n", r.ID, r.Title, r.Severity)
	section := func(title, body string) {
		if body != "" {
			fmt.Fprintf(&b, "%s\n%s\n\n", title, indent(body))
		}
	}
	section("What and why", r.Description)
	section("The numbers it uses", r.Numbers)
	section("How to fix", r.Remediation)
	section("Under the other release model", r.OtherModel)
	return strings.TrimRight(b.String(), "\n") + "\n"
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

func newExplain(stdio IO) *cobra.Command {
	var policies []string
	cmd := &cobra.Command{
		Use:     "explain RULE",
		Short:   "Show a rule's documentation: what, why, numbers, how to fix",
		Example: "  eni-lint explain ENI001",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := engineWithPolicies(cmd, stdio, policies)
			if err != nil {
				return err
			}
			r, ok := eng.Rule(args[0])
			if !ok {
				ids := []string{}
				for _, r := range eng.Rules() {
					ids = append(ids, r.ID)
				}
				return usageError{fmt.Errorf("no rule %q (rules: %s)", args[0], strings.Join(ids, ", "))}
			}
			_, err = fmt.Fprint(stdio.Out, ExplainText(r))
			return err
		},
	}
	cmd.Flags().StringArrayVar(&policies, "policy", nil, "folder of custom Rego rules (repeatable)")
	return cmd
}

func newLimits(stdio IO) *cobra.Command {
	var asJSON bool
	return &cobra.Command{
		Use:     "limits TYPE...",
		Short:   "Show branch-ENI capacity and trunking support of instance types",
		Example: "  eni-lint limits m5.large t3.medium",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			table, err := limits.Builtin()
			if err != nil {
				return err
			}
			var found []limits.InstanceType
			var missing []string
			for _, name := range args {
				if it, ok := table.Lookup(name); ok {
					found = append(found, it)
				} else {
					missing = append(missing, name)
				}
			}
			if asJSON {
				enc := json.NewEncoder(stdio.Out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(found); err != nil {
					return err
				}
			} else {
				tw := tabwriter.NewWriter(stdio.Out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "TYPE\tTRUNKING\tBRANCH ENIs\tARCH\tHYPERVISOR\tMAX PODS\tSOURCE")
				for _, it := range found {
					maxPods := "?"
					if it.MaxPods > 0 {
						maxPods = fmt.Sprint(it.MaxPods)
					}
					fmt.Fprintf(tw, "%s\t%t\t%d\t%s\t%s\t%s\t%s\n", it.Name, it.Trunking, it.BranchInterfaces, dash(it.Arch), dash(it.Hypervisor), maxPods, it.Source)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
			}
			if len(missing) > 0 {
				fmt.Fprintf(stdio.Err, "eni-lint: not in the instance table: %s (add them under limits: in .eni-lint.yaml)\n", strings.Join(missing, ", "))
				return exitError{1}
			}
			return nil
		},
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func newVersion(stdio IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			table, err := limits.Builtin()
			if err != nil {
				return err
			}
			build := buildLine()
			if build != "" {
				build += ", "
			}
			_, err = fmt.Fprintf(stdio.Out, "eni-lint %s (%s%s, %d instance types)\n", currentVersion(), build, runtime.Version(), table.Len())
			return err
		},
	}
}
