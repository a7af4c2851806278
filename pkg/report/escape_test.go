package report

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

func TestTerminalSafe(t *testing.T) {
	tests := []struct {
		name, in string
		color    bool
		want     string
	}{
		{"workflow command in a file name", "::error file=x::pwned.yaml  ENI002\n", false, ":\u200b:error file=x:\u200b:pwned.yaml  ENI002\n"},
		{"indented workflow command", "  ::add-mask::x\n", false, "  :\u200b:add-mask:\u200b:x\n"},
		{"workflow command in the middle of a line a reporter may wrap", "name w ::add-mask::x", false, "name w :\u200b:add-mask:\u200b:x"},
		{"legacy prefix in the middle of a line", "a ##[error]b", false, "a #\u200b#[error]b"},
		{"legacy command prefix in a file name", "##[error]pwned.yaml  ENI002\n", false, "#\u200b#[error]pwned.yaml  ENI002\n"},
		{"indented legacy command prefix", "ok\n\t##[set-output name=x]y", false, "ok\n\t#\u200b#[set-output name=x]y"},
		{"escape sequence that clears the screen", "a\x1b[2Jb", false, `a\x1b[2Jb`},
		{"own colours kept", "\x1b[1mbold\x1b[0m", true, "\x1b[1mbold\x1b[0m"},
		{"cursor movement dropped even with colour", "\x1b[10Ax", true, `\x1b[10Ax`},
		{"carriage return that hides a line", "fits\rexceeds", false, `fits\x0dexceeds`},
		{"bidi override", "a\u202eb", false, `a\u202eb`},
		{"plain text untouched", "m5.large: 35 > 9\tok\n", false, "m5.large: 35 > 9\tok\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TerminalSafe(tc.in, tc.color); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMarkdownEscape(t *testing.T) {
	in := "x|y [click](https://evil) @org/team `code` <img src=x> **b** \x1b[2J\nnext"
	got := mdEscape(in)
	unescaped := strings.NewReplacer(`\]`, "", `\[`, "", `\|`, "", `\*`, "", "\\`", "").Replace(got)
	for _, bad := range []string{"](", "@org", "<img", "**", "\x1b", "\n", "|", "`"} {
		if strings.Contains(unescaped, bad) {
			t.Errorf("mdEscape(%q) = %q still holds %q", in, got, bad)
		}
	}
	if c := mdCode("a`b\nc"); strings.ContainsAny(c, "`\n") {
		t.Errorf("mdCode = %q", c)
	}
}

func FuzzTerminalSafe(f *testing.F) {
	for _, s := range []string{"::error::x.yaml", "##[error]x.yaml", "\x1b[2J", "a\rb", "\u202e", "\x1b[1mok\x1b[0m", "\xff\xfe"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, color bool) {
		out := TerminalSafe(s, color)
		for _, line := range strings.Split(out, "\n") {
			if trimmed := strings.TrimLeft(line, " \t"); strings.HasPrefix(trimmed, "::") || strings.HasPrefix(trimmed, "##[") {
				t.Fatalf("a line starts a workflow command: %q", line)
			}
		}
		for i := 0; i < len(out); i++ {
			c := out[i]
			if c == '\r' || (c < 0x20 && c != '\n' && c != '\t' && c != 0x1b) {
				t.Fatalf("control character %#x left in %q", c, out)
			}
			if c == 0x1b && (!color || sgr.FindString(out[i:]) == "") {
				t.Fatalf("escape sequence left in %q", out)
			}
		}
		md := mdEscape(s)
		if strings.ContainsAny(md, "\n\r|") && !strings.Contains(md, `\|`) {
			t.Fatalf("mdEscape left a line or cell break in %q", md)
		}
	})
}

// TestHostileNames: a field from input, through OneLine and TerminalSafe, is one line with no
// control character, and cannot start a workflow command.
func TestHostileNames(t *testing.T) {
	for _, name := range []string{
		"w\n::error file=x::pwned", "a\r\nb", "\x1b[2Jclear", "::add-mask::x", "##[error]x",
		"bidi\u202eevil", "nul\x00byte", "sep\u2028line\u2029para\u0085nel", strings.Repeat("long", 20000),
	} {
		line := "  " + TerminalSafe(OneLine(name), false)
		if strings.ContainsAny(line, "\n\r\x00\x1b\u2028\u2029\u0085\u202e") {
			t.Errorf("%q: %q", name, line)
		}
		if own := TerminalSafe(OneLine(name), false); strings.HasPrefix(own, "::") || strings.HasPrefix(own, "##[") {
			t.Errorf("%q starts a workflow command: %q", name, own)
		}
	}
}

// Mermaid labels and code spans inside HTML: no character of a name can open HTML, end the
// fence, or reach the chart's grammar or the screen.
func TestChartLabelsAndSummaryCodeAreInert(t *testing.T) {
	for _, name := range []string{"a```\n<!-- x", "<img src=x onerror=alert(1)>", "bell\x07esc\x1b[2J", "bidi\u202eevil", "q\"uote;hash#colon:"} {
		got := mermaidText(name)
		for _, bad := range []string{"`", "<", ">", "\n", "\x07", "\x1b", "\u202e", "\"", ";", "#"} {
			if strings.Contains(got, bad) {
				t.Errorf("mermaidText(%q) = %q holds %q", name, got, bad)
			}
		}
		if c := mdCode(name); strings.ContainsAny(c, "<>`\n\x07\x1b\u202e") {
			t.Errorf("mdCode(%q) = %q", name, c)
		}
	}
}

// hostileStrings are names, paths and messages a pull request can write: workflow commands
// anywhere in a line, terminal escapes, a bell, bidirectional overrides and isolates, line
// separators, C1 controls, HTML, a comment that would hide the rest of a posted comment.
var hostileStrings = []string{
	"x::error file=a::pwned", "\n::add-mask::secret", "##[error]forged", "\x1b[2Jclear\x07bell",
	"bidi\u202eevil\u2066iso\u2069", "sep\u2028line\u2029para\u0085nel\u009bcsi", "<!-- hide", "<img src=x onerror=alert(1)>",
}

// rawControls are what no format may pass on from input undecoded.
const rawControls = "\x1b\x07\u202e\u2066\u2069\u2028\u2029\u0085\u009b"

// TestEveryFormatEscapesInput: each hostile string as a file name, an object's name, a message
// and a rule's text from a custom policy, through every format. Text and GitHub's log show no
// control character and start no workflow command of the input's; Markdown shows none and
// opens no HTML or comment; JUnit and SARIF are well-formed and, decoded, hold no control
// character, override or separator from input.
func TestEveryFormatEscapesInput(t *testing.T) {
	for _, bad := range hostileStrings {
		r := withRules()
		for i := range r.Findings {
			f := &r.Findings[i]
			f.Location.File = "k8s/" + bad + ".yaml"
			f.Message = "message " + bad
			f.Object = &findings.ObjectRef{Kind: "CronJob", Namespace: "ns", Name: bad}
		}
		r.Rules = append(r.Rules, findings.RuleDoc{ID: "CUSTOM1", Title: "custom " + bad, Severity: findings.Warning, Description: bad, Remediation: bad})
		r.Findings = append(r.Findings, findings.Finding{Rule: "CUSTOM1" + bad, Severity: findings.Warning, Message: bad,
			Location: r.Findings[0].Location})
		r.Count()
		for _, format := range []struct {
			name string
			w    Reporter
		}{{"text", Text{}}, {"github", GitHub{}}, {"markdown", Markdown{Chart: true}}, {"junit", JUnit{}}, {"sarif", SARIF{}}} {
			out := string(render(t, format.w, r))
			var decoded []string
			switch format.name {
			case "junit":
				dec := xml.NewDecoder(strings.NewReader(out))
				for {
					tok, err := dec.Token()
					if err != nil {
						if err.Error() != "EOF" {
							t.Fatalf("%q: junit is not XML: %v", bad, err)
						}
						break
					}
					switch tok := tok.(type) {
					case xml.CharData:
						decoded = append(decoded, string(tok))
					case xml.StartElement:
						for _, a := range tok.Attr {
							decoded = append(decoded, a.Value)
						}
					}
				}
			case "sarif":
				var v any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Fatalf("%q: sarif is not JSON: %v", bad, err)
				}
				decoded = humanTexts(v, "")
			default:
				decoded = []string{out}
			}
			for _, s := range decoded {
				if i := strings.IndexAny(s, rawControls); i >= 0 {
					t.Errorf("%q in %s: a raw control at %d: %.200q", bad, format.name, i, s[max(0, i-40):])
				}
			}
			switch format.name {
			case "text", "github":
				for _, line := range strings.Split(out, "\n") {
					if strings.Contains(line, "add-mask::") || strings.Contains(line, "##[error]") || strings.Contains(line, "error file=a::") {
						t.Errorf("%q in %s: a workflow command of the input's: %q", bad, format.name, line)
					}
				}
			case "markdown":
				for _, html := range []string{"<!--", "<img"} {
					if strings.Contains(out, html) {
						t.Errorf("%q in markdown: raw %s", bad, html)
					}
				}
			}
		}
	}
}

// humanTexts is the SARIF strings a viewer shows a person: messages, descriptions, help,
// justifications (the properties are data for programs, and the URIs are percent-encoded).
func humanTexts(v any, key string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "properties" {
				continue
			}
			out = append(out, humanTexts(x, k)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, humanTexts(x, key)...)
		}
	case string:
		switch key {
		case "text", "markdown", "justification", "uri":
			out = append(out, v)
		}
	}
	return out
}
