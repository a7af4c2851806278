package terraform

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// module is one directory of .tf and .tf.json files, parsed but not evaluated.
type module struct {
	dir       string
	variables map[string]*variable
	locals    map[string]*hcl.Attribute
	resources map[string]*resource // "type.name"
	order     []string             // resource keys in file order
	data      map[string]hcl.Range // "type.name"
	// dataAttrs are the arguments of the data sources eni-lint evaluates itself.
	dataAttrs map[string]hcl.Attributes
	calls     map[string]*moduleCall
	outputs   map[string]*hcl.Attribute
	// templatePaths are the first arguments of its templatefile() calls: the files they name
	// are Terraform templates, not manifests.
	templatePaths []hcl.Expression
}

type variable struct {
	name    string
	def     hcl.Expression // nil without default
	typ     hcl.Expression
	declare hcl.Range
	// notNullable is nullable = false: a null input takes the default, as in Terraform.
	notNullable bool
}

type resource struct {
	typ, name string
	ignores   []inventory.Ignore // eni-lint:ignore comments on or above the block
	body      hcl.Body
	count     hcl.Expression
	forEach   hcl.Expression
	declare   hcl.Range
	attrs     hcl.Attributes
}

type moduleCall struct {
	ignores []inventory.Ignore
	// inner are the ignore comments inside the block (above an argument or a map entry), each
	// with the line it stands above.
	inner   []innerIgnore
	name    string
	source  string
	version string
	attrs   hcl.Attributes
	count   hcl.Expression
	forEach hcl.Expression
	declare hcl.Range
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "output", LabelNames: []string{"name"}},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "terraform"},
	{Type: "moved"},
	{Type: "import"},
	{Type: "removed"},
	{Type: "check", LabelNames: []string{"name"}},
	{Type: "ephemeral", LabelNames: []string{"type", "name"}},
}}

var variableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "default"}, {Name: "type"}, {Name: "nullable"}}}

var metaSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}}}

// isTerraformFile says whether a file belongs to a module's configuration.
func isTerraformFile(name string) bool {
	return strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json")
}

// parseModule reads every .tf and .tf.json file of dir. Diagnostics are returned, never fatal:
// what parses is kept.
func parseModule(parser *hclparse.Parser, fsys *confine.FS, dir string) (*module, hcl.Diagnostics) {
	m := &module{
		dir: dir, variables: map[string]*variable{}, locals: map[string]*hcl.Attribute{},
		resources: map[string]*resource{}, data: map[string]hcl.Range{}, dataAttrs: map[string]hcl.Attributes{},
		calls: map[string]*moduleCall{}, outputs: map[string]*hcl.Attribute{},
	}
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return m, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "cannot read module folder", Detail: confine.Reason(err), Subject: &hcl.Range{Filename: dir}}}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && isTerraformFile(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	for _, name := range names {
		path := filepath.Join(dir, name)
		f, d := parseFile(parser, fsys, path)
		diags = append(diags, d...)
		// A file with a syntax error is reported and contributes nothing: hcl's partial body
		// of it still held the node group the report said it could not read.
		if f == nil || f.Body == nil || d.HasErrors() {
			continue
		}
		meterForExpressions(f.Body)
		diags = append(diags, m.addFile(f)...)
	}
	return m, diags
}

// addFile adds one parsed file's blocks to the module, and the paths its templatefile()
// calls read.
func (m *module) addFile(f *hcl.File) hcl.Diagnostics {
	if syn, ok := f.Body.(*hclsyntax.Body); ok {
		hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
			if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && call.Name == "templatefile" && len(call.Args) > 0 {
				m.templatePaths = append(m.templatePaths, call.Args[0])
			}
			return nil
		})
	}
	lines := lineIndex(f.Bytes)
	content, _, diags := f.Body.PartialContent(fileSchema)
	for _, b := range content.Blocks {
		switch b.Type {
		case "variable":
			v, d := readVariable(b)
			diags = append(diags, d...)
			m.variables[v.name] = v
		case "locals":
			attrs, d := b.Body.JustAttributes()
			diags = append(diags, d...)
			for n, a := range attrs {
				m.locals[n] = a
			}
		case "resource":
			r := readResource(b, lines)
			key := r.typ + "." + r.name
			m.resources[key] = r
			m.order = append(m.order, key)
		case "data":
			m.data[b.Labels[0]+"."+b.Labels[1]] = b.DefRange
			if b.Labels[0] == "kubectl_file_documents" {
				m.dataAttrs[b.Labels[0]+"."+b.Labels[1]] = attributesOf(b.Body)
			}
		case "module":
			c := readModuleCall(b, lines)
			m.calls[c.name] = c
		case "output":
			c, _, _ := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "value"}}})
			if a := c.Attributes["value"]; a != nil {
				m.outputs[b.Labels[0]] = a
			}
		}
	}
	return diags
}

// readVariable reads a variable block: its default, type and nullable.
func readVariable(b *hcl.Block) (*variable, hcl.Diagnostics) {
	c, _, d := b.Body.PartialContent(variableSchema)
	v := &variable{name: b.Labels[0], declare: b.DefRange}
	if a := c.Attributes["default"]; a != nil {
		v.def = a.Expr
	}
	if a := c.Attributes["type"]; a != nil {
		v.typ = a.Expr
	}
	if a := c.Attributes["nullable"]; a != nil {
		if n, d := a.Expr.Value(nil); !d.HasErrors() && n.Type() == cty.Bool && n.IsKnown() && !n.IsNull() {
			v.notNullable = n.False()
		}
	}
	return v, d
}

// readResource reads a resource block: count, for_each, its attributes and the ignore
// comments above it.
func readResource(b *hcl.Block, lines []string) *resource {
	r := &resource{typ: b.Labels[0], name: b.Labels[1], body: b.Body, declare: b.DefRange}
	meta, _, _ := b.Body.PartialContent(metaSchema)
	if a := meta.Attributes["count"]; a != nil {
		r.count = a.Expr
	}
	if a := meta.Attributes["for_each"]; a != nil {
		r.forEach = a.Expr
	}
	r.attrs = attributesOf(b.Body)
	r.ignores = commentIgnores(lines, b.DefRange)
	return r
}

// readModuleCall reads a module block: its source and version when literal, count, for_each
// and the ignore comments above and inside it.
func readModuleCall(b *hcl.Block, lines []string) *moduleCall {
	c := &moduleCall{name: b.Labels[0], declare: b.DefRange, attrs: attributesOf(b.Body), ignores: commentIgnores(lines, b.DefRange),
		inner: innerIgnores(lines, b.DefRange.Filename, blockRange(b))}
	if a := c.attrs["source"]; a != nil {
		if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type().FriendlyName() == "string" && v.IsKnown() {
			c.source = v.AsString()
		}
	}
	if a := c.attrs["version"]; a != nil {
		if v, d := a.Expr.Value(nil); !d.HasErrors() && v.IsKnown() && v.Type().FriendlyName() == "string" {
			c.version = v.AsString()
		}
	}
	c.count, c.forEach = exprOf(c.attrs["count"]), exprOf(c.attrs["for_each"])
	return c
}

func exprOf(a *hcl.Attribute) hcl.Expression {
	if a == nil {
		return nil
	}
	return a.Expr
}

// attributesOf returns a body's attributes whatever its blocks; nested blocks are read
// separately with their own schemas.
func attributesOf(body hcl.Body) hcl.Attributes {
	attrs, diags := body.JustAttributes()
	if !diags.HasErrors() {
		return attrs
	}
	// A native-syntax body with nested blocks: take its attributes directly.
	out := hcl.Attributes{}
	if syn, ok := body.(*hclsyntax.Body); ok {
		for name, a := range syn.Attributes {
			out[name] = a.AsHCLAttribute()
		}
	}
	return out
}

// blocksOf returns the nested blocks of a type, in order: native syntax blocks, or, in JSON,
// the object (or list of objects) under that key as a body.
func blocksOf(body hcl.Body, typ string) []hcl.Body {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: typ}}})
	var out []hcl.Body
	for _, b := range content.Blocks {
		out = append(out, b.Body)
	}
	return out
}

// localSource reports whether a module source is a local path.
func localSource(src string) bool {
	return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../")
}

func describeRange(r hcl.Range) string {
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}

// parseFile reads one .tf, .tf.json or .tfvars(.json) file through the confined file system.
// A file that cannot be read (a link out of the scanned folders, a pipe, over the size budget)
// is a located error.
func parseFile(parser *hclparse.Parser, fsys *confine.FS, path string) (*hcl.File, hcl.Diagnostics) {
	data, err := fsys.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read", Detail: confine.Reason(err), Subject: &hcl.Range{Filename: path}}}
	}
	if strings.HasSuffix(path, ".json") {
		prepared, deep := prepareJSON(data, path)
		if deep != nil {
			return nil, hcl.Diagnostics{deep}
		}
		return parser.ParseJSON(prepared, path)
	}
	if deep := checkNativeNesting(data, path); deep != nil {
		return nil, hcl.Diagnostics{deep}
	}
	return parser.ParseHCL(data, path)
}

// lineIndex splits a file into lines once; a JSON file has none to read comments from.
func lineIndex(src []byte) []string {
	if len(src) > 0 && (src[0] == '{' || src[0] == '[') {
		return nil
	}
	return strings.Split(string(src), "\n")
}

// blockRange is a block's whole extent, from its type to its closing brace.
func blockRange(b *hcl.Block) hcl.Range {
	if syn, ok := b.Body.(*hclsyntax.Body); ok {
		return hcl.RangeBetween(b.DefRange, syn.SrcRange)
	}
	return b.DefRange
}

// innerIgnore is an ignore comment inside a module block and the line it stands above.
type innerIgnore struct {
	ignore inventory.Ignore
	target int
}

// innerIgnores reads the ignore comments on the lines inside a block (after its first line),
// each with the first non-comment line below it.
func innerIgnores(lines []string, file string, block hcl.Range) []innerIgnore {
	if lines == nil || strings.HasSuffix(file, ".json") {
		return nil
	}
	var out []innerIgnore
	var pending []inventory.Ignore
	for n := block.Start.Line + 1; n <= block.End.Line && n <= len(lines); n++ {
		line := lines[n-1]
		trimmed := strings.TrimSpace(line)
		isComment := strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "//")
		if i := strings.Index(line, inventory.CommentIgnorePrefix); i >= 0 {
			at := inventory.Position{File: file, Line: n, Column: i + 1}
			ig := inventory.ParseIgnoreComment(line[i+len(inventory.CommentIgnorePrefix):], at)
			if !isComment {
				out = append(out, innerIgnore{ignore: ig, target: n}) // at the end of the line it is about
				continue
			}
			pending = append(pending, ig)
			continue
		}
		if isComment || trimmed == "" {
			continue
		}
		for _, ig := range pending {
			out = append(out, innerIgnore{ignore: ig, target: n})
		}
		pending = nil
	}
	for _, ig := range pending {
		out = append(out, innerIgnore{ignore: ig, target: block.End.Line})
	}
	return out
}

// commentIgnores reads `# eni-lint:ignore RULE reason` comments (or `//`) in the comment lines
// right above a block and on its first line. lines is the file's line index, made once.
func commentIgnores(lines []string, decl hcl.Range) []inventory.Ignore {
	if lines == nil || strings.HasSuffix(decl.Filename, ".json") {
		return nil
	}
	var out []inventory.Ignore
	read := func(n int) bool { // n is 1-based; reports whether the line is a comment
		if n < 1 || n > len(lines) {
			return false
		}
		line := lines[n-1]
		trimmed := strings.TrimSpace(line)
		isComment := strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "//")
		if i := strings.Index(line, inventory.CommentIgnorePrefix); i >= 0 && (isComment || n == decl.Start.Line) {
			at := inventory.Position{File: decl.Filename, Line: n, Column: i + 1}
			out = append(out, inventory.ParseIgnoreComment(line[i+len(inventory.CommentIgnorePrefix):], at))
		}
		return isComment
	}
	read(decl.Start.Line)
	for n := decl.Start.Line - 1; read(n); n-- {
	}
	return out
}
