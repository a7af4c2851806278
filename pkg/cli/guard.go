package cli

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eni-lint/eni-lint/pkg/report"
)

// DefaultTimeout ends any run that takes longer (trivy's default); DefaultMaxMemory ends one
// whose Go heap grows past it. Both end with exit 2 and say where the run was.
const (
	DefaultTimeout   = 5 * time.Minute
	DefaultMaxMemory = 4 << 30
)

// maxStack bounds the goroutine stacks of a run. Go ends a process whose goroutine's stack
// passes 1 GB with "fatal error: stack overflow", which no recover() catches: no report, no
// message of ours. Input that recurses without a bound (a Helm chart whose tpl renders a tpl of
// itself: Helm bounds include's depth, not tpl's) grows one stack toward that limit; the guard
// stops the run at a quarter of it and says where it was. Real runs use a few megabytes.
const maxStack = 256 << 20

// timeoutGrace is how long the guard waits after --timeout for the run to stop by itself: the
// run's context has the same deadline, and the steps that honour it (dispatching files,
// evaluating the policies) end with a report of what was read. Only a step that does not
// (a template render, a Terraform evaluation) is ended by the guard.
const timeoutGrace = 10 * time.Second

// guard ends a run that overruns --timeout or --max-memory. Go cannot stop a template
// render or a Terraform evaluation from outside, so the guard is the last bound on everything
// a pull request can make eni-lint do: it writes what the run was doing and reading, and
// exits with 2.
type guard struct {
	mu       sync.Mutex
	step     string
	reading  map[int]string // inputs being read, by start order
	next     int
	stop     chan struct{}
	done     sync.WaitGroup
	exit     func(int)
	stderr   io.Writer
	timeout  time.Duration
	grace    time.Duration
	maxBytes uint64
	interval time.Duration
}

func startGuard(timeout time.Duration, maxBytes uint64, stderr io.Writer, exit func(int)) *guard {
	return startGuardWithGrace(timeout, timeoutGrace, maxBytes, stderr, exit)
}

func startGuardWithGrace(timeout, grace time.Duration, maxBytes uint64, stderr io.Writer, exit func(int)) *guard {
	g := &guard{step: "starting", stop: make(chan struct{}), exit: exit, stderr: stderr, timeout: timeout, grace: grace, maxBytes: maxBytes, interval: 200 * time.Millisecond}
	g.done.Add(1)
	go g.watch()
	return g
}

func (g *guard) setStep(s string) {
	g.mu.Lock()
	g.step = s
	g.mu.Unlock()
}

// startReading records an input being read; the function it returns records its end.
func (g *guard) startReading(input string) func() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reading == nil {
		g.reading = map[int]string{}
	}
	id := g.next
	g.next++
	g.reading[id] = input
	return func() {
		g.mu.Lock()
		delete(g.reading, id)
		g.mu.Unlock()
	}
}

// current says what the run is doing: its step, and the inputs it is reading, oldest first.
func (g *guard) current() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.reading) == 0 {
		return g.step
	}
	ids := make([]int, 0, len(g.reading))
	for id := range g.reading {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var names []string
	for _, id := range ids {
		names = append(names, g.reading[id])
	}
	return g.step + " (still reading " + strings.Join(names, ", ") + ")"
}

// Stop ends the watch; the run finished in time.
func (g *guard) Stop() {
	close(g.stop)
	g.done.Wait()
}

func (g *guard) watch() {
	defer g.done.Done()
	deadline := time.Now().Add(g.timeout + g.grace)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	tick := time.NewTicker(g.interval)
	defer tick.Stop()
	for {
		select {
		case <-g.stop:
			return
		case now := <-tick.C:
			if g.timeout > 0 && now.After(deadline) {
				fmt.Fprintf(g.stderr, "eni-lint: the run took longer than --timeout %v while %s, and did not stop within %v: stopped with no verdict and no report (exit 2). Raise --timeout, or exclude what is slow to read (exclude: in .eni-lint.yaml).\n", g.timeout, report.TerminalSafe(g.current(), false), g.grace)
				g.exit(2)
				return
			}
			metrics.Read(sample)
			if stacks := sample[1].Value.Uint64(); stacks > maxStack {
				fmt.Fprintf(g.stderr, "eni-lint: the run's stack grew past %s while %s: an input recurses without a bound (a Helm tpl that renders itself, say): stopped with no verdict (exit 2) before Go's stack limit would end it with no message.\n", formatBytes(maxStack), report.TerminalSafe(g.current(), false))
				g.exit(2)
				return
			}
			if g.maxBytes > 0 {
				if used := sample[0].Value.Uint64(); used > g.maxBytes {
					fmt.Fprintf(g.stderr, "eni-lint: the run used more than --max-memory %s while %s: stopped with no verdict (exit 2). An input expands far beyond its size, or the tree needs a higher --max-memory.\n", formatBytes(g.maxBytes), report.TerminalSafe(g.current(), false))
					g.exit(2)
					return
				}
			}
		}
	}
}

var sizeRE = regexp.MustCompile(`^(\d+)\s*([KMGT]?I?B?)$`)

// parseBytes reads a size such as 10MB, 10MiB or 1048576 (K, M, G, T are powers of 1024).
func parseBytes(s string) (int64, error) {
	m := sizeRE.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(s)))
	if m == nil {
		return 0, fmt.Errorf("%q is not a size such as 10MiB", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size such as 10MiB", s)
	}
	shift := map[byte]uint{'K': 10, 'M': 20, 'G': 30, 'T': 40}
	if m[2] != "" && m[2] != "B" {
		n <<= shift[m[2][0]]
	}
	if n <= 0 {
		return 0, fmt.Errorf("%q must be more than 0", s)
	}
	return n, nil
}

func formatBytes(n uint64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d%s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%dB", n)
}

// revision is what --changed-since accepts: a git revision, never an option (a value that
// starts with '-' would make git write files).
var revision = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./@{}~^:-]*$`)

func validRevision(ref string) error {
	if !revision.MatchString(ref) {
		return fmt.Errorf("--changed-since %q is not a git revision (a branch, tag, commit or origin/main)", ref)
	}
	return nil
}

// refusedTransport is what http.DefaultTransport becomes in the eni-lint binary: no input may
// make eni-lint open a connection (kustomize, for one, downloads http:// resources with the
// default client). The GitHub client has a transport of its own.
type refusedTransport struct{}

func (refusedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("eni-lint makes no network requests from input (%s %s refused)", r.Method, r.URL.Redacted())
}

// DenyDefaultNetwork replaces the process's default HTTP transport with one that refuses
// every request. main calls it first.
func DenyDefaultNetwork() {
	http.DefaultTransport = refusedTransport{}
	http.DefaultClient.Transport = refusedTransport{}
}
