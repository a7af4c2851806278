package witness

import (
	"fmt"
	"sync"

	"github.com/eni-lint/eni-lint/pkg/simulate"
)

// memoSize is how many searches a process remembers. A trajectory is at most a few hundred
// KB (400 runs of one CronJob), so the memo stays within a few tens of MB.
const memoSize = 64

// searchMemo remembers trajectories by everything a search depends on. A search is
// deterministic (seeded by its workloads), so a remembered trajectory is the one the search
// would find again. The same search is asked for by every cluster that holds the same
// manifests (a shared chart exceeding the same instance type in each cluster, evaluated at
// once) and by `fix`, which checks again after each change; each asks once and waits for a
// search already under way. The run's budget is charged as before: the memo saves time, it
// changes no report.
type searchMemo struct {
	mu    sync.Mutex
	byKey map[string]*memoEntry
	order []string
}

type memoEntry struct {
	done   chan struct{}
	result simulate.Trajectory
}

var memo = &searchMemo{byKey: map[string]*memoEntry{}}

// search returns the trajectory simulate.Search finds for x under m.
func (c *searchMemo) search(x *search, m simulate.Model) simulate.Trajectory {
	key := fmt.Sprintf("%v|%d|%d|%d|%d|%d|%v", m, x.horizon, x.plays, x.target, x.limit, x.seed, x.played)
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		c.mu.Unlock()
		<-e.done
		return e.result
	}
	e := &memoEntry{done: make(chan struct{})}
	c.byKey[key] = e
	c.order = append(c.order, key)
	if len(c.order) > memoSize {
		// The oldest is forgotten; a caller still waiting on it holds its entry.
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.mu.Unlock()
	defer close(e.done)
	e.result = simulate.Search(x.played, m, x.horizon, x.plays, x.target, x.limit, x.seed)
	return e.result
}
