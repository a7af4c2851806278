package report

import (
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// fixesIntro introduces the list of fixes in every format: ENI001's make a node fit, the
// other rules' resolve the finding.
func fixesIntro(f findings.Finding, n int) string {
	what := "resolves it"
	if f.Rule == "ENI001" {
		what = "makes it fit"
	}
	if n == 1 {
		return "This change " + what + ":"
	}
	if f.Rule == "ENI001" {
		// Remedies may change several fields of one workload; they come cheapest for the
		// workload's owner first, and `eni-lint fix` writes the first it can.
		return "Each of these makes it fit, cheapest first:"
	}
	return "Each of these changes alone " + what + ":"
}

// PlainMessage is a finding's message followed by its fixes, one per line: what annotations,
// SARIF, JUnit and review comments show.
func PlainMessage(f findings.Finding) string {
	fixes := f.Fixes()
	if len(fixes) == 0 {
		return clusterTag(f) + f.Message
	}
	var b strings.Builder
	b.WriteString(clusterTag(f) + f.Message + "\n" + fixesIntro(f, len(fixes)))
	for _, fix := range fixes {
		b.WriteString("\n- " + fix)
	}
	return b.String()
}

// MarkdownMessage is PlainMessage for a Markdown comment: the pull request's text in it (names,
// paths) is escaped so that it cannot mention, link or format, and the fixes are bullets.
func MarkdownMessage(f findings.Finding) string {
	fixes := f.Fixes()
	var b strings.Builder
	b.WriteString(mdEscape(clusterTag(f) + f.Message))
	if len(fixes) > 0 {
		b.WriteString("\n\n" + fixesIntro(f, len(fixes)) + "\n")
		for _, fix := range fixes {
			b.WriteString("\n- " + mdEscape(fix))
		}
	}
	return b.String()
}

// clusterTag names the clusters a finding occurs in, when the run judged several:
// "[cluster infra:env/prod] ".
func clusterTag(f findings.Finding) string {
	switch len(f.Clusters) {
	case 0:
		return ""
	case 1:
		return "[cluster " + f.Clusters[0] + "] "
	default:
		return "[clusters " + strings.Join(f.Clusters, ", ") + "] "
	}
}
