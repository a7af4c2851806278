package terraform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxNesting bounds how deeply one file nests blocks, brackets, strings, template sequences
// and unary operators. hcl's parsers and its evaluator recurse once per level, and Go ends a
// process whose stack passes 1 GB with "fatal error: stack overflow": no report, no exit code
// of ours. A few megabytes of `[[[[` in a .tf.json, `!!!!` or `a {` lines in a .tf do it.
// Real modules nest fewer than 30 levels.
const MaxNesting = 500

// MaxExponent bounds the decimal exponent of a number literal. cty keeps numbers as 512-bit
// floats whose exponent may reach 2^31, and turning one into a string (a template, an error
// message, a list of strings) prints every digit: 1e10000000 takes 12 s. Real files stay
// within float64's range (1e308).
const MaxExponent = 400

func tooDeep(r hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nested too deeply",
		Detail:   fmt.Sprintf("this file nests blocks, brackets, strings or operators more than %d levels deep (a budget): not read", MaxNesting),
		Subject:  &r,
	}
}

func tooLarge(r hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Number too large",
		Detail:   fmt.Sprintf("a number literal here has an exponent beyond ±%d (a budget): not read", MaxExponent),
		Subject:  &r,
	}
}

// hugeExponent reports whether a number literal's decimal exponent, written or implied by its
// digits, passes MaxExponent.
func hugeExponent(lit []byte) bool {
	mantissa, exp := lit, 0
	if i := bytes.IndexAny(lit, "eE"); i >= 0 {
		mantissa = lit[:i]
		digits := bytes.TrimLeft(bytes.TrimLeft(lit[i+1:], "+-"), "0")
		if len(digits) > 6 {
			return true
		}
		for _, c := range digits {
			exp = exp*10 + int(c-'0')
		}
	}
	whole, _, _ := bytes.Cut(bytes.TrimLeft(mantissa, "-0"), []byte("."))
	return exp+len(whole)-1 > MaxExponent || len(mantissa) > MaxExponent
}

// checkTokens lexes native syntax (a .tf or .tfvars file, or a template) and returns the
// first place it nests deeper than MaxNesting-base or writes a number beyond MaxExponent.
func checkTokens(tokens hclsyntax.Tokens, base int) *hcl.Diagnostic {
	for _, t := range tokens {
		if t.Type == hclsyntax.TokenNumberLit && hugeExponent(t.Bytes) {
			return tooLarge(t.Range)
		}
	}
	if r, deep := nativeNesting(tokens, base); deep {
		return tooDeep(r)
	}
	return nil
}

// binaryOperators are the tokens hcl parses into an operation node: each operation in one
// expression nests the tree one level more (`a ? b : c ? d : …` in the parser, `1 + 1 + …` in
// the evaluator, which walks the left-deep tree recursively).
var binaryOperators = map[hclsyntax.TokenType]bool{
	hclsyntax.TokenQuestion: true, hclsyntax.TokenPlus: true, hclsyntax.TokenMinus: true,
	hclsyntax.TokenStar: true, hclsyntax.TokenSlash: true, hclsyntax.TokenPercent: true,
	hclsyntax.TokenAnd: true, hclsyntax.TokenOr: true, hclsyntax.TokenEqualOp: true,
	hclsyntax.TokenNotEqual: true, hclsyntax.TokenLessThan: true, hclsyntax.TokenLessThanEq: true,
	hclsyntax.TokenGreaterThan: true, hclsyntax.TokenGreaterThanEq: true,
}

// nativeNesting returns the range where tokens first nest deeper than MaxNesting-base. Every
// construct that makes hcl recurse counts: brackets, strings and templates while open,
// template directives, prefix operators in a row, and the operations of one expression (they
// count until the expression ends: a comma or a new line at their bracket level, or the
// bracket that holds them). An index or attribute after a bracket (`f(x)[0].a`) is an
// operation too. Real modules stay far below the budget; a few megabytes of `true ? 1 : true
// ? 1 : …` no longer reach the parser.
func nativeNesting(tokens hclsyntax.Tokens, base int) (hcl.Range, bool) {
	depth, directives, unary := base, 0, 0
	ops := []int{0} // operations of the expression open at each bracket level
	pending := 0    // their sum
	for i, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			if (t.Type == hclsyntax.TokenOBrack || t.Type == hclsyntax.TokenOParen) && i > 0 &&
				(tokens[i-1].Type == hclsyntax.TokenCBrack || tokens[i-1].Type == hclsyntax.TokenCParen) {
				ops[len(ops)-1]++ // a postfix index or call on an expression
				pending++
			}
			depth++
			ops = append(ops, 0)
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
			hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			if depth > base {
				depth--
			}
			if len(ops) > 1 {
				pending -= ops[len(ops)-1]
				ops = ops[:len(ops)-1]
			}
		case hclsyntax.TokenComma, hclsyntax.TokenNewline:
			pending -= ops[len(ops)-1]
			ops[len(ops)-1] = 0
		case hclsyntax.TokenDot:
			if i > 0 && (tokens[i-1].Type == hclsyntax.TokenCBrack || tokens[i-1].Type == hclsyntax.TokenCParen) {
				ops[len(ops)-1]++
				pending++
			}
		default:
			if binaryOperators[t.Type] {
				ops[len(ops)-1]++
				pending++
			}
		}
		// %{ if } … %{ endif } and %{ for } … %{ endfor } nest their bodies in the parser.
		if t.Type == hclsyntax.TokenIdent && i > 0 && tokens[i-1].Type == hclsyntax.TokenTemplateControl {
			switch string(t.Bytes) {
			case "if", "for":
				directives++
			case "endif", "endfor":
				if directives > 0 {
					directives--
				}
			}
		}
		// Each prefix operator is one level of the parser's recursion.
		if t.Type == hclsyntax.TokenBang || t.Type == hclsyntax.TokenMinus {
			unary++
		} else {
			unary = 0
		}
		if depth+directives+unary+pending > MaxNesting {
			return t.Range, true
		}
	}
	return hcl.Range{}, false
}

// checkNativeNesting refuses a native-syntax file that nests deeper than MaxNesting.
func checkNativeNesting(src []byte, filename string) *hcl.Diagnostic {
	if d := preScanNesting(src, filename); d != nil {
		return d // refused before the lexer holds every token of the file
	}
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	return checkTokens(tokens, 0)
}

// prepareJSON readies a JSON-syntax file (.tf.json, .tfvars.json) for hcl's JSON parser. It
// refuses nesting deeper than MaxNesting, counting the templates inside strings (hcl parses
// them when it evaluates), and it passes the collection of every `for` expression in a
// template through budgetFunc, as meterForExpressions does for native syntax: hcl parses
// those templates only when it evaluates them, so their syntax tree cannot be rewritten. A
// rewritten string is re-encoded in place; lines keep their numbers, and only the columns
// after a rewritten `for` on its line move.
func prepareJSON(src []byte, filename string) ([]byte, *hcl.Diagnostic) {
	var out []byte
	last, depth := 0, 0
	at := (&byteRanges{src: src, filename: filename, pos: hcl.Pos{Line: 1, Column: 1}}).at
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
			if depth > MaxNesting {
				return nil, tooDeep(at(i))
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			end := i
			for end < len(src) && bytes.IndexByte([]byte("+-.0123456789eE"), src[end]) >= 0 {
				end++
			}
			if hugeExponent(src[i:end]) {
				return nil, tooLarge(at(i))
			}
			i = end - 1
		case '"':
			end := i + 1
			for end < len(src) && src[end] != '"' {
				if src[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(src) {
				i = len(src) // unterminated: hcl's parser reports it
				continue
			}
			start := i
			i = end
			metered, d := meterJSONString(src[start:end+1], filename, depth)
			if d != nil {
				r := at(start)
				d.Subject = &r
				return nil, d
			}
			if metered != nil {
				out = append(out, src[last:start]...)
				out = append(out, metered...)
				last = end + 1
			}
		}
	}
	if out == nil {
		return src, nil
	}
	return append(out, src[last:]...), nil
}

// byteRanges turns byte offsets of a file into ranges, counting lines forward from the last
// offset asked for (offsets are asked in increasing order).
type byteRanges struct {
	src      []byte
	filename string
	pos      hcl.Pos
}

func (b *byteRanges) at(i int) hcl.Range {
	for ; b.pos.Byte < i; b.pos.Byte++ {
		if b.src[b.pos.Byte] == '\n' {
			b.pos.Line, b.pos.Column = b.pos.Line+1, 1
		} else {
			b.pos.Column++
		}
	}
	return hcl.Range{Filename: b.filename, Start: b.pos, End: b.pos}
}

// meterJSONString checks the template in one JSON string (raw, quotes included) at the given
// nesting depth, and returns it re-encoded with its for expressions metered; nil when it
// holds no template or nothing changes. The diagnostic has no subject: the caller knows where
// the string starts.
func meterJSONString(raw []byte, filename string, depth int) ([]byte, *hcl.Diagnostic) {
	if !bytes.Contains(raw, []byte("${")) && !bytes.Contains(raw, []byte("%{")) {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) != nil {
		return nil, nil
	}
	tokens, _ := hclsyntax.LexTemplate([]byte(text), filename, hcl.InitialPos)
	if d := checkTokens(tokens, depth); d != nil {
		return nil, d
	}
	metered, changed := meterTemplate(text)
	if !changed {
		return nil, nil
	}
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	if e.Encode(metered) != nil {
		return nil, nil
	}
	return bytes.TrimSuffix(enc.Bytes(), []byte("\n")), nil
}

// meterTemplate wraps the collection of every `for` expression of a template in budgetFunc.
func meterTemplate(text string) (string, bool) {
	expr, diags := hclsyntax.ParseTemplate([]byte(text), "", hcl.InitialPos)
	if diags.HasErrors() {
		return text, false
	}
	type insert struct {
		at   int
		text string
	}
	var inserts []insert
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if f, ok := n.(*hclsyntax.ForExpr); ok {
			if call, ok := f.CollExpr.(*hclsyntax.FunctionCallExpr); ok && call.Name == budgetFunc {
				return nil
			}
			r := f.CollExpr.Range()
			inserts = append(inserts, insert{r.Start.Byte, budgetFunc + "("}, insert{r.End.Byte, ")"})
		}
		return nil
	})
	if len(inserts) == 0 {
		return text, false
	}
	// From the end, so earlier offsets stay valid; at one offset the order does not matter,
	// since an opening and a closing never share one (a collection is never empty).
	sort.SliceStable(inserts, func(a, b int) bool { return inserts[a].at > inserts[b].at })
	out := text
	for _, in := range inserts {
		if in.at < 0 || in.at > len(out) {
			return text, false
		}
		out = out[:in.at] + in.text + out[in.at:]
	}
	return out, true
}
