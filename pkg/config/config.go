// Package config reads .eni-lint.yaml and the node groups given on the command line. It knows
// where settings come from; it does not apply them (the CLI does, flags first).
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// FileName is the config file eni-lint looks for.
const FileName = ".eni-lint.yaml"

// File is the content of .eni-lint.yaml.
type File struct {
	Path       string                     `yaml:"-"`
	Paths      []string                   `yaml:"paths"`
	Exclude    []string                   `yaml:"exclude"`
	NodeGroups []NodeGroup                `yaml:"nodeGroups"`
	Limits     map[string]limits.Override `yaml:"limits"`
	ENIRelease string                     `yaml:"eniRelease"`
	Cooldown   string                     `yaml:"cooldown"`
	// Disruptions: pods of one run disrupted and replaced (restartPolicy OnFailure), default 0.
	Disruptions *int   `yaml:"disruptions"`
	Namespace   string `yaml:"namespace"`
	FailOn      string `yaml:"failOn"`
	Baseline    string `yaml:"baseline"`
	// EachVarFile is a glob of Terraform var files, one environment each (--each-var-file).
	EachVarFile string   `yaml:"eachVarFile"`
	Policies    []string `yaml:"policies"`
	// AllowInlineIgnores lets eni-lint.io/ignore annotations suppress findings (default true);
	// rules.<ID>.allowInlineIgnores overrides it per rule.
	AllowInlineIgnores *bool                 `yaml:"allowInlineIgnores"`
	Rules              map[string]RuleConfig `yaml:"rules"`
	Ignores            []Ignore              `yaml:"ignores"`
	// Charts are Helm charts to render, each with its own values (paths relative to the
	// config file's folder).
	Charts []Chart `yaml:"charts"`
	// TerraformPlans are `terraform show -json` outputs of plans or states, each replacing
	// the static evaluation of its root module (the plan file's folder unless root says).
	TerraformPlans []TerraformPlan `yaml:"terraformPlans"`
	// Clusters map infrastructure and manifests to clusters, each judged on its own; what
	// they do not name is discovered (docs/model.md, "Clusters").
	Clusters []Cluster `yaml:"clusters"`

	// lines are where top-level keys are, for `eni-lint config show`.
	lines map[string]int
}

// Chart is one entry of charts: a chart folder and what to render it with, as `helm template`
// takes them: values files (later ones win), --set style assignments applied after them, the
// release name and the namespace of objects that name none.
type Chart struct {
	Path        string   `yaml:"path"`
	Values      []string `yaml:"values"`
	Set         []string `yaml:"set"`
	ReleaseName string   `yaml:"releaseName"`
	Namespace   string   `yaml:"namespace"`

	location inventory.Position
}

// TerraformPlan is one entry of terraformPlans: the JSON file, and the root module it is of.
type TerraformPlan struct {
	File string `yaml:"file"`
	Root string `yaml:"root"`
}

// Cluster is one entry of clusters: its name, the infrastructure that defines its nodes
// (Terraform roots, eksctl and CloudFormation files, NodePools), the manifests deployed to it,
// the var files its Terraform roots are evaluated with, and node groups of its own. Paths are
// relative to the config file's folder.
type Cluster struct {
	Name           string      `yaml:"name"`
	Infrastructure []string    `yaml:"infrastructure"`
	Manifests      []string    `yaml:"manifests"`
	VarFiles       []string    `yaml:"varFiles"`
	NodeGroups     []NodeGroup `yaml:"nodeGroups"`

	location inventory.Position
}

// Location is where the entry is written in the config file.
func (c Cluster) Location() inventory.Position { return c.location }

// Location is where the entry is written in the config file.
func (c Chart) Location() inventory.Position { return c.location }

// RuleConfig tunes one rule.
type RuleConfig struct {
	Severity           string `yaml:"severity"`
	Disabled           bool   `yaml:"disabled"`
	AllowInlineIgnores *bool  `yaml:"allowInlineIgnores"`
}

// Ignore suppresses findings the team cannot fix where they are (vendored charts): by rule,
// path globs and object. A reason is required.
type Ignore struct {
	Rule    string       `yaml:"rule"`
	Paths   []string     `yaml:"paths"`
	Object  *ObjectMatch `yaml:"object"`
	Reason  string       `yaml:"reason"`
	Expires string       `yaml:"expires"`

	location inventory.Position
}

// ObjectMatch selects objects by kind, namespace and name; each is a glob, empty matches all.
type ObjectMatch struct {
	Kind      string `yaml:"kind"`
	Namespace string `yaml:"namespace"`
	Name      string `yaml:"name"`
}

// Location is where the ignore entry is written.
func (ig Ignore) Location() inventory.Position { return ig.location }

// Line returns the line of a top-level key, 0 when the file does not set it.
func (f *File) Line(key string) int { return f.lines[key] }

// NodeGroup is one entry of nodeGroups.
type NodeGroup struct {
	Name          string            `yaml:"name"`
	InstanceTypes []string          `yaml:"instanceTypes"`
	Labels        map[string]string `yaml:"labels"`
	Taints        []Taint           `yaml:"taints"`
	MaxPods       *int              `yaml:"maxPods"`

	location      inventory.Position
	typeLocations []inventory.Position
}

// Taint is a node taint as written in config.
type Taint struct {
	Key    string `yaml:"key"`
	Value  string `yaml:"value"`
	Effect string `yaml:"effect"`
}

// Error is a config problem with its position.
type Error struct {
	Position inventory.Position
	Message  string
}

func (e *Error) Error() string {
	if e.Position.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Position.File, e.Position.Line, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Position.File, e.Message)
}

// Find returns the first .eni-lint.yaml in dir or its parents, or "" when there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, FileName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found in type`)
var decodeLine = regexp.MustCompile(`line (\d+): (.*)`)

// Load reads and checks a config file. Unknown keys are errors, with their line.
// It is read through pkg/confine: a config file that is a link out of the repository is
// refused, so its target's text never reaches an error message.
func Load(path string) (*File, error) {
	data, err := confine.ReadFileAt(path, 0)
	if err != nil {
		return nil, &Error{Position: inventory.Position{File: path}, Message: "cannot read: " + confine.Reason(err)}
	}
	return Parse(path, data)
}

// Parse reads config text; path is used in positions.
func Parse(path string, data []byte) (*File, error) {
	f, doc, err := decodeConfig(path, data)
	if err != nil || doc == nil {
		return f, err
	}
	f.Path = path
	f.locate(doc)
	if err := f.check(); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeConfig decodes the one YAML document of a config file into File, refusing unknown
// keys; doc is nil for an empty file.
func decodeConfig(path string, data []byte) (*File, *yaml.Node, error) {
	f := &File{Path: path}
	docs, err := yamlpos.Documents(data)
	if errs := yamlpos.Errors(err); len(errs) > 0 {
		se := errs[0]
		msg := se.Message
		if se.Syntax {
			msg = "YAML syntax error: " + msg
		}
		return nil, nil, &Error{Position: inventory.Position{File: path, Line: se.Line}, Message: msg}
	}
	if len(docs) == 0 {
		return f, nil, nil
	}
	if len(docs) > 1 {
		return nil, nil, &Error{Position: inventory.Position{File: path, Line: docs[1].Line}, Message: "a config file holds one YAML document"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(f); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  ")
		if m := unknownField.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, nil, &Error{Position: inventory.Position{File: path, Line: line}, Message: fmt.Sprintf("unknown key %q", m[2])}
		}
		if m := decodeLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, nil, &Error{Position: inventory.Position{File: path, Line: line}, Message: m[2]}
		}
		return nil, nil, &Error{Position: inventory.Position{File: path}, Message: msg}
	}
	return f, docs[0], nil
}

// locate records where the config's keys, ignores, charts, clusters and node groups are, for
// errors and findings.
func (f *File) locate(doc *yaml.Node) {
	path := f.Path
	f.lines = map[string]int{}
	if doc.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(doc.Content); i += 2 {
			f.lines[doc.Content[i].Value] = doc.Content[i].Line
		}
	}
	if _, igs := yamlpos.Lookup(doc, "ignores"); igs != nil && igs.Kind == yaml.SequenceNode {
		for i, item := range igs.Content {
			if i < len(f.Ignores) {
				f.Ignores[i].location = nodePosition(path, item)
			}
		}
	}
	if _, charts := yamlpos.Lookup(doc, "charts"); charts != nil && charts.Kind == yaml.SequenceNode {
		for i, item := range charts.Content {
			if i < len(f.Charts) {
				f.Charts[i].location = nodePosition(path, item)
			}
		}
	}
	if _, clusters := yamlpos.Lookup(doc, "clusters"); clusters != nil && clusters.Kind == yaml.SequenceNode {
		for i, item := range clusters.Content {
			if i >= len(f.Clusters) {
				break
			}
			c := &f.Clusters[i]
			c.location = nodePosition(path, item)
			if k, _ := yamlpos.Lookup(item, "name"); k != nil {
				c.location = nodePosition(path, k)
			}
			if _, groups := yamlpos.Lookup(item, "nodeGroups"); groups != nil && groups.Kind == yaml.SequenceNode {
				locateNodeGroups(path, groups, c.NodeGroups)
			}
		}
	}
	// Positions of each node group and each of its instance types, for findings.
	_, groups := yamlpos.Lookup(doc, "nodeGroups")
	if groups != nil && groups.Kind == yaml.SequenceNode {
		locateNodeGroups(path, groups, f.NodeGroups)
	}
}

// check refuses what the schema cannot: required fields, names used twice, malformed values.
func (f *File) check() error {
	path := f.Path
	names := map[string]bool{}
	for i, c := range f.Clusters {
		switch {
		case c.Name == "":
			return &Error{Position: c.location, Message: fmt.Sprintf("clusters[%d]: name is required", i)}
		case names[c.Name]:
			return &Error{Position: c.location, Message: fmt.Sprintf("clusters[%d]: the name %q is used twice", i, c.Name)}
		case len(c.Infrastructure) == 0 && len(c.NodeGroups) == 0:
			return &Error{Position: c.location, Message: fmt.Sprintf("clusters[%d] (%s): name its infrastructure (paths of Terraform roots, eksctl or CloudFormation files, NodePools) or its nodeGroups", i, c.Name)}
		case len(c.VarFiles) > 0 && len(c.Infrastructure) == 0:
			return &Error{Position: c.location, Message: fmt.Sprintf("clusters[%d] (%s): varFiles apply to the Terraform roots under infrastructure, and it names none", i, c.Name)}
		}
		names[c.Name] = true
		for j, ng := range c.NodeGroups {
			if err := checkNodeGroup(ng.Name, ng.InstanceTypes, ng.Taints); err != nil {
				return &Error{Position: ng.location, Message: fmt.Sprintf("clusters[%d].nodeGroups[%d]: %v", i, j, err)}
			}
		}
	}
	for i, c := range f.Charts {
		if c.Path == "" {
			return &Error{Position: c.location, Message: fmt.Sprintf("charts[%d]: path is required (the chart's folder)", i)}
		}
		for _, s := range c.Set {
			if !strings.Contains(s, "=") {
				return &Error{Position: c.location, Message: fmt.Sprintf("charts[%d].set: %q is not KEY=VALUE", i, s)}
			}
		}
	}
	for i, p := range f.TerraformPlans {
		if p.File == "" {
			return &Error{Position: inventory.Position{File: f.Path, Line: f.Line("terraformPlans")}, Message: fmt.Sprintf("terraformPlans[%d]: file is required (terraform show -json output)", i)}
		}
	}
	for i, ig := range f.Ignores {
		if ig.Rule == "" {
			return &Error{Position: ig.location, Message: fmt.Sprintf("ignores[%d]: rule is required (a rule ID, or * for every rule)", i)}
		}
	}
	for id, rc := range f.Rules {
		if rc.Severity != "" {
			if _, err := findingsSeverity(rc.Severity); err != nil {
				return &Error{Position: inventory.Position{File: path, Line: f.lines["rules"]}, Message: fmt.Sprintf("rules.%s.severity: %v", id, err)}
			}
		}
	}
	for i, ng := range f.NodeGroups {
		if err := checkNodeGroup(ng.Name, ng.InstanceTypes, ng.Taints); err != nil {
			return &Error{Position: ng.location, Message: fmt.Sprintf("nodeGroups[%d]: %v", i, err)}
		}
	}
	return nil
}

// locateNodeGroups sets the positions of node groups and each of their instance types.
func locateNodeGroups(path string, groups *yaml.Node, ngs []NodeGroup) {
	for i, item := range groups.Content {
		if i >= len(ngs) {
			break
		}
		ng := &ngs[i]
		ng.location = inventory.Position{File: path, Line: item.Line, Column: item.Column}
		if k, _ := yamlpos.Lookup(item, "name"); k != nil {
			ng.location = nodePosition(path, k)
		}
		if _, types := yamlpos.Lookup(item, "instanceTypes"); types != nil && types.Kind == yaml.SequenceNode {
			for _, t := range types.Content {
				ng.typeLocations = append(ng.typeLocations, nodePosition(path, t))
			}
		}
	}
}

var validEffects = map[string]bool{"NoSchedule": true, "PreferNoSchedule": true, "NoExecute": true}

func checkNodeGroup(name string, types []string, taints []Taint) error {
	if name == "" {
		return errors.New("a node group needs a name")
	}
	if len(types) == 0 {
		return fmt.Errorf("node group %q lists no instanceTypes", name)
	}
	for _, t := range taints {
		if t.Key == "" {
			return fmt.Errorf("node group %q: a taint needs a key", name)
		}
		if !validEffects[t.Effect] {
			return fmt.Errorf("node group %q: taint %s has effect %q, not NoSchedule, PreferNoSchedule or NoExecute", name, t.Key, t.Effect)
		}
	}
	return nil
}

// relocate renames the file of the group's positions (the config path as the user named it).
func (ng *NodeGroup) relocate(path string) {
	ng.location.File = path
	for i := range ng.typeLocations {
		ng.typeLocations[i].File = path
	}
}

// Spec turns a config node group into the inventory's form.
func (ng NodeGroup) Spec() inventory.NodeGroupSpec {
	s := inventory.NodeGroupSpec{
		Name: ng.Name, Source: "config", Location: ng.location, InstanceTypes: ng.InstanceTypes,
		TypeLocations: ng.typeLocations, Labels: ng.Labels, MaxPods: ng.MaxPods,
	}
	for _, t := range ng.Taints {
		s.Taints = append(s.Taints, inventory.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	return s
}

// ParseNodeGroupFlag reads one --node-group value:
//
//	NAME=TYPE[,TYPE...][;labels=KEY=VALUE[,KEY=VALUE...]][;taints=KEY[=VALUE]:EFFECT[,...]][;maxPods=N]
//
// for example `batch=m5.large,m5.xlarge;labels=team=batch;taints=dedicated=batch:NoSchedule`.
func ParseNodeGroupFlag(value string) (inventory.NodeGroupSpec, error) {
	parts := strings.Split(value, ";")
	name, types, ok := strings.Cut(parts[0], "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(types) == "" {
		// A bare instance type (--node-group m5.large) is the common slip: say the value that
		// names a group of those nodes.
		if !ok && name != "" && strings.Contains(name, ".") && !strings.ContainsAny(name, " =") {
			return inventory.NodeGroupSpec{}, fmt.Errorf("--node-group %q: want NAME=TYPE[,TYPE...]; for a group of %s nodes, write --node-group default=%s", value, name, value)
		}
		return inventory.NodeGroupSpec{}, fmt.Errorf("--node-group %q: want NAME=TYPE[,TYPE...]", value)
	}
	spec := inventory.NodeGroupSpec{
		Name: name, Source: "flag",
		Location: inventory.Position{File: "--node-group " + value},
		Labels:   map[string]string{},
	}
	for _, t := range strings.Split(types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			spec.InstanceTypes = append(spec.InstanceTypes, t)
		}
	}
	var taints []Taint
	for _, part := range parts[1:] {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return spec, fmt.Errorf("--node-group %q: %q is not labels=…, taints=… or maxPods=…", value, part)
		}
		switch strings.TrimSpace(key) {
		case "labels":
			for _, kv := range strings.Split(val, ",") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return spec, fmt.Errorf("--node-group %q: label %q is not KEY=VALUE", value, kv)
				}
				spec.Labels[k] = v
			}
		case "taints":
			for _, kv := range strings.Split(val, ",") {
				kvPart, effect, ok := strings.Cut(kv, ":")
				if !ok {
					return spec, fmt.Errorf("--node-group %q: taint %q is not KEY[=VALUE]:EFFECT", value, kv)
				}
				k, v, _ := strings.Cut(kvPart, "=")
				taints = append(taints, Taint{Key: k, Value: v, Effect: effect})
			}
		case "maxPods":
			n, err := strconv.Atoi(val)
			if err != nil || n <= 0 {
				return spec, fmt.Errorf("--node-group %q: maxPods %q is not a positive number", value, val)
			}
			spec.MaxPods = &n
		default:
			return spec, fmt.Errorf("--node-group %q: unknown part %q (labels, taints or maxPods)", value, key)
		}
	}
	if err := checkNodeGroup(name, spec.InstanceTypes, taints); err != nil {
		return spec, fmt.Errorf("--node-group %q: %v", value, err)
	}
	for _, t := range taints {
		spec.Taints = append(spec.Taints, inventory.Taint{Key: t.Key, Value: t.Value, Effect: t.Effect})
	}
	return spec, nil
}

func findingsSeverity(s string) (string, error) {
	switch s {
	case "info", "warning", "error":
		return s, nil
	}
	return "", fmt.Errorf("%q is not info, warning or error", s)
}

// nodePosition is where a node of the config file starts, and ends when it is a scalar.
func nodePosition(path string, n *yaml.Node) inventory.Position {
	p := inventory.Position{File: path, Line: n.Line, Column: n.Column}
	p.EndLine, p.EndColumn = yamlpos.End(n)
	return p
}
