// Command gensnapshot writes a synthetic kubectl snapshot for `eni-lint audit` benchmarks
// (scripts/bench-audit.sh).
//
//	go run ./internal/tools/gensnapshot -nodes 10000 -pods 500000 -out snapshot.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/eni-lint/eni-lint/internal/synth"
)

func main() {
	nodes := flag.Int("nodes", 10000, "nodes")
	pods := flag.Int("pods", 500000, "pods")
	sgpEvery := flag.Int("sgp-every", 10, "one pod in N uses Security groups for Pods")
	seed := flag.Int64("seed", 1, "random seed")
	out := flag.String("out", "", "output file (default standard output)")
	flag.Parse()
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := synth.WriteSnapshot(w, *nodes, *pods, *sgpEvery, *seed); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
