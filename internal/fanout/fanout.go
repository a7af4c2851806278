// Package fanout runs independent pieces of work on every core. The loaders (files, Terraform
// folders, kustomizations), the clusters of a check, the policy input's workloads, the
// partitions and the witness searches all fan out this one way.
package fanout

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in [0, n) on at most workers goroutines at once (0 or less:
// one per core the process may use) and returns once every call has returned. The calls take
// the next i in order as they finish the last; fn writes its result at i, so the results are
// in the order of i whichever order the calls ran in. With one worker, or one piece of work,
// fn runs on the caller's goroutine.
func Each(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
