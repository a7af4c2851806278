package helm

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template/parse"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/ignore"
	"helm.sh/helm/v3/pkg/strvals"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// Chart is a chart to render in-process (--helm-chart, --values).
type Chart struct {
	Dir    string
	Values []string
	// Inline are values given in the code that installs the chart (Terraform's helm_release
	// values and set), merged after the files, later ones winning.
	Inline []map[string]any
	// Release names the release (the default is "release").
	Release string
	// Namespace is the release's namespace, for objects that name none; empty means the run's
	// default namespace.
	Namespace string
}

// Limits are the budgets of rendering one chart. Go templates cannot be stopped from outside,
// so a render that overruns is abandoned (the run's --timeout ends the process if it keeps
// going) and the chart is reported; the counts that templates pass to Sprig's generators are
// checked before rendering, so the obvious bombs never start.
type Limits struct {
	// Timeout bounds one chart's rendering.
	Timeout time.Duration
	// MaxOutput bounds the bytes one chart renders to.
	MaxOutput int
	// MaxCount bounds a literal count given to repeat, until, untilStep, seq, indent,
	// nindent and the rand* functions.
	MaxCount int64
	// YAML are the budgets of each rendered template's stream (--max-documents).
	YAML yamlpos.Limits
}

// Default budgets of one chart.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultMaxOutput = 64 << 20
	DefaultMaxCount  = 100000
)

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxOutput <= 0 {
		l.MaxOutput = DefaultMaxOutput
	}
	if l.MaxCount <= 0 {
		l.MaxCount = DefaultMaxCount
	}
	return l
}

// Render renders a chart with Helm's own engine (helm.sh/helm/v3, no cluster access, no DNS:
// the default capabilities, release "release" in namespace) and returns each rendered
// template's objects, pointed back at the template. Every chart file and values file is read
// through fsys; a chart file that is a link out of the scanned folders is not loaded (and
// reported to skip), so `.Files.Get` cannot reach it. load turns documents into a fragment.
func Render(fsys *confine.FS, c Chart, namespace string, lim Limits, load func(file string, docs []*yaml.Node) inventory.Fragment, skip func(confine.Skip)) (out []inventory.Fragment) {
	lim = lim.withDefaults()
	templates, notes := RenderTemplates(fsys, c, namespace, lim, skip)
	out = notes
	if len(templates) == 0 {
		return out
	}
	locator := NewLocator(fsys, filepath.Dir(filepath.Clean(c.Dir)))
	for _, t := range templates {
		docs, err := yamlpos.DocumentsWithin([]byte(t.Text), lim.YAML)
		frag := load(t.Name, docs)
		for _, se := range yamlpos.Errors(err) {
			frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: t.Name}, Message: "rendered YAML: " + se.Error()})
		}
		locator.Relocate(&frag, t.Name)
		// The fragment is the template file, as the objects' positions say: a path from
		// the current folder, not from the chart's parent (clusters map files by folder).
		frag.File = filepath.Join(filepath.Dir(filepath.Clean(c.Dir)), filepath.FromSlash(t.Name))
		out = append(out, frag)
	}
	return out
}

// Template is one rendered template of a chart: Name is its path from the chart's parent
// folder (billing/templates/cronjob.yaml), in the chart's folder even when Chart.yaml names
// the chart otherwise.
type Template struct {
	Name string
	Text string
}

// RenderTemplates renders a chart as Render does and returns the text of each YAML or JSON
// template that renders to something, sorted by name, with the fragments that carry what
// went wrong (errors, missing dependencies). No template means the chart did not render.
func RenderTemplates(fsys *confine.FS, c Chart, namespace string, lim Limits, skip func(confine.Skip)) (templates []Template, notes []inventory.Fragment) {
	lim = lim.withDefaults()
	fail := func(pos inventory.Position, msg string) {
		if pos.File == "" {
			pos.File = c.Dir
		}
		templates = nil
		notes = append(notes, inventory.Fragment{File: c.Dir, Errors: []inventory.LoadError{{Position: pos, Message: msg}}})
	}
	defer func() {
		if r := recover(); r != nil {
			fail(inventory.Position{}, fmt.Sprintf("helm rendering failed: %v", r))
		}
	}()
	ch, pos, msg := loadChart(fsys, c.Dir, lim, skip)
	if msg != "" {
		fail(pos, msg)
		return
	}
	// Dependencies declared in Chart.yaml but not vendored in charts/ render as if absent,
	// which would drop their objects without a word.
	if missing := missingDependencies(fsys, c.Dir, ch); len(missing) > 0 {
		notes = append(notes, inventory.Fragment{File: c.Dir, Unresolved: missing})
	}
	values, pos, msg := chartValues(fsys, c)
	if msg != "" {
		fail(pos, msg)
		return
	}
	// As helm install does: dependencies whose condition or tags the values turn off are not
	// rendered, and import-values are applied. Without this a chart's disabled subchart rendered
	// anyway, or failed on values it was never meant to get (TracecatHQ/tracecat b9b8a531,
	// deployments/helm/tracecat with temporal.enabled false).
	if err := chartutil.ProcessDependenciesWithMerge(ch, values); err != nil {
		fail(inventory.Position{}, "dependencies: "+err.Error())
		return
	}
	top, pos, msg := renderValues(fsys, c, ch, values, namespace)
	if msg != "" {
		fail(pos, msg)
		return
	}
	rendered, err := renderWithin(ch, top, lim.Timeout)
	if err != nil {
		fail(templateErrorPosition(c.Dir, ch.Name(), err.Error()), "rendering: "+err.Error())
		return
	}
	size := 0
	for _, text := range rendered {
		size += len(text)
	}
	if size > lim.MaxOutput {
		fail(inventory.Position{}, fmt.Sprintf("the chart renders to %d bytes, more than the %d-byte budget: not read", size, lim.MaxOutput))
		return
	}
	templates = templateTexts(rendered, ch.Name(), c.Dir)
	return templates, notes
}

// loadChart reads a chart's files within the count budget; msg says why it could not, at pos.
func loadChart(fsys *confine.FS, dir string, lim Limits, skip func(confine.Skip)) (*chart.Chart, inventory.Position, string) {
	files, err := chartFiles(fsys, dir, skip)
	if err != nil {
		return nil, inventory.Position{}, "loading the chart: " + confine.Reason(err)
	}
	ch, err := loader.LoadFiles(files)
	if err != nil {
		return nil, inventory.Position{}, "loading the chart: " + err.Error()
	}
	if pos, msg := checkCounts(dir, ch, lim.MaxCount); msg != "" {
		return nil, pos, msg
	}
	return ch, inventory.Position{}, ""
}

// renderValues are the values the templates see, as helm install gives them (the release is
// c.Release, "release" when none is given), once no tpl call in them can recurse.
func renderValues(fsys *confine.FS, c Chart, ch *chart.Chart, values map[string]any, namespace string) (chartutil.Values, inventory.Position, string) {
	release := c.Release
	if release == "" {
		release = "release"
	}
	top, err := chartutil.ToRenderValues(ch, values, chartutil.ReleaseOptions{Name: release, Namespace: namespace, IsInstall: true}, chartutil.DefaultCapabilities)
	if err != nil {
		return nil, inventory.Position{}, "values: " + err.Error()
	}
	if pos, msg := checkTplCycles(fsys, c.Dir, ch, top["Values"], c.Values); msg != "" {
		return nil, pos, msg
	}
	return top, inventory.Position{}, ""
}

// chartValues merges the chart's values files (later files win) and inline values; a file
// that cannot be read or parsed is the message, at its position.
func chartValues(fsys *confine.FS, c Chart) (values map[string]any, pos inventory.Position, msg string) {
	values = map[string]any{}
	for _, f := range c.Values {
		data, err := fsys.ReadFile(f)
		if err != nil {
			return nil, inventory.Position{File: f}, "values: " + confine.Reason(err)
		}
		v, err := chartutil.ReadValues(data)
		if err != nil {
			return nil, inventory.Position{File: f}, fmt.Sprintf("values %s: %v", f, err)
		}
		values = chartutil.MergeTables(v.AsMap(), values) // later files win
	}
	for _, v := range c.Inline {
		values = chartutil.MergeTables(v, values)
	}
	return values, inventory.Position{}, ""
}

// templateTexts are the YAML and JSON templates that render to something, sorted by name, each
// named by the chart's folder: Helm names a template after the chart's name, whose folder may
// be named otherwise (Chart.yaml name: billing-service, folder billing).
func templateTexts(rendered map[string]string, chartName, dir string) []Template {
	var templates []Template
	names := make([]string, 0, len(rendered))
	for name := range rendered {
		names = append(names, name)
	}
	sort.Strings(names)
	folder := filepath.Base(filepath.Clean(dir))
	for _, name := range names {
		text := rendered[name]
		if strings.TrimSpace(text) == "" || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".json")) {
			continue
		}
		if rest, ok := strings.CutPrefix(name, chartName+"/"); ok && chartName != folder {
			name = folder + "/" + rest
		}
		templates = append(templates, Template{Name: name, Text: text})
	}
	return templates
}

// renderWithin renders on its own goroutine and gives up after timeout. The goroutine cannot be
// stopped; it is left to finish or to be ended with the process.
func renderWithin(ch *chart.Chart, top chartutil.Values, timeout time.Duration) (map[string]string, error) {
	type result struct {
		out map[string]string
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("the engine failed: %v", r)}
			}
		}()
		out, err := engine.Render(ch, top) // no client: lookup returns nothing, DNS is off
		done <- result{out, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.out, r.err
	case <-timer.C:
		return nil, fmt.Errorf("took longer than %v: abandoned (a template that loops or builds huge strings)", timeout)
	}
}

// chartFiles reads a chart folder through fsys, with the chart's .helmignore, the way Helm's
// directory loader does, except that links out of the scanned folders, pipes and devices are
// skipped instead of read.
func chartFiles(fsys *confine.FS, dir string, skip func(confine.Skip)) ([]*loader.BufferedFile, error) {
	rules := ignore.Empty()
	if data, err := fsys.ReadFile(filepath.Join(dir, ignore.HelmIgnore)); err == nil {
		r, err := ignore.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		rules = r
	}
	rules.AddDefaults()
	var files []*loader.BufferedFile
	top := filepath.Clean(dir)
	err := fsys.Walk(top, func(path string, isDir bool) error {
		rel, err := filepath.Rel(top, path)
		if err != nil || rel == "." {
			return nil
		}
		n := filepath.ToSlash(rel)
		info, err := fsys.Stat(path)
		if err != nil {
			skip(confine.Skip{Path: path, Reason: confine.Reason(err)})
			return nil
		}
		if rules.Ignore(n, info) {
			if isDir {
				return fs.SkipDir
			}
			return nil
		}
		if isDir {
			return nil
		}
		data, err := fsys.ReadFile(path)
		if err != nil {
			skip(confine.Skip{Path: path, Reason: confine.Reason(err)})
			return nil
		}
		files = append(files, &loader.BufferedFile{Name: n, Data: data})
		return nil
	}, skip)
	return files, err
}

// countFuncs take a count as their first argument and allocate in proportion to it.
var countFuncs = map[string]bool{
	"repeat": true, "until": true, "untilStep": true, "seq": true, "indent": true, "nindent": true,
	"randAlphaNum": true, "randAlpha": true, "randNumeric": true, "randAscii": true, "randBytes": true,
}

// templateError finds the template and line a Go template error names: "execution error at
// (billing/templates/cm.yaml:4:26): …", "template: billing/templates/cm.yaml:3:5: executing …",
// "parse error at (billing/templates/cm.yaml:3): …".
var templateError = regexp.MustCompile(`(?:at \(|template: )([^\s():]+):(\d+)(?::(\d+))?`)

// templateErrorPosition is where a rendering error points, in the chart's files: Helm names
// templates from the chart's name in Chart.yaml (which may differ from its folder's), so the
// first segment is replaced by the chart's folder. An error that names no template is the
// chart's.
func templateErrorPosition(dir, chartName, msg string) inventory.Position {
	m := templateError.FindStringSubmatch(msg)
	if m == nil {
		return inventory.Position{}
	}
	rest, ok := strings.CutPrefix(m[1], chartName+"/")
	if !ok || !safeSource(rest) {
		return inventory.Position{}
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return inventory.Position{File: filepath.Join(dir, filepath.FromSlash(rest)), Line: line, Column: col}
}

// checkCounts refuses a chart whose templates pass a literal count above max to a generator
// (`repeat 2000000000 "x"`); it reads every template of the chart and its subcharts.
func checkCounts(dir string, ch *chart.Chart, max int64) (inventory.Position, string) {
	var pos inventory.Position
	var msg string
	var walk func(c *chart.Chart, prefix string)
	walk = func(c *chart.Chart, prefix string) {
		for _, t := range c.Templates {
			if msg != "" {
				return
			}
			tree := parse.New(t.Name)
			tree.Mode = parse.SkipFuncCheck
			trees := map[string]*parse.Tree{}
			if _, err := tree.Parse(string(t.Data), "{{", "}}", trees); err != nil {
				continue // Helm reports the syntax error when it renders
			}
			for _, tr := range trees {
				walkNodes(tr.Root, func(cmd *parse.CommandNode) {
					if msg != "" || len(cmd.Args) < 2 {
						return
					}
					id, ok := cmd.Args[0].(*parse.IdentifierNode)
					if !ok || !countFuncs[id.Ident] {
						return
					}
					for _, a := range cmd.Args[1:] {
						n, ok := a.(*parse.NumberNode)
						if !ok {
							continue
						}
						if v, err := strconv.ParseFloat(n.Text, 64); err == nil && (v > float64(max) || v < -float64(max)) {
							line := 1 + strings.Count(string(t.Data[:min(int(cmd.Pos), len(t.Data))]), "\n")
							pos = inventory.Position{File: filepath.Join(dir, prefix, t.Name), Line: line}
							msg = fmt.Sprintf("%s %s asks for more than %d items: the chart is not rendered", id.Ident, n.Text, max)
							return
						}
					}
				})
			}
		}
		for _, d := range c.Dependencies() {
			walk(d, filepath.Join(prefix, "charts", d.Name()))
		}
	}
	walk(ch, "")
	return pos, msg
}

// walkNodes calls f for every command in a template tree.
func walkNodes(n parse.Node, f func(*parse.CommandNode)) {
	switch n := n.(type) {
	case nil:
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			walkNodes(c, f)
		}
	case *parse.ActionNode:
		walkNodes(n.Pipe, f)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			walkNodes(c, f)
		}
	case *parse.CommandNode:
		f(n)
		for _, a := range n.Args {
			walkNodes(a, f)
		}
	case *parse.IfNode:
		walkBranch(&n.BranchNode, f)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, f)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, f)
	case *parse.TemplateNode:
		walkNodes(n.Pipe, f)
	}
}

func walkBranch(b *parse.BranchNode, f func(*parse.CommandNode)) {
	walkNodes(b.Pipe, f)
	walkNodes(b.List, f)
	walkNodes(b.ElseList, f)
}

// missingDependencies lists the dependencies Chart.yaml declares that charts/ does not hold.
// One with a condition or tags may be off by default, so it is only noted (info).
func missingDependencies(fsys *confine.FS, dir string, ch *chart.Chart) []inventory.UnresolvedObject {
	if ch.Metadata == nil {
		return nil
	}
	have := map[string]bool{}
	for _, d := range ch.Dependencies() {
		have[d.Name()] = true
	}
	chartFile := filepath.Join(dir, "Chart.yaml")
	text, _ := fsys.ReadFile(chartFile)
	var out []inventory.UnresolvedObject
	for _, d := range ch.Metadata.Dependencies {
		if d == nil || have[d.Name] {
			continue
		}
		u := inventory.UnresolvedObject{
			Source:   "Helm chart " + dir,
			Location: positionOf(chartFile, text, "name: "+d.Name),
			Reason: fmt.Sprintf("its dependency %s %s (%s) is not in charts/, so its objects are not rendered: run helm dependency build, or vendor it",
				d.Name, d.Version, orNone(d.Repository)),
		}
		if d.Condition != "" || len(d.Tags) > 0 {
			u.Severity = "info"
		}
		out = append(out, u)
	}
	return out
}

// positionOf is where needle first appears in text (1-based line and column), or the file
// alone when it does not.
func positionOf(file string, text []byte, needle string) inventory.Position {
	for i, line := range strings.Split(string(text), "\n") {
		if col := strings.Index(line, needle); col >= 0 {
			return inventory.Position{File: file, Line: i + 1, Column: col + 1}
		}
	}
	return inventory.Position{File: file}
}

func orNone(s string) string {
	if s == "" {
		return "no repository"
	}
	return s
}

// maxSetLength bounds one --set or charts set assignment: Helm's parser also bounds list
// indexes, and nothing longer is a value a person writes (a budget).
const maxSetLength = 64 << 10

// ParseSet reads one helm --set style assignment (a.b=c, list[0]=x, several joined by
// commas) with Helm's own parser (helm.sh/helm/v3/pkg/strvals), so that a value means what it
// means to helm template: numbers and booleans typed, "\," and "\." escaped.
func ParseSet(s string) (map[string]any, error) {
	if len(s) > maxSetLength {
		return nil, fmt.Errorf("longer than %d bytes (a budget)", maxSetLength)
	}
	m := map[string]any{}
	if err := strvals.ParseInto(s, m); err != nil {
		return nil, err
	}
	return m, nil
}
