package helm

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"text/template/parse"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// maxTplStrings bounds how many values strings the cycle check parses: past it the rest are
// left to the renderer and the run's stack guard.
const maxTplStrings = 10000

// checkTplCycles refuses a chart whose templates call tpl on a values string that, through
// tpl calls of its own, calls tpl on itself (`a: '{{ tpl .Values.a . }}'`): Helm's tpl has no
// depth limit, and each level clones every template of the chart, so the render would grow
// until the process ran out of stack or memory and the whole run ended with no report. A chart
// refused here is one located error; the other inputs keep their findings. Only tpl calls
// whose text is a .Values field are followed (the shape such a loop takes); the top chart's
// templates are the roots.
func checkTplCycles(fsys *confine.FS, dir string, ch *chart.Chart, values any, valueFiles []string) (inventory.Position, string) {
	strs := map[string]string{}
	collectTplStrings(strs, "", values, 0)
	if len(strs) == 0 {
		return inventory.Position{}, ""
	}
	edges := map[string][]string{}
	for path, text := range strs {
		edges[path] = tplRefs(path, text)
	}
	var roots []string
	for _, t := range ch.Templates {
		roots = append(roots, tplRefs(t.Name, string(t.Data))...)
	}
	sort.Strings(roots)
	if cycle := firstCycle(edges, roots); cycle != nil {
		return tplCyclePosition(fsys, dir, valueFiles, cycle[0]),
			fmt.Sprintf("values %s: tpl renders it again (%s), a loop Helm would follow without end: the chart is not rendered", cycle[0], strings.Join(cycle, " → "))
	}
	return inventory.Position{}, ""
}

// collectTplStrings gathers the values strings that may call tpl, by their dotted path, up to
// maxTplStrings of them and 64 levels down.
func collectTplStrings(strs map[string]string, prefix string, v any, depth int) {
	if depth > 64 || len(strs) >= maxTplStrings {
		return
	}
	switch v := v.(type) {
	case chartutil.Values:
		collectTplStrings(strs, prefix, map[string]any(v), depth)
	case map[string]any:
		for k, x := range v {
			collectTplStrings(strs, join(prefix, k), x, depth+1)
		}
	case string:
		if strings.Contains(v, "tpl") && strings.Contains(v, "{{") {
			strs[prefix] = v
		}
	}
}

// firstCycle is the first loop a depth-first walk from the roots meets in the graph, as the
// path from its first node back to it; nil when there is none.
func firstCycle(edges map[string][]string, roots []string) []string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var cycle []string
	var visit func(p string) bool
	visit = func(p string) bool {
		switch state[p] {
		case open:
			i := len(stack) - 1
			for i > 0 && stack[i] != p {
				i--
			}
			cycle = append(append([]string(nil), stack[i:]...), p)
			return true
		case done:
			return false
		}
		state[p] = open
		stack = append(stack, p)
		for _, q := range edges[p] {
			if visit(q) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		state[p] = done
		return false
	}
	for _, r := range roots {
		if visit(r) {
			return cycle
		}
	}
	return nil
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// tplRefs is the values paths that text passes to tpl as its template: `tpl .Values.a.b .`
// and `tpl $.Values.a .`.
func tplRefs(name, text string) []string {
	tree := parse.New(name)
	tree.Mode = parse.SkipFuncCheck
	trees := map[string]*parse.Tree{}
	if _, err := tree.Parse(text, "{{", "}}", trees); err != nil {
		return nil // Helm reports the syntax error when it renders
	}
	var out []string
	for _, tr := range trees {
		walkNodes(tr.Root, func(cmd *parse.CommandNode) {
			if len(cmd.Args) < 2 {
				return
			}
			if id, ok := cmd.Args[0].(*parse.IdentifierNode); !ok || id.Ident != "tpl" {
				return
			}
			var fields []string
			switch a := cmd.Args[1].(type) {
			case *parse.FieldNode:
				fields = a.Ident
			case *parse.VariableNode:
				if len(a.Ident) > 0 && a.Ident[0] == "$" {
					fields = a.Ident[1:]
				}
			}
			if len(fields) > 1 && fields[0] == "Values" {
				out = append(out, strings.Join(fields[1:], "."))
			}
		})
	}
	return out
}

// tplCyclePosition is the line of the value's key in the last values file that sets it, or the
// chart's values.yaml.
func tplCyclePosition(fsys *confine.FS, dir string, valueFiles []string, path string) inventory.Position {
	key := path[strings.LastIndexByte(path, '.')+1:]
	files := append([]string{filepath.Join(dir, "values.yaml")}, valueFiles...)
	for i := len(files) - 1; i >= 0; i-- {
		text, err := fsys.ReadFile(files[i])
		if err != nil {
			continue
		}
		if pos := positionOf(files[i], text, key+":"); pos.Line > 0 {
			return pos
		}
	}
	return inventory.Position{File: files[0]}
}
