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
	type frame struct {
		kind byte // '{', '[', '(' (expression), '$' (interpolation), '"' (string), 'h' (heredoc)
		ops  int
		end  []byte // a heredoc's closing marker
	}
	stack := []frame{{kind: '('}}
	pending := 0
	line, col := 1, 1
	deep := func() *hcl.Diagnostic {
		return tooDeep(hcl.Range{Filename: filename, Start: hcl.Pos{Line: line, Column: col}, End: hcl.Pos{Line: line, Column: col}})
	}
	push := func(kind byte) bool {
		stack = append(stack, frame{kind: kind})
		return len(stack)-1+pending > MaxNesting
	}
	pop := func() {
		if len(stack) > 1 {
			pending -= stack[len(stack)-1].ops
			stack = stack[:len(stack)-1]
		}
	}
	op := func() bool {
		stack[len(stack)-1].ops++
		pending++
		return len(stack)-1+pending > MaxNesting
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		top := &stack[len(stack)-1]
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		switch top.kind {
		case '"', 'h':
			switch {
			case c == '\\' && top.kind == '"':
				i++ // an escaped character
				col++
			case c == '"' && top.kind == '"':
				pop()
			case c == '\n' && top.kind == 'h':
				// A line that is the marker ends the heredoc.
				rest := src[i+1:]
				end := bytes.IndexByte(rest, '\n')
				if end < 0 {
					end = len(rest)
				}
				if bytes.Equal(bytes.TrimSpace(rest[:end]), top.end) {
					pop()
				}
			case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == c:
				i++ // $${ and %%{ are the literal text
				col++
			case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == '{':
				i++
				col++
				if push('$') {
					return deep()
				}
			}
			continue
		}
		// An expression: a bracket level, an interpolation, or the file's top level.
		switch c {
		case '#':
			i = skipLine(src, i) - 1
		case '/':
			switch {
			case i+1 < len(src) && src[i+1] == '/':
				i = skipLine(src, i) - 1
			case i+1 < len(src) && src[i+1] == '*':
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return nil // unterminated: hcl reports it
				}
				line += bytes.Count(src[i:i+2+end], []byte("\n"))
				i += end + 3
			default:
				if op() {
					return deep()
				}
			}
		case '{', '[', '(':
			if push(c) {
				return deep()
			}
		case '}', ']', ')':
			pop()
		case '"':
			if push('"') {
				return deep()
			}
		case '<':
			if i+1 < len(src) && src[i+1] == '<' {
				j := i + 2
				if j < len(src) && src[j] == '-' {
					j++
				}
				k := j
				for k < len(src) && (src[k] == '_' || src[k] >= 'A' && src[k] <= 'Z' || src[k] >= 'a' && src[k] <= 'z' || src[k] >= '0' && src[k] <= '9') {
					k++
				}
				if k > j {
					marker := src[j:k]
					if push('h') {
						return deep()
					}
					stack[len(stack)-1].end = marker
					col += k - i - 1
					i = k - 1
				}
			}
		case ',', '\n':
			pending -= top.ops
			top.ops = 0
		case '?', '+', '*', '%':
			if op() {
				return deep()
			}
		case '&', '|', '=', '!':
			if i+1 < len(src) && (src[i+1] == c && (c == '&' || c == '|' || c == '=') || c == '!' && src[i+1] == '=') {
				i++
				col++
				if op() {
					return deep()
				}
			}
		}
	}
	return nil
}

// skipLine is the index of the new line that ends the line holding i (or the end).
func skipLine(src []byte, i int) int {
	if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(src)
}
