// Package yamlpos reads YAML into go.yaml.in/yaml/v3 nodes and walks them with the positions
// kept, so that everything eni-lint reports can point at the exact line and column of a field.
// It is shared by the Kubernetes loader and the config file reader.
package yamlpos

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// SyntaxError is a YAML document that could not be parsed or is refused: a syntax error
// (Syntax is true), a duplicate key, an alias cycle, or a budget exceeded. Line is 0 when the
// parser did not say where.
type SyntaxError struct {
	Line    int
	Column  int
	Message string
	Syntax  bool
}

// Problems are several refused documents of one stream; Errors unpacks any error Documents
// returns.
type Problems []*SyntaxError

func (p Problems) Error() string {
	msgs := make([]string, len(p))
	for i, e := range p {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap lets errors.As find each problem.
func (p Problems) Unwrap() []error {
	out := make([]error, len(p))
	for i, e := range p {
		out[i] = e
	}
	return out
}

// Errors lists the problems in an error from Documents.
func Errors(err error) []*SyntaxError {
	var ps Problems
	var se *SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ps):
		return ps
	case errors.As(err, &se):
		return []*SyntaxError{se}
	}
	return []*SyntaxError{{Message: err.Error()}}
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	return e.Message
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the messages of yaml.v3's parser (not its scanner). For those it
// reports the 0-based line where the enclosing construct starts, one less than the line a
// person counts; scanner errors are already 1-based.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

func syntaxError(err error) *SyntaxError {
	msg := err.Error()
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++
		}
		return &SyntaxError{Line: line, Message: m[2], Syntax: true}
	}
	if after, ok := bytes.CutPrefix([]byte(msg), []byte("yaml: ")); ok {
		msg = string(after)
	}
	return &SyntaxError{Message: msg, Syntax: true}
}

// firstInvalidUTF8 is the line and column (1-based, in characters) of the first byte of data
// that is not UTF-8; 0, 0 when all of it is.
func firstInvalidUTF8(data []byte) (line, column int) {
	line, column = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, column
		}
		if r == '\n' {
			line, column = line+1, 1
		} else {
			column++
		}
		i += size
	}
	return 0, 0
}

// Limits are the budgets of one YAML stream. A pull request may hold a few hundred bytes that
// expand to billions of nodes through aliases, or a million empty documents; past a budget the
// document (or the rest of the stream) is refused with its line, never expanded.
type Limits struct {
	// MaxDocuments is how many documents one stream may hold (--max-documents).
	MaxDocuments int
	// MaxAliasNodes is how many nodes one stream may reach through aliases and merge keys,
	// counted as if every alias were copied out; a scalar counts one node per
	// aliasBytesPerNode bytes of its text, so that an alias of a long string counts what its
	// expansion writes, not one node.
	MaxAliasNodes int64
}

// aliasBytesPerNode is what a scalar's text weighs against MaxAliasNodes: a million nodes are
// then at most 64 MB of expanded text. A CloudFormation !Join over an alias of a long string,
// and a Terraform yamldecode() of a chain of them, counted one node per alias and ran out of
// memory.
const aliasBytesPerNode = 64

// Default budgets: far above what real manifests, charts' output or CloudFormation templates
// hold, far below what exhausts memory.
const (
	DefaultMaxDocuments  = 10000
	DefaultMaxAliasNodes = 1000000
)

// DefaultLimits are the budgets Documents applies.
var DefaultLimits = Limits{MaxDocuments: DefaultMaxDocuments, MaxAliasNodes: DefaultMaxAliasNodes}

// Documents parses every document of a multi-document stream within DefaultLimits.
func Documents(data []byte) ([]*yaml.Node, error) {
	return DocumentsWithin(data, DefaultLimits)
}

// DocumentsWithin parses every document of a multi-document stream. Documents before a syntax
// error are returned with it, so one bad document does not hide the good ones above it. A
// document with a duplicate key (Kubernetes' strict decoding refuses it, and a second `spec`
// would otherwise hide behind the first), an alias cycle, or more alias expansion than the
// budget left is left out and reported with its line; so is everything after the document
// budget.
func DocumentsWithin(data []byte, lim Limits) ([]*yaml.Node, error) {
	if lim.MaxDocuments <= 0 {
		lim.MaxDocuments = DefaultMaxDocuments
	}
	if lim.MaxAliasNodes <= 0 {
		lim.MaxAliasNodes = DefaultMaxAliasNodes
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	var problems Problems
	count := 0
	aliasBudget := lim.MaxAliasNodes
	done := func() ([]*yaml.Node, error) {
		switch len(problems) {
		case 0:
			return docs, nil
		case 1:
			return docs, problems[0]
		}
		return docs, problems
	}
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return done()
		}
		if err != nil {
			se := syntaxError(err)
			if line, column, context := problemMark(data, se.Message); line > 0 {
				se.Line, se.Column = line, column
				if context != "" {
					se.Message += " (" + context + ")"
				}
			}
			if se.Line == 0 && strings.Contains(se.Message, "UTF-8") {
				// yaml.v3's reader says the bytes are not UTF-8 but not where: the first
				// byte that is not is the place to look.
				se.Line, se.Column = firstInvalidUTF8(data)
			}
			problems = append(problems, se)
			return done()
		}
		count++
		if count > lim.MaxDocuments {
			problems = append(problems, &SyntaxError{Line: n.Line, Column: n.Column,
				Message: fmt.Sprintf("more than %d documents in one file (--max-documents): this one and the rest are not read", lim.MaxDocuments)})
			return done()
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			c := &checker{state: map[*yaml.Node]uint8{}, size: map[*yaml.Node]int64{}, budget: aliasBudget, limit: lim.MaxAliasNodes}
			c.visit(n.Content[0])
			if c.problem != nil {
				problems = append(problems, c.problem)
				continue
			}
			aliasBudget -= c.aliased
			docs = append(docs, n.Content[0])
		}
	}
}

// checker walks one document once, in document order, working out how many nodes each node
// stands for with aliases expanded (memoised, so the walk is linear in the text), and finds
// alias cycles and duplicate keys.
type checker struct {
	state   map[*yaml.Node]uint8 // 1 while its children are walked, 2 when done
	size    map[*yaml.Node]int64 // nodes a node stands for, aliases expanded, capped at budget+1
	budget  int64                // nodes the stream may still reach through aliases
	aliased int64                // nodes reached through aliases so far
	limit   int64                // the stream's whole alias budget, for the message
	problem *SyntaxError
}

func (c *checker) fail(n *yaml.Node, format string, args ...any) {
	if c.problem == nil {
		c.problem = &SyntaxError{Line: n.Line, Column: n.Column, Message: fmt.Sprintf(format, args...) + ": this document is not read"}
	}
}

func capped(a, b, limit int64) int64 {
	if a+b > limit {
		return limit + 1
	}
	return a + b
}

func (c *checker) visit(n *yaml.Node) int64 {
	if c.problem != nil || n == nil {
		return 0
	}
	if n.Kind == yaml.AliasNode {
		target := n.Alias
		switch c.state[target] {
		case 1:
			c.fail(n, "alias *%s refers to a node that contains it (an alias cycle)", n.Value)
			return 0
		case 0:
			c.visit(target) // not reached in well-formed YAML: anchors come before their aliases
		}
		s := c.size[target]
		c.aliased = capped(c.aliased, s, c.budget)
		if c.aliased > c.budget {
			c.fail(n, "aliases and merge keys expand this file to more than %d nodes, or %d MB of text (an alias bomb)", c.limit, c.limit*aliasBytesPerNode>>20)
			return 0
		}
		return s
	}
	if c.state[n] == 2 {
		return c.size[n]
	}
	c.state[n] = 1
	total := 1 + int64(len(n.Value))/aliasBytesPerNode
	if n.Kind == yaml.MappingNode {
		keys := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Value != "<<" {
				if first, ok := keys[k.Value]; ok {
					c.fail(k, "duplicate key %q (first at line %d): Kubernetes' strict decoding refuses it", k.Value, first.Line)
					return 0
				}
				keys[k.Value] = k
			}
		}
	}
	for _, child := range n.Content {
		total = capped(total, c.visit(child), c.budget)
		if c.problem != nil {
			return 0
		}
	}
	c.state[n] = 2
	c.size[n] = total
	return total
}

// Resolve follows aliases.
func Resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// Lookup finds key in a mapping node (following aliases and `<<` merge keys) and returns the
// key node and the value node, or nils.
func Lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && m.Content[i].Kind == yaml.ScalarNode {
			return m.Content[i], Resolve(m.Content[i+1])
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "<<" {
			merged := Resolve(m.Content[i+1])
			if merged != nil && merged.Kind == yaml.SequenceNode {
				for _, s := range merged.Content {
					if k, v := Lookup(s, key); k != nil {
						return k, v
					}
				}
			} else if k, v := Lookup(merged, key); k != nil {
				return k, v
			}
		}
	}
	return nil, nil
}

// IsNull reports whether a node is absent or an explicit null.
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// KindName names a node kind for error messages.
func KindName(n *yaml.Node) string {
	n = Resolve(n)
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Tag == "!!str":
		return "a string"
	case n.Tag == "!!int":
		return "an integer"
	case n.Tag == "!!bool":
		return "a boolean"
	case n.Tag == "!!null":
		return "null"
	default:
		return "a " + n.Tag + " value"
	}
}

// End returns where a scalar node ends in the source (the line, and the column just after its
// last character), when the node's text can be measured from its value: a plain scalar, or a
// quoted one without escapes, on one line. Else 0, 0.
func End(n *yaml.Node) (line, column int) {
	// An anchor or an explicit tag before the value is not in the node: its width is unknown.
	if n == nil || n.Kind != yaml.ScalarNode || n.Line == 0 || n.Column == 0 || n.Anchor != "" || strings.ContainsAny(n.Value, "\n\r") {
		return 0, 0
	}
	width := utf8.RuneCountInString(n.Value)
	switch n.Style {
	case 0:
	case yaml.DoubleQuotedStyle:
		if strings.ContainsAny(n.Value, "\"\\") || strings.IndexFunc(n.Value, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			return 0, 0
		}
		width += 2
	case yaml.SingleQuotedStyle:
		if strings.Contains(n.Value, "'") {
			return 0, 0
		}
		width += 2
	default:
		return 0, 0
	}
	return n.Line, n.Column + width
}
