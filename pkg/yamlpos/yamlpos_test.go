package yamlpos

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Syntax errors are located where the parser's problem mark is (the token it could not take),
// with its column; at the end of the input, where the construct left open starts.
func TestSyntaxErrorLines(t *testing.T) {
	misindented := "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: x}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n" +
		"          containers:\n            - name: report\n              image: postgres:16\n             args: [\"x\"]\n"
	tests := []struct {
		name         string
		src          string
		line, column int
	}{
		{"unclosed flow sequence (parser error)", "a: 1\nb:\n  c: [x\n", 3, 6},
		{"mapping value in a scalar (scanner error)", "a: 1\nb: c: d\n", 2, 5},
		{"tab indentation", "a:\n\tb: 1\n", 2, 1},
		{"second document", "a: 1\n---\nb: 1\nc:\n  - [x\n", 5, 5},
		{"bad block mapping key", "a:\n  b: 1\n c: 2\n", 3, 2},
		{"a mis-indented key in a sequence item", misindented, 12, 14},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Documents([]byte(tc.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v", err)
			}
			if se.Line != tc.line || se.Column != tc.column {
				t.Errorf("line %d column %d, want %d:%d (%s)", se.Line, se.Column, tc.line, tc.column, se.Message)
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
	// The reproducers of the hostile corpus: cycles through merge keys and List items, and
	// alias and merge-key bombs.
	f.Add([]byte("&b\n<<: *b\nkind: Job\n"))
	f.Add([]byte("&l {apiVersion: v1, kind: List, items: [*l]}"))
	f.Add([]byte(aliasBomb(9)))
	f.Add([]byte(mergeBomb(9)))
	f.Add([]byte("spec: {a: 1}\nspec: {b: 2}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := DocumentsWithin(data, Limits{MaxDocuments: 50, MaxAliasNodes: 5000})
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		for _, d := range docs {
			if d == nil {
				t.Fatal("nil document")
			}
			Lookup(d, "apiVersion")
			// What Documents returns is acyclic and within the budget once expanded.
			if n := expand(d, 0); n > 5000+int64(len(data)) {
				t.Fatalf("a returned document expands to %d nodes", n)
			}
		}
	})
}

// expand counts a node's nodes with aliases copied out; it stops (and says more than any
// budget) past a depth that only a cycle reaches.
func expand(n *yaml.Node, depth int) int64 {
	if depth > 20000 {
		return 1 << 40
	}
	if n.Kind == yaml.AliasNode {
		return expand(n.Alias, depth+1)
	}
	total := int64(1)
	for _, c := range n.Content {
		total += expand(c, depth+1)
		if total > 1<<40 {
			return total
		}
	}
	return total
}

func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func mergeBomb(levels int) string {
	var b strings.Builder
	b.WriteString("m0: &m0 {k0: v}\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {", i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "k%d: {<<: *m%d}", j, i-1)
		}
		b.WriteString("}\n")
	}
	b.WriteString("kind: Job\napiVersion: batch/v1\nspec: *m" + fmt.Sprint(levels-1) + "\n")
	return b.String()
}

func TestBudgets(t *testing.T) {
	tests := []struct {
		name, src string
		docs      int
		line      int
		want      string
	}{
		{"merge key cycle", "&b\n<<: *b\nkind: Job\n", 0, 2, "alias cycle"},
		{"List item cycle", "&l {apiVersion: v1, kind: List, items: [*l]}", 0, 1, "alias cycle"},
		{"alias bomb", aliasBomb(9), 0, 6, "alias bomb"},
		{"merge-key bomb", mergeBomb(9), 0, 6, "alias bomb"},
		{"duplicate key", "kind: Job\nspec: {a: 1}\nspec: {b: 2}\n", 0, 3, "duplicate key \"spec\" (first at line 2)"},
		{"a bad document does not hide the next", "a: 1\na: 2\n---\nb: 1\n", 1, 2, "duplicate key"},
		{"aliases within the budget", "a: &a [1, 2]\nb: [*a, *a]\n", 1, 0, ""},
		// One node, a long text: what the expansion writes counts (100 kB x 100 aliases is 10 MB,
		// 160,000 against a budget of 100,000 nodes of 64 bytes).
		{"scalar alias bomb", "s: &s " + strings.Repeat("x", 100000) + "\nl: [" + strings.TrimSuffix(strings.Repeat("*s, ", 100), ", ") + "]\n", 0, 2, "alias bomb"},
		{"a long scalar aliased a few times", "s: &s " + strings.Repeat("x", 100000) + "\nl: [*s, *s]\n", 1, 0, ""},
		{"too many documents", strings.Repeat("a: 1\n---\n", 12), 10, 20, "more than 10 documents"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := DocumentsWithin([]byte(tc.src), Limits{MaxDocuments: 10, MaxAliasNodes: 100000})
			if len(docs) != tc.docs {
				t.Errorf("%d documents, want %d", len(docs), tc.docs)
			}
			errs := Errors(err)
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Message, tc.want) || errs[0].Line != tc.line {
				t.Fatalf("errors %v, want one at line %d containing %q", err, tc.line, tc.want)
			}
		})
	}
}

func TestEnd(t *testing.T) {
	doc := "spec:\n  ttlSecondsAfterFinished: 600\n  \"quoted\": 'x'\n  ? |\n    block\n  : 1\n  &a anchored: 2\n  !!str tagged: 3\n  \"esc\\\"aped\": 4\n  ключ: 5\n"
	docs, err := Documents([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	root := docs[0]
	if root.Kind == yaml.DocumentNode {
		root = root.Content[0]
	}
	m := root.Content[1]
	want := map[string][2]int{
		"ttlSecondsAfterFinished": {2, 26}, "quoted": {3, 11}, "block\n": {0, 0},
		"anchored": {0, 0}, "tagged": {0, 0}, "esc\"aped": {0, 0}, "ключ": {10, 7},
	}
	for i := 0; i < len(m.Content); i += 2 {
		k := m.Content[i]
		line, col := End(k)
		w, ok := want[k.Value]
		if !ok {
			t.Fatalf("unexpected key %q", k.Value)
		}
		if line != w[0] || col != w[1] {
			t.Errorf("%q at %d:%d ends at %d:%d, want %d:%d", k.Value, k.Line, k.Column, line, col, w[0], w[1])
		}
	}
}
