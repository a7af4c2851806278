package cli

import (
	"context"
	"fmt"

	"github.com/eni-lint/eni-lint/pkg/analysis"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/spf13/cobra"
)

func newClusters(stdio IO) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "clusters [PATH...]",
		Short: "Show the clusters found: node groups, manifests, environments",
		Long: `Clusters reads the same inputs as check, with the same flags and config, and prints the
clusters it would judge each on its own, without evaluating any rule: each cluster's node
groups (with their ids and where they are declared), the manifests deployed to it, and the
Terraform environments. It ends with the clusters: entry of .eni-lint.yaml that makes this
mapping explicit, to copy and edit.

Discovery without config: each Terraform root module in each environment (a var file of
--each-var-file belongs to the root that holds it), each eksctl ClusterConfig, each
CloudFormation template with node groups, and the --node-group flags with the config's
nodeGroups ("default"). Karpenter NodePool manifests join the only cluster, else form a cluster
per folder. Manifests go to every cluster unless clusters: in .eni-lint.yaml maps them.

Exit codes: 0 the inputs were read; 2 some input could not be read, or bad flags or config.`,
		Example: `  eni-lint clusters .
  eni-lint clusters . --each-var-file 'infra/*/env/*.tfvars' --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.clustersOnly = true
			return runCheck(cmd, stdio, f, args)
		},
	}
	fl := cmd.Flags()
	inputFlags(fl, &f)
	fl.StringVar(&f.format, "format", "text", "format of standard output: text or json")
	return cmd
}

// runClusters is the end of `eni-lint clusters`: discovery, and the clusters it found.
func runClusters(ctx context.Context, stdio IO, f checkFlags, opts analysis.Options) error {
	if f.format != "text" && f.format != "json" {
		return usageError{fmt.Errorf("--format %q: want text or json", f.format)}
	}
	opts.Discover, opts.ListManifests = true, true
	rep, err := analysis.Check(ctx, nil, opts)
	if err != nil {
		return err
	}
	if f.format == "json" {
		err = report.ClustersJSON(stdio.Out, rep)
	} else {
		err = report.ClustersText(stdio.Out, rep)
	}
	if err != nil {
		return err
	}
	if len(rep.Errors) > 0 {
		return exitError{findings.ExitFailed}
	}
	return nil
}
