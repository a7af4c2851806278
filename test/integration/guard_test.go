package integration

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
)

// A Helm chart whose tpl renders a tpl of itself recurses until Go's stack limit ends the
// process with "fatal error: stack overflow": no report, no message (Helm bounds include's
// depth, not tpl's). A loop through a .Values field is refused before rendering
// (pkg/loaders/helm checkTplCycles); one through index is not followed there, and the run's
// guard stops it first, with exit 2 and the chart it was reading.
// It runs the built binary: in a test process the guard's exit would not end the recursion.
func TestGuardStopsARecursiveChart(t *testing.T) {
	if testing.Short() {
		t.Skip("recurses to a quarter of a gigabyte of stack: skipped in -short mode")
	}
	testtool.SkipUnlessSlow(t, "recurses to a quarter of a gigabyte of stack on purpose")
	bin := buildEniLint(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "chart", "Chart.yaml"), "apiVersion: v2\nname: chart\nversion: 0.1.0\n")
	write(t, filepath.Join(dir, "chart", "values.yaml"), "a: \"{{ tpl (index .Values \\\"a\\\") . }}\"\n")
	write(t, filepath.Join(dir, "chart", "templates", "cm.yaml"), "x: {{ tpl .Values.a . }}\n")
	cmd := exec.Command(bin, "check", "--helm-chart", "chart", "--node-group", "default=m5.large", "--no-color")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 2 || !strings.Contains(string(out), "stack grew past") || !strings.Contains(string(out), "the chart chart") || strings.Contains(string(out), "fatal error") {
		t.Errorf("exit %d\n%.2000s", code, out)
	}
}
