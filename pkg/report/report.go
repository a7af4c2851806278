// Package report renders a findings.Report for people and machines. Each format is one
// Reporter; none of them changes the report or decides the exit code.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// Reporter writes a report in one format.
type Reporter interface {
	Write(w io.Writer, r *findings.Report) error
}

// Formats lists the format names --format accepts.
func Formats() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

var registry = map[string]func(Options) Reporter{
	"text":     func(o Options) Reporter { return Text{Color: o.Color, Width: o.Width} },
	"json":     func(Options) Reporter { return JSON{} },
	"sarif":    func(Options) Reporter { return SARIF{InformationURI: InformationURI} },
	"github":   func(Options) Reporter { return GitHub{} },
	"junit":    func(Options) Reporter { return JUnit{} },
	"markdown": func(o Options) Reporter { return Markdown{LinkBase: o.LinkBase, Chart: o.Chart} },
}

// InformationURI is eni-lint's home page, named in SARIF output.
const InformationURI = "https://github.com/eni-lint/eni-lint"

// Options tune reporters that have choices.
type Options struct {
	// Color turns on ANSI colors in the text format.
	Color bool
	// Width wraps the text format's messages to a terminal's width (0: no wrapping).
	Width int
	// LinkBase makes Markdown locations links (see Markdown.LinkBase).
	LinkBase string
	// Chart adds a Mermaid chart to Markdown.
	Chart bool
}

// New returns the reporter for a format name.
func New(format string, opts Options) (Reporter, error) {
	f, ok := registry[format]
	if !ok {
		return nil, fmt.Errorf("unknown format %q (one of %v)", format, Formats())
	}
	return f(opts), nil
}

// JSON writes the report as documented in docs/json-report.md.
type JSON struct{}

func (JSON) Write(w io.Writer, r *findings.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonReport{Report: r, Trajectories: trajectoryTable(r.Findings)})
}

// jsonReport is the report with its witnesses' trajectories, each written once.
type jsonReport struct {
	*findings.Report
	Trajectories []*findings.TrajectoryRecord `json:"trajectories"`
}

// trajectoryTable numbers the findings' trajectories and lists them as the table writes them.
func trajectoryTable(fs []findings.Finding) []*findings.TrajectoryRecord {
	out := []*findings.TrajectoryRecord{}
	for _, t := range findings.NumberTrajectories(fs) {
		out = append(out, (*findings.TrajectoryRecord)(t))
	}
	return out
}
