// Command profrun runs one check under the CPU profiler (a tool for finding where a check
// spends its time; not part of the product):
//
//	go run ./internal/tools/profrun DIR OUT.prof [flags for check...]
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/eni-lint/eni-lint/pkg/cli"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: profrun DIR OUT.prof [check flags...]")
		os.Exit(2)
	}
	f, err := os.Create(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	args := append([]string{"check", os.Args[1], "--format", "json", "--timings"}, os.Args[3:]...)
	code := cli.Run(context.Background(), args, cli.DefaultIO())
	pprof.StopCPUProfile()
	fmt.Fprintln(os.Stderr, "exit", code)
}
