package rules

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/policies"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
)

// TestRegoPolicies runs every _test.rego through OPA's tester, with the same restricted
// capabilities the engine uses, so a policy that needs a denied builtin fails here too.
func TestRegoPolicies(t *testing.T) {
	modules, err := Modules(true)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	runner := tester.NewRunner().
		SetCompiler(ast.NewCompiler().WithCapabilities(Capabilities())).
		SetModules(modules).
		RaiseBuiltinErrors(true)
	ch, err := runner.RunTests(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		name := strings.TrimPrefix(r.Package, "data.") + "." + r.Name
		switch {
		case r.Error != nil:
			t.Errorf("%s: error: %v", name, r.Error)
		case r.Fail:
			t.Errorf("%s (%s:%d): FAIL", name, r.Location.File, r.Location.Row)
		case r.Skip:
			t.Errorf("%s: skipped; a policy test must run", name)
		}
	}
	if n < 50 {
		t.Errorf("ran %d Rego tests; expected the whole suite", n)
	}
}

// TestEveryRuleHasMetadataAndTests is the meta-test: every rule package has METADATA with a
// remediation and the text explain prints, and a _test.rego with a firing and a quiet test.
func TestEveryRuleHasMetadataAndTests(t *testing.T) {
	e, err := New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Rules()) != 14 {
		t.Errorf("%d rules, want ENI001-ENI014", len(e.Rules()))
	}
	for _, r := range e.Rules() {
		if r.Remediation == "" || r.Description == "" || r.Numbers == "" || r.OtherModel == "" {
			t.Errorf("%s: METADATA needs description, custom.numbers, custom.remediation and custom.otherModel", r.ID)
		}
		testFile := strings.TrimPrefix(strings.TrimSuffix(r.File, ".rego")+"_test.rego", "policies/")
		src, err := fs.ReadFile(policies.FS, testFile)
		if err != nil {
			t.Errorf("%s: no %s", r.ID, testFile)
			continue
		}
		if !strings.Contains(string(src), "test_fires") || !strings.Contains(string(src), "test_quiet") {
			t.Errorf("%s: %s needs a test_fires_* and a test_quiet_* test", r.ID, testFile)
		}
	}
}

// TestCapabilitiesDenyNetworkAndEnvironment makes sure a policy cannot reach out.
func TestCapabilitiesDenyNetworkAndEnvironment(t *testing.T) {
	for _, src := range []string{
		`package x
r := http.send({"method": "GET", "url": "http://127.0.0.1/"})`,
		`package x
r := opa.runtime().env`,
		`package x
r := net.lookup_ip_addr("example.com")`,
		`package x
r := time.now_ns()`,
		`package x
r := time.parse_rfc3339_ns("2026-01-01T00:00:00Z")`,
		`package x
r := io.jwt.decode_verify("a.b.c", {"secret": "s"})`,
		`package x
r := crypto.x509.parse_and_verify_certificates("x")`,
		`package x
r := count(numbers.range(1, 1000000000))`,
		`package x
r := net.cidr_expand("0.0.0.0/0")`,
	} {
		m, err := ast.ParseModuleWithOpts("x.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Compile(map[string]*ast.Module{"x.rego": m}); err == nil || !strings.Contains(err.Error(), "is not allowed") || !strings.Contains(err.Error(), "x.rego:2") {
			t.Errorf("policy %q compiled: %v", src, err)
		}
	}
}

// TestExampleCustomPolicy runs the example custom policy's own tests with the built-in
// policies, as a user's CI would, and checks the engine accepts it.
func TestExampleCustomPolicy(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "custom-policy")
	modules, err := Modules(true)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ast.ParseModuleWithOpts(e.Name(), string(src), ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatal(err)
		}
		modules["example/"+e.Name()] = m
	}
	ch, err := tester.NewRunner().SetCompiler(ast.NewCompiler().WithCapabilities(Capabilities())).SetModules(modules).Filter("org001").RunTests(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		if r.Error != nil || r.Fail {
			t.Errorf("%s: failed (%v)", r.Name, r.Error)
		}
	}
	if n != 2 {
		t.Errorf("ran %d example tests, want 2", n)
	}
	e, err := New(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Rule("ORG001"); !ok {
		t.Error("ORG001 not loaded")
	}
}

// TestBuiltInPoliciesPassEveryCheck: a run compiles the built-in policies without the checks
// that only validate (builtInChecksSkipped); here they get every check, so a type error or a
// recursion in them fails the tests, not a user's run.
func TestBuiltInPoliciesPassEveryCheck(t *testing.T) {
	modules, err := Modules(false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(modules); err != nil {
		t.Fatal(err)
	}
	// The checks skipped do find what they are for: a type error and a recursion.
	for name, src := range map[string]string{
		"type error": "package eni.lib.bad\n\nx := count(5)\n",
		"recursion":  "package eni.lib.bad\n\na if b\n\nb if a\n",
	} {
		bad := map[string]*ast.Module{"bad.rego": ast.MustParseModuleWithOpts(src, ast.ParserOptions{RegoVersion: ast.RegoV1})}
		if _, err := Compile(bad); err == nil {
			t.Errorf("%s: compiled with every check", name)
		}
		if _, err := compile(bad, true); err != nil {
			t.Errorf("%s: refused without the checks a run skips: %v", name, err)
		}
	}
}
