// Package audit turns a cluster snapshot into what the nodes' branch ENIs are doing now: per
// node, the ENIs held by pods the scheduler still counts and by finished pods it no longer
// counts, against the node's capacity; per owner (CronJob, Job), the finished pods that hold
// ENIs and the change that would release them. It reads a snapshot.Snapshot and, for the
// model check, a findings.Report of the same workloads; it never reads a cluster.
package audit

import (
	"fmt"
	"sort"
	"time"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/snapshot"
)

// SchemaVersion names the JSON form of Report (docs/audit-report.md).
const SchemaVersion = "eni-lint.audit/v1"

// Verdicts of a node, worst first.
const (
	Waiting   = "waiting"   // a pod already waits for a branch ENI
	Exhausted = "exhausted" // every ENI is held while the scheduler sees free slots
	AtRisk    = "at risk"   // one more pod that finishes there exhausts it
	OK        = "ok"
	Unknown   = "unknown" // the node's branch capacity is unknown
)

// Settings are the audit's choices.
type Settings struct {
	// ENIRelease is onDelete (a finished pod holds its ENI until deleted) or onCompletion (until
	// the cool-down after it ends).
	ENIRelease inventory.Release
	Cooldown   time.Duration
	// At is when the snapshot was taken; zero takes the newest time stamp in it (a lower
	// bound, which under onCompletion counts more pods as holding: the worst case).
	At    time.Time
	Table *limits.Table
	// FailOn is the mildest verdict that makes the exit code 1: waiting, exhausted, at risk,
	// or "none".
	FailOn string
}

// Report is an audit's result.
type Report struct {
	SchemaVersion string        `json:"schemaVersion"`
	Version       string        `json:"version"`
	Model         Model         `json:"model"`
	Nodes         []NodeReport  `json:"nodes"`
	Owners        []OwnerReport `json:"owners"`
	// Unscheduled are SGP pods bound to a node the snapshot does not list (add nodes to the
	// kubectl command); pods not bound yet are left out.
	Unscheduled []PodRef              `json:"unscheduled"`
	Summary     Summary               `json:"summary"`
	Items       map[string]int        `json:"items"`
	Errors      []inventory.LoadError `json:"errors"`
	ModelCheck  *ModelCheck           `json:"modelCheck,omitempty"`
	FailOn      string                `json:"failOn"`
}

// Model says how the audit counted.
type Model struct {
	ENIRelease      inventory.Release `json:"eniRelease"`
	CooldownSeconds int               `json:"cooldownSeconds"`
	At              time.Time         `json:"at"`
	// AtSource is "--at" or "newest time stamp in the snapshot".
	AtSource string `json:"atSource"`
}

// NodeReport is one node, the scheduler's view beside the ENIs' view.
type NodeReport struct {
	Name           string `json:"name"`
	InstanceType   string `json:"instanceType"`
	Capacity       int    `json:"capacity"`
	CapacityKnown  bool   `json:"capacityKnown"`
	CapacitySource string `json:"capacitySource"` // node status, instance table, unknown
	// Running: non-terminal SGP pods on the node, what the scheduler counts.
	Running int `json:"running"`
	// HeldByRunning: ENIs the running pods hold; Waiting: running pods that have none yet.
	HeldByRunning int `json:"heldByRunning"`
	Waiting       int `json:"waiting"`
	// HeldByFinished: ENIs finished pods still hold, which the scheduler does not count.
	HeldByFinished int `json:"heldByFinished"`
	// Released: finished pods whose ENI the release model says is free again.
	Released int `json:"released"`
	// Held = HeldByRunning + HeldByFinished.
	Held    int      `json:"held"`
	Verdict string   `json:"verdict"`
	Holders []PodRef `json:"holders"` // the finished pods that hold ENIs
	Stuck   []PodRef `json:"stuck"`   // pods waiting for an ENI, with their event when known
}

// PodRef names a pod in a report.
type PodRef struct {
	Namespace string             `json:"namespace"`
	Name      string             `json:"name"`
	Phase     string             `json:"phase"`
	Owner     string             `json:"owner,omitempty"`
	Event     string             `json:"event,omitempty"`
	At        inventory.Position `json:"at"`
}

// OwnerReport is a workload whose finished pods hold ENIs now.
type OwnerReport struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Holding is how many finished SGP pods of it hold ENIs, on Nodes.
	Holding int      `json:"holding"`
	Nodes   []string `json:"nodes"`
	TTL     *int     `json:"ttlSecondsAfterFinished"`
	// History limits, for a CronJob.
	SuccessfulHistoryLimit *int   `json:"successfulJobsHistoryLimit,omitempty"`
	FailedHistoryLimit     *int   `json:"failedJobsHistoryLimit,omitempty"`
	Rule                   string `json:"rule"`
	Fix                    string `json:"fix"`
}

// Summary counts nodes per verdict.
type Summary struct {
	Nodes     int `json:"nodes"`
	Waiting   int `json:"waiting"`
	Exhausted int `json:"exhausted"`
	AtRisk    int `json:"atRisk"`
	OK        int `json:"ok"`
	Unknown   int `json:"unknown"`
}

// Kubernetes defaults of the CronJob history limits.
const (
	defaultSuccessfulHistory = 3
	defaultFailedHistory     = 1
)

// Audit computes the report. version is eni-lint's.
func Audit(snap *snapshot.Snapshot, s Settings, version string) *Report {
	at, source := s.At, "--at"
	if at.IsZero() {
		at, source = snap.Latest, "newest time stamp in the snapshot"
	}
	r := &Report{
		SchemaVersion: SchemaVersion, Version: version,
		Model: Model{ENIRelease: s.ENIRelease, CooldownSeconds: int(s.Cooldown / time.Second), At: at, AtSource: source},
		Nodes: []NodeReport{}, Owners: []OwnerReport{}, Unscheduled: []PodRef{},
		Items: snap.Items, Errors: append([]inventory.LoadError{}, snap.Errors...), FailOn: s.FailOn,
	}
	for _, n := range snap.Nodes {
		r.Nodes = append(r.Nodes, nodeReport(n, s.Table))
	}
	byNode := map[string]*NodeReport{}
	for i := range r.Nodes {
		byNode[r.Nodes[i].Name] = &r.Nodes[i]
	}
	h := holders{owners: map[ownerKey]*OwnerReport{}, nodes: map[ownerKey]map[string]bool{}}
	for _, p := range snap.Pods {
		h.count(snap, r, byNode, p, s, at)
	}
	r.judgeNodes()
	for k, o := range h.owners {
		for n := range h.nodes[k] {
			o.Nodes = append(o.Nodes, n)
		}
		sort.Strings(o.Nodes)
		advise(snap, o, s.ENIRelease)
		r.Owners = append(r.Owners, *o)
	}
	sort.Slice(r.Owners, func(i, j int) bool {
		a, b := r.Owners[i], r.Owners[j]
		if a.Holding != b.Holding {
			return a.Holding > b.Holding
		}
		return a.Kind+a.Namespace+a.Name < b.Kind+b.Namespace+b.Name
	})
	sort.SliceStable(r.Nodes, func(i, j int) bool {
		if a, b := rank(r.Nodes[i].Verdict), rank(r.Nodes[j].Verdict); a != b {
			return a < b
		}
		return r.Nodes[i].Name < r.Nodes[j].Name
	})
	return r
}

// nodeReport is a node's report before its pods: its branch-ENI capacity, from its status or
// the instance table.
func nodeReport(n snapshot.Node, table *limits.Table) NodeReport {
	nr := NodeReport{Name: n.Name, InstanceType: n.InstanceType, CapacitySource: "unknown", Holders: []PodRef{}, Stuck: []PodRef{}}
	switch {
	case n.PodENI != nil:
		nr.Capacity, nr.CapacityKnown, nr.CapacitySource = *n.PodENI, true, "node status"
	case table != nil:
		if it, ok := table.Lookup(n.InstanceType); ok && it.Trunking {
			nr.Capacity, nr.CapacityKnown, nr.CapacitySource = it.BranchInterfaces, true, "instance table"
		} else if ok {
			nr.Capacity, nr.CapacityKnown, nr.CapacitySource = 0, true, "instance table (no trunking)"
		}
	}
	return nr
}

type ownerKey struct{ kind, ns, name string }

// holders are the workloads whose finished pods hold ENIs, and the nodes they hold them on.
type holders struct {
	owners map[ownerKey]*OwnerReport
	nodes  map[ownerKey]map[string]bool
}

// count puts one pod on its node: running, waiting for an ENI, finished and released, or
// finished and holding one (then on its owner too). A pod on a node the snapshot does not have
// is listed as unscheduled when it may hold one.
func (h holders) count(snap *snapshot.Snapshot, r *Report, byNode map[string]*NodeReport, p snapshot.Pod, s Settings, at time.Time) {
	kind, ns, name := owner(snap, p)
	ref := PodRef{Namespace: p.Namespace, Name: p.Name, Phase: p.Phase, At: p.At}
	if kind != "" {
		ref.Owner = kind + " " + ns + "/" + name
	}
	if p.NodeName == "" {
		return // not placed yet: no node counts it, no ENI is held
	}
	node := byNode[p.NodeName]
	if node == nil {
		if !p.Terminated() || p.ENIs > 0 {
			r.Unscheduled = append(r.Unscheduled, ref)
		}
		return
	}
	state, held := stateOf(p, s, at)
	switch state {
	case runningWithENI:
		node.Running++
		node.HeldByRunning += held
		return
	case waitingForENI:
		node.Running++
		node.Waiting++
		if p.ContainerCreating {
			ref.Phase += ", ContainerCreating"
		}
		if evs := snap.Events[snapshot.Key(p.Namespace, p.Name)]; len(evs) > 0 {
			ref.Event = evs[len(evs)-1].Reason + ": " + evs[len(evs)-1].Message
		}
		node.Stuck = append(node.Stuck, ref)
		return
	case finishedReleased:
		node.Released++
		return
	case finishedWithoutENI:
		return
	}
	node.HeldByFinished += held
	node.Holders = append(node.Holders, ref)
	if kind == "" {
		kind, ns, name = "Pod", p.Namespace, p.Name
	}
	k := ownerKey{kind, ns, name}
	o := h.owners[k]
	if o == nil {
		o = &OwnerReport{Kind: kind, Namespace: ns, Name: name, Nodes: []string{}}
		h.owners[k], h.nodes[k] = o, map[string]bool{}
	}
	o.Holding += p.ENIs
	h.nodes[k][p.NodeName] = true
}

// judgeNodes gives each node its verdict and counts them in the summary.
func (r *Report) judgeNodes() {
	for i := range r.Nodes {
		n := &r.Nodes[i]
		n.Held = n.HeldByRunning + n.HeldByFinished
		n.Verdict = verdict(*n)
		switch n.Verdict {
		case Waiting:
			r.Summary.Waiting++
		case Exhausted:
			r.Summary.Exhausted++
		case AtRisk:
			r.Summary.AtRisk++
		case OK:
			r.Summary.OK++
		default:
			r.Summary.Unknown++
		}
	}
	r.Summary.Nodes = len(r.Nodes)
}

// owner follows a pod to its workload: a Job's pods belong to the Job's CronJob when it has one.
func owner(snap *snapshot.Snapshot, p snapshot.Pod) (kind, namespace, name string) {
	if p.Owner.Kind == "" {
		return "", "", ""
	}
	if p.Owner.Kind == "Job" {
		if j, ok := snap.Jobs[snapshot.Key(p.Namespace, p.Owner.Name)]; ok && j.Owner.Kind == "CronJob" {
			return "CronJob", p.Namespace, j.Owner.Name
		}
	}
	return p.Owner.Kind, p.Namespace, p.Owner.Name
}

// podState is what a pod on a node does with branch ENIs at the snapshot's time.
type podState int

const (
	runningWithENI     podState = iota // counted by the scheduler, holding its ENIs
	waitingForENI                      // counted by the scheduler, no ENI yet
	finishedHolding                    // not counted, still holding its ENIs
	finishedReleased                   // not counted, its ENI freed by the release model
	finishedWithoutENI                 // not counted, never had one
)

// stateOf classifies a pod and says how many ENIs it holds. A pod that runs has its ENI even
// when the annotation was not captured; one still Pending on its node without one waits.
func stateOf(p snapshot.Pod, s Settings, at time.Time) (podState, int) {
	switch {
	case !p.Terminated() && (p.ENIs > 0 || p.Phase == "Running"):
		return runningWithENI, max(p.ENIs, 1)
	case !p.Terminated():
		return waitingForENI, 0
	case p.ENIs == 0:
		return finishedWithoutENI, 0
	case !holds(p, s, at):
		return finishedReleased, 0
	}
	return finishedHolding, p.ENIs
}

// holds says whether a finished pod still holds its ENI at the snapshot's time: always under
// onDelete (the pod object exists), and under onCompletion while it ended less than the
// cool-down ago; when its end is not in the snapshot, it is counted as holding.
func holds(p snapshot.Pod, s Settings, at time.Time) bool {
	if s.ENIRelease.OnDelete() {
		return true
	}
	if p.Finished.IsZero() || at.IsZero() {
		return true
	}
	return at.Sub(p.Finished) < s.Cooldown
}

// verdict of one node. The scheduler counts Running against Capacity; the ENIs are Held. A
// pod placed on a node whose ENIs are all held gets none and waits.
func verdict(n NodeReport) string {
	h, r, c := n.HeldByFinished, n.Running, n.Capacity
	switch {
	case !n.CapacityKnown:
		return Unknown
	case n.Waiting > 0:
		return Waiting
	case c == 0:
		return OK // no branch ENIs: the scheduler places no SGP pod here
	case n.Held >= c && r < c:
		return Exhausted
	// One more pod placed there that finishes holds one more ENI while the scheduler's count
	// is back where it was: h+1 + r >= c exhausts the node.
	case h+r+1 >= c && r < c:
		return AtRisk
	}
	return OK
}

func rank(v string) int {
	for i, w := range []string{Waiting, Exhausted, AtRisk, Unknown, OK} {
		if v == w {
			return i
		}
	}
	return 5
}

// Fails reports whether a verdict is at or past the FailOn threshold.
func Fails(verdict, failOn string) bool {
	switch failOn {
	case "none":
		return false
	case Waiting:
		return verdict == Waiting
	case Exhausted:
		return verdict == Waiting || verdict == Exhausted
	default: // at risk
		return verdict == Waiting || verdict == Exhausted || verdict == AtRisk
	}
}

// ExitCode is 2 when a snapshot could not be read, 1 when a node's verdict fails, else 0.
func (r *Report) ExitCode() int {
	if len(r.Errors) > 0 {
		return findings.ExitFailed
	}
	for _, n := range r.Nodes {
		if Fails(n.Verdict, r.FailOn) {
			return findings.ExitFindings
		}
	}
	if r.ModelCheck != nil && len(r.ModelCheck.AboveBound) > 0 {
		return findings.ExitFindings
	}
	return findings.ExitClean
}

// advise names the rule and the change that releases an owner's ENIs.
func advise(snap *snapshot.Snapshot, o *OwnerReport, release inventory.Release) {
	switch o.Kind {
	case "CronJob":
		cj, ok := snap.CronJobs[snapshot.Key(o.Namespace, o.Name)]
		if !ok {
			o.Rule, o.Fix = "ENI001", "the CronJob is not in the snapshot: add cronjobs to the kubectl command to see its TTL and history limits"
			return
		}
		o.TTL, o.SuccessfulHistoryLimit, o.FailedHistoryLimit = cj.TTL, cj.SuccessfulHistoryLimit, cj.FailedHistoryLimit
		kept := valueOr(cj.SuccessfulHistoryLimit, defaultSuccessfulHistory) + valueOr(cj.FailedHistoryLimit, defaultFailedHistory)
		switch {
		case !release.OnDelete():
			o.Rule, o.Fix = "ENI001", "fewer pods per run (a lower backoffLimit or fewer completions): under onCompletion each ends holding its ENI for the cool-down"
		case cj.TTL == nil:
			o.Rule, o.Fix = "ENI002", fmt.Sprintf("set spec.jobTemplate.spec.ttlSecondsAfterFinished, or keep fewer finished Jobs (successfulJobsHistoryLimit + failedJobsHistoryLimit = %d now)", kept)
		default:
			o.Rule, o.Fix = "ENI001", fmt.Sprintf("a shorter spec.jobTemplate.spec.ttlSecondsAfterFinished (now %d s), or fewer finished Jobs kept (%d now)", *cj.TTL, kept)
		}
	case "Job":
		j, ok := snap.Jobs[snapshot.Key(o.Namespace, o.Name)]
		if !ok {
			o.Rule, o.Fix = "ENI001", "the Job is not in the snapshot: add jobs to the kubectl command to see its TTL"
			return
		}
		o.TTL = j.TTL
		switch {
		case !release.OnDelete():
			o.Rule, o.Fix = "ENI001", "fewer pods per run (a lower backoffLimit or fewer completions)"
		case j.TTL == nil:
			o.Rule, o.Fix = "ENI002", "set spec.ttlSecondsAfterFinished: without it the Job and its finished pods stay until deleted by hand"
		default:
			o.Rule, o.Fix = "ENI001", fmt.Sprintf("a shorter spec.ttlSecondsAfterFinished (now %d s)", *j.TTL)
		}
	default:
		o.Rule, o.Fix = "ENI001", "delete the finished pods, or run them from a Job with ttlSecondsAfterFinished"
	}
}

func valueOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
