package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// ClustersSchemaVersion names the JSON output of `eni-lint clusters`.
const ClustersSchemaVersion = "eni-lint.clusters/v1"

// maxListedManifests is how many manifest files the text output lists per cluster; the JSON
// output lists them all.
const maxListedManifests = 20

// clustersOutput is the JSON output of `eni-lint clusters`.
type clustersOutput struct {
	SchemaVersion string                        `json:"schemaVersion"`
	Clusters      []findings.Cluster            `json:"clusters"`
	NodeGroups    []inventory.NodeGroup         `json:"nodeGroups"`
	Environments  []findings.EnvironmentVerdict `json:"environments"`
	Errors        []inventory.LoadError         `json:"errors"`
	Config        string                        `json:"config"`
	Inputs        findings.Inputs               `json:"inputs"`
}

// ClustersJSON writes what discovery found as JSON.
func ClustersJSON(w io.Writer, r *findings.Report) error {
	out := clustersOutput{
		SchemaVersion: ClustersSchemaVersion, Clusters: slices.Clone(r.Clusters), NodeGroups: r.NodeGroups,
		Environments: []findings.EnvironmentVerdict{}, Errors: r.Errors, Config: ClustersConfig(r), Inputs: r.Inputs,
	}
	for _, e := range r.Environments {
		out.Environments = append(out.Environments, findings.EnvironmentVerdict{Name: e.Name, VarFile: e.VarFile})
	}
	for i := range out.Clusters {
		// Discovery evaluates nothing: no verdict to show.
		out.Clusters[i].ExitCode, out.Clusters[i].Summary = 0, findings.Summary{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// ClustersText writes what discovery found for a terminal: each cluster, its node groups
// with id and source, its manifests, then the environments and the config that makes the
// mapping explicit.
func ClustersText(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	if len(r.Errors) > 0 {
		b.WriteString("Inputs that could not be read\n")
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "  %s  %s\n", source(e.Position), e.Message)
		}
		b.WriteString("\n")
	}
	if len(r.Clusters) == 0 {
		b.WriteString("No cluster: no node group was found (Terraform, eksctl, CloudFormation, Karpenter NodePools) or given (--node-group, nodeGroups or clusters in .eni-lint.yaml).\n")
	}
	groups := map[string][]inventory.NodeGroup{}
	for _, g := range r.NodeGroups {
		groups[g.Cluster] = append(groups[g.Cluster], g)
	}
	for i, c := range r.Clusters {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Cluster %s (%s)\n", c.Name, clusterOrigin(c))
		if len(groups[c.Name]) == 0 {
			b.WriteString("  no node groups\n")
		} else {
			var table strings.Builder
			tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  NODE GROUP\tINSTANCE TYPES\tSOURCE\tID")
			for _, g := range groups[c.Name] {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", g.Name, instanceTypes(g), source(g.Location), g.ID)
			}
			tw.Flush()
			b.WriteString(table.String())
		}
		fmt.Fprintf(&b, "  %s: %s, %s, %s\n", count(c.Manifests, "manifest file"), count(c.Workloads, "workload"),
			policies(c.SecurityGroupPolicies), count(c.ServiceAccounts, "ServiceAccount"))
		for j, f := range c.ManifestFiles {
			if j == maxListedManifests {
				fmt.Fprintf(&b, "    … and %d more (--format json lists them all)\n", len(c.ManifestFiles)-j)
				break
			}
			fmt.Fprintf(&b, "    %s\n", f)
		}
	}
	if len(r.Environments) > 0 {
		b.WriteString("\nTerraform environments\n")
		var table strings.Builder
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		for _, e := range r.Environments {
			fmt.Fprintf(tw, "  %s\t%s\n", e.Name, strings.ReplaceAll(e.VarFile, ",", ", "))
		}
		tw.Flush()
		b.WriteString(table.String())
	}
	if cfg := ClustersConfig(r); cfg != "" {
		b.WriteString("\nThe same mapping, to write in .eni-lint.yaml and edit (manifests: deploys files to one cluster only):\n")
		for _, l := range strings.Split(strings.TrimSuffix(cfg, "\n"), "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	_, err := io.WriteString(w, TerminalSafe(b.String(), false))
	return err
}

// instanceTypes lists a node group's types, shortened for a pool that admits many.
func instanceTypes(g inventory.NodeGroup) string {
	var names []string
	seen := map[string]bool{}
	for _, t := range g.InstanceTypes {
		if !seen[t.Name] {
			seen[t.Name] = true
			names = append(names, t.Name)
		}
	}
	list := strings.Join(names, ",")
	if len(names) > 4 {
		list = fmt.Sprintf("%s … (%d types)", strings.Join(names[:3], ","), len(names))
	}
	if _, about, ok := strings.Cut(g.Source, " ("); ok && g.PicksTrunkingTypes {
		// A pool is judged on its binding types; say how many it admits.
		list += " (" + about
	}
	return list
}

// ClustersConfig is the clusters: entry of .eni-lint.yaml that describes the clusters found,
// so that a user can make discovery's mapping explicit and adjust it.
func ClustersConfig(r *findings.Report) string {
	if len(r.Clusters) == 0 {
		return ""
	}
	files := map[string][]string{}
	types := map[string][]string{}
	for _, g := range r.NodeGroups {
		if g.Location.Line > 0 && !strings.HasPrefix(g.Location.File, "--") {
			files[g.Cluster] = appendUnique(files[g.Cluster], g.Location.File)
		}
		if g.Source == "flag" || g.Source == "config" {
			types[g.Cluster+"\x00"+g.Name] = nil
			for _, t := range g.InstanceTypes {
				types[g.Cluster+"\x00"+g.Name] = append(types[g.Cluster+"\x00"+g.Name], t.Name)
			}
		}
	}
	var b strings.Builder
	b.WriteString("clusters:\n")
	for _, c := range r.Clusters {
		fmt.Fprintf(&b, "  - name: %s\n", yamlString(c.Name))
		var infra []string
		switch c.Kind {
		case "terraform", "karpenter":
			infra = []string{c.Root}
		case "config":
			infra = c.Infrastructure
		case "flags":
		default:
			infra = files[c.Name]
		}
		if len(infra) > 0 {
			fmt.Fprintf(&b, "    infrastructure: [%s]\n", yamlList(infra))
		}
		if len(c.ManifestPaths) > 0 {
			fmt.Fprintf(&b, "    manifests: [%s]\n", yamlList(c.ManifestPaths))
		}
		if len(c.VarFiles) > 0 {
			fmt.Fprintf(&b, "    varFiles: [%s]\n", yamlList(c.VarFiles))
		}
		var keys []string
		for k := range types {
			if strings.HasPrefix(k, c.Name+"\x00") {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		if len(keys) > 0 {
			b.WriteString("    nodeGroups:\n")
			for _, k := range keys {
				fmt.Fprintf(&b, "      - {name: %s, instanceTypes: [%s]}\n", yamlString(strings.SplitN(k, "\x00", 2)[1]), yamlList(types[k]))
			}
		}
	}
	return b.String()
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func yamlList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = yamlString(s)
	}
	return strings.Join(quoted, ", ")
}

// yamlString quotes a string for YAML (JSON's quoting is valid YAML).
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func policies(n int) string {
	if n == 1 {
		return "1 SecurityGroupPolicy"
	}
	return fmt.Sprintf("%d SecurityGroupPolicies", n)
}
