package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Text is the format for a terminal: findings grouped by file, then the per-instance-type
// table, then a summary line.
type Text struct {
	Color bool
	// Width wraps long messages to the terminal's width, continuation lines under the message
	// column; 0 (not a terminal) prints each message on one line.
	Width int
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
	ansiGreen  = "\x1b[32m"
)

func (t Text) paint(code, s string) string {
	if !t.Color {
		return s
	}
	return code + s + ansiReset
}

func (t Text) severity(s findings.Severity) string {
	label := fmt.Sprintf("%-7s", s)
	switch s {
	case findings.Error:
		return t.paint(ansiRed, label)
	case findings.Warning:
		return t.paint(ansiYellow, label)
	default:
		return t.paint(ansiBlue, label)
	}
}

// place prints a position as line:column, or the flag it came from.
func place(p inventory.Position) string {
	switch {
	case p.Line == 0:
		return "-"
	case p.Column == 0:
		return fmt.Sprintf("%d", p.Line)
	default:
		return fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
}

func (t Text) Write(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	t.writeHeader(&b, r)
	t.writeInputs(&b, r)
	t.writeFindings(&b, r)
	t.writeRows(&b, r)
	t.writeWorkloads(&b, r)
	t.writeNotes(&b, r)
	t.writeVerdicts(&b, r)
	t.writeSummary(&b, r)
	_, err := io.WriteString(w, TerminalSafe(b.String(), t.Color))
	return err
}

// writeHeader writes what the figures assume: the release model, a cooldown that differs
// from the cluster's, the workloads on Fargate, and unknown capacity.
func (t Text) writeHeader(b *strings.Builder, r *findings.Report) {
	fmt.Fprintf(b, "%s %s\n", t.paint(ansiBold, "Release model:"), r.Model.Description)
	for _, c := range r.CNISettings {
		if c.BranchENICooldownSeconds != nil && *c.BranchENICooldownSeconds != r.Model.CooldownSeconds && !r.Model.ENIRelease.OnDelete() {
			fmt.Fprintf(b, "%s %s sets branch-eni-cooldown to %ds; this run used %ds (--cooldown).\n", t.paint(ansiBold, "Note:"), c.Source, *c.BranchENICooldownSeconds, r.Model.CooldownSeconds)
		}
	}
	if len(r.OnFargate) > 0 {
		var names []string
		for _, f := range r.OnFargate {
			names = append(names, OneLine(fmt.Sprintf("%s %s/%s (profile %s)", f.Object.Kind, f.Object.Namespace, f.Object.Name, f.Profile)))
		}
		fmt.Fprintf(b, "%s %s run on Fargate: their pods hold no node branch ENI and are in no node group's sum.\n", t.paint(ansiBold, "Fargate:"), strings.Join(names, ", "))
	}
	if !r.CapacityKnown {
		fmt.Fprintf(b, "%s no node groups were given (--node-group or nodeGroups in %s), so branch-ENI capacity is unknown: the figures below are what the workloads need.\n",
			t.paint(ansiBold, "Capacity:"), ".eni-lint.yaml")
	}
}

// writeInputs lists the inputs that could not be read and what was read in another way:
// charts rendered, kustomizations built, Terraform plans, objects not modelled, files not read.
func (t Text) writeInputs(b *strings.Builder, r *findings.Report) {
	if len(r.Errors) > 0 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold+ansiRed, "Inputs that could not be read"))
		for _, e := range r.Errors {
			loc := e.Position.File
			if e.Position.Line > 0 {
				loc += ":" + place(e.Position)
			}
			fmt.Fprintf(b, "  %s  %s\n", OneLine(loc), OneLine(e.Message))
		}
	}

	if len(r.Inputs.RenderedCharts) > 0 {
		fmt.Fprintf(b, "%s %s\n", t.paint(ansiBold, "Helm charts rendered:"), OneLine(strings.Join(r.Inputs.RenderedCharts, ", ")))
	}
	if len(r.Inputs.BuiltKustomizations) > 0 {
		fmt.Fprintf(b, "%s %s\n", t.paint(ansiBold, "Kustomizations built:"), OneLine(strings.Join(r.Inputs.BuiltKustomizations, ", ")))
	}
	for _, p := range r.Inputs.TerraformPlans {
		fmt.Fprintf(b, "%s %s\n", t.paint(ansiBold, "Terraform "+p.Kind+":"), OneLine(planLine(p)))
		for _, d := range p.Disagreements {
			fmt.Fprintf(b, "  differs from the code: %s\n", OneLine(d))
		}
	}
	if len(r.Inputs.NotModelled) > 0 {
		fmt.Fprintf(b, "%s\n", t.paint(ansiBold, "Not modelled (they run pods eni-lint does not count):"))
		for _, o := range r.Inputs.NotModelled {
			fmt.Fprintf(b, "  %s:%s  %s %s\n", OneLine(o.Location.File), place(o.Location), OneLine(o.APIVersion+" "+o.Kind), OneLine(qualified(o.Namespace, o.Name)))
		}
	}
	if len(r.Inputs.SkippedChartTemplates) > 0 {
		fmt.Fprintf(b, "%s %s (--render-charts=false; render them, or check helm template's output with -)\n", t.paint(ansiBold, "Helm chart templates not read:"), OneLine(strings.Join(r.Inputs.SkippedChartTemplates, ", ")))
	}
	if len(r.Inputs.Skipped) > 0 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, "Not read"))
		for _, s := range r.Inputs.Skipped {
			fmt.Fprintf(b, "  %s  %s\n", OneLine(s.Path), OneLine(s.Reason))
		}
	}
}

// writeFindings lists the findings not suppressed, by file, each with its witness and fixes.
func (t Text) writeFindings(b *strings.Builder, r *findings.Report) {
	file := "\x00"
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			continue // listed apart (writeNotes)
		}
		if f.Location.File != file {
			file = f.Location.File
			fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, OneLine(file)))
		}
		env := ""
		switch {
		case len(f.Clusters) > 0 && len(f.Clusters) < len(r.Clusters):
			env = "[" + strings.Join(f.Clusters, ",") + "] "
		case len(f.Clusters) > 0:
			// In every cluster: the tag would say nothing.
		case len(f.Environments) > 0:
			env = "[" + strings.Join(f.Environments, ",") + "] "
		}
		prefix := fmt.Sprintf("  %-8s %-7s %s  ", place(f.Location), f.Severity, f.Rule)
		indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
		lines := t.wrap(OneLine(env+f.Message), len(indent))
		fmt.Fprintf(b, "  %-8s %s %s  %s\n", place(f.Location), t.severity(f.Severity), t.paint(ansiBold, f.Rule), lines[0])
		for _, l := range lines[1:] {
			b.WriteString(indent + l + "\n")
		}
		if f.Witness != nil {
			for i, l := range t.wrap(OneLine("Witness: "+WitnessSummary(f.Witness)), len(indent)+2) {
				if i > 0 {
					l = "  " + l
				}
				b.WriteString(indent + l + "\n")
			}
			for _, event := range witnessTimeline(f.Witness, 8) {
				for i, l := range t.wrap(OneLine(event), len(indent)+4) {
					if i > 0 {
						l = "  " + l
					}
					b.WriteString(indent + "  " + t.paint(ansiDim, l) + "\n")
				}
			}
		}
		if fixes := f.Fixes(); len(fixes) > 0 {
			b.WriteString(indent + fixesIntro(f, len(fixes)) + "\n")
			for _, fix := range fixes {
				for i, l := range t.wrap(OneLine(fix), len(indent)+2) {
					if i == 0 {
						b.WriteString(indent + "- " + l + "\n")
					} else {
						b.WriteString(indent + "  " + l + "\n")
					}
				}
			}
		}
	}
}

// writeRows writes the per-instance-type table (a section per cluster when there are
// several), or the sentence that says why there is none.
func (t Text) writeRows(b *strings.Builder, r *findings.Report) {
	// Exit 2: some input was not read, so no row can claim a verdict; the findings above
	// are what could be checked.
	noVerdict := r.ExitCode() == findings.ExitFailed
	if noVerdict && len(r.InstanceTypes) > 0 {
		fmt.Fprintf(b, "\n%s %s\n", t.paint(ansiBold, "No verdict:"), count(len(r.Errors), "input")+" could not be read (listed above), so the per-instance-type verdicts are not shown; fix or exclude them")
	}
	// A first run on a repository without Security groups for Pods: a table of zeros says
	// nothing, a sentence does.
	nothingHeld := r.Inputs.SecurityGroupPolicies == 0
	for _, row := range r.InstanceTypes {
		nothingHeld = nothingHeld && row.Hidden == 0 && row.Active == 0
	}
	if nothingHeld && !noVerdict {
		fmt.Fprintf(b, "\n%s no SecurityGroupPolicy found, and no workload asks for vpc.amazonaws.com/pod-eni: nothing here holds branch ENIs (a pod gets one only when a SecurityGroupPolicy selects it). Scan the folder that holds your SecurityGroupPolicies too, if they live elsewhere.\n", t.paint(ansiBold, "Nothing to check:"))
	}
	if len(r.InstanceTypes) > 0 && !noVerdict && !nothingHeld {
		// A section per cluster when there are several: each is judged on its own.
		var sections []string
		byCluster := map[string][]findings.InstanceTypeRow{}
		for _, row := range r.InstanceTypes {
			if _, ok := byCluster[row.Cluster]; !ok {
				sections = append(sections, row.Cluster)
			}
			byCluster[row.Cluster] = append(byCluster[row.Cluster], row)
		}
		for _, name := range sections {
			title := "Branch ENIs per instance type (worst case on one node)"
			if name != "" {
				title = "Cluster " + name + clusterAbout(r, name) + ": branch ENIs per instance type (worst case on one node)"
			}
			fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, title))
			var table strings.Builder
			tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  NODE GROUP\tINSTANCE TYPE\tBRANCH ENIs\tHIDDEN\tACTIVE\tDEMAND\tVERDICT\tSOURCE")
			rows, empty := findings.ShownRows(byCluster[name])
			for _, row := range rows {
				branch, demand := rowCells(row, ">=")
				group := OneLine(row.NodeGroup)
				if row.Environment != "" && name == "" {
					group = row.Environment + "/" + group
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", group, OneLine(row.TypeLabel()), branch, row.Hidden, row.Active, demand, t.verdict(row.Verdict), OneLine(source(row.NodeGroupLocation)))
			}
			tw.Flush()
			// A row without a source would end in the padding of the verdict column.
			for _, line := range strings.SplitAfter(table.String(), "\n") {
				if line != "" {
					b.WriteString(strings.TrimRight(line, " \n") + "\n")
				}
			}
			if empty > 0 {
				fmt.Fprintf(b, "  (%s of node pools that no SGP workload can land on not shown; --format json lists them)\n", count(empty, "row"))
			}
			for _, row := range rows {
				if s := row.ScheduleSeparated; s != nil {
					fmt.Fprintf(b, "  %s %s: %s whose runs cannot hold at the same time counted at their peak together (%d fewer than their sum)\n", OneLine(row.NodeGroup), OneLine(row.TypeLabel()), count(len(s.Workloads), "CronJob"), s.Saved)
				}
			}
		}
	}
}

// writeWorkloads lists what each workload needs when no capacity is known.
func (t Text) writeWorkloads(b *strings.Builder, r *findings.Report) {
	if !r.CapacityKnown && len(r.Workloads) > 0 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, "Workloads that hold branch ENIs"))
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  WORKLOAD\tSELECTED BY\tT (PER RUN)\tHIDDEN\tACTIVE")
		for _, wl := range r.Workloads {
			tRun := "-"
			if v, ok := wl.Numbers["T"]; ok {
				tRun = fmt.Sprint(v)
			}
			hidden := fmt.Sprint(wl.Hidden)
			if len(wl.Unbounded) > 0 {
				hidden = ">=" + hidden
			}
			selected := strings.Join(wl.SelectedBy, ",")
			if selected == "" && wl.HandRequested {
				selected = "(pod-eni by hand)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%v\n", OneLine(wl.Kind+" "+wl.Namespace+"/"+wl.Name), OneLine(selected), tRun, hidden, wl.Numbers["active"])
		}
		tw.Flush()
	}
}

// writeNotes lists the suppressed findings, the baseline entries that no longer occur, and
// what --changed-since left out.
func (t Text) writeNotes(b *strings.Builder, r *findings.Report) {
	var suppressed []findings.Finding
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			suppressed = append(suppressed, f)
		}
	}
	if len(suppressed) > 0 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, "Suppressed (not counted)"))
		for _, f := range suppressed {
			why := f.Suppressed.Kind + ": " + f.Suppressed.Reason
			if f.Suppressed.Expires != "" {
				why += ", until " + f.Suppressed.Expires
			}
			fmt.Fprintf(b, "  %s:%s %s  %s\n", OneLine(f.Location.File), place(f.Location), f.Rule, t.paint(ansiDim, OneLine(why)))
		}
	}
	if r.Baseline != nil && len(r.Baseline.Stale) > 0 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, fmt.Sprintf("Baseline entries that no longer occur (prune them from %s)", r.Baseline.File)))
		for _, e := range r.Baseline.Stale {
			what := e.Subject
			if e.Name != "" {
				what = e.Kind + " " + e.Namespace + "/" + e.Name
			}
			fmt.Fprintf(b, "  %s %s %s\n", OneLine(e.Rule), OneLine(e.File), OneLine(what))
		}
	}
	if r.ChangedSince != "" {
		fmt.Fprintf(b, "\nOnly findings related to files changed since %s are shown.\n", r.ChangedSince)
	}
}

// writeVerdicts writes the verdict of each cluster or environment when there are several.
func (t Text) writeVerdicts(b *strings.Builder, r *findings.Report) {
	if len(r.Clusters) > 1 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, "Verdict per cluster"))
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		for _, c := range r.Clusters {
			fmt.Fprintf(tw, "  %s\t%s, %s, %s; exit %d\t%s\n", OneLine(c.Name), count(c.Summary.Errors, "error"), count(c.Summary.Warnings, "warning"), count(c.Summary.Info, "info finding"), c.ExitCode, clusterOrigin(c))
		}
		tw.Flush()
	} else if len(r.Environments) > 0 {
		fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, "Verdict per environment"))
		for _, env := range r.Environments {
			fmt.Fprintf(b, "  %-12s %s, %s, %s; exit %d (%s)\n", OneLine(env.Name), count(env.Summary.Errors, "error"), count(env.Summary.Warnings, "warning"), count(env.Summary.Info, "info finding"), env.ExitCode, OneLine(env.VarFile))
		}
	}
}

// writeSummary writes the counts and the exit code.
func (t Text) writeSummary(b *strings.Builder, r *findings.Report) {
	s := r.Summary
	exit := r.ExitCode()
	fmt.Fprintf(b, "\n%s %s, %s, %s", t.paint(ansiBold, "Summary:"), count(s.Errors, "error"), count(s.Warnings, "warning"), count(s.Info, "info finding"))
	if s.LoadErrors > 0 {
		fmt.Fprintf(b, ", %s", count(s.LoadErrors, "unreadable input"))
	}
	if s.Suppressed > 0 {
		fmt.Fprintf(b, ", %d suppressed", s.Suppressed)
	}
	fmt.Fprintf(b, " in %s (%s); exit %d (fail-on %s)\n", count(r.Inputs.Files, "file"), count(r.Inputs.Documents, "document"), exit, r.FailOn)
}

// wrap breaks s at spaces into lines that fit the width after an indent of used columns
// (at least 40 columns each, so a narrow terminal still gets readable lines); no width, one line.
func (t Text) wrap(s string, used int) []string {
	room := t.Width - used
	if t.Width <= 0 {
		return []string{s}
	}
	if room < 40 {
		room = 40
	}
	var lines []string
	line, n := "", 0
	for _, word := range strings.Fields(s) {
		w := utf8.RuneCountInString(word)
		switch {
		case n == 0:
			line, n = word, w
		case n+1+w <= room:
			line, n = line+" "+word, n+1+w
		default:
			lines = append(lines, line)
			line, n = word, w
		}
	}
	return append(lines, line)
}

func (t Text) verdict(v string) string {
	switch v {
	case "exceeds", "no-trunking":
		return t.paint(ansiRed, v)
	case "unbounded", "unknown-type":
		return t.paint(ansiYellow, v)
	default:
		return t.paint(ansiGreen, v)
	}
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// rowCells renders a row's branch ENIs ("?" for an unknown type) and demand (with atLeast's
// prefix when a contributor has no bound).
func rowCells(row findings.InstanceTypeRow, atLeast string) (branch, demand string) {
	branch, demand = fmt.Sprint(row.BranchInterfaces), fmt.Sprint(row.Demand)
	if !row.Known {
		branch = "?"
	}
	if row.AtLeast {
		demand = atLeast + demand
	}
	return branch, demand
}

// source is where a node group is declared, as file:line (or the flag it came from).
func source(p inventory.Position) string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// clusterAbout says in parentheses how a cluster was found, for a section title.
func clusterAbout(r *findings.Report, name string) string {
	for _, c := range r.Clusters {
		if c.Name == name {
			return " (" + clusterOrigin(c) + ")"
		}
	}
	return ""
}

// clusterOrigin describes where a cluster comes from: "terraform root infra, var file
// infra/env/prod.tfvars", "eksctl ClusterConfig at cluster.yaml:3".
func clusterOrigin(c findings.Cluster) string {
	var where []string
	for _, p := range c.Sources {
		where = append(where, source(p))
	}
	s := c.Kind
	switch c.Kind {
	case "terraform":
		s = "Terraform root " + c.Root
	case "eksctl":
		s = "eksctl ClusterConfig at " + strings.Join(where, ", ")
	case "cloudformation":
		s = "CloudFormation template " + strings.Join(where, ", ")
	case "karpenter":
		s = "Karpenter NodePools in " + c.Root
	case "flags":
		s = "--node-group and nodeGroups"
	case "config":
		s = ".eni-lint.yaml clusters at " + strings.Join(where, ", ")
	}
	if len(c.VarFiles) > 0 {
		s += ", var files " + strings.Join(c.VarFiles, ",")
	}
	return s
}

// qualified is namespace/name, or name for cluster-scoped objects.
func qualified(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// planLine says what a Terraform plan or state file replaced and joined.
func planLine(p inventory.PlanSummary) string {
	return fmt.Sprintf("%s (Terraform %s) replaces the static evaluation of %s: %d resources, %d node groups and objects joined to the code's lines, %d only in the plan, %d differences",
		p.File, p.TerraformVersion, p.Root, p.Resources, p.Joined, p.PlanOnly, len(p.Disagreements))
}
