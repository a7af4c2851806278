// Package integration tests eni-lint where it is used rather than where it is written: the
// GitHub Action's steps in a simulated runner, and the pre-commit hook installed and run by
// the real pre-commit tool.
package integration
