package terraform

import (
	"encoding/json"
	"fmt"
	"github.com/eni-lint/eni-lint/internal/testtool"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestNativeNesting(t *testing.T) {
	deep := MaxNesting + 1
	var short strings.Builder // many short expressions, each with a few operations
	for i := 0; i < 2*MaxNesting; i++ {
		fmt.Fprintf(&short, "x%d = 1 - 1 - 1 > 0 ? 2 : 3\n", i)
	}
	tests := []struct {
		name string
		src  string
		deep bool
		line int
	}{
		{"a real module", "module \"eks\" {\n  groups = { a = { types = [\"m5.large\"] } }\n  x = !(a && -b)\n}\n", false, 0},
		{"brackets", "x = " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n", true, 1},
		{"brackets at the limit", "x = " + strings.Repeat("[", MaxNesting-1) + strings.Repeat("]", MaxNesting-1) + "\n", false, 0},
		{"blocks on their own lines", "x = 1\n" + strings.Repeat("a {\n", deep) + strings.Repeat("}\n", deep), true, 2 + MaxNesting},
		{"bangs", "x = " + strings.Repeat("!", deep) + "true\n", true, 1},
		{"minus signs", "x = " + strings.Repeat("-", deep) + "1\n", true, 1},
		// hcl evaluates `1 - 1 - …` and parses `a ? b : c ? …` recursively, one level per
		// operation: a few megabytes of either ended the process with a stack overflow.
		{"subtractions in one expression", "x = " + strings.Repeat("1 - ", 2*MaxNesting) + "1\n", true, 1},
		{"conditionals in one expression", "x = " + strings.Repeat("true ? 1 : ", deep) + "1\n", true, 1},
		{"operations at the limit", "x = " + strings.Repeat("1 + ", MaxNesting-2) + "1\n", false, 0},
		{"operations end with their expression", short.String(), false, 0},
		{"operations end with their list item", "x = [" + strings.Repeat("1 - 1, ", 2*MaxNesting) + "]\n", false, 0},
		{"postfix indexes", "x = f(1)" + strings.Repeat("[0]", deep) + "\n", true, 1},
		{"templates in templates", "x = " + strings.Repeat(`"${`, deep/2+1) + "1" + strings.Repeat(`}"`, deep/2+1) + "\n", true, 1},
		{"if directives", "x = \"" + strings.Repeat("%{ if true }a", deep) + strings.Repeat("%{ endif }", deep) + "\"\n", true, 1},
		{"many closed brackets in sequence", "x = [" + strings.Repeat("[1], ", 10*MaxNesting) + "]\n", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := checkNativeNesting([]byte(tc.src), "main.tf")
			if (d != nil) != tc.deep {
				t.Fatalf("deep = %v, want %v (%v)", d != nil, tc.deep, d)
			}
			if d != nil && (d.Subject.Filename != "main.tf" || d.Subject.Start.Line != tc.line || !strings.Contains(d.Detail, "(a budget)")) {
				t.Errorf("diagnostic %s at %v, want main.tf:%d", d.Detail, d.Subject, tc.line)
			}
			if !tc.deep {
				if _, diags := hclsyntax.ParseConfig([]byte(tc.src), "main.tf", hcl.InitialPos); diags.HasErrors() {
					t.Errorf("the test input does not parse: %v", diags)
				}
			}
		})
	}
}

func TestPrepareJSON(t *testing.T) {
	deep := MaxNesting + 1
	tests := []struct {
		name string
		src  string
		want string // the prepared text; "" means unchanged
		line int    // > 0: refused at this line
	}{
		{"no templates", `{"locals": {"a": [1, "x"]}}`, "", 0},
		{"a template without for", `{"locals": {"a": "${var.x}-y"}}`, "", 0},
		{"a for expression is metered", `{"locals": {"a": "${[for t in var.types : upper(t)]}"}}`,
			`{"locals": {"a": "${[for t in __eni_lint_for_budget(var.types) : upper(t)]}"}}`, 0},
		{"nested for expressions", `{"a": "${{for k, v in local.m : k => [for x in v : x]}}"}`,
			`{"a": "${{for k, v in __eni_lint_for_budget(local.m) : k => [for x in __eni_lint_for_budget(v) : x]}}"}`, 0},
		{"a for directive", `{"a": "%{ for x in var.l }${x}%{ endfor }"}`,
			`{"a": "%{ for x in __eni_lint_for_budget(var.l) }${x}%{ endfor }"}`, 0},
		{"escapes are kept meaningful", `{"a": "${[for t in [\"<a>\", \"\\n\"] : t]}", "b": "\u00e9"}`,
			`{"a": "${[for t in __eni_lint_for_budget([\"<a>\", \"\\n\"]) : t]}", "b": "\u00e9"}`, 0},
		{"only the rewritten string changes", "{\"a\": \"${[for t in x : t]}\",\n \"b\": \"${[for u in y : u]}\"}",
			"{\"a\": \"${[for t in __eni_lint_for_budget(x) : t]}\",\n \"b\": \"${[for u in __eni_lint_for_budget(y) : u]}\"}", 0},
		{"deep arrays", "{\"a\":\n" + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "}", "", 2},
		{"deep objects", strings.Repeat(`{"a":`, deep) + "1" + strings.Repeat("}", deep), "", 1},
		{"a deep template in a shallow file", `{"a": "` + strings.Repeat(`(`, deep) + `"}`, "", 0},
		{"a deep template expression", `{"a": "${` + strings.Repeat(`(`, deep) + `1` + strings.Repeat(`)`, deep) + `}"}`, "", 1},
		{"an unterminated string", `{"a": "${[for x in y : x]`, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, d := prepareJSON([]byte(tc.src), "main.tf.json")
			if tc.line > 0 {
				if d == nil || d.Subject.Start.Line != tc.line || d.Subject.Filename != "main.tf.json" {
					t.Fatalf("want a refusal at line %d, got %v", tc.line, d)
				}
				return
			}
			if d != nil {
				t.Fatalf("refused: %v", d)
			}
			want := tc.want
			if want == "" {
				want = tc.src
			}
			if string(got) != want {
				t.Errorf("prepared\n %s\nwant\n %s", got, want)
			}
			if json.Valid([]byte(tc.src)) && !json.Valid(got) {
				t.Errorf("the prepared text is not JSON: %s", got)
			}
		})
	}
}

func TestJSONForExpressionsAreMetered(t *testing.T) {
	testtool.SkipUnlessSlow(t, "iterates a million times before the budget trips")
	root := writeTree(t, map[string]string{
		"main.tf.json": `{
 "variable": {"types": {"default": ["m5.large", "c5.xlarge"]}},
 "locals": {"big": "${[for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]}"},
 "resource": {"aws_eks_node_group": {
  "g": {"node_group_name": "g", "instance_types": "${[for t in var.types : t]}"},
  "h": {"node_group_name": "h", "instance_types": ["${length(local.big) > 0 ? \"m5.large\" : \"m5.xlarge\"}"]}
 }}
}`,
	})
	frags := Load([]string{root}, Options{})
	groups := groupsOf(t, frags)
	if g := groups["g"]; strings.Join(g.InstanceTypes, ",") != "m5.large,c5.xlarge" {
		t.Errorf("a metered for expression must still evaluate: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
	var budget bool
	for _, f := range frags {
		for _, e := range f.Errors {
			if strings.Contains(e.Message, "iterate more than 1000000 times") && e.Position.Line == 3 {
				budget = true
			}
		}
	}
	if !budget {
		t.Errorf("the nested for in a .tf.json must stop at the iteration budget, at line 3: %+v", frags)
	}
}

func TestJSONDecodeNesting(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.tf": `locals {
  deep = jsondecode(join("", concat([for i in range(1000) : "[[[[[[[[[["], [for i in range(1000) : "]]]]]]]]]]"])))
  ok   = jsondecode("{\"types\": [\"m5.large\"]}")
}
resource "aws_eks_node_group" "g" {
  node_group_name = "g"
  instance_types  = local.ok.types
}
resource "aws_eks_node_group" "h" {
  node_group_name = "h"
  instance_types  = length(local.deep) > 0 ? ["m5.large"] : []
}
`,
	})
	frags := Load([]string{root}, Options{})
	groups := groupsOf(t, frags)
	if g := groups["g"]; strings.Join(g.InstanceTypes, ",") != "m5.large" {
		t.Errorf("jsondecode of a shallow document: %v (%s)", g.InstanceTypes, g.UnknownTypes)
	}
	if g := groups["h"]; len(g.InstanceTypes) != 0 || g.UnknownTypes == "" {
		t.Errorf("a group that depends on a refused jsondecode must be unknown: %v", g)
	}
	var refused bool
	for _, f := range frags {
		for _, e := range f.Errors {
			refused = refused || strings.Contains(e.Message, "nests more than 500 levels deep (a budget)")
		}
	}
	if !refused {
		t.Errorf("the deep jsondecode must be a located budget error: %+v", frags)
	}
}

func TestJSONNestsDeeper(t *testing.T) {
	tests := []struct {
		s    string
		deep bool
	}{
		{`[[1]]`, false},
		{`[[[1]]]`, true},
		{`["[[[[", {"a": "]]]"}]`, false},
		{`["\"[[[["]`, false},
		{`{"a": {"b": {"c": 1}}}`, true},
	}
	for _, tc := range tests {
		if got := jsonNestsDeeper(tc.s, 2); got != tc.deep {
			t.Errorf("jsonNestsDeeper(%s, 2) = %v, want %v", tc.s, got, tc.deep)
		}
	}
}

func FuzzPrepareJSON(f *testing.F) {
	f.Add([]byte(`{"locals": {"a": "${[for t in var.types : upper(t)]}"}}`))
	f.Add([]byte(`{"a": "%{ for x in var.l }${x}%{ endfor }", "b": "\u00e9\"${x}"}`))
	f.Add([]byte(`{"a": "${[for t in x : t]}"`))
	f.Add([]byte(strings.Repeat("[", 600)))
	f.Add([]byte(`{"a": "${` + strings.Repeat(`(`, 600) + `}"}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		got, d := prepareJSON(src, "f.tf.json")
		if d != nil {
			if d.Subject == nil || d.Subject.Filename != "f.tf.json" || d.Subject.Start.Line < 1 {
				t.Fatalf("refusal without a position: %+v", d)
			}
			return
		}
		if json.Valid(src) && !json.Valid(got) {
			t.Fatalf("valid JSON became invalid: %q -> %q", src, got)
		}
		if strings.Count(string(got), "\n") != strings.Count(string(src), "\n") {
			t.Fatalf("lines moved: %q -> %q", src, got)
		}
		// Preparing twice changes nothing more: the budget call is recognised.
		again, _ := prepareJSON(got, "f.tf.json")
		if string(again) != string(got) {
			t.Fatalf("not idempotent: %q -> %q", got, again)
		}
	})
}

func FuzzNativeNesting(f *testing.F) {
	f.Add("x = [[1]]\n")
	f.Add("x = \"%{ if a }${b}%{ endif }\"\n")
	f.Add("x = !!-1\n")
	f.Add("a {\n b {\n }\n}\n")
	f.Add("x = true ? 1 : false ? 2 : 3\n")
	f.Add("x = 1 - 2 * 3 % 4 == 5 || f(1)[0].a\n")
	f.Fuzz(func(t *testing.T, src string) {
		if d := checkNativeNesting([]byte(src), "f.tf"); d != nil {
			if d.Subject == nil || d.Subject.Filename != "f.tf" {
				t.Fatalf("refusal without a position: %+v", d)
			}
			return
		}
		// What passes the check parses and evaluates without overflowing the stack.
		file, _ := hclsyntax.ParseConfig([]byte(src), "f.tf", hcl.InitialPos)
		if file != nil {
			attrs, _ := file.Body.JustAttributes()
			for _, a := range attrs {
				a.Expr.Value(nil)
			}
		}
	})
}

func FuzzCLIValue(f *testing.F) {
	f.Add(`["m5.large", "c5.large"]`)
	f.Add(`{ a = 1 }`)
	f.Add(`m5.large`)
	f.Add(strings.Repeat("[", 1000))
	f.Add(strings.Repeat("!", 1000) + "true")
	f.Fuzz(func(t *testing.T, raw string) {
		if v := cliValue(raw); !v.IsWhollyKnown() {
			t.Fatalf("--var %q gave an unknown value", raw)
		}
	})
}

func TestHugeExponent(t *testing.T) {
	tests := []struct {
		lit  string
		huge bool
	}{
		{"1024", false}, {"1.5", false}, {"1e308", false}, {"-2.5E-300", false}, {"1e400", false},
		{"1e401", true}, {"1e10000000", true}, {"1e-10000000", true}, {"1e00000000000000000005", false},
		{"0.000001", false}, {strings.Repeat("9", 401), true}, {"0." + strings.Repeat("1", 401), true},
	}
	for _, tc := range tests {
		if got := hugeExponent([]byte(tc.lit)); got != tc.huge {
			t.Errorf("hugeExponent(%s) = %v, want %v", tc.lit, got, tc.huge)
		}
	}
}

// TestNumbersCannotGrowPastPrinting: printing a number with millions of digits takes seconds
// to minutes (count = 1e10000000 took 12 s in an error message), whether it is written as a
// literal or made by squaring a local again and again.
func TestNumbersCannotGrowPastPrinting(t *testing.T) {
	squares := "locals {\n  a0 = 1e300\n"
	for i := 1; i <= 24; i++ {
		squares += fmt.Sprintf("  a%d = local.a%d * local.a%d\n", i, i-1, i-1)
	}
	squares += "}\n"
	tests := []struct {
		name, file, src, want string
		line                  int
	}{
		{"a literal in .tf", "main.tf", "resource \"aws_eks_node_group\" \"g\" {\n  count = 1e10000000\n}\n", "Number too large", 2},
		{"a literal in .tf.json", "main.tf.json", "{\"resource\": {\"aws_eks_node_group\": {\"g\": {\n\"count\": 1e10000000}}}}", "Number too large", 2},
		{"a literal in a .tf.json template", "main.tf.json", "{\"locals\": {\n\"a\": \"${1e10000000 + 1}\"}}", "Number too large", 2},
		{"squared through locals", "main.tf", squares + "resource \"aws_eks_node_group\" \"g\" {\n  count = local.a24\n}\n", "exponent passes ±400 (a budget)", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, map[string]string{tc.file: tc.src})
			var found []string
			for _, f := range Load([]string{root}, Options{}) {
				for _, e := range f.Errors {
					found = append(found, fmt.Sprintf("%d: %s", e.Position.Line, e.Message))
					if strings.Contains(e.Message, tc.want) && e.Position.Line == tc.line {
						return
					}
				}
			}
			t.Errorf("want %q at line %d, got %q", tc.want, tc.line, found)
		})
	}
}

func FuzzReadInitModules(f *testing.F) {
	f.Add(`{"Modules":[{"Key":"a","Source":"registry.terraform.io/x/y/aws","Dir":".terraform/modules/a"}]}`)
	f.Add(`{"Modules":[{"Key":"b","Source":"git::x","Dir":"../../etc"},{"Key":"c","Source":"x","Dir":"/abs"}]}`)
	f.Add(`{"Modules":`)
	f.Fuzz(func(t *testing.T, manifest string) {
		root := writeTree(t, map[string]string{".terraform/modules/modules.json": manifest})
		fsys, err := confine.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer fsys.Close()
		l := &loader{fsys: fsys}
		for key, dir := range l.readInitModules(root) {
			if rel, err := filepath.Rel(root, dir); err != nil || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
				t.Fatalf("module %q at %s: outside the root", key, dir)
			}
		}
		for _, d := range l.diags {
			if d.Subject == nil || d.Subject.Filename == "" {
				t.Fatalf("an error without a file: %v", d)
			}
		}
	})
}

// FuzzTemplateFile feeds a file of the tree to templatefile() and to kubectl_file_documents,
// the two readers of file contents that parse them (as a template, as YAML documents).
func FuzzTemplateFile(f *testing.F) {
	f.Add("apiVersion: v1\nkind: Namespace\nmetadata: {name: ${name}}\n")
	f.Add("%{ for g in groups ~}\n- ${g}\n%{ endfor ~}\n---\nkind: Job\n")
	f.Add("${" + strings.Repeat("(", 600) + "}")
	f.Add("---\n---\n# only separators\n---")
	// Directives around values only Terraform knows (arn) and conditions it alone decides (flag).
	f.Add("%{ if name == \"x\" }\nrole: ${arn}\n%{ else }\nrole: none\n%{ endif }\n")
	f.Add("%{ if flag }\na: 1\n%{ endif }\n%{ for g in groups }${arn}-${g}%{ endfor }")
	f.Add("x: ${flag ? arn : name}\ny: %{ if flag }${arn}%{ else }b%{ endif }\n")
	f.Fuzz(func(t *testing.T, content string) {
		root := writeTree(t, map[string]string{
			"main.tf": `variable "flag" { type = bool }
resource "aws_iam_role" "r" { name = "r" }
resource "kubectl_manifest" "t" {
  yaml_body = templatefile("${path.module}/t.tftpl", { name = "x", groups = ["a", "b"], arn = aws_iam_role.r.arn, flag = var.flag })
}
data "kubectl_file_documents" "d" {
  content = file("${path.module}/t.tftpl")
}
resource "kubectl_manifest" "d" {
  for_each  = data.kubectl_file_documents.d.manifests
  yaml_body = each.value
}
`,
			"t.tftpl": content,
		})
		for _, frag := range Load([]string{root}, Options{}) {
			for _, e := range frag.Errors {
				if e.Position.File == "" || strings.Contains(e.Message, "cannot evaluate this Terraform module") {
					t.Fatalf("error %+v", e)
				}
			}
			for _, u := range frag.Unresolved {
				if u.Location.File == "" || u.Reason == "" {
					t.Fatalf("unresolved without a place or reason: %+v", u)
				}
			}
		}
	})
}
