package fix

import (
	"bytes"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamledit"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"go.yaml.in/yaml/v3"
)

// TestTerraformRoundTripOverTestdata edits every .tf file under testdata/ the way fix does and
// checks that nothing else moves: every number attribute of every resource, set to its own
// value, is no edit, and set to another value and back gives the file byte for byte; every
// heredoc's YAML goes through the YAML editor the same way.
func TestTerraformRoundTripOverTestdata(t *testing.T) {
	files, attrs, heredocs := 0, 0, 0
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tf") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		file, diags := hclsyntax.ParseConfig(data, p, hcl.InitialPos)
		if diags.HasErrors() {
			return nil // the hostile and error fixtures
		}
		files++
		for _, b := range file.Body.(*hclsyntax.Body).Blocks {
			if b.Type != "resource" {
				continue
			}
			line := b.DefRange().Start.Line
			if a := b.Body.Attributes["manifest"]; a != nil {
				if obj, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok {
					eachItemNumber(data, obj, "", func(path string, v int) {
						if out, why := setObjectItem(data, line, Field{path, v}); why != "" || !bytes.Equal(out, data) {
							t.Errorf("%s:%d %s: same value changed the file (%s)", p, line, path, why)
						}
						once, why := setObjectItem(data, line, Field{path, v + 1})
						if back, _ := setObjectItem(once, line, Field{path, v}); why != "" || !bytes.Equal(back, data) {
							t.Errorf("%s:%d %s: setting %d back does not restore the file (%s)", p, line, path, v, why)
						}
						attrs++
					})
				}
			}
			eachNumber(b.Body, "", func(path string, v int) {
				if out, why := setAttribute(data, line, Field{path, v}); why != "" || !bytes.Equal(out, data) {
					t.Errorf("%s:%d %s: same value changed the file (%s)", p, line, path, why)
				}
				once, why := setAttribute(data, line, Field{path, v + 1})
				if why != "" {
					t.Errorf("%s:%d %s: %s", p, line, path, why)
					return
				}
				back, _ := setAttribute(once, line, Field{path, v})
				if !bytes.Equal(back, data) {
					t.Errorf("%s:%d %s: setting %d back does not restore the file", p, line, path, v)
				}
				attrs++
			})
		}
		hclsyntax.VisitAll(file.Body.(*hclsyntax.Body), func(n hclsyntax.Node) hcl.Diagnostics {
			_, ok := n.(*hclsyntax.TemplateExpr)
			r := n.Range()
			if !ok || !bytes.HasPrefix(data[r.Start.Byte:r.End.Byte], []byte("<<")) {
				return nil
			}
			start, end, ok := heredocBody(data, r.Start.Line, r.End.Line)
			if !ok {
				t.Errorf("%s:%d: the heredoc hcl reports is not found", p, r.Start.Line)
				return nil
			}
			body := data[start:end]
			docs, _ := yamlpos.Documents(body)
			for _, doc := range docs {
				if doc.Kind != yaml.MappingNode {
					continue
				}
				if k, _ := yamlpos.Lookup(doc, "kind"); k == nil {
					continue
				}
				// A key right under the document, inserted and found again.
				e, changed, err := yamledit.SetInt(body, doc.Line, "metadata.eniLintProbe", 1)
				if err != nil || !changed {
					continue
				}
				if out := e.Apply(body); bytes.Count(out, []byte("\n")) != bytes.Count(body, []byte("\n"))+1 {
					t.Errorf("%s:%d: the heredoc insertion is not one line", p, r.Start.Line)
				}
				heredocs++
			}
			return nil
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d .tf files, %d number attributes, %d heredoc documents", files, attrs, heredocs)
	if files < 20 || attrs < 5 || heredocs < 3 {
		t.Errorf("round-tripped %d files, %d attributes, %d heredocs: testdata looks missing", files, attrs, heredocs)
	}
}

// eachNumber visits every attribute written as a plain number, with its field path in API
// (camelCase) form, as fix's paths are.
func eachNumber(body *hclsyntax.Body, prefix string, visit func(path string, v int)) {
	for name, a := range body.Attributes {
		lit, ok := a.Expr.(*hclsyntax.LiteralValueExpr)
		if !ok || lit.Val.IsNull() || lit.Val.Type() != cty.Number {
			continue
		}
		v, acc := lit.Val.AsBigFloat().Int64()
		if acc != big.Exact || v < 0 {
			continue
		}
		visit(prefix+camel(name), int(v))
	}
	for _, b := range body.Blocks {
		if len(b.Labels) == 0 {
			eachNumber(b.Body, prefix+camel(b.Type)+".", visit)
		}
	}
}

// eachItemNumber visits every item of a manifest object written as a plain number.
func eachItemNumber(data []byte, obj *hclsyntax.ObjectConsExpr, prefix string, visit func(path string, v int)) {
	for _, item := range obj.Items {
		r := item.KeyExpr.Range()
		key := strings.Trim(string(data[r.Start.Byte:r.End.Byte]), `"`)
		switch v := item.ValueExpr.(type) {
		case *hclsyntax.ObjectConsExpr:
			eachItemNumber(data, v, prefix+key+".", visit)
		case *hclsyntax.LiteralValueExpr:
			if v.Val.IsNull() || v.Val.Type() != cty.Number {
				continue
			}
			if n, acc := v.Val.AsBigFloat().Int64(); acc == big.Exact && n >= 0 {
				visit(prefix+key, int(n))
			}
		}
	}
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
