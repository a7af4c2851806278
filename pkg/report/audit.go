package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/eni-lint/eni-lint/pkg/audit"
)

// AuditFormats are the formats `eni-lint audit` writes.
var AuditFormats = []string{"text", "json", "markdown"}

// WriteAudit renders an audit report in one of AuditFormats.
func WriteAudit(w io.Writer, r *audit.Report, format string, color bool) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "markdown":
		_, err := io.WriteString(w, auditMarkdown(r))
		return err
	case "text":
		_, err := io.WriteString(w, TerminalSafe(auditText(r, Text{Color: color}), color))
		return err
	}
	return fmt.Errorf("unknown format %q (one of %v)", format, AuditFormats)
}

func auditModel(r *audit.Report) string {
	m := r.Model
	at := "unknown"
	if !m.At.IsZero() {
		at = m.At.UTC().Format("2006-01-02T15:04:05Z") + " (" + m.AtSource + ")"
	}
	if !m.ENIRelease.OnDelete() {
		return fmt.Sprintf("onCompletion: a finished pod holds its ENI for %ds after it ends; snapshot time %s", m.CooldownSeconds, at)
	}
	return fmt.Sprintf("onDelete: a finished pod holds its ENI until it is deleted; snapshot time %s", at)
}

// nodeViews is the scheduler's count beside the ENIs'.
func nodeViews(n audit.NodeReport) (scheduler, enis string) {
	if !n.CapacityKnown {
		return fmt.Sprintf("%d of ? used", n.Running), fmt.Sprintf("%d of ? held", n.Held)
	}
	return fmt.Sprintf("%d of %d used", n.Running, n.Capacity), fmt.Sprintf("%d of %d held", n.Held, n.Capacity)
}

func (t Text) auditVerdict(v string) string {
	switch v {
	case audit.Waiting, audit.Exhausted:
		return t.paint(ansiRed, v)
	case audit.AtRisk, audit.Unknown:
		return t.paint(ansiYellow, v)
	}
	return t.paint(ansiGreen, v)
}

func auditText(r *audit.Report, t Text) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", t.paint(ansiBold, "Release model:"), auditModel(r))
	if len(r.Errors) > 0 {
		fmt.Fprintf(&b, "\n%s\n", t.paint(ansiBold+ansiRed, "Inputs that could not be read"))
		for _, e := range r.Errors {
			loc := e.Position.File
			if e.Position.Line > 0 {
				loc += fmt.Sprintf(":%d", e.Position.Line)
			}
			fmt.Fprintf(&b, "  %s  %s\n", OneLine(loc), OneLine(e.Message))
		}
	}
	fmt.Fprintf(&b, "\n%s\n", t.paint(ansiBold, "Branch ENIs per node, now"))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NODE\tINSTANCE TYPE\tSCHEDULER\tENIs\tHELD BY FINISHED PODS\tRELEASED\tWAITING\tVERDICT")
	for _, n := range r.Nodes {
		sched, enis := nodeViews(n)
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", OneLine(n.Name), OneLine(dash(n.InstanceType)), sched, enis, n.HeldByFinished, n.Released, n.Waiting, t.auditVerdict(n.Verdict))
	}
	if !r.Model.ENIRelease.OnDelete() {
		fmt.Fprintf(&b, "  Released: finished pods that ended %ds or more before the snapshot time, whose ENIs the controller has freed.\n", r.Model.CooldownSeconds)
	}
	tw.Flush()
	for _, n := range r.Nodes {
		if n.Verdict == audit.OK {
			continue
		}
		sched, enis := nodeViews(n)
		fmt.Fprintf(&b, "\n%s %s (%s, capacity from %s): scheduler: %s; ENIs: %s\n", t.auditVerdict(n.Verdict), OneLine(n.Name), OneLine(dash(n.InstanceType)), OneLine(n.CapacitySource), sched, enis)
		switch n.Verdict {
		case audit.Exhausted:
			b.WriteString("  The next SGP pod the scheduler places here gets no branch ENI and waits in ContainerCreating.\n")
		case audit.AtRisk:
			b.WriteString("  One more SGP pod that runs here and finishes leaves no branch ENI while the scheduler sees a free slot.\n")
		case audit.Unknown:
			b.WriteString("  The node advertises no vpc.amazonaws.com/pod-eni and its instance type is not in the table.\n")
		}
		for _, p := range n.Stuck {
			fmt.Fprintf(&b, "  waiting: %s\n", OneLine(p.Namespace+"/"+p.Name+suffix(p.Event)))
		}
		if len(n.Holders) > 0 {
			fmt.Fprintf(&b, "  held by %s: %s\n", count(len(n.Holders), "finished pod"), OneLine(holderList(n.Holders, 5)))
		}
	}
	if len(r.Owners) > 0 {
		fmt.Fprintf(&b, "\n%s\n", t.paint(ansiBold, "Finished pods holding branch ENIs, per owner"))
		for _, o := range r.Owners {
			fmt.Fprintf(&b, "  %s: %d on %s; ttlSecondsAfterFinished %s%s\n", OneLine(o.Kind+" "+o.Namespace+"/"+o.Name), o.Holding, OneLine(strings.Join(o.Nodes, ", ")), intOrNone(o.TTL), historyText(o))
			fmt.Fprintf(&b, "    %s: %s (eni-lint explain %s)\n", t.paint(ansiBold, o.Rule), OneLine(o.Fix), o.Rule)
		}
	}
	if len(r.Unscheduled) > 0 {
		fmt.Fprintf(&b, "\n%s %d SGP pods are on nodes the snapshot does not list (add nodes to the kubectl command)\n", t.paint(ansiBold, "Not on a listed node:"), len(r.Unscheduled))
	}
	if mc := r.ModelCheck; mc != nil {
		auditModelCheckText(&b, mc, t)
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n%s %s: %d waiting, %d exhausted, %d at risk, %d ok, %d unknown; exit %d (fail-on %s)\n",
		t.paint(ansiBold, "Summary:"), count(s.Nodes, "node"), s.Waiting, s.Exhausted, s.AtRisk, s.OK, s.Unknown, r.ExitCode(), r.FailOn)
	return b.String()
}

func auditModelCheckText(b *strings.Builder, mc *audit.ModelCheck, t Text) {
	fmt.Fprintf(b, "\n%s\n", t.paint(ansiBold, "Observed against the static worst case ("+string(mc.ENIRelease)+")"))
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  WHAT\tOBSERVED\tSTATIC BOUND\t")
	for _, n := range mc.Nodes {
		fmt.Fprintf(tw, "  node %s (%s)\t%d\t%s\t%s\n", OneLine(n.Node), OneLine(n.InstanceType), n.Observed, bound(n.Bound, n.AtLeast), above(n.Above))
	}
	for _, w := range mc.Workloads {
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\n", OneLine(w.Kind+" "+w.Namespace+"/"+w.Name), w.Observed, bound(w.Bound, w.Unbounded), above(w.Above))
	}
	tw.Flush()
	for _, a := range mc.AboveBound {
		fmt.Fprintf(b, "%s %s. The static model must never be below what a cluster shows: please report this at %s/issues with the snapshot and the manifests.\n", t.paint(ansiBold+ansiRed, "MODEL BUG:"), OneLine(a), InformationURI)
	}
	if len(mc.NotInManifests) > 0 {
		fmt.Fprintf(b, "  Not in the manifests (not compared): %s\n", OneLine(strings.Join(mc.NotInManifests, ", ")))
	}
}

func bound(n int, atLeast bool) string {
	if atLeast {
		return fmt.Sprintf(">=%d (unbounded)", n)
	}
	return fmt.Sprint(n)
}

func above(a bool) string {
	if a {
		return "ABOVE THE BOUND"
	}
	return "within"
}

func suffix(event string) string {
	if event == "" {
		return " (no event in the snapshot: add events to the kubectl command)"
	}
	return ": " + event
}

func holderList(ps []audit.PodRef, n int) string {
	var names []string
	for i, p := range ps {
		if i == n {
			names = append(names, fmt.Sprintf("and %d more", len(ps)-n))
			break
		}
		names = append(names, p.Namespace+"/"+p.Name+" ("+p.Phase+")")
	}
	return strings.Join(names, ", ")
}

func intOrNone(p *int) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

func historyText(o audit.OwnerReport) string {
	if o.Kind != "CronJob" {
		return ""
	}
	return fmt.Sprintf(", successfulJobsHistoryLimit %s, failedJobsHistoryLimit %s", intOrDefault(o.SuccessfulHistoryLimit, 3), intOrDefault(o.FailedHistoryLimit, 1))
}

func intOrDefault(p *int, def int) string {
	if p == nil {
		return fmt.Sprintf("%d (default)", def)
	}
	return fmt.Sprint(*p)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func auditMarkdown(r *audit.Report) string {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "## eni-lint audit: %s, %d waiting, %d exhausted, %d at risk\n\n", count(s.Nodes, "node"), s.Waiting, s.Exhausted, s.AtRisk)
	fmt.Fprintf(&b, "**Release model:** %s\n\n", mdEscape(auditModel(r)))
	b.WriteString("| Node | Instance type | Scheduler | ENIs | Held by finished pods | Released | Waiting | Verdict |\n| --- | --- | --- | --- | ---: | ---: | ---: | --- |\n")
	for _, n := range r.Nodes {
		sched, enis := nodeViews(n)
		v := n.Verdict
		if v != audit.OK {
			v = "**" + v + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %d | %s |\n", mdEscape(n.Name), mdEscape(dash(n.InstanceType)), sched, enis, n.HeldByFinished, n.Released, n.Waiting, v)
	}
	if len(r.Owners) > 0 {
		b.WriteString("\n### Finished pods holding branch ENIs, per owner\n\n| Owner | Holding | Nodes | TTL | Rule | Fix |\n| --- | ---: | --- | --- | --- | --- |\n")
		for _, o := range r.Owners {
			fmt.Fprintf(&b, "| %s %s/%s | %d | %s | %s | %s | %s |\n", o.Kind, mdEscape(o.Namespace), mdEscape(o.Name), o.Holding, mdEscape(strings.Join(o.Nodes, ", ")), intOrNone(o.TTL), o.Rule, mdEscape(o.Fix))
		}
	}
	if mc := r.ModelCheck; mc != nil {
		b.WriteString("\n### Observed against the static worst case\n\n| What | Observed | Static bound | |\n| --- | ---: | ---: | --- |\n")
		for _, n := range mc.Nodes {
			fmt.Fprintf(&b, "| node %s (%s) | %d | %s | %s |\n", mdEscape(n.Node), mdEscape(n.InstanceType), n.Observed, bound(n.Bound, n.AtLeast), above(n.Above))
		}
		for _, w := range mc.Workloads {
			fmt.Fprintf(&b, "| %s %s/%s | %d | %s | %s |\n", w.Kind, mdEscape(w.Namespace), mdEscape(w.Name), w.Observed, bound(w.Bound, w.Unbounded), above(w.Above))
		}
		for _, a := range mc.AboveBound {
			fmt.Fprintf(&b, "\n**Model bug:** %s. Please report it with the snapshot and the manifests.\n", mdEscape(a))
		}
	}
	if len(r.Errors) > 0 {
		b.WriteString("\n### Inputs that could not be read\n\n")
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "- `%s:%d` %s\n", mdCode(e.Position.File), e.Position.Line, mdEscape(e.Message))
		}
	}
	fmt.Fprintf(&b, "\n<sub>eni-lint %s · audit · exit %d (fail-on %s)</sub>\n", mdEscape(r.Version), r.ExitCode(), r.FailOn)
	return b.String()
}
