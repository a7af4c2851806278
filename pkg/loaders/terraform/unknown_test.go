package terraform

import (
	"reflect"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

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
