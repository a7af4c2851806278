//go:build slow

package testtool

// Slow is true in `go test -tags slow`: the sweeps run at full size and the cases that spend
// seconds on purpose (budgets that trip after a million steps) run too. .ci/run runs it.
const Slow = true
