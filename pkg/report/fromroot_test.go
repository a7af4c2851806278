package report

import (
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Report paths are relative to the working folder; the formats GitHub reads name them from
// the repository root.
func TestFromRoot(t *testing.T) {
	tests := []struct{ root, file, want string }{
		{"", "cronjob.yaml", "cronjob.yaml"},
		{"k8s", "cronjob.yaml", "k8s/cronjob.yaml"},
		{"k8s/prod", "../base/job.yaml", "k8s/base/job.yaml"},
		{"pkg/cli", "../../examples/quickstart/x.yaml", "examples/quickstart/x.yaml"},
		{"k8s", "<stdin>", "<stdin>"},
		{"k8s", "--node-group default=m5.large", "--node-group default=m5.large"},
		{"k8s", "/abs/file.yaml", "/abs/file.yaml"},
		{"k8s", "", ""},
	}
	for _, tc := range tests {
		if got := FromRoot(tc.root, tc.file); got != tc.want {
			t.Errorf("FromRoot(%q, %q) = %q, want %q", tc.root, tc.file, got, tc.want)
		}
	}
	rep := &findings.Report{Findings: []findings.Finding{{Rule: "ENI001", Severity: findings.Error, Message: "m",
		Location: inventory.Position{File: "cronjob.yaml", Line: 13, Column: 5}}}}
	var b strings.Builder
	if err := (GitHub{Root: "k8s"}).Write(&b, rep); err != nil || !strings.Contains(b.String(), "::error file=k8s/cronjob.yaml,line=13,col=5,") {
		t.Errorf("github: %v %q", err, b.String())
	}
	b.Reset()
	if err := (SARIF{Root: "k8s"}).Write(&b, rep); err != nil || !strings.Contains(b.String(), `"uri": "k8s/cronjob.yaml"`) {
		t.Errorf("sarif: %v %s", err, b.String())
	}
	b.Reset()
	if err := (Text{}).Write(&b, rep); err != nil || strings.Contains(b.String(), "k8s/") {
		t.Errorf("text names the file from the root: %s", b.String())
	}
}
