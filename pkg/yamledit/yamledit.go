// Package yamledit changes one field of a YAML document in the text itself, so that everything
// else in the file stays byte for byte as it was: comments, key order, quoting, indentation,
// blank lines, the other documents of the stream, CRLF line endings and the final newline.
//
// It parses the stream with go.yaml.in/yaml/v3 (through yamlpos, with its budgets) only to
// find where things are; the edit itself is a splice of the original bytes: a scalar's token
// replaced, or new lines inserted after the key of the mapping that gains the field. A field
// it cannot change that way (a flow mapping, a block scalar, an alias, a value on the key's
// line) is an error that says why, never a rewrite of the document.
package yamledit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// Edit replaces the bytes [Start, End) of a file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Apply returns data with the edit made.
func (e Edit) Apply(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(e.Text))
	out = append(out, data[:e.Start]...)
	out = append(out, e.Text...)
	return append(out, data[e.End:]...)
}

// Error says why a field cannot be edited in place; the caller shows the change instead.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

func refuse(path, format string, args ...any) error {
	return &Error{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// SetInt makes the field at path (dot-separated keys, e.g. spec.jobTemplate.spec.backoffLimit)
// hold value in the document whose root node starts on docLine (1-based; 0 for the only
// document). changed is false when the field already holds the value: nothing to do.
func SetInt(data []byte, docLine int, path string, value int) (edit Edit, changed bool, err error) {
	// Only the document to edit is parsed: a file of N documents edited once per document
	// (fix, SARIF's fixes) cost N full parses each, quadratic in the file. Its text is found
	// by the document markers, which end any YAML construct; when that does not find it, the
	// whole file is parsed as before.
	root := documentAt(data, docLine)
	var perr error
	if root == nil {
		// Documents that parse are returned with the error of a later one: the one to edit
		// may still be among them.
		var docs []*yaml.Node
		docs, perr = yamlpos.Documents(data)
		for _, d := range docs {
			if docLine == 0 && len(docs) == 1 || d.Line == docLine {
				root = d
				break
			}
		}
	}
	if root == nil && perr != nil {
		return Edit{}, false, refuse(path, "the file does not parse as YAML: %v", perr)
	}
	if root == nil {
		return Edit{}, false, refuse(path, "no document starts on line %d", docLine)
	}
	lines := lineStarts(data)
	keys := strings.Split(path, ".")
	node := root
	var parentKey *yaml.Node
	for i, key := range keys {
		if node.Kind != yaml.MappingNode {
			return Edit{}, false, refuse(path, "%s is not a mapping", strings.Join(keys[:i], "."))
		}
		k, v := lookup(node, key)
		if k == nil {
			return insert(data, lines, path, node, parentKey, keys[i:], value)
		}
		parentKey, node = k, v
	}
	return replace(data, lines, path, node, value)
}

// documentAt parses the one document whose root node starts on line docLine, found between
// the document markers (a line that starts with "---" or "..."; a marker line ends every
// construct, block scalars included) around it, with its node lines as in the whole file.
// It returns nil when docLine is 0 or the document is not found so.
func documentAt(data []byte, docLine int) *yaml.Node {
	if docLine <= 0 {
		return nil
	}
	isMarker := func(l []byte) bool {
		return (bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("..."))) &&
			(len(l) == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r' || l[3] == '\n')
	}
	start, startLine, end := 0, 1, len(data)
	line, found := 1, false
	for off := 0; off < len(data); line++ {
		next := bytes.IndexByte(data[off:], '\n')
		lineEnd := len(data)
		if next >= 0 {
			lineEnd = off + next + 1
		}
		if isMarker(data[off:lineEnd]) {
			if line <= docLine {
				start, startLine = off, line
			} else if found {
				end = off
				break
			}
		}
		if line == docLine {
			found = true
		}
		off = lineEnd
	}
	if !found {
		return nil
	}
	docs, err := yamlpos.Documents(data[start:end])
	if err != nil {
		return nil
	}
	var root *yaml.Node
	for _, d := range docs {
		if d.Line+startLine-1 == docLine {
			root = d
		}
	}
	if root == nil {
		return nil
	}
	var shift func(n *yaml.Node)
	seen := map[*yaml.Node]bool{}
	shift = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		n.Line += startLine - 1
		for _, c := range n.Content {
			shift(c)
		}
	}
	shift(root)
	return root
}

// lookup finds a key in a mapping as written: no alias or merge key is followed, since the
// edit must land in this document's own text.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// replace swaps a scalar's token for the new value, in the same quoting.
func replace(data []byte, lines []int, path string, n *yaml.Node, value int) (Edit, bool, error) {
	if n.Kind == yaml.AliasNode {
		return Edit{}, false, refuse(path, "the value is an alias (*%s): change its anchor instead", n.Value)
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "" && n.Tag != "!!int" && n.Tag != "!!str" && n.Tag != "!!null" {
		return Edit{}, false, refuse(path, "the value is not a number")
	}
	if n.Value == strconv.Itoa(value) {
		return Edit{}, false, nil
	}
	start, ok := offset(data, lines, n.Line, n.Column)
	if !ok {
		return Edit{}, false, refuse(path, "the value's position is outside the file")
	}
	var token, text string
	switch n.Style {
	case 0:
		token, text = n.Value, strconv.Itoa(value)
		if n.Tag == "!!null" && n.Value == "" {
			return Edit{}, false, refuse(path, "the value is empty")
		}
	case yaml.DoubleQuotedStyle:
		token, text = `"`+n.Value+`"`, `"`+strconv.Itoa(value)+`"`
	case yaml.SingleQuotedStyle:
		token, text = `'`+n.Value+`'`, `'`+strconv.Itoa(value)+`'`
	default:
		return Edit{}, false, refuse(path, "the value is a block or tagged scalar")
	}
	if !bytes.HasPrefix(data[start:], []byte(token)) {
		return Edit{}, false, refuse(path, "the value is written in a form eni-lint does not edit")
	}
	return Edit{Start: start, End: start + len(token), Text: text}, true, nil
}

// insert adds the missing keys (the last one with the value) as new lines right after the line
// of the key that holds mapping m, at the indentation of m's keys. Inserting there, not after
// the mapping's last entry, keeps any comment above m's first key next to that key.
func insert(data []byte, lines []int, path string, m, parentKey *yaml.Node, missing []string, value int) (Edit, bool, error) {
	if m.Style&yaml.FlowStyle != 0 {
		return Edit{}, false, refuse(path, "the mapping is written in flow style ({…})")
	}
	if parentKey == nil {
		return Edit{}, false, refuse(path, "the field would be a top-level key of the document")
	}
	if len(m.Content) == 0 || m.Line <= parentKey.Line {
		return Edit{}, false, refuse(path, "the mapping starts on the line of its key")
	}
	first := m.Content[0]
	indent := first.Column - 1
	lineStart, ok := offset(data, lines, first.Line, 1)
	if !ok {
		return Edit{}, false, refuse(path, "the mapping's position is outside the file")
	}
	prefix, ok := offset(data, lines, first.Line, first.Column)
	if !ok || strings.Trim(string(data[lineStart:prefix]), " ") != "" {
		return Edit{}, false, refuse(path, "the mapping's first key does not start its line")
	}
	step := first.Column - parentKey.Column
	if step <= 0 {
		step = 2
	}
	if parentKey.Line >= len(lines) {
		return Edit{}, false, refuse(path, "the key is on the file's last line")
	}
	at := lines[parentKey.Line] // the start of the line after the key
	nl := "\n"
	if at >= 2 && data[at-2] == '\r' {
		nl = "\r\n"
	}
	for _, key := range missing {
		if !plainKey(key) {
			return Edit{}, false, refuse(path, "%q is not a field name eni-lint writes", key)
		}
	}
	var b strings.Builder
	for i, key := range missing {
		b.WriteString(strings.Repeat(" ", indent+i*step) + key + ":")
		if i == len(missing)-1 {
			b.WriteString(" " + strconv.Itoa(value))
		}
		b.WriteString(nl)
	}
	return Edit{Start: at, End: at, Text: b.String()}, true, nil
}

// plainKey is a field name that needs no quoting: what Kubernetes API fields are.
func plainKey(key string) bool {
	if key == "" || !(key[0] >= 'a' && key[0] <= 'z' || key[0] >= 'A' && key[0] <= 'Z') {
		return false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// lineStarts are the byte offsets where each line starts; the file's line n (1-based) starts at
// lineStarts[n-1]. A last line without a newline counts; the slot after a final newline does
// not start a line, so inserting after the file's last line is refused.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offset turns a yaml.v3 line and column (1-based, columns in characters) into a byte offset.
func offset(data []byte, lines []int, line, column int) (int, bool) {
	if line < 1 || line > len(lines) || column < 1 {
		return 0, false
	}
	at := lines[line-1]
	for c := 1; c < column; c++ {
		if at >= len(data) || data[at] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(data[at:])
		at += size
	}
	return at, true
}
