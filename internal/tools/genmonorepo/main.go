// Command genmonorepo writes a synthetic monorepo of Kubernetes manifests for benchmarks
// (internal/synth). scripts/bench.sh uses it.
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
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "genmonorepo: -out is required")
		os.Exit(2)
	}
	if err := synth.Write(*out, *docs, *perFile, *namespaces, *policyEvery, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "genmonorepo:", err)
		os.Exit(1)
	}
}
