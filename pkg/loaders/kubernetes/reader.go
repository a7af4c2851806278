package kubernetes

import (
	"fmt"
	"strconv"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// fieldReader reads typed fields out of one document's nodes. Every field it visits has its
// position recorded under its path, and every value of the wrong type becomes a located error
// instead of a panic or a silent zero.
type fieldReader struct {
	file string
	locs *inventory.FieldPositions
	errs []inventory.LoadError
}

func newFieldReader(file string) *fieldReader {
	return &fieldReader{file: file, locs: inventory.NewFieldPositions()}
}

func (r *fieldReader) pos(n *yaml.Node) inventory.Position {
	p := inventory.Position{File: r.file, Line: n.Line, Column: n.Column}
	p.EndLine, p.EndColumn = yamlpos.End(n)
	return p
}

func (r *fieldReader) errorf(n *yaml.Node, format string, args ...any) {
	r.errs = append(r.errs, inventory.LoadError{Position: r.pos(n), Message: fmt.Sprintf(format, args...)})
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// get returns the value of key in the mapping at path parent, recording where the key is.
// A null value counts as absent, as the API server treats it.
func (r *fieldReader) get(m *yaml.Node, parent, key string) *yaml.Node {
	k, v := yamlpos.Lookup(m, key)
	if k == nil {
		return nil
	}
	r.locs.Set(join(parent, key), r.pos(k))
	if yamlpos.IsNull(v) {
		return nil
	}
	return v
}

// mapping returns the mapping at key, or nil (with an error when something else is there).
func (r *fieldReader) mapping(m *yaml.Node, parent, key string) *yaml.Node {
	v := r.get(m, parent, key)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		r.errorf(v, "%s must be a mapping, found %s", join(parent, key), yamlpos.KindName(v))
		return nil
	}
	return v
}

func (r *fieldReader) sequence(m *yaml.Node, parent, key string) []*yaml.Node {
	v := r.get(m, parent, key)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		r.errorf(v, "%s must be a list, found %s", join(parent, key), yamlpos.KindName(v))
		return nil
	}
	out := make([]*yaml.Node, 0, len(v.Content))
	for _, c := range v.Content {
		out = append(out, yamlpos.Resolve(c))
	}
	return out
}

func (r *fieldReader) str(m *yaml.Node, parent, key string) *string {
	v := r.get(m, parent, key)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.ScalarNode {
		r.errorf(v, "%s must be a string, found %s", join(parent, key), yamlpos.KindName(v))
		return nil
	}
	s := v.Value
	return &s
}

func (r *fieldReader) integer(m *yaml.Node, parent, key string) *int {
	v := r.get(m, parent, key)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
		r.errorf(v, "%s must be an integer, found %s", join(parent, key), yamlpos.KindName(v))
		return nil
	}
	n, err := strconv.ParseInt(v.Value, 0, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(v.Value, 64)
		if ferr != nil || f != float64(int64(f)) {
			r.errorf(v, "%s must be an integer, found %q", join(parent, key), v.Value)
			return nil
		}
		n = int64(f)
	}
	if n < 0 || n > inventory.MaxInt32 {
		r.errorf(v, "%s must be between 0 and 2147483647, found %d", join(parent, key), n)
		return nil
	}
	i := int(n)
	return &i
}

func (r *fieldReader) boolean(m *yaml.Node, parent, key string) *bool {
	v := r.get(m, parent, key)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		r.errorf(v, "%s must be true or false, found %s", join(parent, key), yamlpos.KindName(v))
		return nil
	}
	b := v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
	return &b
}

// intOrString reads an IntOrString field (maxSurge) as its string form.
func (r *fieldReader) intOrString(m *yaml.Node, parent, key string) *string {
	v := r.get(m, parent, key)
	if v == nil {
		return nil
	}
	if v.Kind != yaml.ScalarNode {
		r.errorf(v, "%s must be an integer or a percentage, found %s", join(parent, key), yamlpos.KindName(v))
		return nil
	}
	s := v.Value
	return &s
}

// stringMap reads labels, nodeSelector and the like. Values that YAML typed as numbers or
// booleans are kept as written: the API would reject them, but the text is what the user meant.
func (r *fieldReader) stringMap(m *yaml.Node, parent, key string) map[string]string {
	v := r.mapping(m, parent, key)
	out := map[string]string{}
	if v == nil {
		return out
	}
	path := join(parent, key)
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], yamlpos.Resolve(v.Content[i+1])
		if k.Value == "<<" {
			continue
		}
		r.locs.Set(join(path, k.Value), r.pos(k))
		if val.Kind != yaml.ScalarNode {
			r.errorf(val, "%s.%s must be a string, found %s", path, k.Value, yamlpos.KindName(val))
			continue
		}
		out[k.Value] = val.Value
	}
	return out
}

func (r *fieldReader) stringList(m *yaml.Node, parent, key string) []string {
	out := []string{}
	for i, n := range r.sequence(m, parent, key) {
		if n.Kind != yaml.ScalarNode {
			r.errorf(n, "%s[%d] must be a string, found %s", join(parent, key), i, yamlpos.KindName(n))
			continue
		}
		out = append(out, n.Value)
	}
	return out
}

func (r *fieldReader) requirements(m *yaml.Node, parent, key string) []inventory.Requirement {
	out := []inventory.Requirement{}
	path := join(parent, key)
	for i, n := range r.sequence(m, parent, key) {
		p := fmt.Sprintf("%s[%d]", path, i)
		r.locs.Set(p, r.pos(n))
		if n.Kind != yaml.MappingNode {
			r.errorf(n, "%s must be a mapping, found %s", p, yamlpos.KindName(n))
			continue
		}
		req := inventory.Requirement{Values: r.stringList(n, p, "values")}
		if s := r.str(n, p, "key"); s != nil {
			req.Key = *s
		}
		if s := r.str(n, p, "operator"); s != nil {
			req.Operator = *s
		}
		out = append(out, req)
	}
	return out
}

func (r *fieldReader) labelSelector(m *yaml.Node, parent, key string) *inventory.LabelSelector {
	v := r.mapping(m, parent, key)
	if v == nil {
		return nil
	}
	path := join(parent, key)
	return &inventory.LabelSelector{
		MatchLabels:      r.stringMap(v, path, "matchLabels"),
		MatchExpressions: r.requirements(v, path, "matchExpressions"),
	}
}

// taints reads a list of {key, value, effect} at key (NodePool and eksctl taints).
func (r *fieldReader) taints(m *yaml.Node, parent, key string) []inventory.Taint {
	var out []inventory.Taint
	for i, t := range r.sequence(m, parent, key) {
		tp := fmt.Sprintf("%s[%d]", join(parent, key), i)
		r.locs.Set(tp, r.pos(t))
		var taint inventory.Taint
		if s := r.str(t, tp, "key"); s != nil {
			taint.Key = *s
		}
		if s := r.str(t, tp, "value"); s != nil {
			taint.Value = *s
		}
		if s := r.str(t, tp, "effect"); s != nil {
			taint.Effect = *s
		}
		out = append(out, taint)
	}
	return out
}
