package report

import (
	"regexp"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// DocsBase is where eni-lint's files are browsed; a rule's page is DocsBase + ref +
// "/docs/rules/" + ID + ".md".
const DocsBase = InformationURI + "/blob/"

var (
	// v1.2.3, 1.2.3, v1.2.3-rc.1: a release, tagged v1.2.3.
	releaseVersion = regexp.MustCompile(`^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)$`)
	// A Go pseudo-version (v0.3.1-0.20261201100000-0123456789ab) ends in its commit.
	pseudoVersion = regexp.MustCompile(`^v\d+\.\d+\.\d+-(?:[0-9A-Za-z.]+\.)?(?:0\.)?\d{14}-([0-9a-f]{12})$`)
	// A snapshot or development build (0.0.1-snapshot+065b91b, 0.0.0-dev+0123456789ab) names
	// its commit after '+'.
	buildCommit = regexp.MustCompile(`\+([0-9a-f]{7,40})$`)
)

// docsRef is the git ref whose docs match a version: the release tag, the commit of a
// pseudo-version or snapshot, else main.
func docsRef(version string) string {
	if m := pseudoVersion.FindStringSubmatch(version); m != nil {
		return m[1]
	}
	if m := buildCommit.FindStringSubmatch(version); m != nil {
		return m[1]
	}
	if m := releaseVersion.FindStringSubmatch(version); m != nil && !strings.HasPrefix(m[1], "0.0.0-") {
		return "v" + m[1]
	}
	return "main"
}

// RuleDocURL is the page of a built-in rule at the version that ran, or "" for a custom rule.
func RuleDocURL(r findings.RuleDoc, version string) string {
	if !r.BuiltIn {
		return ""
	}
	return DocsBase + docsRef(version) + "/docs/rules/" + r.ID + ".md"
}
