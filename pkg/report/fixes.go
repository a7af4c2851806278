package report

import (
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// fixesIntro introduces the list of fixes in every format.
func fixesIntro(n int) string {
	if n == 1 {
		return "This change makes it fit:"
	}
	return "Each of these changes alone makes it fit:"
}

// PlainMessage is a finding's message followed by its fixes, one per line: what annotations,
// SARIF, JUnit and review comments show.
func PlainMessage(f findings.Finding) string {
	fixes := f.Fixes()
	if len(fixes) == 0 {
		return clusterTag(f) + f.Message
	}
	var b strings.Builder
	b.WriteString(clusterTag(f) + f.Message + "\n" + fixesIntro(len(fixes)))
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
		b.WriteString("\n\n" + fixesIntro(len(fixes)) + "\n")
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
