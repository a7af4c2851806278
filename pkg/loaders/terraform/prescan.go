package terraform

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
)

// preScanNesting is a streaming pass over a native-syntax file's bytes that finds nesting past
// MaxNesting before hcl lexes the file: hcl's lexer keeps every token (about 160 bytes of
// memory per byte of source), so a 9 MB file of chained conditionals asked for 1.4 GB before
// the token check (nativeNesting) could refuse it. It keeps one small frame per open bracket,
// string or interpolation, and counts as nativeNesting does, but fewer things: brackets,
// strings, heredocs and interpolations while open, and the operators `?`, `+`, `*`, `/`, `%`,
// `&&`, `||`, `==` and `!=` of one expression, until a comma or a new line at their level or
// the bracket that holds them. Comments and the text of strings and heredocs count nothing.
// It never counts more than the token check would, so a file it refuses the token check
// refuses too; what it lets through the token check still reads.
func preScanNesting(src []byte, filename string) *hcl.Diagnostic {
	n := &nestingScan{src: src, filename: filename, stack: []scanFrame{{kind: '('}}, line: 1, col: 1}
	for ; n.i < len(src); n.i++ {
		c := src[n.i]
		if c == '\n' {
			n.line, n.col = n.line+1, 1
		} else {
			n.col++
		}
		var tooDeep, stop bool
		if top := n.stack[len(n.stack)-1].kind; top == '"' || top == 'h' {
			tooDeep = n.inText(c)
		} else {
			tooDeep, stop = n.inExpression(c)
		}
		if tooDeep {
			return n.deep()
		}
		if stop {
			return nil
		}
	}
	return nil
}

// scanFrame is one open bracket, string, heredoc or interpolation of preScanNesting.
type scanFrame struct {
	kind byte // '{', '[', '(' (expression), '$' (interpolation), '"' (string), 'h' (heredoc)
	ops  int
	end  []byte // a heredoc's closing marker
}

// nestingScan is preScanNesting's state: the open frames, the operators of their expressions
// (pending), where it is.
type nestingScan struct {
	src       []byte
	filename  string
	stack     []scanFrame
	pending   int
	i         int
	line, col int
}

func (n *nestingScan) deep() *hcl.Diagnostic {
	at := hcl.Pos{Line: n.line, Column: n.col}
	return tooDeep(hcl.Range{Filename: n.filename, Start: at, End: at})
}

// push opens a frame; true when that nests past MaxNesting.
func (n *nestingScan) push(kind byte) bool {
	n.stack = append(n.stack, scanFrame{kind: kind})
	return len(n.stack)-1+n.pending > MaxNesting
}

func (n *nestingScan) pop() {
	if len(n.stack) > 1 {
		n.pending -= n.stack[len(n.stack)-1].ops
		n.stack = n.stack[:len(n.stack)-1]
	}
}

// op counts an operator of the open expression; true when that nests past MaxNesting.
func (n *nestingScan) op() bool {
	n.stack[len(n.stack)-1].ops++
	n.pending++
	return len(n.stack)-1+n.pending > MaxNesting
}

// next is whether the byte after the current one is b.
func (n *nestingScan) next(b byte) bool { return n.i+1 < len(n.src) && n.src[n.i+1] == b }

// skip passes over the next byte.
func (n *nestingScan) skip() { n.i++; n.col++ }

// inText reads c inside a string or a heredoc: an escape, its end, or an interpolation.
func (n *nestingScan) inText(c byte) (tooDeep bool) {
	src, top := n.src, &n.stack[len(n.stack)-1]
	switch {
	case c == '\\' && top.kind == '"':
		n.skip() // an escaped character
	case c == '"' && top.kind == '"':
		n.pop()
	case c == '\n' && top.kind == 'h':
		// A line that is the marker ends the heredoc.
		rest := src[n.i+1:]
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			end = len(rest)
		}
		if bytes.Equal(bytes.TrimSpace(rest[:end]), top.end) {
			n.pop()
		}
	case (c == '$' || c == '%') && n.next(c):
		n.skip() // $${ and %%{ are the literal text
	case (c == '$' || c == '%') && n.next('{'):
		n.skip()
		return n.push('$')
	}
	return false
}

// inExpression reads c in an expression: a bracket level, an interpolation, or the file's top
// level. stop: an unterminated comment, which hcl reports.
func (n *nestingScan) inExpression(c byte) (tooDeep, stop bool) {
	src := n.src
	switch c {
	case '#':
		n.i = skipLine(src, n.i) - 1
	case '/':
		switch {
		case n.next('/'):
			n.i = skipLine(src, n.i) - 1
		case n.next('*'):
			end := bytes.Index(src[n.i+2:], []byte("*/"))
			if end < 0 {
				return false, true
			}
			n.line += bytes.Count(src[n.i:n.i+2+end], []byte("\n"))
			n.i += end + 3
		default:
			return n.op(), false
		}
	case '{', '[', '(':
		return n.push(c), false
	case '}', ']', ')':
		n.pop()
	case '"':
		return n.push('"'), false
	case '<':
		if n.next('<') {
			return n.heredoc(), false
		}
	case ',', '\n':
		top := &n.stack[len(n.stack)-1]
		n.pending -= top.ops
		top.ops = 0
	case '?', '+', '*', '%':
		return n.op(), false
	case '&', '|', '=', '!':
		if n.i+1 < len(src) && (src[n.i+1] == c && (c == '&' || c == '|' || c == '=') || c == '!' && src[n.i+1] == '=') {
			n.skip()
			return n.op(), false
		}
	}
	return false, false
}

// heredoc opens a heredoc at "<<" (or "<<-") followed by its marker; without a marker the
// bytes are an operator's, which count nothing here.
func (n *nestingScan) heredoc() (tooDeep bool) {
	src := n.src
	j := n.i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	k := j
	for k < len(src) && (src[k] == '_' || src[k] >= 'A' && src[k] <= 'Z' || src[k] >= 'a' && src[k] <= 'z' || src[k] >= '0' && src[k] <= '9') {
		k++
	}
	if k == j {
		return false
	}
	if n.push('h') {
		return true
	}
	n.stack[len(n.stack)-1].end = src[j:k]
	n.col += k - n.i - 1
	n.i = k - 1
	return false
}

// skipLine is the index of the new line that ends the line holding i (or the end).
func skipLine(src []byte, i int) int {
	if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(src)
}
