package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
)

// Policies read no files. OPA's json.match_schema and json.verify_schema compile their schema
// with gojsonschema, which resolves a `$ref` to a file (file:///etc/passwd, or a relative
// path) by opening it: a custom policy could put any file's content into a finding's message,
// or read /dev/zero until the memory runs out. OPA refuses http references outside allow_net,
// not file references. So the two builtins are wrapped: a schema is checked before OPA sees
// it, and one that refers anywhere but inside itself ("#/definitions/x") or sets a base URI
// of its own ($id, or draft-4 id, as a string) is refused with an error that says so. Nothing
// else in a schema makes gojsonschema open a file.
func init() {
	wrapSchemaBuiltin(ast.JSONMatchSchema.Name, 1)
	wrapSchemaBuiltin(ast.JSONSchemaVerify.Name, 0)
}

// wrapSchemaBuiltin puts the check in front of builtin name, whose schema is operand schemaAt.
func wrapSchemaBuiltin(name string, schemaAt int) {
	inner := topdown.GetBuiltin(name)
	if inner == nil {
		panic("OPA has no builtin " + name + ": review pkg/rules/schemarefs.go")
	}
	topdown.RegisterBuiltinFunc(name, func(bctx topdown.BuiltinContext, operands []*ast.Term, iter func(*ast.Term) error) error {
		if schemaAt < len(operands) {
			if err := SchemaReadsNothing(operands[schemaAt].Value); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		return inner(bctx, operands, iter)
	})
}

// SchemaReadsNothing returns an error when a JSON schema (a JSON string or a Rego object)
// would make the schema loader read something outside itself.
func SchemaReadsNothing(schema ast.Value) error {
	var doc any
	switch v := schema.(type) {
	case ast.String:
		if err := json.Unmarshal([]byte(v), &doc); err != nil {
			return nil // not JSON: OPA says so itself, and reads nothing
		}
	default:
		var err error
		if doc, err = ast.JSON(schema); err != nil {
			return nil
		}
	}
	// An explicit stack: a schema can come from the input, and its depth is the input's.
	stack := []any{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := n.(type) {
		case map[string]any:
			for k, v := range x {
				s, isString := v.(string)
				switch {
				case k == "$ref" && isString && !strings.HasPrefix(s, "#"):
					return fmt.Errorf("schema $ref %q is not resolved: policies read no files or URLs (only references inside the schema, such as \"#/definitions/name\")", s)
				case (k == "$id" || k == "id") && isString && s != "" && !strings.HasPrefix(s, "#"):
					return fmt.Errorf("schema %s %q is refused: a base URI would make references inside the schema resolve to a file or URL, and policies read none", k, s)
				}
				stack = append(stack, v)
			}
		case []any:
			stack = append(stack, x...)
		}
	}
	return nil
}
