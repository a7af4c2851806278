package yamlpos

import (
	"bytes"
	"errors"
	"fmt"

	yamlv4 "go.yaml.in/yaml/v4"
)

// problemMark is where a YAML stream's first syntax error is, as the parser's problem mark
// says: the line and column of the token it could not take (a mis-indented key), where
// yaml.v3's error names only the line its enclosing construct starts on. yaml v4 (the same
// maintainers' next major version, the same parser) exposes that mark, so a stream v3 refused
// is parsed again with it, once, only to locate the error. The mark is used only when v4
// refuses it with the same message, so the two parsers cannot disagree on what is wrong.
// context says, when the construct the parser was in starts on another line, which and where.
func problemMark(data []byte, message string) (line, column int, context string) {
	dec := yamlv4.NewDecoder(bytes.NewReader(data))
	for {
		var n yamlv4.Node
		err := dec.Decode(&n)
		if err == nil {
			continue
		}
		var le *yamlv4.LoadError
		if !errors.As(err, &le) || le.Message != message || le.Mark.Line == 0 {
			return 0, 0, ""
		}
		// At the end of the input (an unclosed bracket or quote) the problem mark is past the
		// last line; the construct left open is where to look.
		if le.Mark.Index >= len(bytes.TrimRight(data, " \t\r\n")) && le.ContextMark.Line > 0 {
			return le.ContextMark.Line, le.ContextMark.Column, ""
		}
		if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark.Line != le.Mark.Line {
			context = fmt.Sprintf("%s that starts at line %d, column %d", le.ContextMsg, le.ContextMark.Line, le.ContextMark.Column)
		}
		return le.Mark.Line, le.Mark.Column, context
	}
}
