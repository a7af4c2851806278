package rules

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// TestEveryBuiltinIsReviewed walks OPA's builtin list: each builtin must be listed in
// testdata/opa-builtins.txt with what it can reach, so an OPA upgrade that adds one (a file
// reader, a network call) fails here until somebody decides whether policies may have it.
func TestEveryBuiltinIsReviewed(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "opa-builtins.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reviewed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, class, _ := strings.Cut(line, " ")
		reviewed[name] = class
	}
	all := map[string]bool{}
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		all[b.Name] = true
		class, ok := reviewed[b.Name]
		switch {
		case !ok:
			t.Errorf("OPA builtin %s is not reviewed: decide whether it reads files, the network, the clock or the environment, deny or wrap it if so, and list it in testdata/opa-builtins.txt", b.Name)
		case class == "denied" && deniedWhy(b.Name) == "":
			t.Errorf("%s is listed as denied, but policies may call it", b.Name)
		case class != "denied" && deniedWhy(b.Name) != "":
			t.Errorf("%s is denied, but listed as %s", b.Name, class)
		case class == "schema" && b.Name != "json.match_schema" && b.Name != "json.verify_schema":
			t.Errorf("%s is listed as schema, but schemarefs.go wraps only json.match_schema and json.verify_schema", b.Name)
		case class != "pure" && class != "denied" && class != "schema":
			t.Errorf("%s: unknown class %q", b.Name, class)
		}
	}
	for name := range reviewed {
		if !all[name] {
			t.Errorf("%s is listed in testdata/opa-builtins.txt but OPA has no such builtin any more", name)
		}
	}
}

// TestSchemaReferencesReadNothing: a policy's schema cannot make OPA open a file, by an
// absolute or relative reference or through a base URI; references inside the schema work.
func TestSchemaReferencesReadNothing(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.json")
	os.WriteFile(secret, []byte(`{"CANARY-schema": true}`), 0o644)
	t.Chdir(dir)
	tests := []struct {
		name, query, want string // want: a part of the error, or "" for a result
	}{
		{"file ref in match_schema", `json.match_schema({}, {"$ref": "file://` + secret + `"})`, `schema $ref "file://`},
		{"relative ref", `json.match_schema({}, {"$ref": "secret.json"})`, `schema $ref "secret.json" is not resolved`},
		{"dev zero", `json.match_schema({}, {"properties": {"a": {"$ref": "file:///dev/zero"}}})`, "policies read no files"},
		{"ref in a JSON string", `json.match_schema({}, "{\"allOf\": [{\"$ref\": \"file:///etc/passwd\"}]}")`, "is not resolved"},
		{"verify_schema", `json.verify_schema({"$ref": "file://` + secret + `"})`, "json.verify_schema: schema $ref"},
		{"base uri", `json.match_schema({}, {"$id": "file://` + secret + `", "$ref": "#"})`, "schema $id"},
		{"internal ref", `json.match_schema({"a": 1}, {"definitions": {"n": {"type": "number"}}, "properties": {"a": {"$ref": "#/definitions/n"}}, "required": ["a"]})`, ""},
		{"a property named id", `json.match_schema({"id": "x"}, {"properties": {"id": {"type": "string"}}})`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := rego.New(rego.Query(tc.query), rego.StrictBuiltinErrors(true)).Eval(context.Background())
			if tc.want == "" {
				if err != nil || len(rs) == 0 {
					t.Fatalf("%v %v", rs, err)
				}
				if got := rs[0].Expressions[0].Value.([]any)[0]; got != true {
					t.Errorf("not matched: %v", rs[0].Expressions[0].Value)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, result %v; want %q", err, rs, tc.want)
			}
			if strings.Contains(err.Error(), "CANARY") {
				t.Errorf("the file's content reached the error: %v", err)
			}
		})
	}
}
