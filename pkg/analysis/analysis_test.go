package analysis

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

func TestEnvironmentName(t *testing.T) {
	tests := map[string]string{
		"envs/prod.tfvars":           "prod",
		"envs/staging.tfvars.json":   "staging",
		"vars/dev.json":              "dev",
		"team-a/prod.auto.tfvars":    "prod.auto",
		"no-extension":               "no-extension",
		"/abs/path/eu-west-1.tfvars": "eu-west-1",
	}
	for in, want := range tests {
		if got := EnvironmentName(in); got != want {
			t.Errorf("EnvironmentName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Environments named by base name alone would collide (env/dev/terraform.tfvars and
// env/prod/terraform.tfvars are both "terraform", seen in real repositories).
func TestEnvironmentNames(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"envs/dev.tfvars", "envs/prod.tfvars"}, []string{"dev", "prod"}},
		{[]string{"env/dev/terraform.tfvars", "env/prod/terraform.tfvars"}, []string{"env/dev", "env/prod"}},
		{[]string{"a/prod.tfvars", "b/prod.tfvars", "c/qa.tfvars"}, []string{"a/prod", "b/prod", "qa"}},
		{[]string{"env/dev/terraform.tfvars", "env/dev/terraform.tfvars.json"}, []string{"env/dev/terraform.tfvars", "env/dev/terraform.tfvars.json"}},
	}
	for _, tc := range tests {
		if got := EnvironmentNames(tc.in); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("EnvironmentNames(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestTune(t *testing.T) {
	fs := func() []findings.Finding {
		return []findings.Finding{
			{Rule: "ENI001", Severity: "error"},
			{Rule: "ENI002", Severity: "warning"},
			{Rule: "ENI003", Severity: "warning"},
		}
	}
	tests := []struct {
		name      string
		overrides map[string]RuleOverride
		want      []string // rule:severity
	}{
		{"no overrides", nil, []string{"ENI001:error", "ENI002:warning", "ENI003:warning"}},
		{"disable one", map[string]RuleOverride{"ENI002": {Disabled: true}}, []string{"ENI001:error", "ENI003:warning"}},
		{"raise severity", map[string]RuleOverride{"ENI003": {Severity: "error"}}, []string{"ENI001:error", "ENI002:warning", "ENI003:error"}},
		{"unknown rule is harmless", map[string]RuleOverride{"ENI999": {Disabled: true}}, []string{"ENI001:error", "ENI002:warning", "ENI003:warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range tune(fs(), tt.overrides) {
				got = append(got, f.Rule+":"+string(f.Severity))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPathsWithNothingToReadAreNoCleanResult(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# docs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	engine, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(context.Background(), engine, Options{Paths: []string{dir}, ENIRelease: inventory.ReleaseOnDelete, CooldownSeconds: 60, DefaultNamespace: "default", FailOn: findings.Error})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode() != findings.ExitFailed || len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Message, "nothing was checked") {
		t.Errorf("exit %d, errors %+v", r.ExitCode(), r.Errors)
	}
}
