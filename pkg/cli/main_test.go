package cli

import (
	"os"
	"testing"

	"github.com/eni-lint/eni-lint/internal/gcpace"
)

// TestMain paces the collector as the binary's main does: the tests run hundreds of checks in
// one process, and with Go's default pacing the collector took a quarter of their CPU.
func TestMain(m *testing.M) {
	gcpace.Start()
	os.Exit(m.Run())
}
