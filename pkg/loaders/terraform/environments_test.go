package terraform

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestEnvironmentName(t *testing.T) {
	tests := []struct{ root, file, want string }{
		{"infra", "infra/env/prod.tfvars", "env/prod"},
		{"infra", "infra/env/prod/terraform.tfvars", "env/prod"},
		{"infra", "infra/staging.tfvars.json", "staging"},
		{".", "envs/dev.tfvars", "envs/dev"},
		{"infra", "envs/dev.tfvars", "envs/dev"}, // outside the root: as given
		{"infra", "infra/team-a/prod.auto.tfvars", "team-a/prod.auto"},
		{"infra", "infra/no-extension", "no-extension"},
	}
	for _, tc := range tests {
		if got := EnvironmentName(tc.root, tc.file); got != tc.want {
			t.Errorf("EnvironmentName(%q, %q) = %q, want %q", tc.root, tc.file, got, tc.want)
		}
	}
}

// A var file belongs to the root module that holds it; one no root holds applies to all.
func TestEnvironmentsOf(t *testing.T) {
	roots := []string{"a", "b", filepath.Join("b", "nested")}
	envs := []Environment{
		{VarFiles: []string{"a/env/prod.tfvars"}},
		{VarFiles: []string{"b/env/prod.tfvars"}},
		{VarFiles: []string{"b/nested/dev.tfvars"}},
		{VarFiles: []string{"shared/qa.tfvars"}},
		{Name: "blue", VarFiles: []string{"x.tfvars"}, Under: []string{"a"}},
		{VarFiles: []string{"a/env/dev/terraform.tfvars"}},
		{VarFiles: []string{"a/env/dev/terraform.tfvars.json"}},
	}
	tests := map[string]string{
		"a":        "env/prod,shared/qa,blue,a/env/dev/terraform.tfvars,a/env/dev/terraform.tfvars.json",
		"b":        "env/prod,shared/qa",
		"b/nested": "dev,shared/qa",
	}
	for root, want := range tests {
		var names []string
		for _, e := range environmentsOf(root, roots, envs) {
			names = append(names, e.Name)
		}
		if got := strings.Join(names, ","); got != want {
			t.Errorf("environmentsOf(%q) = %s, want %s", root, got, want)
		}
	}
}
