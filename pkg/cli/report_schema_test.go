package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Every scenario's JSON report validates against docs/report.schema.json, and its clusters
// refer to node groups and rows that exist: the schema and the reports cannot drift apart.
func TestScenarioReportsMatchTheSchema(t *testing.T) {
	schema := testtool.CompileSchema(t, filepath.Join("..", "..", "docs", "report.schema.json"))
	checked := 0
	for _, sc := range testtool.ScenarioReports(t, filepath.Join("..", "..")) {
		p := sc.Path
		var head struct {
			SchemaVersion string `json:"schemaVersion"`
			Clusters      []struct {
				Name       string   `json:"name"`
				NodeGroups []string `json:"nodeGroups"`
			} `json:"clusters"`
			NodeGroups []struct {
				ID      string `json:"id"`
				Cluster string `json:"cluster"`
			} `json:"nodeGroups"`
			Rows []struct {
				Cluster     string `json:"cluster"`
				NodeGroupID string `json:"nodeGroupId"`
			} `json:"instanceTypes"`
		}
		if len(sc.Raw) == 0 || json.Unmarshal(sc.Raw, &head) != nil || head.SchemaVersion != findings.SchemaVersion {
			continue // text output, another command's JSON
		}
		checked++
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		ids := map[string]string{}
		for _, g := range head.NodeGroups {
			ids[g.ID] = g.Cluster
		}
		names := map[string]bool{}
		for _, cl := range head.Clusters {
			names[cl.Name] = true
			for _, id := range cl.NodeGroups {
				if cluster, ok := ids[id]; !ok || cluster != cl.Name {
					t.Errorf("%s: cluster %s lists node group %s, which is in cluster %q", p, cl.Name, id, cluster)
				}
			}
		}
		for _, r := range head.Rows {
			if r.Cluster != "" && !names[r.Cluster] {
				t.Errorf("%s: row of %s names cluster %s, which is not in clusters", p, r.NodeGroupID, r.Cluster)
			}
			if _, ok := ids[r.NodeGroupID]; !ok {
				t.Errorf("%s: row names node group %s, which is not in nodeGroups", p, r.NodeGroupID)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d reports checked", checked)
	}
}
