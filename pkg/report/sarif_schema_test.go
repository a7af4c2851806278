package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaPath names the SARIF 2.1.0 JSON schema. It is not copied into this repository:
// .ci/run installs it from the npm registry (the MIT-licensed @microsoft/sarif-multitool-linux
// package ships sarif-2.1.0.json) and exports ENI_LINT_SARIF_SCHEMA. On CI the test must run;
// elsewhere it is skipped unless the variable is set.
func sarifSchemaPath(t *testing.T) string {
	return testtool.Env(t, "ENI_LINT_SARIF_SCHEMA", "the path of sarif-2.1.0.json; .ci/run fetches it")
}

func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	path := sarifSchemaPath(t)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	clean := sample()
	clean.Errors, clean.Findings = nil, nil
	for name, rep := range map[string]*findings.Report{"full": withRules(), "clean": clean} {
		var b bytes.Buffer
		if err := (SARIF{InformationURI: InformationURI}).Write(&b, rep); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s report: %v", name, err)
		}
	}
	// The golden file is validated too, so the format reviewers read is the one checked.
	golden, err := os.ReadFile("testdata/report.sarif")
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	if err := json.Unmarshal(golden, &inst); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("testdata/report.sarif: %v", err)
	}

	// The report of every golden scenario, as code scanning would receive it: valid, every
	// result located, no two results with one fingerprint.
	for _, sc := range testtool.ScenarioReports(t, filepath.Join("..", "..")) {
		path := sc.Path
		var b bytes.Buffer
		if err := (SARIF{InformationURI: InformationURI}).Write(&b, sc.Report); err != nil {
			t.Fatal(err)
		}
		var log sarifLog
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		seen := map[string]bool{}
		for _, res := range log.Runs[0].Results {
			fp := res.PartialFingerprints[fingerprintName]
			if len(res.Locations) == 0 || fp == "" || seen[fp] {
				t.Errorf("%s: %s result without location or with a repeated fingerprint %q", path, res.RuleID, fp)
			}
			seen[fp] = true
		}
	}
}
