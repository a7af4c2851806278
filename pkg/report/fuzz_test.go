package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// ownCommand is a workflow command the GitHub reporter writes; no other line of any format
// may start with "::".
var ownCommand = regexp.MustCompile(`^::(error|warning|notice) [^:\n]*::`)

// FuzzReporters puts text a pull request controls (a file name, an object name, a node group
// name, a message made of values) into every format and checks that each stays well formed:
// JSON and SARIF parse, JUnit is XML, GitHub writes one workflow command per annotation and no
// other, text carries no control character, Markdown no raw HTML.
func FuzzReporters(f *testing.F) {
	f.Add("a.yaml", "db-report", "g", "35 > 9")
	f.Add("::error::x.yaml", "x\n::add-mask::y", "g,h:i", "%0A::warning::z")
	f.Add("a\x1b[2Jb.yaml", "\x00\x01\uFFFE", "\r\n", "]]><!--<script>")
	f.Add("d/<img src=x>.yaml", "@team", "[x](http://e)", "`a`|b|*c*")
	f.Fuzz(func(t *testing.T, file, name, group, message string) {
		r := withRules()
		r.Errors = append(r.Errors, inventory.LoadError{Position: inventory.Position{File: file, Line: 2}, Message: message})
		r.Findings = append(r.Findings, findings.Finding{Rule: "ENI001", Severity: findings.Error, Message: message,
			Location: inventory.Position{File: file, Line: 3, Column: 1}, Object: &findings.ObjectRef{Kind: "Job", Namespace: name, Name: name},
			Details: map[string]any{"nodeGroup": group, "instanceType": name}})
		r.InstanceTypes = append(r.InstanceTypes, findings.InstanceTypeRow{NodeGroup: group, InstanceType: name, Verdict: "unknown-type"})
		r.Sort()
		r.Count()
		for _, format := range Formats() {
			rep, err := New(format, Options{LinkBase: "https://github.com/o/r/blob/abc/", Chart: true})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := rep.Write(&b, r); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			out := b.String()
			switch format {
			case "json", "sarif":
				if !json.Valid(b.Bytes()) {
					t.Fatalf("%s is not JSON:\n%s", format, out)
				}
			case "junit":
				d := xml.NewDecoder(strings.NewReader(out))
				for {
					if _, err := d.Token(); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("junit is not XML (%v):\n%s", err, out)
					}
				}
			case "github":
				for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if !ownCommand.MatchString(line) {
						t.Fatalf("a line that is not one annotation: %q", line)
					}
				}
			case "markdown":
				for _, raw := range []string{"<img", "<script", "<!--"} {
					if strings.Contains(out, raw) && !strings.Contains(file+name+group+message, "&lt;") {
						t.Fatalf("markdown holds raw HTML %q:\n%s", raw, out)
					}
				}
			}
			if format != "json" && format != "sarif" && format != "junit" {
				for _, line := range strings.Split(out, "\n") {
					if format != "github" && strings.HasPrefix(line, "::") {
						t.Fatalf("%s: a line starts a workflow command: %q", format, line)
					}
				}
				for _, c := range out {
					if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
						t.Fatalf("%s: control character %q in the output", format, c)
					}
				}
			}
		}
	})
}
