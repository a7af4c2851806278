package kustomize

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// A kustomization's helmCharts are inflated by kustomize with the helm binary, which eni-lint
// never runs (kustomize refuses without --enable-helm). They are rendered with the in-process
// renderer instead, and the build sees the rendered templates as resources: the kustomization
// is handed to kustomize without helmCharts and helmGlobals, listing the rendered files, so
// its namespace, labels and patches apply to them as kustomize build --enable-helm would.
//
// The chart and values are found as kustomize's HelmChartInflationGenerator finds them
// (sigs.k8s.io/kustomize/api v0.21.2, internal/builtins/HelmChartInflationGenerator.go):
// chartHome (entry, then helmGlobals, default "charts") below the kustomization's folder; with
// both repo and version set, the chart is in chartHome/NAME-VERSION/NAME, else chartHome/NAME;
// valuesFile (default the chart's values.yaml), then valuesInline merged per valuesMerge
// (override: inline wins, the default; merge: the file wins; replace: inline only), then
// additionalValuesFiles in order. Nothing is pulled: a chart not vendored is an ENI006.

// helmChart is one helmCharts entry.
type helmChart struct {
	Name                  string         `yaml:"name"`
	Repo                  string         `yaml:"repo"`
	Version               string         `yaml:"version"`
	ReleaseName           string         `yaml:"releaseName"`
	Namespace             string         `yaml:"namespace"`
	ValuesFile            string         `yaml:"valuesFile"`
	AdditionalValuesFiles []string       `yaml:"additionalValuesFiles"`
	ValuesInline          map[string]any `yaml:"valuesInline"`
	ValuesMerge           string         `yaml:"valuesMerge"`
	ChartHome             string         `yaml:"chartHome"`
}

// inflated is what a kustomization's helmCharts become: the kustomization text kustomize
// builds, the rendered files it lists, the chart folders rendered, and what went wrong.
type inflated struct {
	kustomization []byte
	files         map[string][]byte    // absolute path -> rendered text
	sources       map[string][2]string // absolute path -> the chart's parent folder and the template's name from it
	charts        []string             // chart folders, as named from the kustomization's folder
	valuesFiles   []string             // values files read (absolute paths)
	frags         []inventory.Fragment
}

// withoutHelmCharts is the kustomization kustomize sees: without the generator, which it
// cannot run, and with the rendered files as resources.
func withoutHelmCharts(root *yaml.Node, resources []string) []*yaml.Node {
	var kept []*yaml.Node
	hasResources := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch root.Content[i].Value {
		case "helmCharts", "helmGlobals":
			continue
		case "resources":
			hasResources = true
			seq := root.Content[i+1]
			if seq.Kind == yaml.SequenceNode {
				for _, r := range resources {
					seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: r})
				}
			}
		}
		kept = append(kept, root.Content[i], root.Content[i+1])
	}
	if !hasResources && len(resources) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, r := range resources {
			seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: r})
		}
		kept = append(kept, &yaml.Node{Kind: yaml.ScalarNode, Value: "resources"}, seq)
	}
	if len(kept) == 0 {
		// Nothing but charts, none of which rendered: kustomize would call the file empty.
		kept = append(kept, &yaml.Node{Kind: yaml.ScalarNode, Value: "resources"}, &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle})
	}
	return kept
}

// inflateHelmCharts renders the helmCharts of the kustomization file at file (in dir), or
// returns nil when it has none.
func inflateHelmCharts(fsys *confine.FS, dir, file string, data []byte, lim helm.Limits) *inflated {
	docs, err := yamlpos.Documents(data)
	if err != nil || len(docs) == 0 || docs[0].Kind != yaml.MappingNode {
		return nil
	}
	root := docs[0]
	_, chartsNode := yamlpos.Lookup(root, "helmCharts")
	if chartsNode == nil {
		return nil
	}
	out := &inflated{files: map[string][]byte{}, sources: map[string][2]string{}}
	errorAt := func(n *yaml.Node, msg string) {
		pos := inventory.Position{File: file}
		if n != nil {
			pos.Line, pos.Column = n.Line, n.Column
		}
		out.frags = append(out.frags, inventory.Fragment{File: file, Errors: []inventory.LoadError{{Position: pos, Message: msg}}})
	}
	home := "charts"
	if _, globals := yamlpos.Lookup(root, "helmGlobals"); globals != nil {
		if _, h := yamlpos.Lookup(globals, "chartHome"); h != nil && h.Kind == yaml.ScalarNode && h.Value != "" {
			home = h.Value
		}
	}
	var resources []string
	if chartsNode.Kind != yaml.SequenceNode {
		errorAt(chartsNode, "helmCharts must be a list")
	} else {
		for i, item := range chartsNode.Content {
			var c helmChart
			if err := item.Decode(&c); err != nil {
				errorAt(item, fmt.Sprintf("helmCharts[%d]: %v", i, err))
				continue
			}
			rendered := inflateOne(fsys, dir, file, home, c, item, lim, out)
			resources = append(resources, rendered...)
		}
	}
	root.Content = withoutHelmCharts(root, resources)
	text, err := yaml.Marshal(root)
	if err != nil {
		errorAt(nil, "cannot write the kustomization without helmCharts: "+err.Error())
		return out
	}
	out.kustomization = text
	return out
}

// inflateOne renders one entry and returns the rendered files as resource paths relative to
// the kustomization's folder.
func inflateOne(fsys *confine.FS, dir, file, home string, c helmChart, item *yaml.Node, lim helm.Limits, out *inflated) []string {
	at := inventory.Position{File: file, Line: item.Line, Column: item.Column}
	fail := func(msg string) {
		out.frags = append(out.frags, inventory.Fragment{File: file, Errors: []inventory.LoadError{{Position: at, Message: msg}}})
	}
	if c.Name == "" {
		fail("a helmCharts entry needs a name")
		return nil
	}
	if c.ChartHome != "" {
		home = c.ChartHome
	}
	chartHome := filepath.Join(dir, home)
	if c.Version != "" && c.Repo != "" {
		chartHome = filepath.Join(chartHome, c.Name+"-"+c.Version)
	}
	chartDir := filepath.Join(chartHome, c.Name)
	if !confine.Within(filepath.Clean(fsys.Abs(dir)), filepath.Clean(fsys.Abs(chartDir))) {
		fail(fmt.Sprintf("helmCharts %s: chartHome %q leads outside the kustomization's folder, which kustomize refuses too: not rendered", c.Name, home))
		return nil
	}
	if !fsys.IsDir(chartDir) {
		if c.Repo != "" {
			out.frags = append(out.frags, inventory.Fragment{File: file, Unresolved: []inventory.UnresolvedObject{{
				Source: "helmCharts " + c.Name, Location: at,
				Reason: fmt.Sprintf("the chart %s from %s is not vendored at %s, and charts are not downloaded: its objects are left out; vendor it (helm pull --untar --untardir %s) or render it first (kustomize build --enable-helm … | eni-lint check -)", c.Name, c.Repo, chartDir, chartHome),
			}}})
			return nil
		}
		fail(fmt.Sprintf("helmCharts %s: no chart at %s and no repo to pull it from", c.Name, chartDir))
		return nil
	}
	values, err := chartValues(fsys, dir, chartDir, c, func(p string) { out.valuesFiles = append(out.valuesFiles, p) })
	if err != nil {
		fail(fmt.Sprintf("helmCharts %s: %v", c.Name, err))
		return nil
	}
	// Without releaseName kustomize passes --generate-name, a random name; "release" (as for
	// --helm-chart) stands for it.
	chart := helm.Chart{Dir: chartDir, Inline: []map[string]any{values}, Release: c.ReleaseName}
	templates, notes := helm.RenderTemplates(fsys, chart, c.Namespace, lim, func(confine.Skip) {})
	out.frags = append(out.frags, notes...)
	if len(templates) == 0 {
		return nil
	}
	out.charts = append(out.charts, chartDir)
	parent := filepath.Dir(filepath.Clean(chartDir))
	var resources []string
	for _, t := range templates {
		path := filepath.Join(parent, filepath.FromSlash(t.Name))
		out.files[filepath.Clean(fsys.Abs(path))] = []byte(t.Text)
		out.sources[filepath.Clean(fsys.Abs(path))] = [2]string{parent, t.Name}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			continue
		}
		resources = append(resources, filepath.ToSlash(rel))
	}
	return resources
}

// chartValues merges an entry's values as kustomize does: the chart's own values.yaml is
// Helm's default; valuesFile, valuesInline (per valuesMerge) and additionalValuesFiles come
// on top, each path relative to the kustomization's folder.
func chartValues(fsys *confine.FS, dir, chartDir string, c helmChart, readFile func(abs string)) (map[string]any, error) {
	read := func(path string) (map[string]any, error) {
		if filepath.IsAbs(path) || !confine.Within(filepath.Clean(fsys.Abs(dir)), filepath.Clean(fsys.Abs(filepath.Join(dir, path)))) {
			return nil, fmt.Errorf("values file %q is outside the kustomization's folder, which kustomize refuses too", path)
		}
		data, err := fsys.ReadFile(filepath.Join(dir, path))
		if err != nil {
			return nil, fmt.Errorf("values file %s: %s", path, confine.Reason(err))
		}
		readFile(filepath.Clean(fsys.Abs(filepath.Join(dir, path))))
		v, err := chartutil.ReadValues(data)
		if err != nil {
			return nil, fmt.Errorf("values file %s: %v", path, err)
		}
		return v.AsMap(), nil
	}
	values := map[string]any{}
	if c.ValuesFile != "" && c.ValuesMerge != "replace" {
		v, err := read(c.ValuesFile)
		if err != nil {
			return nil, err
		}
		values = v
	}
	inline := chartutil.Values(c.ValuesInline).AsMap()
	switch strings.ToLower(c.ValuesMerge) {
	case "", "override":
		values = chartutil.MergeTables(copyValues(inline), values)
	case "merge":
		values = chartutil.MergeTables(values, copyValues(inline))
	case "replace":
		values = copyValues(inline)
	default:
		return nil, fmt.Errorf("valuesMerge %q: want override, merge or replace", c.ValuesMerge)
	}
	for _, f := range c.AdditionalValuesFiles {
		v, err := read(f)
		if err != nil {
			return nil, err
		}
		values = chartutil.MergeTables(v, values)
	}
	return values, nil
}

// copyValues copies a values map deeply enough for MergeTables, which writes into its first
// argument.
func copyValues(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = copyValues(sub)
		}
		out[k] = v
	}
	return out
}
