package fix

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// writePatch is the JSON patch (RFC 6902) file for one object: `add` sets a member whether or
// not it is there, so the same patch serves a changed and a new field.
func writePatch(ops map[string]int, object string) []byte {
	paths := make([]string, 0, len(ops))
	for p := range ops {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b strings.Builder
	b.WriteString("# Written by eni-lint fix for " + object + ": branch ENIs (see eni-lint explain ENI001).\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "- op: add\n  path: %s\n  value: %d\n", p, ops[p])
	}
	return []byte(b.String())
}

// readPatch reads a patch writePatch wrote, so that a later fix adds to it.
func readPatch(data []byte) map[string]int {
	ops := map[string]int{}
	docs, _ := yamlpos.Documents(data)
	if len(docs) == 0 || docs[0].Kind != yaml.SequenceNode {
		return ops
	}
	for _, item := range docs[0].Content {
		_, p := yamlpos.Lookup(item, "path")
		_, v := yamlpos.Lookup(item, "value")
		if p == nil || v == nil {
			continue
		}
		if n, err := strconv.Atoi(v.Value); err == nil {
			ops[p.Value] = n
		}
	}
	return ops
}

// inputName is the object's name as the kustomization's patches see it: its patches run before
// its own namePrefix and nameSuffix, so those come off the built name.
func inputName(kustomization []byte, built string) string {
	docs, _ := yamlpos.Documents(kustomization)
	if len(docs) == 0 || docs[0].Kind != yaml.MappingNode {
		return built
	}
	name := built
	if _, p := yamlpos.Lookup(docs[0], "namePrefix"); p != nil && p.Kind == yaml.ScalarNode {
		name = strings.TrimPrefix(name, p.Value)
	}
	if _, s := yamlpos.Lookup(docs[0], "nameSuffix"); s != nil && s.Kind == yaml.ScalarNode {
		name = strings.TrimSuffix(name, s.Value)
	}
	return name
}

// listPatch adds the patch file to the kustomization's patches, keeping the file's text: a new
// item right after the `patches:` line, at the indentation of the items there, or a new
// `patches:` key at the end. A kustomization that lists it already is returned as it is.
func listPatch(data []byte, file, kind, name string) ([]byte, error) {
	out, err := addPatchItem(data, file, kind, name)
	if err != nil || string(out) == string(data) {
		return out, err
	}
	// The text was edited by lines: it must still be one kustomization that lists the patch.
	docs, perr := yamlpos.Documents(out)
	if perr != nil || len(docs) != 1 || docs[0].Kind != yaml.MappingNode {
		return nil, errors.New("eni-lint cannot add to its patches without rewriting it")
	}
	_, v := yamlpos.Lookup(docs[0], "patches")
	listed := false
	for _, it := range v.Content {
		if _, p := yamlpos.Lookup(it, "path"); p != nil && p.Value == file {
			listed = true
		}
	}
	if !listed {
		return nil, errors.New("eni-lint cannot add to its patches without rewriting it")
	}
	return out, nil
}

func addPatchItem(data []byte, file, kind, name string) ([]byte, error) {
	docs, err := yamlpos.Documents(data)
	if err != nil || len(docs) != 1 || docs[0].Kind != yaml.MappingNode || docs[0].Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the kustomization is not one block-style YAML mapping")
	}
	nl := "\n"
	if strings.Contains(string(data), "\r\n") {
		nl = "\r\n"
	}
	item := func(indent string) string {
		return indent + "- path: " + file + nl +
			indent + "  target:" + nl +
			indent + "    kind: " + kind + nl +
			indent + "    name: " + name + nl
	}
	k, v := yamlpos.Lookup(docs[0], "patches")
	if k == nil {
		out := string(data)
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += nl
		}
		return []byte(out + "patches:" + nl + item("")), nil
	}
	if v.Kind != yaml.SequenceNode || v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0 {
		return nil, errors.New("its patches are not a block list eni-lint can add to")
	}
	for _, it := range v.Content {
		if _, p := yamlpos.Lookup(it, "path"); p != nil && p.Value == file {
			return data, nil
		}
	}
	lines := strings.SplitAfter(string(data), "\n")
	first := v.Content[0]
	if first.Line > len(lines) || first.Line <= k.Line {
		return nil, errors.New("its patches start on the line of their key")
	}
	text := lines[first.Line-1]
	dash := strings.Index(text, "-")
	if dash < 0 || strings.TrimSpace(text[:dash]) != "" {
		return nil, errors.New("its first patch is not a `- ` item on its own line")
	}
	lines[k.Line-1] += item(text[:dash])
	return []byte(strings.Join(lines, "")), nil
}
