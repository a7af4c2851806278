package terraform

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// lookup as Terraform evaluates it (lang/funcs/collection.go): the default may be null, and is
// what a missing key gives; an unknown map or key gives an unknown value.
func TestLookupTakesANullDefault(t *testing.T) {
	obj := cty.ObjectVal(map[string]cty.Value{"labels": cty.MapVal(map[string]cty.Value{"team": cty.StringVal("a")}), "name": cty.StringVal("p")})
	noLabels := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("p")})
	m := cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")})
	tests := []struct {
		name             string
		args             []cty.Value
		want             cty.Value
		unknown, wantErr bool
	}{
		{name: "object key present", args: []cty.Value{obj, cty.StringVal("labels"), cty.NullVal(cty.DynamicPseudoType)}, want: obj.GetAttr("labels")},
		{name: "object key absent, null default", args: []cty.Value{noLabels, cty.StringVal("labels"), cty.NullVal(cty.DynamicPseudoType)}, want: cty.NullVal(cty.DynamicPseudoType)},
		{name: "map key present", args: []cty.Value{m, cty.StringVal("a"), cty.NullVal(cty.String)}, want: cty.StringVal("1")},
		{name: "map key absent, null default", args: []cty.Value{m, cty.StringVal("b"), cty.NullVal(cty.String)}, want: cty.NullVal(cty.String)},
		{name: "non-null default, as cty", args: []cty.Value{m, cty.StringVal("b"), cty.StringVal("x")}, want: cty.StringVal("x")},
		{name: "empty object default", args: []cty.Value{noLabels, cty.StringVal("labels"), cty.EmptyObjectVal}, want: cty.EmptyObjectVal},
		{name: "unknown map", args: []cty.Value{cty.UnknownVal(cty.Map(cty.String)), cty.StringVal("a"), cty.NullVal(cty.String)}, unknown: true},
		{name: "not a map", args: []cty.Value{cty.StringVal("s"), cty.StringVal("a"), cty.NullVal(cty.String)}, wantErr: true},
		{name: "no default", args: []cty.Value{m, cty.StringVal("a")}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkCall(t, lookupFunc, tc.args, tc.want, tc.unknown, tc.wantErr)
		})
	}
}

// coalesce as Terraform evaluates it: the first argument that is neither null nor "", an
// unknown one before it makes the result unknown, one after it does not.
func TestCoalesceWithUnknowns(t *testing.T) {
	tests := []struct {
		name    string
		args    []cty.Value
		want    cty.Value
		unknown bool
	}{
		{name: "null then known", args: []cty.Value{cty.NullVal(cty.String), cty.StringVal("a")}, want: cty.StringVal("a")},
		{name: "empty string skipped", args: []cty.Value{cty.StringVal(""), cty.StringVal("b")}, want: cty.StringVal("b")},
		{name: "known before unknown", args: []cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}, want: cty.StringVal("a")},
		{name: "unknown first", args: []cty.Value{cty.UnknownVal(cty.String), cty.StringVal("a")}, unknown: true},
		{name: "null then unknown", args: []cty.Value{cty.NullVal(cty.String), cty.UnknownVal(cty.String)}, unknown: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkCall(t, coalesceFunc, tc.args, tc.want, tc.unknown, false)
		})
	}
}

// yamldecode calls of one root module share one budget: each call had its own, and a for
// expression over thousands of them could decode without end.
func TestYAMLDecodeCallsShareABudget(t *testing.T) {
	budget := &decodeBudget{left: 1300} // a call spends about 300 bytes read and 300 built
	why := ""
	f := yamlDecodeFunc(yamlpos.DefaultLimits, false, func(w string) { why = w }, budget)
	src := cty.StringVal("a: " + strings.Repeat("x", 300) + "\n")
	for i := 0; i < 2; i++ {
		if v, err := f.Call([]cty.Value{src}); err != nil || !v.IsKnown() {
			t.Fatalf("call %d within the budget: %v %v (%s)", i, v, err, why)
		}
	}
	if v, _ := f.Call([]cty.Value{src}); v.IsKnown() || !strings.Contains(why, "together (a budget)") {
		t.Errorf("the third call past the shared budget: %v, %q", v, why)
	}
}

// checkCall calls a function and checks its result: an error, an unknown value, or want.
func checkCall(t *testing.T, f function.Function, args []cty.Value, want cty.Value, unknown, wantErr bool) {
	t.Helper()
	got, err := f.Call(args)
	switch {
	case wantErr:
		if err == nil {
			t.Fatalf("got %#v, want an error", got)
		}
	case err != nil:
		t.Fatal(err)
	case unknown:
		if got.IsKnown() {
			t.Fatalf("got %#v, want unknown", got)
		}
	case !got.RawEquals(want):
		t.Fatalf("got %#v, want %#v", got, want)
	}
}
