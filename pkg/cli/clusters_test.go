package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The JSON of `eni-lint clusters` names every cluster discovery found, with node group ids and
// the config entry that makes the mapping explicit; that entry, written to .eni-lint.yaml,
// gives the same clusters.
func TestClustersJSON(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "scenarios", "clusters-command")
	t.Chdir(dir)
	code, out, errOut := run(t, "", nil, "clusters", ".", "--each-var-file", "terraform/env/*.tfvars", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		SchemaVersion string `json:"schemaVersion"`
		Clusters      []struct {
			Name       string   `json:"name"`
			Kind       string   `json:"kind"`
			NodeGroups []string `json:"nodeGroups"`
			Manifests  int      `json:"manifests"`
		} `json:"clusters"`
		Config string `json:"config"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"analytics": "eksctl", "terraform:env/dev": "terraform", "terraform:env/prod": "terraform", "karpenter": "karpenter"}
	if got.SchemaVersion != "eni-lint.clusters/v1" || len(got.Clusters) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for _, c := range got.Clusters {
		if want[c.Name] != c.Kind || len(c.NodeGroups) != 1 || c.Manifests != 2 {
			t.Errorf("cluster %+v", c)
		}
	}
	if code, _, errOut := run(t, "", nil, "clusters", ".", "--format", "sarif"); code != 2 {
		t.Errorf("--format sarif: exit %d, %s", code, errOut)
	}

	// The suggested config, written down, gives the same clusters and node groups.
	copyDir := t.TempDir()
	if err := os.CopyFS(copyDir, os.DirFS(".")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, ".eni-lint.yaml"), []byte(got.Config), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(copyDir)
	code, out, errOut = run(t, "", nil, "clusters", ".", "--format", "json")
	if code != 0 {
		t.Fatalf("with the suggested config: exit %d: %s\n%s", code, errOut, got.Config)
	}
	var again struct {
		Clusters []struct {
			Name       string   `json:"name"`
			Kind       string   `json:"kind"`
			NodeGroups []string `json:"nodeGroups"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &again); err != nil {
		t.Fatal(err)
	}
	groups := map[string][]string{}
	for _, c := range got.Clusters {
		groups[c.Name] = c.NodeGroups
	}
	if len(again.Clusters) != len(got.Clusters) {
		t.Fatalf("with the suggested config: %+v", again.Clusters)
	}
	for _, c := range again.Clusters {
		if c.Kind != "config" || strings.Join(c.NodeGroups, ",") != strings.Join(groups[c.Name], ",") {
			t.Errorf("with the suggested config: %+v, want node groups %v", c, groups[c.Name])
		}
	}
}
