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

	"go.yaml.in/yaml/v3"
)

// SyntaxError is a YAML document that could not be parsed. Line is 0 when the parser did not
// say where.
type SyntaxError struct {
	Line    int
	Message string
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
		return &SyntaxError{Line: line, Message: m[2]}
	}
	if after, ok := bytes.CutPrefix([]byte(msg), []byte("yaml: ")); ok {
		msg = string(after)
	}
	return &SyntaxError{Message: msg}
}

// Documents parses every document of a multi-document stream. Documents before a syntax error
// are returned with it, so one bad document does not hide the good ones above it.
func Documents(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return docs, syntaxError(err)
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			docs = append(docs, n.Content[0])
		}
	}
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
