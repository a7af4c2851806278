package analysis

import (
	"reflect"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
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
