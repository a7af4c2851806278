// Command genmonorepo writes a synthetic monorepo of Kubernetes manifests for benchmarks
// (internal/synth), with -tf and -node-groups a Terraform root module too. scripts/bench.sh
// generates the same trees in-process.
//
//	go run ./internal/tools/genmonorepo -out /tmp/mono -docs 100000
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/eni-lint/eni-lint/internal/synth"
)

func main() {
	out := flag.String("out", "", "folder to write (created)")
	docs := flag.Int("docs", 100000, "number of YAML documents")
	perFile := flag.Int("per-file", 10, "documents per file")
	namespaces := flag.Int("namespaces", 500, "number of namespaces")
	policyEvery := flag.Int("policy-every", 10, "one SecurityGroupPolicy every N documents (a multiple of 10)")
	seed := flag.Int64("seed", 1, "random seed")
	tfFiles := flag.Int("tf", 0, "Terraform files of one root module under infra/ (0: none)")
	nodeGroups := flag.Int("node-groups", 0, "aws_eks_node_group resources among the Terraform files")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genmonorepo: -out is required")
		os.Exit(2)
	}
	if err := synth.Write(*out, *docs, *perFile, *namespaces, *policyEvery, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genmonorepo:", err)
		os.Exit(1)
	}
	if *nodeGroups > 0 && *tfFiles == 0 {
		*tfFiles = 1
	}
	if err := synth.WriteTerraform(*out, *tfFiles, *nodeGroups); err != nil {
		fmt.Fprintln(os.Stderr, "genmonorepo:", err)
		os.Exit(1)
	}
}
