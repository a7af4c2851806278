package inventory

import (
	"fmt"
	"iter"
	"math"
	"strings"
	"unique"
)

// FieldPositions are where an object's fields are written, by field path ("" for the
// document, "spec.template.metadata.labels", …).
//
// Every object has tens of them and a tree of 100k documents millions, so they are kept
// compactly: a path is interned (the same few hundred paths recur in every object), the
// numbers are 32-bit, and a file is named once per object (an object built by kustomize or
// read from a plan may point into several). One entry is 32 bytes, where a map entry with
// its key was about 130. An object has few enough fields that a scan finds one.
//
// A nil *FieldPositions has no positions; like a map, the table is shared by the copies of
// the object that holds it.
type FieldPositions struct {
	files   []string
	entries []fieldPosition
}

type fieldPosition struct {
	path                             unique.Handle[string]
	file                             int32
	line, column, endLine, endColumn int32
}

// NewFieldPositions returns an empty table.
func NewFieldPositions() *FieldPositions { return &FieldPositions{} }

// FieldPositionsOf returns a table of the positions given, for tests and small objects.
func FieldPositionsOf(positions map[string]Position) *FieldPositions {
	t := &FieldPositions{}
	for path, p := range positions {
		t.Set(path, p)
	}
	return t
}

// Len is how many fields have a position.
func (t *FieldPositions) Len() int {
	if t == nil {
		return 0
	}
	return len(t.entries)
}

// Get returns where the field at path is written, and whether the table has it.
func (t *FieldPositions) Get(path string) (Position, bool) {
	if t == nil {
		return Position{}, false
	}
	for i := range t.entries {
		if t.entries[i].path.Value() == path {
			return t.position(&t.entries[i]), true
		}
	}
	return Position{}, false
}

// At returns where the field at path is written, or the zero Position.
func (t *FieldPositions) At(path string) Position {
	p, _ := t.Get(path)
	return p
}

// Set records where the field at path is written, replacing what the table had for it.
func (t *FieldPositions) Set(path string, p Position) {
	e := t.entry(unique.Make(path), p)
	for i := range t.entries {
		if t.entries[i].path == e.path {
			t.entries[i] = e
			return
		}
	}
	t.entries = append(t.entries, e)
}

// All yields every path and its position, in the order they were first set.
func (t *FieldPositions) All() iter.Seq2[string, Position] {
	return func(yield func(string, Position) bool) {
		if t == nil {
			return
		}
		for i := range t.entries {
			if !yield(t.entries[i].path.Value(), t.position(&t.entries[i])) {
				return
			}
		}
	}
}

// Update replaces every position with what fn makes of it (relocating an object's fields to
// the text it was built from, making paths relative). fn may read the table, even through
// another object: it sees the positions as they were before Update.
func (t *FieldPositions) Update(fn func(path string, p Position) Position) {
	if t == nil {
		return
	}
	updated := make([]Position, len(t.entries))
	for i := range t.entries {
		updated[i] = fn(t.entries[i].path.Value(), t.position(&t.entries[i]))
	}
	t.files = nil // only the files still named stay
	for i, p := range updated {
		t.entries[i] = t.entry(t.entries[i].path, p)
	}
}

// Clone returns a table of its own with the same positions.
func (t *FieldPositions) Clone() *FieldPositions {
	if t == nil {
		return NewFieldPositions()
	}
	return &FieldPositions{files: append([]string(nil), t.files...), entries: append([]fieldPosition(nil), t.entries...)}
}

func (t *FieldPositions) entry(path unique.Handle[string], p Position) fieldPosition {
	return fieldPosition{
		path: path, file: t.file(p.File),
		line: clamp32(p.Line), column: clamp32(p.Column), endLine: clamp32(p.EndLine), endColumn: clamp32(p.EndColumn),
	}
}

func (t *FieldPositions) position(e *fieldPosition) Position {
	return Position{File: t.files[e.file], Line: int(e.line), Column: int(e.column), EndLine: int(e.endLine), EndColumn: int(e.endColumn)}
}

// file is the index of name in the table's files, added when new.
func (t *FieldPositions) file(name string) int32 {
	for i, f := range t.files {
		if f == name {
			return int32(i)
		}
	}
	t.files = append(t.files, name)
	return int32(len(t.files) - 1)
}

// clamp32 keeps a line or column in 32 bits: files are far smaller than that (the run's
// byte budgets), so it only guards against a corrupt number.
func clamp32(n int) int32 {
	return int32(max(math.MinInt32, min(math.MaxInt32, n)))
}

// String lists the positions by path, for test failures and debugging.
func (t *FieldPositions) String() string {
	var b strings.Builder
	b.WriteString("[")
	for path, p := range t.All() {
		if b.Len() > 1 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%q:%s:%d:%d", path, p.File, p.Line, p.Column)
	}
	b.WriteString("]")
	return b.String()
}
