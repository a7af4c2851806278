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
