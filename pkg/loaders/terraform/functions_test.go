package terraform

import (
	"reflect"
	"testing"

	"github.com/zclconf/go-cty/cty"

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
			got, err := lookupFunc.Call(tc.args)
			switch {
			case tc.wantErr:
				if err == nil {
					t.Fatalf("got %#v, want an error", got)
				}
			case err != nil:
				t.Fatal(err)
			case tc.unknown:
				if got.IsKnown() {
					t.Fatalf("got %#v, want unknown", got)
				}
			case !got.RawEquals(tc.want):
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

// An unknown value inside a known list keeps the list's length where the items count and their
// values decide nothing: a SecurityGroupPolicy's groupIds, and any list of a chart's values
// (the chart may render it into groupIds). Elsewhere the field is left out, as before.
func TestUnknownItemsKeepTheirListsLength(t *testing.T) {
	u := unknownText
	k := knownWhenApplied
	tests := []struct {
		name, path, in string
		want           any
	}{
		{"values list item", "values", "securityGroups:\n  securityGroupIds: [" + u + "]\n",
			map[string]any{"securityGroups": map[string]any{"securityGroupIds": []any{k}}}},
		{"values map field", "values", "image: " + u + "\nreplicas: 2\n", map[string]any{"replicas": 2}},
		{"policy group ids item", "", "spec:\n  securityGroups:\n    groupIds: [sg-1, " + u + "]\n",
			map[string]any{"spec": map[string]any{"securityGroups": map[string]any{"groupIds": []any{"sg-1", k}}}}},
		{"policy group ids whole", "", "spec:\n  securityGroups:\n    groupIds: " + u + "\n",
			map[string]any{"spec": map[string]any{"securityGroups": map[string]any{"groupIds": []any{k}}}}},
		{"other list item", "", "spec:\n  args: [a, " + u + "]\n", map[string]any{"spec": map[string]any{"args": []any{"a"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := yamlpos.Documents([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if f, _ := dropUnknownFields(docs[0], tc.path); f != "" {
				t.Fatalf("identity field %s", f)
			}
			var got any
			if err := docs[0].Decode(&got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}
