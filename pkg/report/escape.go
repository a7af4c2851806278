package report

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// controlChars are removed from Markdown and SARIF text: nothing in a report needs them.
var controlChars = regexp.MustCompile(`[\x00-\x08\x0b-\x1f\x7f\x{80}-\x{9f}\x{2028}\x{2029}\x{202a}-\x{202e}\x{2066}-\x{2069}]`)

// mdCode is text for inside a Markdown code span: no backtick can end it early, and no "<"
// opens HTML where the span is not one (inside an HTML element such as <summary>, Markdown
// is not parsed, and "<!--" there hid the rest of a posted comment): "<" and ">" become "‹"
// and "›".
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "\r", " ", "<", "‹", ">", "›").Replace(controlChars.ReplaceAllString(s, ""))
}

// mermaidText keeps a chart label to letters, digits and plain punctuation: Mermaid renders
// labels as HTML, and its grammar reads ":", "#", ";", quotes and backticks (which also end
// the Markdown fence the chart is in). Anything else becomes a space.
func mermaidText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r):
			return r
		case strings.ContainsRune(" .,/()=+-_", r):
			return r
		case r == ':':
			return '.' // a clock reads as one: "Mon 09.00.00"
		}
		return ' '
	}, OneLine(s))
}

// sgr matches the colour sequences the text reporter writes itself.
var sgr = regexp.MustCompile(`^\x1b\[[0-9;]*m`)

// TerminalSafe makes text output safe to print where a pull request's file names and values
// end up: control characters (escape sequences that move the cursor or rewrite the screen,
// carriage returns that hide a line, bells) are shown as \xNN, and a line that would start
// with "::" (a GitHub Actions workflow command, e.g. a file named "::error::x.yaml") or with
// "##[" (the runner's legacy command prefix, "##[error]x") cannot start one: every "::" and
// "##[" is broken by a zero-width space. Colour sequences of the reporter's own are kept when
// colour is on.
func TerminalSafe(s string, color bool) string {
	// Every "::" and "##[", not only at a line's start: a reporter may wrap a long message
	// anywhere, and a log viewer or a step that re-prints the output may start a line there.
	return workflowCommands.Replace(showControls(s, color))
}

// DataSafe is the escaper of the formats a program reads and a person then sees in a viewer
// (JUnit's names and messages in a CI test tab, SARIF's messages and rule text in code
// scanning): control characters, line separators and bidirectional overrides from input are
// shown as \xNN and \uNNNN, as TerminalSafe shows them, so that a name cannot reorder what a
// reviewer reads or rewrite a terminal a report is printed to. Line breaks stay (a message may
// have several lines); the encoders escape what their syntax needs.
func DataSafe(s string) string {
	return showControls(s, false)
}

// showControls shows the control characters of s (see TerminalSafe), keeping the reporter's
// own colour sequences when color is on.
func showControls(s string, color bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\x1b' && color {
			if m := sgr.FindString(s[i:]); m != "" {
				b.WriteString(m)
				i += len(m)
				continue
			}
		}
		if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			fmt.Fprintf(&b, "\\x%02x", c)
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= 0x80 {
			r, size = utf8.DecodeRuneInString(s[i:])
			if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
				fmt.Fprintf(&b, "\\u%04x", r) // C1 controls, line separators, bidi overrides
				i += size
				continue
			}
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// workflowCommands breaks GitHub Actions' command prefixes with a zero-width space.
var workflowCommands = strings.NewReplacer("::", ":\u200b:", "##[", "#\u200b#[")

// OneLine shows the line breaks of text that came from input (an object's name, a file name,
// a value in a message) as \n and \r, so that it cannot start a line of its own in a
// line-oriented output: forge a finding line there, or a workflow command once the line is
// printed in CI. TerminalSafe then shows the other control characters. Every human-readable
// writer puts each input-derived field through it: the text report, audit's text, fix's
// summary, the baseline's stale list, and the GitHub log lines.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\u2028\u2029\u0085") {
		return s
	}
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\u2028", `\u2028`, "\u2029", `\u2029`, "\u0085", `\u0085`).Replace(s)
}
