package report

import (
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func TestRuleDocURL(t *testing.T) {
	builtIn := findings.RuleDoc{ID: "ENI001", BuiltIn: true}
	for _, tc := range []struct {
		version, want string
	}{
		{"1.2.3", "v1.2.3"},
		{"v1.2.3", "v1.2.3"},
		{"1.3.0-rc.1", "v1.3.0-rc.1"},
		{"v0.3.1-0.20261201100000-0123456789ab", "0123456789ab"},
		{"v0.0.0-20261201100000-0123456789ab", "0123456789ab"},
		{"0.0.1-snapshot+065b91b", "065b91b"},
		{"0.0.0-dev+0123456789ab-dirty", "main"},
		{"0.0.0-dev", "main"},
		{"", "main"},
	} {
		want := "https://github.com/eni-lint/eni-lint/blob/" + tc.want + "/docs/rules/ENI001.md"
		if got := RuleDocURL(builtIn, tc.version); got != want {
			t.Errorf("%q: %s, want %s", tc.version, got, want)
		}
	}
	if got := RuleDocURL(findings.RuleDoc{ID: "ACME001"}, "1.2.3"); got != "" {
		t.Errorf("a custom rule has no page in eni-lint's docs: %s", got)
	}
}

// A fingerprint follows a finding across commits: moving it to another line keeps it; another
// object, instance type or environment is another alert.
func TestFingerprint(t *testing.T) {
	base := findings.Finding{
		Rule: "ENI001", Location: inventory.Position{File: "k8s/cron.yaml", Line: 13, Column: 5},
		Object:  &findings.ObjectRef{Kind: "CronJob", Namespace: "billing", Name: "db"},
		Details: map[string]any{"nodeGroup": "default", "instanceType": "m5.large", "demand": 35},
	}
	same := func(change func(*findings.Finding)) bool {
		f := base
		f.Object = &findings.ObjectRef{Kind: base.Object.Kind, Namespace: base.Object.Namespace, Name: base.Object.Name}
		f.Details = map[string]any{}
		for k, v := range base.Details {
			f.Details[k] = v
		}
		change(&f)
		return fingerprint(f, "") == fingerprint(base, "")
	}
	for _, tc := range []struct {
		name   string
		change func(*findings.Finding)
		same   bool
	}{
		{"another line and column", func(f *findings.Finding) { f.Location.Line, f.Location.Column = 40, 9 }, true},
		{"other numbers", func(f *findings.Finding) { f.Details["demand"] = 47 }, true},
		{"another message", func(f *findings.Finding) { f.Message = "47 > 9" }, true},
		{"another rule", func(f *findings.Finding) { f.Rule = "ENI003" }, false},
		{"another file", func(f *findings.Finding) { f.Location.File = "k8s/other.yaml" }, false},
		{"another object", func(f *findings.Finding) { f.Object.Name = "db2" }, false},
		{"another instance type", func(f *findings.Finding) { f.Details["instanceType"] = "m5.xlarge" }, false},
		{"another node group", func(f *findings.Finding) { f.Details["nodeGroup"] = "batch" }, false},
		{"another environment", func(f *findings.Finding) { f.Environments = []string{"prod"} }, false},
	} {
		if got := same(tc.change); got != tc.same {
			t.Errorf("%s: same fingerprint %v, want %v", tc.name, got, tc.same)
		}
	}
}
