package fix

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// placeTerraformValue edits a manifest Terraform builds from an expression, where the
// expression is one eni-lint can follow back to text: an HCL object (kubernetes_manifest's
// manifest = { spec = { … } }), whose item is replaced or added by byte range; yamldecode of a
// heredoc, whose YAML is edited in place; yamldecode(file("${path.module}/x.yaml")), whose file
// is. Anything else (a local, a merge(), a templatefile) is a suggestion.
func placeTerraformValue(ws *Workspace, w inventory.Workload, fields []Field) Placement {
	decl := w.Origin.Declared
	refuse := func(why string) Placement {
		return Placement{Suggestion: fmt.Sprintf("in the manifest of %s (%s), %s: %s", w.Origin.Resource, at(decl), describeFields(fields), why)}
	}
	data, err := ws.Read(decl.File)
	if err != nil {
		return refuse(err.Error())
	}
	block, why := resourceBlock(data, decl.Line)
	if why != "" {
		return refuse(why)
	}
	attr := block.Body.Attributes["manifest"]
	if attr == nil {
		attr = block.Body.Attributes["yaml_body"]
	}
	if attr == nil {
		return refuse("its manifest attribute was not found")
	}
	switch e := attr.Expr.(type) {
	case *hclsyntax.ObjectConsExpr:
		out := data
		for _, f := range fields {
			next, why := setObjectItem(out, decl.Line, f)
			if why != "" {
				return refuse(why)
			}
			out = next
		}
		if string(out) == string(data) {
			return Placement{}
		}
		ws.Write(decl.File, out)
		return Placement{Files: []string{decl.File}}
	case *hclsyntax.FunctionCallExpr:
		if e.Name != "yamldecode" || len(e.Args) != 1 {
			break
		}
		if path, ok := moduleFile(e.Args[0], decl.File); ok {
			return placeManifest(ws, inventory.Workload{Object: inventory.Object{Kind: w.Kind, Name: w.Name, Namespace: w.Namespace,
				Locations: inventory.FieldPositionsOf(map[string]inventory.Position{"": {File: path, Line: 0}})}}, fields)
		}
		if t, ok := e.Args[0].(*hclsyntax.TemplateExpr); ok && strings.HasPrefix(string(data[t.SrcRange.Start.Byte:t.SrcRange.End.Byte]), "<<") {
			start, end, ok := heredocBody(data, t.SrcRange.Start.Line, t.SrcRange.End.Line)
			if !ok {
				return refuse("the heredoc was not found")
			}
			body, err := setFields(data[start:end], 0, fields)
			if err != nil {
				return refuse(reason(err))
			}
			out := append(append(append([]byte{}, data[:start]...), body...), data[end:]...)
			if string(out) != string(data) {
				ws.Write(decl.File, out)
				return Placement{Files: []string{decl.File}}
			}
			return Placement{}
		}
	}
	return refuse("Terraform builds it from an expression, which eni-lint does not rewrite")
}

// moduleFile is the path of file("…") when it is a literal or "${path.module}/…": a file next to
// the .tf, whose YAML is the manifest.
func moduleFile(expr hclsyntax.Expression, tf string) (string, bool) {
	call, ok := expr.(*hclsyntax.FunctionCallExpr)
	if !ok || call.Name != "file" || len(call.Args) != 1 {
		return "", false
	}
	t, ok := call.Args[0].(*hclsyntax.TemplateExpr)
	if !ok {
		return "", false
	}
	var b strings.Builder
	for _, part := range t.Parts {
		switch p := part.(type) {
		case *hclsyntax.LiteralValueExpr:
			b.WriteString(p.Val.AsString())
		case *hclsyntax.ScopeTraversalExpr:
			if len(p.Traversal) != 2 || p.Traversal.RootName() != "path" {
				return "", false
			}
			if a, ok := p.Traversal[1].(hcl.TraverseAttr); !ok || a.Name != "module" {
				return "", false
			}
			b.WriteString(filepath.Dir(tf))
		default:
			return "", false
		}
	}
	p := b.String()
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, filepath.Dir(tf)) {
		p = filepath.Join(filepath.Dir(tf), p)
	}
	return filepath.Clean(p), true
}

// setObjectItem sets one field in the object of the resource's manifest attribute: an item
// written as a number is replaced, a missing one is added as a line before its object's
// closing brace, at the indentation of the object's items.
func setObjectItem(data []byte, line int, f Field) ([]byte, string) {
	if !fieldPath(f.Path) {
		return nil, f.Path + " is not a field path eni-lint writes"
	}
	block, why := resourceBlock(data, line)
	if why != "" {
		return nil, why
	}
	var obj *hclsyntax.ObjectConsExpr
	if a := block.Body.Attributes["manifest"]; a != nil {
		obj, _ = a.Expr.(*hclsyntax.ObjectConsExpr)
	}
	if obj == nil {
		return nil, "its manifest is not an object"
	}
	keys := strings.Split(f.Path, ".")
	for i, k := range keys {
		item := objectItem(data, obj, k)
		if item == nil {
			if i < len(keys)-1 {
				return nil, "its object has no " + strings.Join(keys[:i+1], ".")
			}
			return insertItem(data, obj, k, strconv.Itoa(f.Value))
		}
		if i < len(keys)-1 {
			next, ok := item.ValueExpr.(*hclsyntax.ObjectConsExpr)
			if !ok {
				return nil, strings.Join(keys[:i+1], ".") + " is not written as an object"
			}
			obj = next
			continue
		}
		r := item.ValueExpr.Range()
		text := string(data[r.Start.Byte:r.End.Byte])
		if text == strconv.Itoa(f.Value) {
			return data, ""
		}
		if !isNumber(text) {
			return nil, "it is the expression " + text + ", which eni-lint does not rewrite"
		}
		return splice(data, r.Start.Byte, r.End.Byte, strconv.Itoa(f.Value)), ""
	}
	return data, ""
}

// objectItem finds an item by its key as written: a bare name or a quoted one.
func objectItem(data []byte, obj *hclsyntax.ObjectConsExpr, key string) *hclsyntax.ObjectConsItem {
	for i := range obj.Items {
		r := obj.Items[i].KeyExpr.Range()
		text := strings.Trim(string(data[r.Start.Byte:r.End.Byte]), `"`)
		if text == key {
			return &obj.Items[i]
		}
	}
	return nil
}

func insertItem(data []byte, obj *hclsyntax.ObjectConsExpr, key, value string) ([]byte, string) {
	if len(obj.Items) == 0 || obj.SrcRange.Start.Line == obj.SrcRange.End.Line {
		return nil, "its object is written on one line"
	}
	brace := obj.SrcRange.End.Byte - 1
	lineStart := strings.LastIndexByte(string(data[:brace]), '\n') + 1
	if strings.TrimSpace(string(data[lineStart:brace])) != "" {
		return nil, "its object closes on a line with other text"
	}
	column := obj.Items[0].KeyExpr.Range().Start.Column
	nl := "\n"
	if lineStart >= 2 && data[lineStart-2] == '\r' {
		nl = "\r\n"
	}
	return splice(data, lineStart, lineStart, strings.Repeat(" ", column-1)+key+" = "+value+nl), ""
}
