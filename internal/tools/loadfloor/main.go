// Command loadfloor is the parse-only floor of scripts/bench.sh: it reads the same paths with
// eni-lint's own loaders (walk, parse, Terraform evaluation, one fragment per file) and stops
// there, so that the ratio eni-lint / floor is what the model costs on top of reading.
//
//	go run ./internal/tools/loadfloor PATH...
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/eni-lint/eni-lint/internal/gcpace"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "loadfloor: PATH... required")
		os.Exit(2)
	}
	// Paced as eni-lint is, so that the ratio compares the model with reading, not two
	// collectors.
	gcpace.Start()
	start := time.Now()
	fsys, err := confine.New("", 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadfloor:", err)
		os.Exit(2)
	}
	defer fsys.Close()
	frags, stats := loaders.Load(context.Background(), os.Args[1:], loaders.Options{DefaultNamespace: "default", FS: fsys})
	inv := &inventory.Inventory{}
	inventory.Merge(inv, frags)
	fmt.Printf("loadfloor: %d files, %d documents, %d workloads in %v\n", stats.Files, stats.Documents, len(inv.Workloads), time.Since(start).Round(time.Millisecond))
}
