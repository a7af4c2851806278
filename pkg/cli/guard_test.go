package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"10MiB": 10 << 20, "10mb": 10 << 20, "1048576": 1 << 20, "4GiB": 4 << 30, "2K": 2048, "7B": 7} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ten", "-1", "0", "10XB", "1e9"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}

func TestValidRevision(t *testing.T) {
	for _, ok := range []string{"main", "origin/main", "HEAD~1", "HEAD^", "v1.2.3", "abc123def", "main@{1}", "refs/heads/x"} {
		if err := validRevision(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"--output=x.txt", "-p", "", "a b", "main;rm", "$(id)"} {
		if err := validRevision(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestGuardEndsAnOverrunningRun(t *testing.T) {
	var stderr bytes.Buffer
	code := make(chan int, 1)
	g := startGuard(50*time.Millisecond, 0, &stderr, func(c int) { code <- c })
	g.setStep("rendering chart x")
	select {
	case c := <-code:
		if c != 2 || !strings.Contains(stderr.String(), "--timeout") || !strings.Contains(stderr.String(), "rendering chart x") {
			t.Errorf("exit %d: %s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the guard never fired")
	}
	g.Stop()

	// A memory budget below what the test binary already uses fires too.
	stderr.Reset()
	g = startGuard(0, 1, &stderr, func(c int) { code <- c })
	select {
	case c := <-code:
		if c != 2 || !strings.Contains(stderr.String(), "--max-memory") {
			t.Errorf("exit %d: %s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the memory guard never fired")
	}
	g.Stop()
}
