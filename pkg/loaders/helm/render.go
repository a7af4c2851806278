package helm

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// Chart is a chart to render in-process (--helm-chart, --values).
type Chart struct {
	Dir    string
	Values []string
}

// Render renders a chart with Helm's own engine (helm.sh/helm/v3, no cluster access: the
// default capabilities, release "release" in namespace) and returns each rendered template's
// objects, pointed back at the template. load turns documents into a fragment.
func Render(c Chart, namespace string, load func(file string, docs []*yaml.Node) inventory.Fragment) (out []inventory.Fragment) {
	fail := func(msg string) []inventory.Fragment {
		return []inventory.Fragment{{File: c.Dir, Errors: []inventory.LoadError{{Position: inventory.Position{File: c.Dir}, Message: msg}}}}
	}
	defer func() {
		if r := recover(); r != nil {
			out = fail(fmt.Sprintf("helm rendering failed: %v", r))
		}
	}()
	ch, err := loader.Load(c.Dir)
	if err != nil {
		return fail("loading the chart: " + err.Error())
	}
	values := map[string]any{}
	for _, f := range c.Values {
		v, err := chartutil.ReadValuesFile(f)
		if err != nil {
			return fail(fmt.Sprintf("values %s: %v", f, err))
		}
		values = chartutil.MergeTables(v.AsMap(), values) // later files win
	}
	top, err := chartutil.ToRenderValues(ch, values, chartutil.ReleaseOptions{Name: "release", Namespace: namespace, IsInstall: true}, chartutil.DefaultCapabilities)
	if err != nil {
		return fail("values: " + err.Error())
	}
	rendered, err := engine.Render(ch, top)
	if err != nil {
		return fail("rendering: " + err.Error())
	}
	names := make([]string, 0, len(rendered))
	for name := range rendered {
		names = append(names, name)
	}
	sort.Strings(names)
	parent := filepath.Dir(filepath.Clean(c.Dir))
	locator := NewLocator(parent)
	for _, name := range names {
		text := rendered[name]
		if strings.TrimSpace(text) == "" || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".json")) {
			continue
		}
		docs, err := yamlpos.Documents([]byte(text))
		frag := load(name, docs)
		if err != nil {
			frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: name}, Message: "rendered YAML: " + err.Error()})
		}
		locator.Relocate(&frag, name)
		out = append(out, frag)
	}
	return out
}
