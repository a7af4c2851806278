package cli

import (
	"bytes"
	"context"
	"path/filepath"
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
	g := startGuardWithGrace(50*time.Millisecond, 10*time.Millisecond, 0, &stderr, func(c int) { code <- c })
	g.setStep("reading the inputs")
	g.startReading("infra/main.tf")()
	g.startReading("the chart charts/x")
	g.startReading("a\x1b[2Jb.yaml")
	select {
	case c := <-code:
		want := "while reading the inputs (still reading the chart charts/x, a\\x1b[2Jb.yaml), and did not stop within 10ms"
		if c != 2 || !strings.Contains(stderr.String(), "--timeout") || !strings.Contains(stderr.String(), want) {
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

// TestTimeoutStillReports: when the run's deadline passes, the steps that honour it stop and
// the report still goes out, saying what was not read and that there is no verdict.
func TestTimeoutStillReports(t *testing.T) {
	quickstart, _ := filepath.Abs("../../examples/quickstart")
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), []string{"check", quickstart, "--node-group", "default=m5.large", "--timeout", "1ns"},
		IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr, Getenv: func(string) string { return "" },
			Exit: func(c int) { t.Errorf("the guard ended the run with %d: %s", c, stderr.String()) }})
	out := stdout.String()
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s%s", code, out, stderr.String())
	}
	for _, want := range []string{"db-migrate-cronjob.yaml  not read: the run passed --timeout first", "--timeout  the run took longer than --timeout while reading the inputs", "exit 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q\n%s", want, out)
		}
	}
	if strings.Contains(out, "ENI001") || strings.Contains(out, "fits") {
		t.Errorf("a verdict without evaluation\n%s", out)
	}
}
