package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eni-lint/eni-lint/internal/testtool"
)

// maxRSS and maxRun are what one hostile input may cost the built binary: a budget of ours
// trips first, with a located error, and the report is written.
const (
	maxRSS = 1 << 30
	maxRun = 60 * time.Second
)

// TestHostileInputsStayWithinMemory runs the built binary on every class of hostile input,
// one run each, and reads the kernel's count of its peak resident memory (rusage maxrss):
// each stays under 1 GiB, ends within 60 s (a budget: a run past it is killed and fails the
// test), writes a JSON report, and names the bad file in it. It is not a timed assertion on
// speed: the bounds are the issue's, far above what the budgets let these inputs cost.
// (ulimit -v is no way to measure a Go binary: under a 1 GiB address-space limit the runtime
// cannot start its threads, "pthread_create failed", before reading anything.)
func TestHostileInputsStayWithinMemory(t *testing.T) {
	testtool.SkipUnlessSlow(t, "builds the binary and runs it on every hostile class")
	bin := buildEniLint(t)
	type class struct {
		name, bad string // bad: the file the report must name
		setup     func(t *testing.T, dir string)
	}
	classes := []class{
		{"terraform chained conditionals, 9 MB", "main.tf", func(t *testing.T, dir string) {
			var b strings.Builder
			b.WriteString("locals {\n  x = ")
			for i := 0; b.Len() < 9_000_000; i++ {
				b.WriteString(`var.a ? "v" : `)
			}
			b.WriteString("\"end\"\n}\n")
			write(t, filepath.Join(dir, "main.tf"), b.String())
		}},
		{"helm tpl that renders itself", "values.yaml", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "chart", "Chart.yaml"), "apiVersion: v2\nname: chart\nversion: 0.1.0\n")
			write(t, filepath.Join(dir, "chart", "values.yaml"), "a: '{{ tpl .Values.a . }}'\n")
			write(t, filepath.Join(dir, "chart", "templates", "cm.yaml"), "x: {{ tpl .Values.a . }}\n")
		}},
		{"cloudformation join over 1,000 aliases of 100 kB", "stack.yaml", func(t *testing.T, dir string) {
			var b strings.Builder
			b.WriteString("AWSTemplateFormatVersion: \"2010-09-09\"\nMappings:\n  M:\n    K:\n      V: &big \"" + strings.Repeat("x", 100_000) + "\"\n")
			b.WriteString("Resources:\n  Nodes:\n    Type: AWS::EKS::Nodegroup\n    Properties:\n      InstanceTypes:\n        - !Join [\"\", [")
			for i := range 1000 {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("*big")
			}
			b.WriteString("]]\n")
			write(t, filepath.Join(dir, "stack.yaml"), b.String())
		}},
		{"kubernetes alias chain", "aliases.yaml", func(t *testing.T, dir string) {
			var b strings.Builder
			b.WriteString("a0: &a0 [\"" + strings.Repeat("x", 1000) + "\"]\n")
			for i := 1; i < 30; i++ {
				b.WriteString("a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [*a" + strconv.Itoa(i-1) + ", *a" + strconv.Itoa(i-1) + "]\n")
			}
			write(t, filepath.Join(dir, "aliases.yaml"), b.String())
		}},
	}
	// And every folder of the project's hostile corpus, as it is.
	corpus := filepath.Join(repoRoot(t), "testdata", "hostile")
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), "config-") {
			continue // a config that names outside paths ends the run before anything is read
		}
		from := filepath.Join(corpus, e.Name())
		classes = append(classes, class{name: "corpus " + e.Name(), setup: func(t *testing.T, dir string) {
			if out, err := exec.Command("cp", "-R", from+"/.", dir).CombinedOutput(); err != nil {
				t.Fatalf("copy: %v %s", err, out)
			}
		}})
	}
	for _, c := range classes {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
			c.setup(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), maxRun)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "check", ".", "--format", "json", "--node-group", "default=m5.large", "--no-color")
			cmd.Dir = dir
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("no answer within %v", maxRun)
			}
			if _, ok := err.(*exec.ExitError); err != nil && !ok {
				t.Fatal(err)
			}
			if code := cmd.ProcessState.ExitCode(); code < 0 || code > 2 {
				t.Fatalf("exit %d\n%.2000s", code, stderr.String())
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
			if rss >= maxRSS {
				t.Errorf("peak RSS %d MiB, over 1 GiB", rss>>20)
			}
			var report struct {
				Errors []struct {
					Position struct{ File string }
				}
				Findings []struct{ Location struct{ File string } }
			}
			if err := json.Unmarshal([]byte(stdout.String()), &report); err != nil {
				t.Fatalf("no JSON report: %v\n%.2000s", err, stderr.String())
			}
			if strings.Contains(stderr.String(), "fatal error") {
				t.Fatalf("the runtime ended the run:\n%.2000s", stderr.String())
			}
			if c.bad != "" {
				named := false
				for _, e := range report.Errors {
					named = named || strings.HasSuffix(e.Position.File, c.bad)
				}
				for _, f := range report.Findings {
					named = named || strings.HasSuffix(f.Location.File, c.bad)
				}
				if !named {
					t.Errorf("the report does not name %s:\n%.3000s", c.bad, stdout.String())
				}
			}
			t.Logf("peak RSS %d MiB", rss>>20)
		})
	}
}
