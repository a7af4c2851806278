package terraform

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"go.yaml.in/yaml/v3"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// extractHelmReleases renders every helm_release whose chart is a folder of the tree, with
// its namespace, its values (file, templatefile, yamlencode, heredocs) and its set blocks,
// through the same in-process renderer and budgets as --helm-chart. A chart from a repository
// or registry is not fetched: it is an ENI006 naming the chart.
func (l *loader) extractHelmReleases(e *evaluator, opts kubernetes.Options, lim helm.Limits) {
	for _, key := range e.mod.order {
		r := e.mod.resources[key]
		if r.typ != "helm_release" {
			continue
		}
		unresolved := l.unresolvedAt(e, r)
		insts, _, ok := l.declaredInstances(e, r, unresolved)
		if !ok {
			continue
		}
		for _, inst := range insts {
			l.helmRelease(e, r, inst, opts, lim, unresolved)
		}
	}
}

func (l *loader) helmRelease(e *evaluator, r *resource, inst *instance, opts kubernetes.Options, lim helm.Limits, unresolved func(hcl.Range, string)) {
	chartAttr := r.attrs["chart"]
	if chartAttr == nil {
		return
	}
	cv, why, _, _ := e.attr(r.attrs, "chart", inst)
	chart, known := asString(cv)
	if why != "" || !known {
		unresolved(chartAttr.Expr.Range(), "chart depends on "+e.unknownReason(chartAttr.Expr))
		return
	}
	repo := ""
	if v, _, _, ok := e.attr(r.attrs, "repository", inst); ok {
		repo, _ = asString(v)
	}
	dir := l.rootPath(chart)
	if repo != "" || strings.Contains(chart, "://") || !l.fsys.IsDir(dir) {
		l.chartNotInTree(e, r, inst, chart, repo, chartAttr, opts.DefaultNamespace)
		return
	}
	l.charts = append(l.charts, absPath(dir))
	c := helm.Chart{Dir: dir}
	if v, _, _, ok := e.attr(r.attrs, "name", inst); ok {
		c.Release, _ = asString(v)
	}
	namespace := opts.DefaultNamespace
	if a := r.attrs["namespace"]; a != nil {
		v, why, _, _ := e.attr(r.attrs, "namespace", inst)
		ns, ok := asString(v)
		if why != "" || !ok {
			unresolved(a.Expr.Range(), "namespace depends on "+e.unknownReason(a.Expr))
			return
		}
		namespace = ns
	}
	// partial: some value only Terraform knows was left out; the chart may then fail to render
	// or render invalid YAML, which is no error of the tree.
	inline, partial, ok := l.releaseValues(e, r, inst, unresolved)
	if !ok {
		return
	}
	c.Inline = inline
	sets, unread := e.releaseSets(r, inst)
	partial = partial || unread
	if len(blocksOf(r.body, "set_sensitive")) > 0 {
		partial = true // values eni-lint does not read
	}
	if len(sets) > 0 {
		c.Inline = append(c.Inline, sets)
	}
	l.renderRelease(c, r, namespace, chartAttr.Expr.Range(), partial, opts, lim, unresolved)
}

// renderRelease renders a release's chart with its values into the release's namespace
// (Helm installs the objects that name none there). With partial values, a chart that fails
// to render is unresolved, not an error of the tree.
func (l *loader) renderRelease(c helm.Chart, r *resource, namespace string, at hcl.Range, partial bool, opts kubernetes.Options, lim helm.Limits, unresolved func(hcl.Range, string)) {
	release := opts
	release.DefaultNamespace = namespace
	rendered := helm.Render(l.fsys, c, namespace, lim, func(file string, docs []*yaml.Node) inventory.Fragment {
		return kubernetes.LoadDocuments(file, docs, nil, release)
	}, func(s confine.Skip) {
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Chart file not read", Detail: s.Path + ": " + s.Reason, Subject: at.Ptr()})
	})
	for _, f := range rendered {
		if partial && len(f.Errors) > 0 {
			unresolved(at, fmt.Sprintf("the chart does not render without the values only Terraform knows (%s: %s)", filepath.Base(f.Errors[0].Position.File), f.Errors[0].Message))
			f.Errors = nil
		}
		f.EachObject(func(o *inventory.Object) { o.Ignores = append(o.Ignores, r.ignores...) })
		l.manifests = append(l.manifests, f)
	}
}

// chartNotInTree records a release whose chart is remote or not a folder of the tree: charts
// are not downloaded, so its objects are unresolved, with the labels its values give pods.
func (l *loader) chartNotInTree(e *evaluator, r *resource, inst *instance, chart, repo string, chartAttr *hcl.Attribute, defaultNamespace string) {
	where := chart
	if repo != "" {
		where = fmt.Sprintf("%s from %s", chart, repo)
	}
	u := inventory.UnresolvedObject{Source: e.callPath + r.typ + "." + r.name, Location: position(chartAttr.Expr.Range()), Severity: "info",
		Reason: fmt.Sprintf("the chart %s is not a folder of the tree, and charts are not downloaded; render it (helm template … | eni-lint check -) or vendor it", where)}
	u.Namespace, u.PodLabels = l.releaseLabels(e, r, inst, defaultNamespace)
	l.unresolved = append(l.unresolved, u)
}

// releaseValues reads a helm_release's values list, each entry a YAML text; partial says
// that a value only Terraform knows was left out of one. ok is false when the release cannot
// be rendered: the list is not written in the code, an entry cannot be known (both
// unresolved) or is invalid YAML (an error).
func (l *loader) releaseValues(e *evaluator, r *resource, inst *instance, unresolved func(hcl.Range, string)) (inline []map[string]any, partial, ok bool) {
	a := r.attrs["values"]
	if a == nil {
		return nil, false, true
	}
	tuple, isList := a.Expr.(*hclsyntax.TupleConsExpr)
	if !isList {
		unresolved(a.Expr.Range(), "values is not a list written in the code ("+e.unknownReason(a.Expr)+")")
		return nil, false, false
	}
	for _, item := range tuple.Exprs {
		text, why := e.partialText(item, inst)
		if why != "" {
			unresolved(item.Range(), "a values entry depends on "+why)
			return nil, false, false
		}
		partial = partial || strings.Contains(text, unknownText)
		values, err := valuesOf(text)
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid values", Detail: err.Error(), Subject: item.Range().Ptr()})
			return nil, false, false
		}
		inline = append(inline, values)
	}
	return inline, partial, true
}

// releaseSets reads a helm_release's set { name = "a.b", value = "x" } blocks (provider v2) and
// set_list blocks into a values map; partial says that an entry only Terraform knows was left
// out.
func (e *evaluator) releaseSets(r *resource, inst *instance) (sets map[string]any, partial bool) {
	sets = map[string]any{}
	entry := func(attrs hcl.Attributes, list bool) {
		n, _, _, _ := e.attr(attrs, "name", inst)
		v, why, _, _ := e.attr(attrs, "value", inst)
		name, ok := asString(n)
		if !ok || why != "" {
			partial = true
			return
		}
		if list {
			values, ok := asStrings(v)
			if !ok {
				partial = true
				return
			}
			items := make([]any, len(values))
			for i, s := range values {
				items[i] = s
			}
			setPath(sets, name, items)
			return
		}
		value, ok := asString(v)
		if !ok || strings.Contains(value, refPrefix) {
			partial = true
			return
		}
		setPath(sets, name, value)
	}
	for _, b := range blocksOf(r.body, "set") {
		entry(attributesOf(b), false)
	}
	for _, b := range blocksOf(r.body, "set_list") {
		entry(attributesOf(b), true)
	}
	return sets, partial
}

// releaseLabels reads, for a release whose chart is not read, its namespace and the pod labels
// its values entries and set blocks give: entries under a key that ends in "labels"
// (podLabels, labels, commonLabels …), whose values are known. Which of them reach pods only
// the chart knows; they serve to tell whether a policy of the tree may select its pods.
func (l *loader) releaseLabels(e *evaluator, r *resource, inst *instance, namespace string) (string, map[string]string) {
	if v, why, _, ok := e.attr(r.attrs, "namespace", inst); ok {
		if ns, known := asString(v); why == "" && known {
			namespace = ns
		} else {
			namespace = ""
		}
	}
	labels := map[string]string{}
	if a := r.attrs["values"]; a != nil {
		if tuple, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok {
			for _, item := range tuple.Exprs {
				if text, why := e.partialText(item, inst); why == "" {
					if values, err := valuesOf(text); err == nil {
						labelsIn(values, false, labels)
					}
				}
			}
		}
	}
	sets, _ := e.releaseSets(r, inst)
	labelsIn(sets, false, labels)
	if len(labels) == 0 {
		return namespace, nil
	}
	return namespace, labels
}

// labelsIn collects into out the string entries of maps under a key that ends in "labels".
func labelsIn(v any, underLabels bool, out map[string]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, val := range m {
		if s, isString := val.(string); isString && underLabels && !strings.Contains(s, unknownText) {
			out[k] = s
			continue
		}
		if b, isBool := val.(bool); isBool && underLabels {
			out[k] = fmt.Sprint(b)
			continue
		}
		labelsIn(val, strings.HasSuffix(strings.ToLower(k), "labels"), out)
	}
}

// valuesOf reads one values document; fields only Terraform knows are left out.
func valuesOf(text string) (map[string]any, error) {
	docs, err := yamlpos.Documents([]byte(text))
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, doc := range docs {
		dropUnknownFields(doc, "", "values")
		var m map[string]any
		if err := doc.Decode(&m); err != nil {
			return nil, err
		}
		for k, v := range m {
			out[k] = v
		}
	}
	return out, nil
}

// setPath sets a Helm --set style dotted name (a.b.c; "\." escapes a dot) in a values map.
func setPath(values map[string]any, name string, value any) {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(name); i++ {
		switch {
		case name[i] == '\\' && i+1 < len(name) && name[i+1] == '.':
			cur.WriteByte('.')
			i++
		case name[i] == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(name[i])
		}
	}
	parts = append(parts, cur.String())
	m := values
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = value
}
