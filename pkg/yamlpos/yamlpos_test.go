package yamlpos

import (
	"errors"
	"testing"
)

func TestSyntaxErrorLines(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
	}{
		{"unclosed flow sequence (parser error)", "a: 1\nb:\n  c: [x\n", 3},
		{"mapping value in a scalar (scanner error)", "a: 1\nb: c: d\n", 2},
		{"tab indentation", "a:\n\tb: 1\n", 2},
		{"second document", "a: 1\n---\nb: 1\nc:\n  - [x\n", 5},
		{"bad block mapping key", "a:\n  b: 1\n c: 2\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Documents([]byte(tc.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v", err)
			}
			if se.Line != tc.line {
				t.Errorf("line %d, want %d (%s)", se.Line, tc.line, se.Message)
			}
		})
	}
}

func TestDocumentsKeepsDocumentsBeforeAnError(t *testing.T) {
	docs, err := Documents([]byte("a: 1\n---\nb: 2\n---\nc: [\n"))
	if err == nil || len(docs) != 2 {
		t.Fatalf("docs %d err %v", len(docs), err)
	}
}

func TestLookupFollowsAliasesAndMerges(t *testing.T) {
	docs, err := Documents([]byte("base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\nr: *b\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, m := Lookup(docs[0], "m")
	if _, x := Lookup(m, "x"); x == nil || x.Value != "1" {
		t.Error("merge key not followed")
	}
	_, r := Lookup(docs[0], "r")
	if _, x := Lookup(r, "x"); x == nil || x.Value != "1" {
		t.Error("alias not followed")
	}
	if k, v := Lookup(m, "z"); k != nil || v != nil {
		t.Error("missing key found")
	}
}

func FuzzDocuments(f *testing.F) {
	f.Add([]byte("a: 1\n---\nb: [1, 2]\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("{\"a\": [1, {\"b\": null}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Documents(data)
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		for _, d := range docs {
			if d == nil {
				t.Fatal("nil document")
			}
			Lookup(d, "apiVersion")
		}
	})
}
