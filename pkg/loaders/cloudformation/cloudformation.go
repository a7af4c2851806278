// Package cloudformation reads node groups from CloudFormation templates, YAML (with the short
// intrinsic tags !Ref, !Sub, !If, …) or JSON, including CDK's cdk.out/*.template.json and bare
// resource maps without a Resources wrapper. Parameters resolve to their defaults; anything
// else an intrinsic function would need from a deployed stack is unknown and reported as such.
package cloudformation

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// eksDefaultInstanceType is what EKS gives a managed node group created without instance
// types or a launch template naming one.
const eksDefaultInstanceType = "t3.medium"

type resource struct {
	id    string
	typ   string
	props *yaml.Node
	key   *yaml.Node
}

type template struct {
	file       string
	params     map[string]*yaml.Node // Default values
	mappings   *yaml.Node
	resources  map[string]*resource
	order      []string
	frag       *inventory.Fragment
	refPrefix  string
	unknownWhy string
}

// IsTemplate says whether a document is a CloudFormation template or a bare resource map.
func IsTemplate(doc *yaml.Node) bool {
	if doc == nil || doc.Kind != yaml.MappingNode {
		return false
	}
	if k, _ := yamlpos.Lookup(doc, "AWSTemplateFormatVersion"); k != nil {
		return true
	}
	if _, res := yamlpos.Lookup(doc, "Resources"); res != nil && hasAWSTypes(res) {
		return true
	}
	return hasAWSTypes(doc)
}

func hasAWSTypes(m *yaml.Node) bool {
	if m.Kind != yaml.MappingNode || len(m.Content) == 0 {
		return false
	}
	for i := 1; i < len(m.Content); i += 2 {
		_, t := yamlpos.Lookup(m.Content[i], "Type")
		if t == nil || t.Kind != yaml.ScalarNode || !strings.HasPrefix(t.Value, "AWS::") {
			return false
		}
	}
	return true
}

// Load reads the node groups of one template.
func Load(file string, doc *yaml.Node) inventory.Fragment {
	frag := inventory.Fragment{File: file, Documents: 1}
	t := &template{file: file, params: map[string]*yaml.Node{}, resources: map[string]*resource{}, frag: &frag, refPrefix: "\x00ref:"}
	resources := doc
	if _, res := yamlpos.Lookup(doc, "Resources"); res != nil {
		resources = res
	}
	if _, params := yamlpos.Lookup(doc, "Parameters"); params != nil && params.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(params.Content); i += 2 {
			if _, def := yamlpos.Lookup(params.Content[i+1], "Default"); def != nil {
				t.params[params.Content[i].Value] = def
			} else {
				t.params[params.Content[i].Value] = nil
			}
		}
	}
	_, t.mappings = yamlpos.Lookup(doc, "Mappings")
	if resources.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(resources.Content); i += 2 {
			key, body := resources.Content[i], yamlpos.Resolve(resources.Content[i+1])
			_, typ := yamlpos.Lookup(body, "Type")
			_, props := yamlpos.Lookup(body, "Properties")
			if typ == nil {
				continue
			}
			r := &resource{id: key.Value, typ: typ.Value, props: props, key: key}
			t.resources[r.id] = r
			t.order = append(t.order, r.id)
		}
	}
	for _, id := range t.order {
		r := t.resources[id]
		switch r.typ {
		case "AWS::EKS::Nodegroup":
			frag.NodeGroups = append(frag.NodeGroups, t.managed(r))
		case "AWS::AutoScaling::AutoScalingGroup":
			if g, ok := t.autoScaling(r); ok {
				frag.NodeGroups = append(frag.NodeGroups, g)
			}
		}
	}
	// A template with node groups is one cluster: the stack's.
	for i := range frag.NodeGroups {
		frag.NodeGroups[i].Cluster = inventory.ClusterRef{Kind: "cloudformation", Name: file, Location: inventory.Position{File: file, Line: 1, Column: 1}}
	}
	return frag
}

func (t *template) pos(n *yaml.Node) inventory.Position {
	p := inventory.Position{File: t.file, Line: n.Line, Column: n.Column}
	p.EndLine, p.EndColumn = yamlpos.End(n)
	return p
}

// value evaluates a node: plain values, parameters through Ref, and the intrinsic functions
// that need no deployed stack. The second result says why a value is unknown.
func (t *template) value(n *yaml.Node) (any, string) {
	n = yamlpos.Resolve(n)
	if n == nil {
		return nil, ""
	}
	if fn, arg := intrinsic(n); fn != "" {
		return t.call(fn, arg)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value, ""
	case yaml.SequenceNode:
		var out []any
		for _, c := range n.Content {
			v, why := t.value(c)
			if why != "" {
				return nil, why
			}
			out = append(out, v)
		}
		return out, ""
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, why := t.value(n.Content[i+1])
			if why != "" {
				return nil, why
			}
			out[n.Content[i].Value] = v
		}
		return out, ""
	}
	return nil, ""
}

// intrinsic recognises !Tag short forms and {"Fn::X": …} / {"Ref": …} long forms.
func intrinsic(n *yaml.Node) (string, *yaml.Node) {
	if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
		name := strings.TrimPrefix(n.Tag, "!")
		if name != "Ref" && name != "Condition" {
			name = "Fn::" + name
		}
		arg := *n
		arg.Tag = ""
		if n.Kind == yaml.ScalarNode {
			arg.Tag = "!!str"
		}
		return name, &arg
	}
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 {
		k := n.Content[0].Value
		if k == "Ref" || strings.HasPrefix(k, "Fn::") {
			return k, yamlpos.Resolve(n.Content[1])
		}
	}
	return "", nil
}

// parameter is a parameter's Default. CloudFormation requires a literal there; a Default
// that is itself a Ref or a function (`Default: !Ref P`, which would make evaluation loop) is
// unknown with that reason.
func (t *template) parameter(name string, def *yaml.Node) (any, string) {
	if fn, _ := intrinsic(yamlpos.Resolve(def)); fn != "" {
		return nil, fmt.Sprintf("parameter %s: its Default is %s, not a literal value as CloudFormation requires", name, fn)
	}
	return t.value(def)
}

// maxValueBytes bounds a value an intrinsic builds (Fn::Sub, Fn::Join): CloudFormation itself
// accepts templates of at most 1 MB, and a template whose Sub repeats a long parameter
// hundreds of times asked for 738 MB.
const maxValueBytes = 1 << 20

func (t *template) call(fn string, arg *yaml.Node) (any, string) {
	switch fn {
	case "Ref":
		return t.ref(arg.Value)
	case "Fn::Sub":
		return t.sub(arg)
	case "Fn::If":
		if arg.Kind == yaml.SequenceNode && len(arg.Content) == 3 {
			a, wa := t.value(arg.Content[1])
			b, wb := t.value(arg.Content[2])
			if wa == "" && wb == "" && fmt.Sprint(a) == fmt.Sprint(b) {
				return a, ""
			}
			return nil, fmt.Sprintf("Fn::If on condition %s, decided when the stack is deployed", arg.Content[0].Value)
		}
	case "Fn::Join":
		if arg.Kind == yaml.SequenceNode && len(arg.Content) == 2 {
			return t.join(arg)
		}
	case "Fn::Select":
		if arg.Kind == yaml.SequenceNode && len(arg.Content) == 2 {
			i, err := strconv.Atoi(arg.Content[0].Value)
			list, why := t.value(arg.Content[1])
			if why != "" {
				return nil, why
			}
			if l, ok := list.([]any); ok && err == nil && i >= 0 && i < len(l) {
				return l[i], ""
			}
		}
	case "Fn::FindInMap":
		if arg.Kind == yaml.SequenceNode && len(arg.Content) == 3 && t.mappings != nil {
			if v, why, found := t.findInMap(arg); found {
				return v, why
			}
		}
	}
	return nil, fmt.Sprintf("%s at %s:%d is only known when the stack is deployed", fn, t.file, arg.Line)
}

// ref is a Ref: a parameter's Default, a resource of the template, or what is known only on
// deployment.
func (t *template) ref(name string) (any, string) {
	if def, ok := t.params[name]; ok {
		if def == nil {
			return nil, fmt.Sprintf("parameter %s has no Default (its value is given when the stack is deployed)", name)
		}
		return t.parameter(name, def)
	}
	if _, ok := t.resources[name]; ok {
		return t.refPrefix + name, ""
	}
	return nil, fmt.Sprintf("Ref %s is only known when the stack is deployed", name)
}

// sub is an Fn::Sub with the parameters it names replaced, within maxValueBytes.
func (t *template) sub(arg *yaml.Node) (any, string) {
	text := arg.Value
	if arg.Kind == yaml.SequenceNode && len(arg.Content) > 0 {
		text = arg.Content[0].Value
	}
	var why string
	size := len(text)
	out := subVar.ReplaceAllStringFunc(text, func(m string) string {
		if size > maxValueBytes {
			return "" // over the budget: the value is refused below, not built
		}
		name := m[2 : len(m)-1]
		if def, ok := t.params[name]; ok && def != nil {
			if v, w := t.parameter(name, def); w == "" {
				s := fmt.Sprint(v)
				if size += len(s); size > maxValueBytes {
					why = fmt.Sprintf("Fn::Sub expands to more than %d bytes (a budget: a CloudFormation template is at most 1 MB)", maxValueBytes)
					return ""
				}
				return s
			}
		}
		why = fmt.Sprintf("${%s} in Fn::Sub is only known when the stack is deployed", name)
		return m
	})
	if why != "" {
		return nil, why
	}
	return out, ""
}

// join is an Fn::Join of a known list, within maxValueBytes.
func (t *template) join(arg *yaml.Node) (any, string) {
	parts, why := t.value(arg.Content[1])
	if why != "" {
		return nil, why
	}
	list, _ := parts.([]any)
	var ss []string
	size := 0
	for _, p := range list {
		s := fmt.Sprint(p)
		if size += len(s) + len(arg.Content[0].Value); size > maxValueBytes {
			return nil, fmt.Sprintf("Fn::Join expands to more than %d bytes (a budget: a CloudFormation template is at most 1 MB)", maxValueBytes)
		}
		ss = append(ss, s)
	}
	return strings.Join(ss, arg.Content[0].Value), ""
}

// findInMap is an Fn::FindInMap of known keys; found is false when the map has no such entry.
func (t *template) findInMap(arg *yaml.Node) (value any, why string, found bool) {
	var keys []string
	for _, c := range arg.Content {
		k, why := t.value(c)
		if why != "" {
			return nil, why, true
		}
		keys = append(keys, fmt.Sprint(k))
	}
	_, m := yamlpos.Lookup(t.mappings, keys[0])
	_, m = yamlpos.Lookup(m, keys[1])
	_, v := yamlpos.Lookup(m, keys[2])
	if v == nil {
		return nil, "", false
	}
	value, why = t.value(v)
	return value, why, true
}
