package fix

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// placeTerraformBlock sets the attribute of a typed kubernetes_* resource (kubernetes_job_v1,
// kubernetes_cron_job_v1, …): the field's path maps to nested blocks (spec → job_template →
// spec) and a snake_case attribute. The edit splices the file's bytes at the ranges hclsyntax
// gives: a literal value is replaced, a missing attribute is a new line before the block's
// closing brace at the indentation of its contents. (hclwrite would also keep the tokens, but
// writing its file applies a spacing pass to every line, which changes lines nobody fixed.) An
// attribute written as an expression (var.x) is not replaced: the suggestion names it.
func placeTerraformBlock(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	decl := w.Origin.Declared
	data, err := ws.Read(decl.File)
	if err != nil {
		return Placement{Suggestion: fmt.Sprintf("%s in %s: %v", describeFields(fields), at(decl), err)}
	}
	var suggestions []string
	changed := false
	for _, f := range fields {
		out, why := setAttribute(data, decl.Line, f)
		if why != "" {
			suggestions = append(suggestions, fmt.Sprintf("set %s = %d in %s (%s): %s", snake(lastKey(f.Path)), f.Value, w.Origin.Resource, at(decl), why))
			continue
		}
		if string(out) != string(data) {
			data, changed = out, true
		}
	}
	p := Placement{Suggestion: strings.Join(suggestions, "; ")}
	if changed {
		ws.Write(decl.File, data)
		p.Files = []string{decl.File}
	}
	return p
}

// setAttribute sets one field in the resource block declared on line; why says why not.
func setAttribute(data []byte, line int, f Field) (out []byte, why string) {
	if !fieldPath(f.Path) {
		return nil, f.Path + " is not a field path eni-lint writes"
	}
	block, why := resourceBlock(data, line)
	if why != "" {
		return nil, why
	}
	body := block.Body
	keys := strings.Split(f.Path, ".")
	for _, k := range keys[:len(keys)-1] {
		var next *hclsyntax.Body
		for _, b := range body.Blocks {
			if b.Type == snake(k) {
				next = b.Body
				break
			}
		}
		if next == nil {
			return nil, "its block " + snake(k) + " is not written as a block"
		}
		body = next
	}
	name := snake(keys[len(keys)-1])
	value := strconv.Itoa(f.Value)
	if a := body.Attributes[name]; a != nil {
		r := a.Expr.Range()
		text := string(data[r.Start.Byte:r.End.Byte])
		switch {
		case text == value || text == `"`+value+`"`:
			return data, ""
		case isNumber(text):
		case len(text) > 2 && text[0] == '"' && isNumber(text[1:len(text)-1]):
			value = `"` + value + `"` // keep the quotes it was written with
		default:
			return nil, "it is the expression " + text + ", which eni-lint does not rewrite"
		}
		return splice(data, r.Start.Byte, r.End.Byte, value), ""
	}
	closing := body.SrcRange.End // just after the closing brace
	brace := closing.Byte - 1
	lineStart := strings.LastIndexByte(string(data[:brace]), '\n') + 1
	if strings.TrimSpace(string(data[lineStart:brace])) != "" {
		return nil, "the block closes on a line with other text"
	}
	indent := string(data[lineStart:brace]) + "  "
	column := 0
	for _, a := range body.Attributes {
		if column == 0 || a.NameRange.Start.Column < column {
			column = a.NameRange.Start.Column
		}
	}
	if column > 0 {
		indent = strings.Repeat(" ", column-1)
	}
	nl := "\n"
	if lineStart >= 2 && data[lineStart-2] == '\r' {
		nl = "\r\n"
	}
	return splice(data, lineStart, lineStart, indent+name+" = "+value+nl), ""
}

func splice(data []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(data)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// fieldPath is a dotted path of API field names (letters, then letters and digits): what the
// rules' fixes name, and all an attribute or object key may be written as unquoted.
func fieldPath(p string) bool {
	for _, key := range strings.Split(p, ".") {
		if key == "" || !unicode.IsLetter(rune(key[0])) {
			return false
		}
		for _, r := range key {
			if r > unicode.MaxASCII || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return true
}

// resourceBlock parses a .tf file's text and finds the resource block declared on line (the
// positions the loader recorded); why says what is wrong when there is none.
func resourceBlock(data []byte, line int) (*hclsyntax.Block, string) {
	file, diags := hclsyntax.ParseConfig(data, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, "the file does not parse"
	}
	for _, b := range file.Body.(*hclsyntax.Body).Blocks {
		if b.Type == "resource" && b.DefRange().Start.Line == line {
			return b, ""
		}
	}
	return nil, "the resource block was not found"
}

// snake is the Kubernetes provider's attribute name of an API field: backoffLimit → backoff_limit.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
