package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// GitHub writes GitHub Actions workflow commands, one annotation per finding on its exact line
// (::error, ::warning, ::notice), and one per unreadable input.
type GitHub struct {
	// Root is the working folder from the repository root (see FromRoot).
	Root string
}

// escapeData and escapeProperty follow the workflow-command encoding: messages may hold any
// text, property values may not hold ',' or ':'. Control characters of the input (a file name
// or value with an escape sequence, which the job log would interpret) are shown as \xNN
// first, as in the text format.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(TerminalSafe(s, false))
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(TerminalSafe(s, false))
}

func githubCommand(s findings.Severity) string {
	switch s {
	case findings.Error:
		return "error"
	case findings.Warning:
		return "warning"
	default:
		return "notice"
	}
}

func annotation(command string, p inventory.Position, title, message string) string {
	var props []string
	if uri := artifactURI(p); uri != "" {
		props = append(props, "file="+escapeProperty(p.File), fmt.Sprintf("line=%d", p.Line))
		if p.Column > 0 {
			props = append(props, fmt.Sprintf("col=%d", p.Column))
		}
	} else if p.File != "" {
		message = p.File + ": " + message // a flag or stdin: name it in the text
	}
	props = append(props, "title="+escapeProperty(title))
	return fmt.Sprintf("::%s %s::%s\n", command, strings.Join(props, ","), escapeData(message))
}

func (g GitHub) Write(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	for _, e := range r.Errors {
		b.WriteString(annotation("error", rooted(g.Root, e.Position), "eni-lint: unreadable input", e.Message))
	}
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			continue // accepted: no annotation in the diff
		}
		b.WriteString(annotation(githubCommand(f.Severity), rooted(g.Root, f.Location), f.Rule, PlainMessage(f)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
