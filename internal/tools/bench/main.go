// Command bench measures eni-lint on synthetic monorepos (internal/synth) the way issue
// "Monorepo speed" states its targets: for each tree, the wall time and peak RSS of a real
// `eni-lint check` and of the parse-only floor (internal/tools/loadfloor, eni-lint's own
// loaders and nothing else), their ratio, and eni-lint's phase split (--timings). Every run
// is a separate process, so peak RSS is the process's own (getrusage).
//
//	go run ./internal/tools/bench                 # the table
//	go run ./internal/tools/bench -sizes pr,8k    # some rows
//	go run ./internal/tools/bench -check          # CI: complexity ratios between small trees
//
// -check never compares a time with a constant: it compares trees that differ in one
// dimension (4x the documents, 4x the node groups, 4x the workloads of one namespace, the same
// rendered Helm output beside 0 and 400 folders) and fails when the time grows by more than the limits below allow, which
// catches a quadratic rule whatever the machine's speed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/eni-lint/eni-lint/internal/synth"
)

// tree is one synthetic monorepo: documents, Terraform files and node groups.
type tree struct {
	name   string
	docs   int
	tf     int
	groups int
}

var trees = map[string]tree{
	"pr":       {"2k docs + 50 .tf (a pull request), 10 node groups", 2000, 50, 10},
	"8k":       {"8k docs, 10 node groups", 8000, 1, 10},
	"32k":      {"32k docs + 400 .tf, 10 node groups", 32000, 400, 10},
	"32k-40":   {"32k docs + 400 .tf, 40 node groups", 32000, 400, 40},
	"100k":     {"100k docs + 1,000 .tf, 10 node groups", 100000, 1000, 10},
	"100k-125": {"100k docs + 1,000 .tf, 125 node groups", 100000, 1000, 125},
	// The -check trees: small, so that CI pays seconds.
	"c2k":    {"2k docs + 50 .tf, 10 node groups", 2000, 50, 10},
	"c8k":    {"8k docs + 50 .tf, 10 node groups", 8000, 50, 10},
	"c2k-40": {"2k docs + 50 .tf, 40 node groups", 2000, 50, 40},
}

var defaultSizes = []string{"8k", "32k", "32k-40", "100k", "100k-125", "pr"}

// Complexity limits of -check: 4x the documents may cost at most maxDocsRatio times the
// time (linear is 4; the issue asks for 2.2 per doubling, 4.84 for two), 4x the node groups
// at most maxGroupsRatio (the issue asks for 1.1; shared CI machines are noisier than that).
const (
	maxDocsRatio   = 6.0
	maxGroupsRatio = 1.6
	// The same rendered file beside 400 folders may cost at most this much more than beside
	// none: locating its `# Source:` templates must not walk the checkout per document.
	maxFoldersRatio = 1.6
)

// fixableSmall and fixableLarge are the fixable-finding pair of -check: that many CronJobs in
// one file, each with an ENI002 whose fix SARIF carries (the Action always writes SARIF).
const (
	fixableSmall = 100
	fixableLarge = 400
)

// writeFixable writes n SGP-selected CronJobs without a TTL into one file, and their SGP.
func writeFixable(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: db, namespace: apps}\nspec:\n  podSelector: {matchLabels: {db: \"true\"}}\n  securityGroups: {groupIds: [sg-0123456789abcdef0]}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "---\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: job-%d\n  namespace: apps\nspec:\n  schedule: \"%d * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        metadata:\n          labels:\n            db: \"true\"\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: c\n              image: x\n", i, i%60)
	}
	return os.WriteFile(filepath.Join(dir, "jobs.yaml"), []byte(b.String()), 0o644)
}

// selectorSGPs and selectorJobs shape the selector pair of -check: the same policies written
// with matchExpressions (In) and with matchLabels must cost the same within noise, since both
// are looked up by label rather than tested against every workload.
const (
	selectorSGPs = 200
	selectorJobs = 1200
)

// writeSelectors writes selectorSGPs policies, each selecting one team by matchLabels or by a
// matchExpressions In, and selectorJobs Jobs spread over the teams.
func writeSelectors(dir string, expressions bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	for i := 0; i < selectorSGPs; i++ {
		sel := fmt.Sprintf("matchLabels: {team: t%d}", i)
		if expressions {
			sel = fmt.Sprintf("matchExpressions: [{key: team, operator: In, values: [t%d, spare%d]}]", i, i)
		}
		fmt.Fprintf(&b, "---\napiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: s%d, namespace: apps}\nspec:\n  podSelector: {%s}\n  securityGroups: {groupIds: [sg-0123456789abcdef0]}\n", i, sel)
	}
	for j := 0; j < selectorJobs; j++ {
		fmt.Fprintf(&b, "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j%d, namespace: apps}\nspec:\n  ttlSecondsAfterFinished: 60\n  template:\n    metadata: {labels: {team: t%d, id: \"%d\"}}\n    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n", j, j%selectorSGPs, j)
	}
	return os.WriteFile(filepath.Join(dir, "all.yaml"), []byte(b.String()), 0o644)
}

// namespaceSmall and namespaceLarge are the one-namespace pair of -check: that many Jobs of
// one shape, all selected by one SGP, in one namespace. They are one class of the model
// (docs/architecture.md): 4x of them may cost no more than linear growth allows.
const (
	namespaceSmall = 1000
	namespaceLarge = 4000
)

// writeNamespace writes n SGP-selected Jobs of one shape into one namespace, and their SGP.
func writeNamespace(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: batch, namespace: batch}\nspec:\n  podSelector: {matchLabels: {app: batch}}\n  securityGroups: {groupIds: [sg-0123456789abcdef0]}\n")
	for j := 0; j < n; j++ {
		fmt.Fprintf(&b, "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j%d, namespace: batch}\nspec:\n  ttlSecondsAfterFinished: 60\n  template:\n    metadata: {labels: {app: batch}}\n    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n", j)
	}
	return os.WriteFile(filepath.Join(dir, "all.yaml"), []byte(b.String()), 0o644)
}

// renderedDocs and renderedFolders shape the rendered-Helm pair of -check.
const (
	renderedDocs    = 2000
	renderedFolders = 400
)

// writeRendered writes committed `helm template` output, renderedDocs ServiceAccounts each
// with its own `# Source:` comment (the chart is not in the tree), and folders empty folders
// beside it.
func writeRendered(dir string, folders int) error {
	var b strings.Builder
	for i := 0; i < renderedDocs; i++ {
		fmt.Fprintf(&b, "---\n# Source: app/templates/sa-%d.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa-%d\n  namespace: apps\n", i, i)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := 0; i < folders; i++ {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprintf("team-%03d", i)), 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "rendered.yaml"), []byte(b.String()), 0o644)
}

type measure struct {
	wall   time.Duration
	rssKB  int64
	stderr string
	exit   int
}

func main() {
	sizes := flag.String("sizes", strings.Join(defaultSizes, ","), "trees to measure: "+strings.Join(sortedNames(), ", "))
	check := flag.Bool("check", false, "measure the small trees and fail on a complexity regression")
	runs := flag.Int("runs", 1, "runs of each measurement; the fastest counts")
	flag.Parse()
	work, err := os.MkdirTemp("", "eni-lint-bench-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "eni-lint")
	floor := filepath.Join(work, "loadfloor")
	for out, pkg := range map[string]string{bin: "./cmd/eni-lint", floor: "./internal/tools/loadfloor"} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			fail(fmt.Errorf("go build %s: %v\n%s", pkg, err, b))
		}
	}
	names := strings.Split(*sizes, ",")
	if *check {
		names = []string{"c2k", "c8k", "c2k-40"}
		if *runs < 3 {
			*runs = 3
		}
	}
	fmt.Printf("%d cores, %s/%s, %s; fastest of %d runs\n\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), *runs)
	fmt.Println("| tree | parse-only floor | eni-lint | eni-lint / floor | peak RSS | load / evaluate / report |")
	fmt.Println("| --- | --- | --- | --- | --- | --- |")
	// Every tree is written first and the rounds interleave them (each round runs the floor and
	// eni-lint on every tree): a ratio between two trees then compares runs minutes apart at
	// most, not a tree measured while the machine was quiet against one measured while it was
	// busy (CI read 1.66x for 4x the node groups that way, where paired runs read 1.1-1.3x).
	dirs := writeTrees(work, names)
	floors, results := measureTrees(bin, floor, names, dirs, *runs)
	for _, name := range names {
		t, fl, m := trees[strings.TrimSpace(name)], floors[name], results[name]
		fmt.Printf("| %s | %v | %v | %.1fx | %d MB | %s |\n", t.name, fl.wall.Round(10*time.Millisecond), m.wall.Round(10*time.Millisecond),
			m.wall.Seconds()/fl.wall.Seconds(), m.rssKB/1024, phases(m.stderr))
		os.RemoveAll(dirs[name])
	}
	if *check {
		checkComplexity(work, bin, *runs, results)
	}
}

// checkComplexity fails the run when a tree that is 4x larger in one dimension (documents,
// node groups, fixable findings, selectors, one namespace's Jobs) or rendered output beside
// many folders costs more than the limits allow.
func checkComplexity(work, bin string, runs int, results map[string]measure) {
	docs := results["c8k"].wall.Seconds() / results["c2k"].wall.Seconds()
	groups := results["c2k-40"].wall.Seconds() / results["c2k"].wall.Seconds()
	pair := func(name string, write func(i int, dir string) error, args ...string) [2]measure {
		return measurePair(work, bin, runs, name, write, args...)
	}
	rendered := pair("rendered", func(i int, dir string) error { return writeRendered(dir, []int{0, renderedFolders}[i]) },
		"check", "rendered.yaml", "--format", "json")
	beside := rendered[1].wall.Seconds() / rendered[0].wall.Seconds()
	fixable := pair("fixable", func(i int, dir string) error { return writeFixable(dir, []int{fixableSmall, fixableLarge}[i]) },
		"check", "{dir}", "--format", "sarif", "--node-group", "default=m5.24xlarge")
	fixes := fixable[1].wall.Seconds() / fixable[0].wall.Seconds()
	selection := pair("selectors", func(i int, dir string) error { return writeSelectors(dir, i == 1) },
		"check", "{dir}", "--format", "json", "--node-group", "default=m5.24xlarge")
	expr := selection[1].wall.Seconds() / selection[0].wall.Seconds()
	namespace := pair("namespace", func(i int, dir string) error { return writeNamespace(dir, []int{namespaceSmall, namespaceLarge}[i]) },
		"check", "{dir}", "--format", "json", "--node-group", "default=m5.large")
	oneNamespace := namespace[1].wall.Seconds() / namespace[0].wall.Seconds()
	fmt.Printf("\n4x the documents: %.2fx the time (limit %.1fx); 4x the node groups: %.2fx (limit %.1fx)\n", docs, maxDocsRatio, groups, maxGroupsRatio)
	fmt.Printf("%d rendered documents beside %d folders: %v, beside none: %v, %.2fx (limit %.1fx)\n", renderedDocs, renderedFolders,
		rendered[1].wall.Round(time.Millisecond), rendered[0].wall.Round(time.Millisecond), beside, maxFoldersRatio)
	fmt.Printf("4x the fixable findings (%d to %d CronJobs, SARIF with their fixes): %.2fx the time (limit %.1fx)\n", fixableSmall, fixableLarge, fixes, maxDocsRatio)
	if docs > maxDocsRatio || groups > maxGroupsRatio {
		fmt.Fprintln(os.Stderr, "bench: complexity regression: a rule's cost grows faster than the inventory (profile it with --profile-policies)")
		os.Exit(1)
	}
	fmt.Printf("%d SGPs x %d Jobs selected by matchExpressions In, against matchLabels: %.2fx the time (limit %.1fx)\n", selectorSGPs, selectorJobs, expr, maxFoldersRatio)
	if expr > maxFoldersRatio {
		fmt.Fprintln(os.Stderr, "bench: complexity regression: matchExpressions selectors are tested against every workload instead of looked up")
		os.Exit(1)
	}
	fmt.Printf("4x the SGP-selected Jobs of one namespace (%d to %d, one class): %.2fx the time (limit %.1fx)\n", namespaceSmall, namespaceLarge, oneNamespace, maxDocsRatio)
	if oneNamespace > maxDocsRatio {
		fmt.Fprintln(os.Stderr, "bench: complexity regression: the workloads of one namespace cost more than linear (a pass per workload over its namespace?)")
		os.Exit(1)
	}
	if fixes > maxDocsRatio {
		fmt.Fprintln(os.Stderr, "bench: complexity regression: SARIF's fixes cost more than linear in the fixable findings")
		os.Exit(1)
	}
	if beside > maxFoldersRatio {
		fmt.Fprintln(os.Stderr, "bench: complexity regression: locating rendered Helm output costs more with the folders beside it")
		os.Exit(1)
	}
}

// measurePair measures two trees that differ in one dimension: write makes tree i in dir, and
// the command runs in dir on args (a "{dir}" argument is the folder itself). The two trees
// alternate, as the trees of main do; the fastest run of each counts.
func measurePair(work, bin string, runs int, name string, write func(i int, dir string) error, args ...string) [2]measure {
	var out [2]measure
	var cmds [2][]string
	var dirs [2]string
	for i := range out {
		dirs[i] = filepath.Join(work, fmt.Sprintf("%s-%d", name, i))
		if err := write(i, dirs[i]); err != nil {
			fail(err)
		}
		for _, a := range args {
			cmds[i] = append(cmds[i], strings.ReplaceAll(a, "{dir}", dirs[i]))
		}
		cmds[i] = append(cmds[i], "--max-memory", "0", "--timeout", "0")
	}
	for r := 0; r < runs; r++ {
		for i := range out {
			m := runIn(dirs[i], bin, cmds[i]...)
			if m.exit == 2 {
				fail(fmt.Errorf("%s, tree %d: eni-lint failed:\n%s", name, i, m.stderr))
			}
			if r == 0 || m.wall < out[i].wall {
				out[i] = m
			}
		}
	}
	return out
}

// writeTrees writes every named tree under work before any is measured.
func writeTrees(work string, names []string) map[string]string {
	dirs := map[string]string{}
	for _, name := range names {
		t, ok := trees[strings.TrimSpace(name)]
		if !ok {
			fail(fmt.Errorf("unknown tree %q: want one of %s", name, strings.Join(sortedNames(), ", ")))
		}
		dir := filepath.Join(work, name)
		if err := synth.Write(dir, t.docs, 10, t.docs/200+1, 10, 1); err != nil {
			fail(err)
		}
		if err := synth.WriteTerraform(dir, t.tf, t.groups); err != nil {
			fail(err)
		}
		dirs[name] = dir
	}
	return dirs
}

// measureTrees runs the floor and eni-lint on every tree, round after round, and keeps the
// fastest run of each.
func measureTrees(bin, floor string, names []string, dirs map[string]string, runs int) (floors, results map[string]measure) {
	floors, results = map[string]measure{}, map[string]measure{}
	for i := 0; i < runs; i++ {
		for _, name := range names {
			fl := run(floor, dirs[name])
			m := run(bin, "check", dirs[name], "--format", "json", "--timings", "--max-memory", "0", "--timeout", "0")
			if m.exit == 2 {
				fail(fmt.Errorf("%s: eni-lint failed:\n%s", name, m.stderr))
			}
			if i == 0 || fl.wall < floors[name].wall {
				floors[name] = fl
			}
			if i == 0 || m.wall < results[name].wall {
				results[name] = m
			}
		}
	}
	return floors, results
}

func run(name string, args ...string) measure { return runIn("", name, args...) }

func runIn(dir, name string, args ...string) measure {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	start := time.Now()
	err := cmd.Run()
	m := measure{wall: time.Since(start), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		m.exit = ee.ExitCode()
	} else if err != nil {
		fail(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.rssKB = int64(ru.Maxrss) // kilobytes on Linux
	}
	return m
}

var timing = regexp.MustCompile(`eni-lint: (load|evaluate|report)\s+(\S+)`)

// phases is eni-lint's --timings output as "load / evaluate / report".
func phases(stderr string) string {
	got := map[string]string{}
	for _, m := range timing.FindAllStringSubmatch(stderr, -1) {
		got[m[1]] = m[2]
	}
	return fmt.Sprintf("%s / %s / %s", got["load"], got["evaluate"], got["report"])
}

func sortedNames() []string {
	var out []string
	for n := range trees {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(2)
}
