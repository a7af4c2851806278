package report

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Markdown is the report a person reads in a pull request or a job summary: the verdict, the
// release model, the per-instance-type table, and the findings with links to their lines.
type Markdown struct {
	// LinkBase, when set, turns locations into links: LinkBase + path + "#L" + line, for
	// example "https://github.com/org/repo/blob/<sha>/".
	LinkBase string
	// Chart adds a Mermaid chart of demand against branch capacity per instance type.
	Chart bool
	// Root is the working folder from the repository root (see FromRoot): set on GitHub,
	// where the locations name and link files as the repository does.
	Root string
}

// mdEscape makes text of the pull request (file names, names, messages) inert in a Markdown
// table cell of a comment: no table break, HTML, link, emphasis, image or @-mention.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "\\", `\\`, "`", "\\`",
		"[", `\[`, "]", `\]`, "*", `\*`, "_", `\_`, "!", `\!`, "@", "&#64;").Replace(controlChars.ReplaceAllString(s, ""))
}

func (m Markdown) link(p inventory.Position) string {
	p = rooted(m.Root, p)
	if !p.Known() {
		if p.File == "" {
			return "-"
		}
		return "`" + mdCode(p.File) + "`"
	}
	text := fmt.Sprintf("%s:%s", p.File, place(p))
	clean := filepath.ToSlash(filepath.Clean(p.File))
	// Only paths inside the checkout can be linked to the commit.
	if m.LinkBase == "" || artifactURI(p) == "" || strings.HasPrefix(clean, "../") || filepath.IsAbs(p.File) {
		return "`" + mdCode(text) + "`"
	}
	u := url.URL{Path: clean}
	return fmt.Sprintf("[%s](%s%s#L%d)", mdEscape(text), m.LinkBase, u.EscapedPath(), p.Line)
}

// plainLocation is "file:line:column" (or the file alone), for where a link cannot go.
func plainLocation(p inventory.Position) string {
	if !p.Known() {
		return p.File
	}
	return fmt.Sprintf("%s:%s", p.File, place(p))
}

// Headline is the one-line verdict used as the Markdown title and in PR comments.
func Headline(r *findings.Report) string {
	s := r.Summary
	if s.Errors+s.Warnings+s.Info+s.LoadErrors == 0 {
		return "eni-lint: no findings"
	}
	parts := []string{count(s.Errors, "error"), count(s.Warnings, "warning"), count(s.Info, "info finding")}
	if s.LoadErrors > 0 {
		parts = append(parts, count(s.LoadErrors, "unreadable input"))
	}
	return "eni-lint: " + strings.Join(parts, ", ")
}

func (m Markdown) Write(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", Headline(r))
	fmt.Fprintf(&b, "**Release model:** %s\n\n", mdEscape(r.Model.Description))
	if !r.CapacityKnown {
		b.WriteString("No node groups were given, so branch-ENI capacity is unknown; the rules that need it did not run.\n\n")
	}
	m.writeRows(&b, r)
	var open, suppressed []findings.Finding
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			suppressed = append(suppressed, f)
		} else {
			open = append(open, f)
		}
	}
	m.writeFindings(&b, r, open)
	m.writeSuppressed(&b, suppressed)
	m.writeInputs(&b, r)
	fmt.Fprintf(&b, "<sub>eni-lint %s · %s · %s (%s) · fail-on %s · exit %d</sub>\n",
		mdEscape(r.Version), r.Model.ENIRelease, count(r.Inputs.Files, "file"), count(r.Inputs.Documents, "document"), r.FailOn, r.ExitCode())
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRows writes the per-instance-type table and its chart, or why there is none.
func (m Markdown) writeRows(b *strings.Builder, r *findings.Report) {
	noVerdict := r.ExitCode() == findings.ExitFailed
	if noVerdict && len(r.InstanceTypes) > 0 {
		fmt.Fprintf(b, "**No verdict:** %s could not be read, so the per-instance-type verdicts are not shown.\n\n", count(len(r.Errors), "input"))
	}
	if len(r.InstanceTypes) > 0 && !noVerdict {
		b.WriteString("### Branch ENIs per instance type (worst case on one node)\n\n")
		b.WriteString("| Node group | Instance type | Branch ENIs | Hidden | Active | Demand | Verdict |\n")
		b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | --- |\n")
		rows, empty := findings.ShownRows(r.InstanceTypes)
		for _, row := range rows {
			branch, demand := rowCells(row, "≥ ")
			verdict := row.Verdict
			if verdict == "exceeds" || verdict == "no-trunking" {
				verdict = "**" + verdict + "**"
			}
			group := row.NodeGroup
			if row.Cluster != "" {
				group = row.Cluster + " / " + group
			}
			fmt.Fprintf(b, "| %s | %s | %s | %d | %d | %s | %s |\n", mdEscape(group), mdEscape(row.TypeLabel()), branch, row.Hidden, row.Active, demand, verdict)
		}
		if empty > 0 {
			fmt.Fprintf(b, "\n_%s of node pools that no SGP workload can land on are not shown; the JSON report lists them._\n", count(empty, "row"))
		}
		for _, row := range rows {
			if s := row.ScheduleSeparated; s != nil {
				fmt.Fprintf(b, "\n_%s %s: %s whose runs cannot hold at the same time are counted at their peak together (%d fewer than their sum)._\n", mdEscape(row.NodeGroup), mdEscape(row.TypeLabel()), count(len(s.Workloads), "CronJob"), s.Saved)
			}
		}
		b.WriteString("\n_Hidden: terminated pods that still hold branch ENIs but that the scheduler no longer counts. Demand = min(held, hidden + min(active, branch ENIs)), held being the workloads' own peaks added up._\n\n")
		if m.Chart {
			m.chart(b, r)
		}
	}
}

// writeFindings writes the open findings' table, their fixes and their witnesses.
func (m Markdown) writeFindings(b *strings.Builder, r *findings.Report, open []findings.Finding) {
	if len(open) > 0 {
		docs := map[string]findings.RuleDoc{}
		for _, rule := range r.Rules {
			docs[rule.ID] = rule
		}
		b.WriteString("### Findings\n\n")
		b.WriteString("| Severity | Rule | Where | Node group | Instance type | ENIs needed | Branch ENIs | Finding |\n")
		b.WriteString("| --- | --- | --- | --- | --- | ---: | ---: | --- |\n")
		for _, f := range open {
			s := f.Subject()
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f.Severity, ruleLink(docs, f.Rule, r.Version), m.link(f.Location),
				stringCell(s.NodeGroup), stringCell(s.InstanceType), neededCell(s), intCell(s.BranchInterfaces), mdEscape(clusterTag(f)+f.Message))
		}
		b.WriteString("\n")
		var withFixes []findings.Finding
		for _, f := range open {
			if len(f.Fixes()) > 0 {
				withFixes = append(withFixes, f)
			}
		}
		if len(withFixes) > 0 {
			b.WriteString("#### Fixes\n\n")
			for _, f := range withFixes {
				fixes := f.Fixes()
				fmt.Fprintf(b, "- %s at %s: %s\n", f.Rule, m.link(f.Location), strings.ToLower(fixesIntro(f, len(fixes))[:1])+fixesIntro(f, len(fixes))[1:])
				for _, fix := range fixes {
					fmt.Fprintf(b, "  - %s\n", mdEscape(fix))
				}
			}
			b.WriteString("\n")
		}
		m.writeWitnesses(b, open)
		b.WriteString("`eni-lint explain RULE` tells what a rule checks, the numbers it uses and how to fix it.\n\n")
	}
}

// writeWitnesses charts each trajectory once; the other findings that share one say where.
func (m Markdown) writeWitnesses(b *strings.Builder, open []findings.Finding) {
	// A trajectory that several findings share (the same workloads exceed several node
	// groups) is charted once; the others say where.
	charted := map[*findings.WitnessTrajectory]findings.Finding{}
	for _, f := range open {
		if f.Witness == nil || f.Witness.NotSearched != "" {
			continue
		}
		if first, ok := charted[f.Witness.Trajectory]; ok && f.Witness.Trajectory != nil {
			s, fs := f.Subject(), first.Subject()
			fmt.Fprintf(b, "- %s on %s %s at %s: %s; its trajectory is the one charted for %s %s above.\n\n", f.Rule,
				stringCell(s.NodeGroup), stringCell(s.InstanceType), m.link(f.Location), mdEscape(WitnessSummary(f.Witness)),
				stringCell(fs.NodeGroup), stringCell(fs.InstanceType))
			continue
		}
		charted[f.Witness.Trajectory] = f
		// Inside <summary> Markdown is not parsed: the location is escaped text, no code span.
		fmt.Fprintf(b, "<details><summary>%s at %s: %s</summary>\n\n", f.Rule, mdEscape(plainLocation(rooted(m.Root, f.Location))), mdEscape(WitnessSummary(f.Witness)))
		b.WriteString(witnessGantt(f.Witness) + "\n")
		for _, l := range witnessTimeline(f.Witness, 12) {
			fmt.Fprintf(b, "- %s\n", mdEscape(l))
		}
		b.WriteString("\n</details>\n\n")
	}
}

// writeSuppressed lists the suppressed findings, folded.
func (m Markdown) writeSuppressed(b *strings.Builder, suppressed []findings.Finding) {
	if len(suppressed) > 0 {
		fmt.Fprintf(b, "<details><summary>%s (not counted)</summary>\n\n| Rule | Where | Why |\n| --- | --- | --- |\n", count(len(suppressed), "suppressed finding"))
		for _, f := range suppressed {
			fmt.Fprintf(b, "| %s | %s | %s: %s |\n", f.Rule, m.link(f.Location), f.Suppressed.Kind, mdEscape(f.Suppressed.Reason))
		}
		b.WriteString("\n</details>\n\n")
	}
}

// writeInputs lists what could not be read and what was read in another way.
func (m Markdown) writeInputs(b *strings.Builder, r *findings.Report) {
	if len(r.Errors) > 0 {
		b.WriteString("### Inputs that could not be read\n\n| Where | Problem |\n| --- | --- |\n")
		for _, e := range r.Errors {
			fmt.Fprintf(b, "| %s | %s |\n", m.link(e.Position), mdEscape(e.Message))
		}
		b.WriteString("\n")
	}
	if len(r.Inputs.RenderedCharts) > 0 {
		var names []string
		for _, c := range r.Inputs.RenderedCharts {
			names = append(names, "`"+mdCode(c)+"`")
		}
		fmt.Fprintf(b, "Helm charts rendered: %s.\n\n", strings.Join(names, ", "))
	}
	if len(r.Inputs.BuiltKustomizations) > 0 {
		var names []string
		for _, k := range r.Inputs.BuiltKustomizations {
			names = append(names, "`"+mdCode(k)+"`")
		}
		fmt.Fprintf(b, "Kustomizations built: %s.\n\n", strings.Join(names, ", "))
	}
	for _, p := range r.Inputs.TerraformPlans {
		fmt.Fprintf(b, "Terraform %s: %s.\n\n", p.Kind, mdEscape(planLine(p)))
		for _, d := range p.Disagreements {
			fmt.Fprintf(b, "- differs from the code: %s\n", mdEscape(d))
		}
		if len(p.Disagreements) > 0 {
			b.WriteString("\n")
		}
	}
	if len(r.Inputs.NotModelled) > 0 {
		b.WriteString("**Not modelled** (they run pods eni-lint does not count):\n\n")
		for _, o := range r.Inputs.NotModelled {
			fmt.Fprintf(b, "- %s `%s` %s\n", m.link(o.Location), mdCode(o.APIVersion+" "+o.Kind), mdEscape(qualified(o.Namespace, o.Name)))
		}
		b.WriteString("\n")
	}
	if len(r.Inputs.Skipped) > 0 {
		fmt.Fprintf(b, "<details><summary>%s not read</summary>\n\n| Path | Why |\n| --- | --- |\n", count(len(r.Inputs.Skipped), "input"))
		for _, s := range r.Inputs.Skipped {
			fmt.Fprintf(b, "| `%s` | %s |\n", mdCode(s.Path), mdEscape(s.Reason))
		}
		b.WriteString("\n</details>\n\n")
	}
}

// ruleLink links a built-in rule's ID to its page at the version that ran.
func ruleLink(docs map[string]findings.RuleDoc, id, version string) string {
	if url := RuleDocURL(docs[id], version); url != "" {
		return "[" + mdEscape(id) + "](" + url + ")"
	}
	return mdEscape(id)
}

// stringCell is one of a finding's names, or "–" when its details have none.
func stringCell(s *string) string {
	if s == nil {
		return "–"
	}
	return mdEscape(*s)
}

// intCell is one of a finding's numbers, or "–" when its details have none.
func intCell(n *int) string {
	if n == nil {
		return "–"
	}
	return fmt.Sprint(*n)
}

// neededCell is how many branch ENIs a finding says are needed: ENI001's demand ("≥" when a
// contributor is unbounded), what a workload retains (ENI002), T for one run (ENI003), the
// largest demand (ENI011).
func neededCell(s findings.SubjectDetails) string {
	if s.Demand != nil {
		if s.AtLeast {
			return "≥ " + intCell(s.Demand)
		}
		return intCell(s.Demand)
	}
	for _, n := range []*int{s.Retained, s.T, s.MaxDemand} {
		if n != nil {
			return intCell(n)
		}
	}
	return "–"
}

// chart draws demand (bars) against branch ENIs (line) for every known trunking type.
func (m Markdown) chart(b *strings.Builder, r *findings.Report) {
	var labels, demand, capacity []string
	for _, row := range r.InstanceTypes {
		if !row.Known || !row.Trunking {
			continue
		}
		labels = append(labels, `"`+mermaidText(row.NodeGroup+" "+row.TypeLabel())+`"`)
		demand = append(demand, fmt.Sprint(row.Demand))
		capacity = append(capacity, fmt.Sprint(row.BranchInterfaces))
	}
	if len(labels) == 0 {
		return
	}
	b.WriteString("```mermaid\nxychart-beta\n  title \"Branch ENIs per node: demand (bars) and capacity (line)\"\n")
	fmt.Fprintf(b, "  x-axis [%s]\n  y-axis \"branch ENIs\"\n  bar [%s]\n  line [%s]\n```\n\n",
		strings.Join(labels, ", "), strings.Join(demand, ", "), strings.Join(capacity, ", "))
}
