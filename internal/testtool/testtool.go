// Package testtool lets a test depend on a program or file that `go test` cannot provide
// (pre-commit, actionlint, the SARIF schema). Locally a missing one skips the test with a
// message saying how to get it; in CI (CI set, as on every CI service) it fails the test, so
// `go test ./...` there can never pass by skipping what it claims to run.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Missing skips t locally and fails it in CI; hint says how to get what is missing.
func Missing(t testing.TB, what, hint string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing and CI is set, so this test may not be skipped: %s", what, hint)
		return
	}
	t.Skipf("%s is missing (%s); skipped locally, required when CI is set", what, hint)
}

// Program returns the path of an executable on PATH, or calls Missing.
func Program(t testing.TB, name, hint string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name, hint)
	}
	return path
}

// Env returns a variable that names a test input, or calls Missing.
func Env(t testing.TB, name, hint string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		Missing(t, name, hint)
	}
	return v
}

// Size is a seeded sweep's size: fast in a plain `go test`, slow with -tags slow (.ci/run).
// Both draw from the same seed, so the plain run checks a prefix of what the slow one does.
func Size(fast, slow int) int {
	if Slow {
		return slow
	}
	return fast
}

// SkipUnlessSlow skips a test that spends seconds on purpose unless -tags slow is given.
func SkipUnlessSlow(t testing.TB, why string) {
	t.Helper()
	if !Slow {
		t.Skip(why + ": go test -tags slow runs it (.ci/run does)")
	}
}
