// Package helm maps rendered Helm output back to the chart. `helm template` writes a
// `# Source: CHART/templates/FILE.yaml` comment before each document; eni-lint reads the
// rendered objects and points their fields at the template file, at the line where the same
// key appears there (templates are not YAML until rendered, so the key is found by its text and
// indentation; a field the template does not spell out points at the nearest enclosing key).
package helm

import (
	"path"
	"path/filepath"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// SourceOf returns the template path a rendered document names in its `# Source:` comment.
func SourceOf(doc *yaml.Node) string {
	comments := []string{doc.HeadComment}
	if doc.Kind == yaml.MappingNode && len(doc.Content) > 0 {
		comments = append(comments, doc.Content[0].HeadComment) // yaml.v3 attaches it to the first key
	}
	for _, c := range comments {
		for _, line := range strings.Split(c, "\n") {
			if s, ok := strings.CutPrefix(strings.TrimSpace(line), "# Source:"); ok {
				return strings.TrimSpace(s)
			}
		}
	}
	return ""
}

// template is a template file's lines.
type template struct {
	path  string
	lines []string
	// offset is the line index of lines[0] in the file: a document of the template is a view
	// of its lines, not a copy padded to the file's length (which made a stream of many
	// documents of one template quadratic).
	offset int
	// docs are the template's documents (split at --- lines): where each starts and ends, and
	// the kind its `kind:` line names, so that each rendered object is found in its own;
	// byKind the same by kind, in order.
	docs   []templateDoc
	byKind map[string][]templateDoc
}

type templateDoc struct {
	from, to int // line indexes, [from, to)
	kind     string
}

// split finds the documents of a template.
func (t *template) split() {
	start := 0
	flush := func(end int) {
		kind := ""
		for _, line := range t.lines[start:end] {
			if k, ok := strings.CutPrefix(strings.TrimSpace(line), "kind:"); ok && !strings.HasPrefix(line, " ") {
				kind = strings.Trim(strings.TrimSpace(k), `"'`)
				break
			}
		}
		t.docs = append(t.docs, templateDoc{from: start, to: end, kind: kind})
		if t.byKind == nil {
			t.byKind = map[string][]templateDoc{}
		}
		t.byKind[kind] = append(t.byKind[kind], t.docs[len(t.docs)-1])
	}
	for i, line := range t.lines {
		if strings.HasPrefix(line, "---") {
			flush(i)
			start = i + 1
		}
	}
	flush(len(t.lines))
}

// doc is the n-th (0-based) document of the template whose kind is kind, or the whole
// template when there is no such document (a kind the template computes, a document
// rendered more than once from a range loop).
func (t *template) doc(kind string, n int) *template {
	same := t.byKind[kind]
	if len(t.docs) < 2 || n >= len(same) {
		return t
	}
	d := same[n]
	return &template{path: t.path, lines: t.lines[d.from:d.to], offset: d.from}
}

// Locator finds fields of rendered objects in their template files. roots are the folders the
// `# Source:` paths are relative to (the current folder, and a chart's parent folder). It reads
// through the run's confined file system, each template once, and is safe for concurrent use:
// the run makes one for all documents.
type Locator struct {
	fsys  *confine.FS
	roots []string
	mu    sync.Mutex
	cache map[string]*template
	// charts indexes the folders a few levels below the roots by name, built once on the first
	// source that is not directly below a root: a `# Source:` path then costs a map lookup and
	// a read per folder of the chart's name, whatever the size of the checkout. (Looking for
	// each source through every folder again cost seconds per thousand documents.)
	charts  map[string][]string
	indexed bool
}

// Bounds of the chart index: how deep below a root a chart folder is looked for (`helm
// template ./deploy/charts/billing` names templates billing/templates/…), and how many folders
// are listed at most; past that, a source in an unlisted folder is not located (its findings
// name the template without a line).
const (
	chartDepth      = 4
	chartIndexLimit = 100000
)

// NewLocator makes a locator looking for templates under roots.
func NewLocator(fsys *confine.FS, roots ...string) *Locator {
	return &Locator{fsys: fsys, roots: roots, cache: map[string]*template{}}
}

// safeSource reports whether a `# Source:` path names a file below a root: the comment is
// text of the pull request, and must not lead eni-lint to open /etc/passwd.
func safeSource(source string) bool {
	if source == "" || filepath.IsAbs(source) || strings.HasPrefix(source, "/") || strings.HasPrefix(source, "\\") {
		return false
	}
	for _, seg := range strings.FieldsFunc(source, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return false
		}
	}
	return filepath.VolumeName(source) == ""
}

// index lists the folders from one to chartDepth levels below each root, nearer first (the
// order in which a chart is preferred), by name. Hidden folders are skipped.
func (l *Locator) index() {
	l.indexed = true
	l.charts = map[string][]string{}
	if l.fsys == nil {
		return
	}
	left := chartIndexLimit
	for _, root := range l.roots {
		folders, _ := l.fsys.Folders(root, chartDepth, left, func(name string) bool { return strings.HasPrefix(name, ".") })
		left -= len(folders)
		for _, p := range folders {
			name := filepath.Base(p)
			l.charts[name] = append(l.charts[name], p)
		}
	}
}

func (l *Locator) template(source string) *template {
	// One key per file, however the comment spells it (./a/x.yaml, a//x.yaml, a/../a/x.yaml):
	// the cache was keyed by the spelling, and a stream of spellings filled memory.
	source = path.Clean(filepath.ToSlash(source))
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.cache[source]; ok {
		return t
	}
	var t *template
	if safeSource(source) && l.fsys != nil {
		read := func(p string) bool {
			data, err := l.fsys.ReadFile(p)
			if err != nil {
				return false
			}
			t = &template{path: filepath.Clean(p), lines: strings.Split(string(data), "\n")}
			t.split()
			return true
		}
		found := false
		for _, root := range l.roots {
			if found = read(filepath.Join(root, source)); found {
				break
			}
		}
		if !found {
			if !l.indexed {
				l.index()
			}
			chart, rest, _ := strings.Cut(filepath.ToSlash(source), "/")
			for _, dir := range l.charts[chart] {
				if read(filepath.Join(dir, filepath.FromSlash(rest))) {
					break
				}
			}
		}
	}
	if len(l.cache) < maxCachedTemplates {
		l.cache[source] = t
	}
	return t
}

// maxCachedTemplates bounds the locator's cache: a stream can name any number of templates
// that do not exist; past this many, a source is looked up again each time.
const maxCachedTemplates = 4096

// Relocate points every position of the fragment's objects at the template file: fields at the
// line of their key, found by walking the path's keys in order with growing indentation. The
// document start is the template's `kind:` line.
func (l *Locator) Relocate(frag *inventory.Fragment, source string) {
	l.RelocateCounting(frag, source, map[string]int{})
}

// RelocateCounting is Relocate for a template's documents handed over one at a time (helm
// template output on standard input): seen counts the objects of each kind of this template
// located so far, and the next one is looked for in the next document of its kind.
func (l *Locator) RelocateCounting(frag *inventory.Fragment, source string, seen map[string]int) {
	t := l.template(source)
	fix := func(o *inventory.Object) {
		in := t
		if t != nil {
			in = t.doc(o.Kind, seen[o.Kind])
			seen[o.Kind]++
		}
		o.Locations.Update(func(path string, _ inventory.Position) inventory.Position { return in.locate(path, source) })
		o.ID = strings.SplitN(o.ID, "@", 2)[0] + "@" + source
		o.Origin = inventory.Origin{Kind: inventory.OriginHelm}
	}
	frag.EachObject(fix)
	for i := range frag.Workloads {
		for j := range frag.Workloads[i].Pod.PodENIRequests {
			frag.Workloads[i].Pod.PodENIRequests[j].Location = t.locate("", source)
		}
	}
	for i := range frag.Errors {
		frag.Errors[i].Position = t.locate("", source)
	}
}

// locate finds a field path in the template; without the template file, the position names
// the template with no line.
func (t *template) locate(path, source string) inventory.Position {
	if t == nil {
		return inventory.Position{File: source}
	}
	start := 0
	for i, line := range t.lines {
		if strings.HasPrefix(strings.TrimSpace(line), "kind:") {
			start = i
			break
		}
	}
	pos := inventory.Position{File: t.path, Line: t.offset + start + 1, Column: 1}
	if path == "" {
		return pos
	}
	indent := -1
	from := 0
	for _, key := range strings.Split(path, ".") {
		if i := strings.Index(key, "["); i >= 0 {
			key = key[:i] // list items: stay on the list's key
		}
		if key == "" {
			continue
		}
		found := false
		for n := from; n < len(t.lines); n++ {
			line := t.lines[n]
			trimmed := strings.TrimLeft(line, " ")
			trimmed = strings.TrimPrefix(trimmed, "- ")
			ind := len(line) - len(strings.TrimLeft(line, " "))
			if strings.TrimSpace(line) != "" && ind <= indent && !strings.HasPrefix(strings.TrimSpace(line), "{{") && !strings.HasPrefix(strings.TrimSpace(line), "#") {
				break // left the enclosing mapping
			}
			if strings.HasPrefix(trimmed, key+":") && ind > indent {
				pos = inventory.Position{File: t.path, Line: t.offset + n + 1, Column: ind + 1}
				indent, from, found = ind, n+1, true
				break
			}
		}
		if !found {
			break
		}
	}
	return pos
}
