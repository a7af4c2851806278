package analysis

import (
	"context"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// An accepted ignore entry is reported as unused only when no cluster's evaluation used it,
// once, and not when every rule it names is turned off.
func TestUnusedIgnores(t *testing.T) {
	eng, err := rules.New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	at := inventory.Position{File: "infra/main.tf", Line: 3, Column: 3}
	entry := func(id, text string, used bool, rules ...string) findings.IgnoreUse {
		return findings.IgnoreUse{ObjectID: id, Object: findings.ObjectRef{Kind: "NodeGroup", Name: id}, Rules: rules, Text: text, Location: at, Used: used}
	}
	uses := []findings.IgnoreUse{
		entry("a", "ENI001 used in the second cluster", false, "ENI001"),
		entry("a", "ENI001 used in the second cluster", true, "ENI001"),
		entry("b", "ENI001 unused in both", false, "ENI001"),
		entry("b", "ENI001 unused in both", false, "ENI001"),
		entry("c", "ENI007 of a rule turned off", false, "ENI007"),
	}
	got := unusedIgnores(uses, eng, map[string]RuleOverride{"ENI007": {Disabled: true}})
	if len(got) != 1 || got[0].ObjectID != "b" || got[0].Rule != "ENI009" || got[0].Severity != findings.Warning || got[0].Location != at {
		t.Fatalf("unused %+v", got)
	}
	if unusedIgnores(nil, nil, nil) != nil {
		t.Error("a discovery run (no engine) reports unused ignores")
	}
}
