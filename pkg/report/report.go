// Package report renders a findings.Report for people and machines. Each format is one
// Reporter; none of them changes what the report says or decides the exit code (JSON and
// SARIF number the witnesses' trajectories, the same way each time).
package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"sort"
	"strings"

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
	"text":   func(o Options) Reporter { return Text{Color: o.Color, Width: o.Width} },
	"json":   func(Options) Reporter { return JSON{} },
	"sarif":  func(o Options) Reporter { return SARIF{InformationURI: InformationURI, Root: o.Root} },
	"github": func(o Options) Reporter { return GitHub{Root: o.Root} },
	"junit":  func(Options) Reporter { return JUnit{} },
	"markdown": func(o Options) Reporter {
		return Markdown{LinkBase: o.LinkBase, Chart: o.Chart, Root: o.markdownRoot()}
	},
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
	// Root is the working folder from the repository root (FromRoot): github and sarif name
	// files from the repository root with it, and markdown does when it links to GitHub.
	Root string
}

// markdownRoot is Root where Markdown links files on GitHub (LinkBase set); a report read by a
// person elsewhere names them from where they stand.
func (o Options) markdownRoot() string {
	if o.LinkBase == "" {
		return ""
	}
	return o.Root
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

// Write streams the report: the large arrays (findings, instance-type rows, workloads) are
// encoded one element at a time into a buffered writer, so the report is never held whole in
// memory. encoding/json's Encoder built the 114 MB report of the 100k-document bench tree in
// one buffer and indented it into a second, 0.8 GB of the run's peak. The bytes are the ones
// Encoder with SetIndent("", "  ") writes (TestJSONStreamsWhatEncoderWrites).
func (JSON) Write(w io.Writer, r *findings.Report) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	e := &elementWriter{w: bw}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetIndent("    ", "  ")
	// The shell is the report with an empty array where each streamed one goes; a nil array
	// stays nil (null) and is not streamed.
	shell := *r
	var streamed []streamedArray
	starvations, starvationOf := starvationTable(r.Findings)
	if len(r.Findings) > 0 {
		shell.Findings = []findings.Finding{}
		streamed = append(streamed, streamedArray{"findings", func() error {
			return eachElement(e, r.Findings, func(i int, f *findings.Finding) { nameStarvation(f, starvationOf[i]) })
		}})
	}
	if len(r.InstanceTypes) > 0 {
		shell.InstanceTypes = []findings.InstanceTypeRow{}
		streamed = append(streamed, streamedArray{"instanceTypes", func() error { return eachElement(e, r.InstanceTypes, nil) }})
	}
	placements, placementOf := placementTable(r.Workloads)
	if len(r.Workloads) > 0 {
		shell.Workloads = []findings.WorkloadNumbers{}
		streamed = append(streamed, streamedArray{"workloads", func() error {
			return eachElement(e, r.Workloads, func(i int, w *findings.WorkloadNumbers) { w.Placement = placementOf[i] })
		}})
	}
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetIndent("", "  ")
	if err := enc.Encode(jsonReport{Report: &shell, Placements: placements, Trajectories: trajectoryTable(r.Findings), Starvations: starvations}); err != nil {
		return err
	}
	rest := head.Bytes()
	for _, s := range streamed {
		// A top-level key is the only line indented by two spaces that starts with it.
		marker := []byte("\n  \"" + s.key + "\": []")
		i := bytes.Index(rest, marker)
		if i < 0 {
			return fmt.Errorf("json report: no %q in the report's shell", s.key)
		}
		end := i + len(marker) - 1 // up to the closing bracket
		bw.Write(rest[:end])
		rest = rest[end:]
		if err := s.write(); err != nil {
			return err
		}
		bw.WriteString("\n  ")
	}
	bw.Write(rest)
	return bw.Flush()
}

// streamedArray is a top-level array of the report and what writes its elements.
type streamedArray struct {
	key   string
	write func() error
}

// elementWriter encodes one array element at a time into buf, and copies it to w.
type elementWriter struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

// eachElement writes the elements of a non-empty array at the report's second level, as the
// indenting Encoder would: each on its own line, four spaces in, separated by commas. set, when
// not nil, fills in what the report writes of an element beyond the element itself, on a copy.
func eachElement[T any](e *elementWriter, items []T, set func(int, *T)) error {
	for i := range items {
		e.buf.Reset()
		item := &items[i]
		if set != nil {
			c := *item
			set(i, &c)
			item = &c
		}
		if err := e.enc.Encode(item); err != nil {
			return err
		}
		if i > 0 {
			e.w.WriteByte(',')
		}
		e.w.WriteString("\n    ")
		e.w.Write(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
	}
	return nil
}

// placementTable lists the distinct node-group lists of the workloads, in the order they first
// occur, and gives each workload the id of its list. The workloads of one placement key share
// one slice, so a list is compared by its contents once per slice, not once per workload.
func placementTable(ws []findings.WorkloadNumbers) ([]findings.PlacementRecord, []string) {
	table := []findings.PlacementRecord{}
	ids := make([]string, len(ws))
	type slice struct {
		first *string
		n     int
	}
	bySlice := map[slice]string{}
	byContent := map[string]string{}
	for i, w := range ws {
		s := slice{n: len(w.NodeGroups)}
		if len(w.NodeGroups) > 0 {
			s.first = &w.NodeGroups[0]
		}
		id, ok := bySlice[s]
		if !ok {
			key := strings.Join(w.NodeGroups, "\x00")
			if id, ok = byContent[key]; !ok {
				id = fmt.Sprintf("p%d", len(table)+1)
				groups := w.NodeGroups
				if groups == nil {
					groups = []string{}
				}
				table = append(table, findings.PlacementRecord{ID: id, NodeGroups: groups})
				byContent[key] = id
			}
			bySlice[s] = id
		}
		ids[i] = id
	}
	return table, ids
}

// jsonReport is the report with its witnesses' trajectories, each written once.
type jsonReport struct {
	*findings.Report
	// Placements are the workloads' node-group lists, each once.
	Placements   []findings.PlacementRecord   `json:"placements"`
	Trajectories []*findings.TrajectoryRecord `json:"trajectories"`
	// Starvations are the ENI003 findings' starvingOn lists, each once.
	Starvations []findings.StarvationRecord `json:"starvations"`
}

// starvingOn is the detail of an ENI003 finding that lists the node groups and instance types
// its Job starves on: with 125 node groups and 5,000 such Jobs, half of the report's findings.
const starvingOn = "starvingOn"

// starvationTable lists the distinct starvingOn lists of the ENI003 findings, in the order of
// first use, and gives each finding with one the id of its list ("" for the others).
func starvationTable(fs []findings.Finding) ([]findings.StarvationRecord, []string) {
	table := []findings.StarvationRecord{}
	ids := make([]string, len(fs))
	byContent := map[string]string{}
	for i, f := range fs {
		list, ok := f.Details[starvingOn]
		if f.Rule != "ENI003" || !ok {
			continue
		}
		b, err := json.Marshal(list)
		if err != nil {
			continue // written in place, where the encoder reports it
		}
		id, ok := byContent[string(b)]
		if !ok {
			id = fmt.Sprintf("s%d", len(table)+1)
			table = append(table, findings.StarvationRecord{ID: id, On: list})
			byContent[string(b)] = id
		}
		ids[i] = id
	}
	return table, ids
}

// nameStarvation writes a finding's starvingOn as the id of its list in the starvations, on a
// copy of its details.
func nameStarvation(f *findings.Finding, id string) {
	if id == "" {
		return
	}
	f.Details = maps.Clone(f.Details)
	f.Details[starvingOn] = id
}

// trajectoryTable numbers the findings' trajectories and lists them as the table writes them.
func trajectoryTable(fs []findings.Finding) []*findings.TrajectoryRecord {
	out := []*findings.TrajectoryRecord{}
	for _, t := range findings.NumberTrajectories(fs) {
		out = append(out, (*findings.TrajectoryRecord)(t))
	}
	return out
}
