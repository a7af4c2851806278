package report

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// JUnit writes a JUnit XML report for CI systems that show test results: one test suite per
// rule, one failing test case per finding at or above --fail-on (findings below it are
// skipped test cases), a passing case for each rule that found nothing, and one erroring case
// per unreadable input.
type JUnit struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

func (JUnit) Write(w io.Writer, r *findings.Report) error {
	out := junitSuites{Name: "eni-lint"}
	byRule := map[string][]findings.Finding{}
	for _, f := range r.Findings {
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	ids := []string{}
	for _, rule := range r.Rules {
		ids = append(ids, rule.ID)
	}
	for _, f := range r.Findings { // rules a report has but no documentation for
		if !contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	for _, id := range ids {
		out.Suites = append(out.Suites, ruleSuite(id, byRule[id], r.FailOn))
	}
	if len(r.Errors) > 0 {
		suite := junitSuite{Name: "inputs"}
		for _, e := range r.Errors {
			suite.Cases = append(suite.Cases, junitCase{
				Name: e.Position.File, Classname: "inputs", File: e.Position.File, Line: e.Position.Line,
				Error: &junitProblem{Message: e.Message, Type: "unreadable", Text: e.Message},
			})
			suite.Errors++
		}
		suite.Tests = len(suite.Cases)
		out.Suites = append(out.Suites, suite)
	}
	out.escape()
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// ruleSuite is one rule's findings as test cases: a failure at or above failOn, skipped
// below it or when suppressed; a rule that found nothing is one passing case.
func ruleSuite(id string, fs []findings.Finding, failOn findings.Severity) junitSuite {
	suite := junitSuite{Name: id}
	for _, f := range fs {
		c := junitCase{
			Name:      fmt.Sprintf("%s %s", f.Location.File, place(f.Location)),
			Classname: id, File: f.Location.File, Line: f.Location.Line,
		}
		problem := &junitProblem{Message: f.Message, Type: string(f.Severity), Text: PlainMessage(f)}
		if f.Suppressed != nil {
			problem.Message = "suppressed (" + f.Suppressed.Kind + "): " + f.Suppressed.Reason
			c.Skipped = problem
			suite.Skipped++
		} else if failOn != findings.None && f.Severity.Rank() >= failOn.Rank() {
			c.Failure = problem
			suite.Failures++
		} else {
			c.Skipped = problem
			suite.Skipped++
		}
		suite.Cases = append(suite.Cases, c)
	}
	if len(suite.Cases) == 0 {
		suite.Cases = append(suite.Cases, junitCase{Name: id + " found nothing", Classname: id})
	}
	suite.Tests = len(suite.Cases)
	return suite
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// escape puts every string of the report that came from input (names, files, messages, rule
// IDs of custom policies) through DataSafe: encoding/xml escapes XML's syntax, not what a
// CI's test viewer shows.
func (j *junitSuites) escape() {
	problem := func(p *junitProblem) {
		if p != nil {
			p.Message, p.Type, p.Text = DataSafe(p.Message), DataSafe(p.Type), DataSafe(p.Text)
		}
	}
	for i := range j.Suites {
		s := &j.Suites[i]
		s.Name = DataSafe(s.Name)
		for k := range s.Cases {
			c := &s.Cases[k]
			c.Name, c.Classname, c.File = DataSafe(c.Name), DataSafe(c.Classname), DataSafe(c.File)
			problem(c.Failure)
			problem(c.Error)
			problem(c.Skipped)
		}
	}
}
