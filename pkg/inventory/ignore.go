package inventory

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// IgnoreAnnotation is the annotation that suppresses findings on an object or its pod
// template. Its value holds one entry per line:
//
//	RULE[,RULE...]: reason[; expires=YYYY-MM-DD]
//
// A reason is required; the policies (rule ENI009) decide whether an entry is valid, expired
// or forbidden by config, and only the entries they accept suppress anything.
const IgnoreAnnotation = "eni-lint.io/ignore"

// Ignore is one entry of an ignore annotation.
type Ignore struct {
	Rules   []string `json:"rules"`
	Reason  string   `json:"reason"`
	Expires string   `json:"expires"`
	// Path is the field path of the annotation, for locating findings about the entry.
	Path string `json:"path"`
	// Error says why the entry could not be read; empty when it could.
	Error string `json:"error"`
	// Text is the entry as written.
	Text string `json:"text"`
	// Location is where the entry is written, when it is not an annotation of the object
	// (a Terraform comment).
	Location *Position `json:"location,omitempty"`
}

// CommentIgnorePrefix starts an ignore comment in Terraform: `# eni-lint:ignore ENI001 reason`
// (or `//`), on the line above a block or on the block's first line. A colon after the rule
// IDs is accepted too, as in the annotation.
const CommentIgnorePrefix = "eni-lint:ignore"

// ParseIgnoreComment reads one comment's text after the prefix.
func ParseIgnoreComment(text string, at Position) Ignore {
	text = strings.TrimSpace(text)
	rules, rest := text, ""
	if i := strings.IndexAny(text, " \t:"); i >= 0 {
		rules, rest = text[:i], strings.TrimLeft(text[i:], " \t:")
	}
	igs := ParseIgnores(rules+": "+rest, "")
	if len(igs) == 0 {
		return Ignore{Error: "want RULE[,RULE...] reason", Text: text, Location: &at, Rules: []string{}}
	}
	ig := igs[0]
	ig.Text, ig.Location = text, &at
	return ig
}

var ruleIDPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// ParseIgnores reads an ignore annotation's value. Entries it cannot read are returned with
// Error set, never dropped, so that a typo is reported instead of silently not suppressing.
func ParseIgnores(value, path string) []Ignore {
	var out []Ignore
	for _, line := range strings.Split(value, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		ig := Ignore{Path: path, Text: line, Rules: []string{}}
		rules, rest, ok := strings.Cut(line, ":")
		if !ok {
			ig.Error = "want RULE[,RULE...]: reason[; expires=YYYY-MM-DD]"
			out = append(out, ig)
			continue
		}
		for _, r := range strings.Split(rules, ",") {
			r = strings.TrimSpace(r)
			if !ruleIDPattern.MatchString(r) {
				ig.Error = fmt.Sprintf("%q is not a rule ID", r)
				break
			}
			ig.Rules = append(ig.Rules, strings.ToUpper(r))
		}
		reason := rest
		if i := strings.LastIndex(rest, ";"); i >= 0 {
			if k, v, ok := strings.Cut(strings.TrimSpace(rest[i+1:]), "="); ok && strings.TrimSpace(k) == "expires" {
				reason = rest[:i]
				ig.Expires = strings.TrimSpace(v)
				if _, err := time.Parse("2006-01-02", ig.Expires); err != nil && ig.Error == "" {
					ig.Error = fmt.Sprintf("expires=%s is not a date (YYYY-MM-DD)", ig.Expires)
				}
			}
		}
		ig.Reason = strings.TrimSpace(reason)
		out = append(out, ig)
	}
	return out
}
