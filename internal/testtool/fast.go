//go:build !slow

package testtool

// Slow is false in a plain `go test ./...`: seeded sweeps run at a size that still exercises
// what they check, and the cases that spend seconds on purpose are left to
// `go test -tags slow ./...`, which .ci/run runs as well.
const Slow = false
