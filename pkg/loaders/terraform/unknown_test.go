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
			if f, _ := dropUnknownFields(docs[0], "", tc.path); f != "" {
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

// TestUnknownDecidingFields: in a manifest's text, a value only Terraform knows makes the
// object unreadable where it decides the verdict (decidingField), and is left out elsewhere.
func TestUnknownDecidingFields(t *testing.T) {
	u := unknownText
	tests := []struct{ name, kind, in, field string }{
		{"name", "Job", "metadata:\n  name: " + u + "\n", "metadata.name"},
		{"pod template label", "Deployment", "spec:\n  template:\n    metadata:\n      labels:\n        sg: " + u + "\n", "spec.template.metadata.labels.sg"},
		{"CronJob pod label", "CronJob", "spec:\n  jobTemplate:\n    spec:\n      template:\n        metadata:\n          labels: " + u + "\n", "spec.jobTemplate.spec.template.metadata.labels"},
		{"pod template account", "Job", "spec:\n  template:\n    spec:\n      serviceAccountName: " + u + "\n", "spec.template.spec.serviceAccountName"},
		{"toleration key", "Job", "spec:\n  template:\n    spec:\n      tolerations:\n        - key: " + u + "\n          operator: Exists\n", "spec.template.spec.tolerations[].key"},
		{"toleration item", "Job", "spec:\n  template:\n    spec:\n      tolerations:\n        - " + u + "\n", "spec.template.spec.tolerations[]"},
		{"ServiceAccount label", "ServiceAccount", "metadata:\n  labels:\n    sgp: " + u + "\n", "metadata.labels.sgp"},
		{"Pod label", "Pod", "metadata:\n  labels:\n    sgp: " + u + "\n", "metadata.labels.sgp"},
		{"Job's own label", "Job", "metadata:\n  labels:\n    team: " + u + "\n", ""},
		{"image", "Job", "spec:\n  template:\n    spec:\n      containers:\n        - image: " + u + "\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := yamlpos.Documents([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if f, _ := dropUnknownFields(docs[0], tc.kind, ""); f != tc.field {
				t.Errorf("field %q, want %q", f, tc.field)
			}
		})
	}
}
