package testtool

import (
	"testing"
)

// fakeTB records what Missing did instead of stopping a real test.
type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }
func (f *fakeTB) Skipf(string, ...any)  { f.skipped = true }
func (f *fakeTB) Logf(string, ...any)   {}
func (f *fakeTB) Errorf(string, ...any) { f.failed = true }

func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ci     string
		failed bool
	}{
		{name: "locally a missing tool skips", ci: "", failed: false},
		{name: "in CI it fails", ci: "true", failed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			f := &fakeTB{}
			Program(f, "no-such-program-eni-lint-test", "it never exists")
			if f.failed != tc.failed || f.skipped == tc.failed {
				t.Errorf("failed %v skipped %v", f.failed, f.skipped)
			}
			f = &fakeTB{}
			Env(f, "ENI_LINT_NO_SUCH_VARIABLE", "never set")
			if f.failed != tc.failed {
				t.Errorf("Env: failed %v", f.failed)
			}
		})
	}
	if Program(t, "go", "") == "" {
		t.Error("go is on PATH while tests run")
	}
}
