package rules

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/policies"
	"github.com/open-policy-agent/opa/v1/ast"
)

// The Rego model is split by concern into files a reader can hold (docs/architecture.md).
const maxPolicyFileLines = 500

func TestPolicyFilesAreShort(t *testing.T) {
	err := fs.WalkDir(policies.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := fs.ReadFile(policies.FS, p)
		if err != nil {
			return err
		}
		if n := strings.Count(string(src), "\n"); n > maxPolicyFileLines {
			t.Errorf("policies/%s has %d lines, more than %d: split it by concern", p, n, maxPolicyFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestModelExportsWhatItsUsersUse: data.eni.model's public names (no leading underscore, the
// Rego style guide's convention for internal rules) are exactly the ones its users read: the
// rules, main.rego, the remedies, the engine's Go queries and the example custom policy. A
// name only the model reads is internal (_name), and no user reads an internal one, so a
// change inside the model cannot break a rule that compiles today.
func TestModelExportsWhatItsUsersUse(t *testing.T) {
	modules, err := Modules(false)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Glob(filepath.Join("..", "..", "examples", "custom-policy", "*.rego"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range examples {
		if strings.HasSuffix(p, "_test.rego") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		modules["example/"+filepath.Base(p)] = ast.MustParseModuleWithOpts(string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
	}
	c, err := Compile(modules)
	if err != nil {
		t.Fatal(err)
	}
	model := ast.MustParseRef("data.eni.model")
	defined := map[string]bool{}
	used := map[string]bool{}
	// The engine's own entry points into the model.
	for _, r := range []ast.Ref{ast.MustParseRef(PartitionQuery), numbersFieldsRef} {
		used[string(r[len(model)].Value.(ast.String))] = true
	}
	for name, m := range c.Modules {
		inModel := m.Package.Path.Equal(model)
		if inModel {
			for _, r := range m.Rules {
				defined[string(r.Head.Name)] = true
				if r.Head.Name == "" {
					defined[r.Head.Ref()[0].String()] = true
				}
			}
			continue
		}
		ast.WalkRefs(m, func(r ast.Ref) bool {
			if len(r) > len(model) && r.HasPrefix(model) {
				if s, ok := r[len(model)].Value.(ast.String); ok {
					if strings.HasPrefix(string(s), "_") {
						t.Errorf("%s reads the model's internal %s", name, s)
					}
					used[string(s)] = true
				}
			}
			return false
		})
	}
	var unused []string
	for n := range defined {
		if !strings.HasPrefix(n, "_") && !used[n] {
			unused = append(unused, n)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Errorf("data.eni.model exports names no rule, main.rego, remedy or Go query reads; make them internal (_name): %s", strings.Join(unused, ", "))
	}
	if len(defined) == 0 || len(used) < 10 {
		t.Fatalf("found %d model names and %d uses: the walk is broken", len(defined), len(used))
	}
}

func TestDetailFields(t *testing.T) {
	field := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name string
		raw  any
		want int
		err  string
	}{
		{"absent", nil, 0, ""},
		{"two", []any{field("key", "a", "type", "string", "about", "x"), field("key", "b", "type", "array", "about", "y", "internal", true)}, 2, ""},
		{"not a list", map[string]any{}, 0, "want a list"},
		{"no about", []any{field("key", "a", "type", "string")}, 0, "key and about are required"},
		{"bad type", []any{field("key", "a", "type", "int", "about", "x")}, 0, `type "int"`},
		{"twice", []any{field("key", "a", "type", "string", "about", "x"), field("key", "a", "type", "string", "about", "y")}, 0, "listed twice"},
	} {
		got, err := detailFields(tc.raw)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != tc.want {
			t.Errorf("%s: %d fields, %v; want %d", tc.name, len(got), err, tc.want)
		}
	}
}
