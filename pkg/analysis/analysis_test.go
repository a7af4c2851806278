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
