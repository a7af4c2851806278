package findings

import (
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func TestExitCode(t *testing.T) {
	warn := []Finding{{Rule: "ENI002", Severity: Warning}}
	errs := []Finding{{Rule: "ENI001", Severity: Error}, {Rule: "ENI007", Severity: Info}}
	loadErr := []inventory.LoadError{{Message: "x"}}
	tests := []struct {
		name     string
		failOn   Severity
		findings []Finding
		errors   []inventory.LoadError
		want     int
	}{
		{"clean", Error, nil, nil, 0},
		{"warning below error", Error, warn, nil, 0},
		{"warning at warning", Warning, warn, nil, 1},
		{"error", Error, errs, nil, 1},
		{"info fails on info", Info, []Finding{{Severity: Info}}, nil, 1},
		{"none never fails on findings", None, errs, nil, 0},
		{"unreadable input wins", Error, errs, loadErr, 2},
		{"unreadable input even with none", None, nil, loadErr, 2},
	}
	for _, tc := range tests {
		r := &Report{FailOn: tc.failOn, Findings: tc.findings, Errors: tc.errors}
		if got := r.ExitCode(); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestParseSeverity(t *testing.T) {
	for _, s := range []string{"info", "warning", "error", "none"} {
		if v, err := ParseSeverity(s); err != nil || string(v) != s {
			t.Errorf("%s: %v %v", s, v, err)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("fatal accepted")
	}
}

func TestSortAndCount(t *testing.T) {
	r := &Report{Findings: []Finding{
		{Rule: "ENI002", Severity: Warning, Location: inventory.Position{File: "b.yaml", Line: 1}},
		{Rule: "ENI001", Severity: Error, Location: inventory.Position{File: "a.yaml", Line: 9}},
		{Rule: "ENI007", Severity: Info, Location: inventory.Position{File: "a.yaml", Line: 2}},
	}, InstanceTypes: []InstanceTypeRow{
		{NodeGroup: "g", InstanceType: "z.large", Known: false},
		{NodeGroup: "g", InstanceType: "m5.xlarge", Known: true, BranchInterfaces: 18},
		{NodeGroup: "g", InstanceType: "m5.large", Known: true, BranchInterfaces: 9},
	}}
	r.Sort()
	r.Count()
	if r.Findings[0].Rule != "ENI007" || r.Findings[1].Rule != "ENI001" || r.Findings[2].Rule != "ENI002" {
		t.Errorf("order %v", r.Findings)
	}
	if r.InstanceTypes[0].InstanceType != "m5.large" || r.InstanceTypes[2].InstanceType != "z.large" {
		t.Errorf("rows %v", r.InstanceTypes)
	}
	if r.Summary != (Summary{Errors: 1, Warnings: 1, Info: 1}) {
		t.Errorf("summary %+v", r.Summary)
	}
}
