package fix

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamledit"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// Placement is where one fix went: the files it changed, or, when it cannot be written, what
// to change by hand and why eni-lint did not.
type Placement struct {
	Files      []string
	Suggestion string
}

// place puts the fields of a fix into the text the workload comes from. Where the object comes
// from decides where the change goes: a manifest is edited in place; a kustomize build gets a
// patch in the overlay that built it; a Helm template is edited only where the field is a
// literal in it, else the values key or template line is suggested; Terraform gets the YAML of
// its heredoc or the attribute of its typed resource edited.
func placeFields(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	switch {
	case w.BuiltBy != "":
		return placeKustomize(ws, w, fields)
	case w.Origin.Kind == inventory.OriginHelm:
		return placeHelm(ws, w, fields)
	case w.Origin.Kind == inventory.OriginTerraformHeredoc:
		return placeHeredoc(ws, w, fields)
	case w.Origin.Kind == inventory.OriginTerraformBlock:
		return placeTerraformBlock(ws, w, fields)
	case w.Origin.Kind == inventory.OriginTerraformValue:
		return placeTerraformValue(ws, w, fields)
	}
	return placeManifest(ws, w, fields)
}

func at(p inventory.Position) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return p.File
}

func describeFields(fields []Field) string {
	var parts []string
	for _, f := range fields {
		parts = append(parts, fmt.Sprintf("set %s: %d", f.Path, f.Value))
	}
	return strings.Join(parts, ", ")
}

// placeManifest edits a YAML manifest where it is.
func placeManifest(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	doc := w.Locations.At("")
	if doc.File == "" || doc.File == "-" || strings.HasPrefix(doc.File, "<") {
		return Placement{Suggestion: fmt.Sprintf("%s in %s: the manifest was read from standard input, so there is no file to change", describeFields(fields), describe(w))}
	}
	data, err := ws.Read(doc.File)
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("%s in %s: %v", describeFields(fields), at(doc), err)}
	}
	out, err := setFields(data, doc.Line, fields)
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("%s in %s: %v", describeFields(fields), at(doc), reason(err))}
	}
	if string(out) == string(data) {
		return Placement{}
	}
	ws.Write(doc.File, out)
	return Placement{Files: []string{doc.File}}
}

// setFields sets every field in the document starting on docLine. A new key goes right after
// its parent's key, so the fields are set last first: new keys then read in their order.
func setFields(data []byte, docLine int, fields []Field) ([]byte, error) {
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		e, changed, err := yamledit.SetInt(data, docLine, f.Path, f.Value)
		if err != nil {
			return nil, err
		}
		if changed {
			data = e.Apply(data)
		}
	}
	return data, nil
}

func reason(err error) string {
	var refusal *yamledit.Error
	if errors.As(err, &refusal) {
		return refusal.Reason + " (eni-lint edits only what it can change in place)"
	}
	return err.Error()
}

func describe(w inventory.Workload) string {
	if w.Namespace == "" {
		return w.Kind + " " + w.Name
	}
	return w.Kind + " " + w.Namespace + "/" + w.Name
}

// placeHeredoc edits the YAML inside the .tf heredoc the loader read it from: the heredoc's
// lines are YAML as they stand (an indented <<- body is YAML indented as a whole).
func placeHeredoc(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	doc, text := w.Locations.At(""), w.Origin.Text
	data, err := ws.Read(doc.File)
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("%s in %s: %v", describeFields(fields), at(doc), err)}
	}
	start, end, ok := heredocBody(data, text.Line, text.EndLine)
	if !ok {
		return Placement{Suggestion: fmt.Sprintf("in the yaml_body of %s (%s), %s: the heredoc at line %d is not where the check read it", w.Origin.Resource, at(w.Origin.Declared), describeFields(fields), text.Line)}
	}
	body, err := setFields(data[start:end], doc.Line-text.Line, fields)
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("in the yaml_body of %s (%s), %s: %s", w.Origin.Resource, at(doc), describeFields(fields), reason(err))}
	}
	out := append(append(append([]byte{}, data[:start]...), body...), data[end:]...)
	if string(out) == string(data) {
		return Placement{}
	}
	ws.Write(doc.File, out)
	return Placement{Files: []string{doc.File}}
}

// heredocBody is the byte range of a heredoc's body: the lines after its <<EOT line (first)
// and before its closing marker's line (last), as hcl reports the expression's range.
func heredocBody(data []byte, first, last int) (start, end int, ok bool) {
	lines := strings.SplitAfter(string(data), "\n")
	if first < 1 || last <= first || last > len(lines) || !strings.Contains(lines[first-1], "<<") {
		return 0, 0, false
	}
	for _, l := range lines[:first] {
		start += len(l)
	}
	end = start
	for _, l := range lines[first : last-1] {
		end += len(l)
	}
	return start, end, true
}

// placeHelm writes into a chart template only a field that is a literal there; a value from
// the chart's values, or a field the template does not have, is a suggestion.
func placeHelm(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	var files, suggestions []string
	for _, f := range fields {
		pos, has := w.Locations.Get(f.Path)
		key := f.Path[strings.LastIndex(f.Path, ".")+1:]
		if !has || !pos.Known() {
			parent := w.Locate([]string{parentPath(f.Path)})
			suggestions = append(suggestions, fmt.Sprintf("add `%s: %d` under `%s` in the template %s (the chart does not set it; eni-lint does not edit templates where the field is not a literal)", key, f.Value, lastKey(parentPath(f.Path)), at(parent)))
			continue
		}
		data, err := ws.Read(pos.File)
		if err != nil {
			suggestions = append(suggestions, fmt.Sprintf("set `%s: %d` in %s: %v", key, f.Value, at(pos), err))
			continue
		}
		lines := strings.SplitAfter(string(data), "\n")
		if pos.Line > len(lines) {
			continue
		}
		text := lines[pos.Line-1]
		if start, end, ok := literalValue(text, key); ok {
			lines[pos.Line-1] = text[:start] + strconv.Itoa(f.Value) + text[end:]
			if text[start:end] != strconv.Itoa(f.Value) {
				ws.Write(pos.File, []byte(strings.Join(lines, "")))
				files = append(files, pos.File)
			}
			continue
		}
		if ref := valuesRef(text); ref != "" {
			suggestions = append(suggestions, fmt.Sprintf("set `%s: %d` in the chart's values%s (the template %s reads .Values.%s; eni-lint does not change a chart's values, which other releases may share)", ref, f.Value, valuesAt(ws, pos.File, ref), at(pos), ref))
			continue
		}
		suggestions = append(suggestions, fmt.Sprintf("make `%s` render %d in the template %s (it is not a literal there)", key, f.Value, at(pos)))
	}
	return Placement{Files: files, Suggestion: strings.Join(suggestions, "; ")}
}

// valuesAt is where the chart's values.yaml sets a key, as " (values.yaml:4)", or "" when the
// chart or the key is not found.
func valuesAt(ws *Workspace, template, key string) string {
	dir := filepath.Dir(template)
	for i := 0; i < 4 && !ws.Exists(filepath.Join(dir, "Chart.yaml")); i++ {
		dir = filepath.Dir(dir)
	}
	values := filepath.Join(dir, "values.yaml")
	data, err := ws.Read(values)
	if err != nil {
		return ""
	}
	docs, _ := yamlpos.Documents(data)
	if len(docs) == 0 {
		return ""
	}
	n := docs[0]
	var k *yaml.Node
	for _, part := range strings.Split(key, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return " in " + values
		}
		if k, n = yamlpos.Lookup(n, part); k == nil {
			return " in " + values
		}
	}
	return fmt.Sprintf(" at %s:%d", values, k.Line)
}

func parentPath(p string) string {
	if i := strings.LastIndex(p, "."); i >= 0 {
		return p[:i]
	}
	return ""
}

func lastKey(p string) string { return p[strings.LastIndex(p, ".")+1:] }

// literalValue finds an integer written as such after `key:` on a template line: the byte
// range of the number.
func literalValue(line, key string) (start, end int, ok bool) {
	m := regexp.MustCompile(`^(\s*(?:- )?` + regexp.QuoteMeta(key) + `:[ \t]+)([0-9]+)([ \t]*(?:#.*)?)\r?\n?$`).FindStringSubmatchIndex(line)
	if m == nil {
		return 0, 0, false
	}
	return m[4], m[5], true
}

var valuesRefPattern = regexp.MustCompile(`\{\{-?\s*(?:int\s+|toYaml\s+)?\.Values\.([A-Za-z0-9_.]+)\s*(?:\|[^}]*)?-?\}\}`)

// valuesRef is the values key a template line reads, as `{{ .Values.job.backoffLimit }}`.
func valuesRef(line string) string {
	if m := valuesRefPattern.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// placeKustomize adds a JSON patch to the kustomization that built the object, and lists it
// under the kustomization's patches: the overlay's sources stay as they are.
func placeKustomize(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	kustomization := w.BuiltBy
	if !strings.HasSuffix(kustomization, ".yaml") && !strings.HasSuffix(kustomization, ".yml") && !strings.HasSuffix(kustomization, "Kustomization") {
		for _, name := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
			if ws.Exists(filepath.Join(kustomization, name)) {
				kustomization = filepath.Join(kustomization, name)
				break
			}
		}
	}
	dir := filepath.Dir(kustomization)
	name := patchName(w.Kind, w.Name)
	patchPath := filepath.Join(dir, name)
	ops := map[string]int{}
	if old, err := ws.Read(patchPath); err == nil {
		ops = readPatch(old)
	}
	for _, f := range fields {
		ops["/"+strings.ReplaceAll(f.Path, ".", "/")] = f.Value
	}
	data, err := ws.Read(kustomization)
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("%s for %s in a patch of %s: %v", describeFields(fields), describe(w), kustomization, err)}
	}
	listed, err := listPatch(data, name, w.Kind, inputName(data, w.Name))
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("add a patch to %s that does %s on %s: %v", kustomization, describeFields(fields), describe(w), err)}
	}
	ws.Write(patchPath, writePatch(ops, describe(w)))
	files := []string{patchPath}
	if string(listed) != string(data) {
		ws.Write(kustomization, listed)
		files = append(files, kustomization)
	}
	return Placement{Files: files}
}

// patchName is the file of fix's patch for one object, within the 255 bytes a file name may
// have: a Kubernetes name may have 253, and a longer file name could not be written (fix then
// said there was nothing to change). A long name is cut, and a hash of it keeps it unique.
func patchName(kind, name string) string {
	base := "eni-lint-fix-" + safeName(kind) + "-" + safeName(name)
	if len(base) > maxPatchBase {
		sum := sha256.Sum256([]byte(kind + "/" + name))
		base = base[:maxPatchBase-9] + "-" + hex.EncodeToString(sum[:4])
	}
	return base + ".yaml"
}

// maxPatchBase leaves room for ".yaml" and any suffix a file system adds, well under 255.
const maxPatchBase = 200

var unsafeName = regexp.MustCompile(`[^a-z0-9.-]+`)

func safeName(s string) string { return unsafeName.ReplaceAllString(strings.ToLower(s), "-") }
