package config

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	return testtool.CompileSchema(t, filepath.Join("..", "..", "docs", "config.schema.json"))
}

// yamlToJSONValue turns YAML into the values the schema validator expects.
func yamlToJSONValue(t *testing.T, src []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatal(err)
	}
	var conv func(any) any
	conv = func(x any) any {
		switch y := x.(type) {
		case map[string]any:
			for k, v := range y {
				y[k] = conv(v)
			}
			return y
		case []any:
			for i, v := range y {
				y[i] = conv(v)
			}
			return y
		case int:
			return float64(y)
		case time.Time: // YAML reads an unquoted date as a timestamp; the file means the text
			return y.Format("2006-01-02")
		default:
			return y
		}
	}
	return conv(v)
}

// TestConfigFilesMatchTheSchema validates every config file in testdata and examples, and a
// file with every key, against docs/config.schema.json; wrong ones must fail it.
func TestConfigFilesMatchTheSchema(t *testing.T) {
	schema := compileSchema(t)
	var files []string
	for _, root := range []string{filepath.Join("..", "..", "testdata"), filepath.Join("..", "..", "examples")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Name() == FileName {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(yamlToJSONValue(t, b)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	full := `paths: [k8s]
exclude: ["vendor/**"]
nodeGroups:
  - {name: a, instanceTypes: [m5.large], labels: {x: y}, taints: [{key: k, value: v, effect: NoSchedule}], maxPods: 29}
limits: {x9.large: {branchInterfaces: 3, trunking: true, arch: amd64, maxPods: 20}}
eniRelease: onCompletion
cooldown: 90s
namespace: apps
failOn: warning
baseline: .eni-lint-baseline.json
policies: [policies]
allowInlineIgnores: false
rules: {ENI002: {severity: info, disabled: false, allowInlineIgnores: true}}
ignores: [{rule: ENI002, paths: ["vendor/**"], object: {kind: CronJob, namespace: ops, name: "x-*"}, reason: vendored, expires: 2027-01-31}]
charts: [{path: charts/billing, values: [charts/billing/prod.yaml], set: ["cron.ttl=60"], releaseName: billing, namespace: billing}]
clusters:
  - {name: prod, infrastructure: [infra], manifests: [k8s/prod], varFiles: [infra/env/prod.tfvars]}
  - {name: lab, nodeGroups: [{name: lab, instanceTypes: [m5.large]}]}
`
	if _, err := Parse("full.yaml", []byte(full)); err != nil {
		t.Fatalf("the full example does not parse: %v", err)
	}
	if err := schema.Validate(yamlToJSONValue(t, []byte(full))); err != nil {
		t.Errorf("full example: %v", err)
	}
	for _, bad := range []string{"charts: [{values: [a.yaml]}]\n", "charts: [{path: a, set: [novalue]}]\n", "nodegroups: []\n", "eniRelease: sometimes\n", "ignores: [{rule: ENI002}]\n", "rules: {ENI002: {severity: fatal}}\n", "clusters: [{name: x}]\n", "clusters: [{infrastructure: [infra]}]\n", "clusters: [{name: x, infrastructure: [a], nodegroups: []}]\n"} {
		if err := schema.Validate(yamlToJSONValue(t, []byte(bad))); err == nil {
			t.Errorf("schema accepted %q", bad)
		}
	}
}

// TestSchemaCoversEveryKey keeps the schema and the File type in step.
func TestSchemaCoversEveryKey(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	ft := reflect.TypeOf(File{})
	for i := 0; i < ft.NumField(); i++ {
		tag := strings.Split(ft.Field(i).Tag.Get("yaml"), ",")[0]
		if tag != "" && tag != "-" {
			keys = append(keys, tag)
			if !strings.Contains(string(b), `"`+tag+`":`) {
				t.Errorf("config key %s is not in docs/config.schema.json", tag)
			}
		}
	}
	sort.Strings(keys)
	if len(keys) != 18 {
		t.Errorf("config keys %v: update the schema and this count together", keys)
	}
}
