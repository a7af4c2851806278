// Command profrun runs one check under the CPU profiler (a tool for finding where a check
// spends its time and memory; not part of the product):
//
//	go run ./internal/tools/profrun DIR OUT.prof [flags for check...]
//
// PROFRUN_RUNS=N runs the check N times in the process, for a profile of a small tree with
// enough samples (its output N times over). With PROFRUN_HEAP=FILE set it also writes a heap profile each time the heap that survives a
// collection is the largest so far, so FILE ends as the profile of the run's highest point.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"time"

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
	stop := make(chan struct{})
	done := make(chan struct{})
	if heap := os.Getenv("PROFRUN_HEAP"); heap != "" {
		go watchHeap(heap, stop, done)
	} else {
		close(done)
	}
	args := append([]string{"check", os.Args[1], "--format", "json", "--timings"}, os.Args[3:]...)
	runs, _ := strconv.Atoi(os.Getenv("PROFRUN_RUNS"))
	code := 0
	for range max(1, runs) {
		code = cli.Run(context.Background(), args, cli.DefaultIO())
	}
	close(stop)
	<-done
	pprof.StopCPUProfile()
	fmt.Fprintln(os.Stderr, "exit", code)
}

// watchHeap collects every 200 ms and, when the heap that survives is the largest so far,
// writes its profile: the collections slow the run, but the profile is of its highest point.
func watchHeap(path string, stop, done chan struct{}) {
	defer close(done)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak uint64
	for {
		select {
		case <-stop:
			fmt.Fprintf(os.Stderr, "peak live heap %d MB\n", peak>>20)
			return
		case <-time.After(200 * time.Millisecond):
		}
		// The profile is published a collection late: two make it this moment's.
		runtime.GC()
		runtime.GC()
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak {
			peak = v
			if out, err := os.Create(path); err == nil {
				_ = pprof.WriteHeapProfile(out)
				out.Close()
			}
		}
	}
}
