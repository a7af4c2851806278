package inventory

import (
	"math"
	"slices"
	"testing"
)

func TestFieldPositions(t *testing.T) {
	doc := Position{File: "a.yaml", Line: 3, Column: 1}
	spec := Position{File: "a.yaml", Line: 7, Column: 3, EndLine: 7, EndColumn: 7}
	patch := Position{File: "patch.yaml", Line: 2, Column: 5}

	var none *FieldPositions
	if _, ok := none.Get(""); ok || none.Len() != 0 || none.At("spec").Known() {
		t.Error("a nil table has positions")
	}
	if c := none.Clone(); c == nil || c.Len() != 0 {
		t.Error("a nil table's clone is not an empty table")
	}

	tab := NewFieldPositions()
	tab.Set("", doc)
	tab.Set("spec", Position{File: "a.yaml", Line: 1})
	tab.Set("spec", spec) // replaces
	tab.Set("spec.template", patch)
	cases := []struct {
		path string
		want Position
		ok   bool
	}{
		{"", doc, true},
		{"spec", spec, true},
		{"spec.template", patch, true},
		{"spec.templat", Position{}, false},
		{"metadata", Position{}, false},
	}
	for _, c := range cases {
		if got, ok := tab.Get(c.path); got != c.want || ok != c.ok {
			t.Errorf("Get(%q) = %+v, %v; want %+v, %v", c.path, got, ok, c.want, c.ok)
		}
	}
	var paths []string
	for p := range tab.All() {
		paths = append(paths, p)
	}
	if !slices.Equal(paths, []string{"", "spec", "spec.template"}) || tab.Len() != 3 {
		t.Errorf("paths %q, want the order they were first set", paths)
	}

	clone := tab.Clone()
	clone.Set("spec", doc)
	if tab.At("spec") != spec {
		t.Error("a clone shares its positions")
	}

	// Update sees the positions as they were, even when it reads the table it changes.
	tab.Update(func(path string, p Position) Position {
		if path == "spec.template" {
			return tab.At("")
		}
		p.File = "moved/" + p.File
		return p
	})
	want := map[string]Position{
		"":              {File: "moved/a.yaml", Line: 3, Column: 1},
		"spec":          {File: "moved/a.yaml", Line: 7, Column: 3, EndLine: 7, EndColumn: 7},
		"spec.template": doc,
	}
	for p, w := range want {
		if got := tab.At(p); got != w {
			t.Errorf("after Update, %q at %+v, want %+v", p, got, w)
		}
	}
	if !slices.Equal(tab.files, []string{"moved/a.yaml", "a.yaml"}) {
		t.Errorf("files %q: a file no position names is kept", tab.files)
	}

	huge := NewFieldPositions()
	huge.Set("", Position{File: "x", Line: math.MaxInt32 + 10, Column: -1})
	if got := huge.At(""); got.Line != math.MaxInt32 || got.Column != -1 {
		t.Errorf("clamped %+v", got)
	}
}
