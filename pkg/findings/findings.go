// Package findings holds what an evaluation produces, a report: findings with their rule ID,
// severity and exact position, the per-instance-type table and the per-workload figures. The
// rules engine fills it; reporters render it; it decides the exit code.
package findings

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Severity orders findings; a run fails when one is at or above --fail-on.
type Severity string

const (
	Info    Severity = "info"
	Warning Severity = "warning"
	Error   Severity = "error"
	// None is only a --fail-on value: never fail on findings.
	None Severity = "none"
)

// Rank orders severities; unknown ones rank 0.
func (s Severity) Rank() int {
	switch s {
	case Info:
		return 1
	case Warning:
		return 2
	case Error:
		return 3
	case None:
		return 4
	}
	return 0
}

// ParseSeverity accepts the names above.
func ParseSeverity(s string) (Severity, error) {
	switch v := Severity(s); v {
	case Info, Warning, Error, None:
		return v, nil
	}
	return "", fmt.Errorf("severity %q is not one of info, warning, error, none", s)
}

// ObjectRef names the Kubernetes object a finding is about.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String is the object as messages name it, "CronJob billing/db-report" (the policies'
// describe).
func (o ObjectRef) String() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// RuleDoc is one rule's documentation, from its METADATA annotation. Reporters that describe
// rules (SARIF, explain) use it.
type RuleDoc struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Severity    Severity `json:"severity"`
	Description string   `json:"description"`
	Numbers     string   `json:"numbers"`
	Remediation string   `json:"remediation"`
	OtherModel  string   `json:"otherModel"`
	Package     string   `json:"package"`
	File        string   `json:"file"`
	// BuiltIn is true for eni-lint's own rules, whose pages are docs/rules/<ID>.md; custom
	// rules (--policy) have none.
	BuiltIn bool `json:"builtIn"`
	// Details are the keys of the rule's finding details (METADATA custom.details), in the
	// order its page lists them; a test checks every report's details against them.
	Details []DetailField `json:"details,omitempty"`
	// Example, for a built-in rule's page, is a failing and a passing input
	// (testdata/rule-examples; a test runs both).
	Example *RuleExample `json:"-"`
}

// DetailField is one key of a rule's finding details: its JSON type (string, integer,
// boolean, object or array) and what it means. An Internal key is read by eni-lint between
// the policies and the report and removed before it.
type DetailField struct {
	Key      string `json:"key"`
	Type     string `json:"type"`
	About    string `json:"about"`
	Internal bool   `json:"internal,omitempty"`
}

// DetailTypes are the JSON types a DetailField may have.
var DetailTypes = map[string]bool{"string": true, "integer": true, "boolean": true, "object": true, "array": true}

// RuleExample is the input a rule's page shows: the files on which `eni-lint check . ARGS`
// reports the rule, and the same files changed so that it does not.
type RuleExample struct {
	Args   string
	Fails  []ExampleFile
	Passes []ExampleFile
}

// ExampleFile is one file of an example.
type ExampleFile struct {
	Name string
	Text string
}

// Finding is one rule's verdict on one place.
type Finding struct {
	Rule     string             `json:"rule"`
	Severity Severity           `json:"severity"`
	Message  string             `json:"message"`
	Location inventory.Position `json:"location"`
	Object   *ObjectRef         `json:"object,omitempty"`
	// Details carry the numbers behind the verdict; their keys are documented per rule.
	Details map[string]any `json:"details,omitempty"`
	// Suppressed is set when an ignore or the baseline covers the finding: it stays in the
	// report but no longer counts for the exit code.
	Suppressed *Suppression `json:"suppressed,omitempty"`
	// ObjectID identifies the object within the run, for matching ignores.
	ObjectID string `json:"-"`
	// RowObjectIDs are the other objects the finding is about (the node group of an ENI001
	// row): their ignores suppress it too.
	RowObjectIDs []string `json:"-"`
	// ReadFrom is the file the object was read from when Location is elsewhere (rendered
	// Helm output located in its template): a change to either makes the finding changed.
	ReadFrom string `json:"-"`
	// Environments lists the Terraform environments (--each-var-file) the finding occurs in;
	// empty when the run had none.
	Environments []string `json:"environments,omitempty"`
	// Clusters lists the clusters the finding occurs in, when the run has more than one.
	Clusters []string `json:"clusters,omitempty"`
	// Edits are the changes of files that `eni-lint fix` would write for this finding, set
	// when a reporter needs them (SARIF fixes, review suggestions); not part of the JSON report.
	Edits []Edit `json:"-"`
	// Witness, on ENI001, is a trajectory that reaches the demand (or how close one came).
	Witness *Witness `json:"witness,omitempty"`
}

// Edit is one change of a file a finding's fix makes: the original lines StartLine..EndLine
// (1-based, inclusive) become Text (whole lines, each with its line ending). An insertion
// covers the line before it and repeats that line first, so that every edit replaces at least
// one existing line, as a review suggestion must. NewFile is set for a file the fix creates
// (a kustomize patch): Text is all of it and the lines are 0.
type Edit struct {
	File      string
	StartLine int
	EndLine   int
	Text      string
	// Original is the text of lines StartLine..EndLine before the edit.
	Original string
	NewFile  bool
	// Change is the fix, as the finding's fixes list says it.
	Change string
}

// Suppression says what covers a suppressed finding.
type Suppression struct {
	// Kind is inline (an eni-lint.io/ignore annotation), config (an ignores entry) or
	// baseline.
	Kind    string `json:"kind"`
	Reason  string `json:"reason"`
	Expires string `json:"expires,omitempty"`
}

// Contributor is one workload's share of an instance type's demand.
type Contributor struct {
	ID        string             `json:"id"`
	Kind      string             `json:"kind"`
	Namespace string             `json:"namespace"`
	Name      string             `json:"name"`
	Location  inventory.Position `json:"location"`
	Hidden    int                `json:"hidden"`
	Active    int                `json:"active"`
	// Held is the workload's peak (docs/model.md §5a).
	Held    int  `json:"held"`
	Bounded bool `json:"bounded"`
	// Stopping is the part of Held that is pods still stopping long after their runs, which a
	// row counts at most at its branch interfaces (docs/model.md §6).
	Stopping int `json:"stopping,omitempty"`
}

// InstanceTypeRow is one line of the per-instance-type table.
type InstanceTypeRow struct {
	// Cluster is the cluster of the row's node group, when the run has more than one.
	Cluster string `json:"cluster,omitempty"`
	// Environment is the Terraform environment of the row, with --each-var-file.
	Environment string `json:"environment,omitempty"`
	NodeGroup   string `json:"nodeGroup"`
	// NodeGroupID tells apart groups of the same name (inventory.NodeGroup.ID).
	NodeGroupID       string             `json:"nodeGroupId"`
	NodeGroupLocation inventory.Position `json:"nodeGroupLocation"`
	InstanceType      string             `json:"instanceType"`
	// Variant names the launch-time labels of this entry when a Karpenter pool lists the
	// type more than once ("karpenter.sh/capacity-type=spot").
	Variant string `json:"variant,omitempty"`
	// Pool says the group is a provisioner's pool (karpenter, auto-mode, auto-mode-built-in)
	// whose types are listed by label class, not a group with fixed types.
	Pool             string `json:"pool,omitempty"`
	Known            bool   `json:"known"`
	Trunking         bool   `json:"trunking"`
	BranchInterfaces int    `json:"branchInterfaces"`
	Hidden           int    `json:"hidden"`
	Active           int    `json:"active"`
	// Held is the sum of the workloads' peaks (docs/model.md §5a): demand never exceeds it.
	Held   int `json:"held"`
	Demand int `json:"demand"`
	// AtLeast is true when a contributor has no bound and its lower bound was used.
	AtLeast bool `json:"atLeast"`
	// Verdict is fits, exceeds, unbounded, no-trunking or unknown-type.
	Verdict string `json:"verdict"`
	// ScheduleSeparated is set when CronJobs whose runs cannot overlap (onCompletion) were
	// counted at their largest sum at one instant instead of their sum (docs/model.md §5a).
	ScheduleSeparated *ScheduleSeparation `json:"scheduleSeparated,omitempty"`
	// LateStopping is set when contributors' pods still stopping long after their runs were
	// counted: they all ran at one moment, so the row counts at most its branch interfaces
	// of them (docs/model.md §6).
	LateStopping *LateStopping `json:"lateStopping,omitempty"`
	// Contributors are the workloads that hold the most here (terminated pods, then running
	// ones), at most 20; OtherContributors counts the rest. Every workload's figures are in
	// the report's workloads.
	Contributors      []Contributor `json:"contributors"`
	OtherContributors int           `json:"otherContributors"`
}

// ScheduleSeparation names the CronJobs a row counted by their busy windows, and how many ENIs
// that took off the plain sum.
type ScheduleSeparation struct {
	Workloads []string `json:"workloads"`
	Saved     int      `json:"saved"`
}

// LateStopping is how many late pods still stopping a row's contributors count, and how many
// of them the row did not count past its branch interfaces.
type LateStopping struct {
	Pods         int `json:"pods"`
	OverCapacity int `json:"overCapacity"`
}

// TypeLabel is the instance type as reports show it: with its variant, if any.
func (r InstanceTypeRow) TypeLabel() string {
	if r.Variant == "" {
		return r.InstanceType
	}
	return r.InstanceType + " [" + r.Variant + "]"
}

// ShownRows are the rows a human-readable table lists, and how many it leaves out: a pool
// lists one entry per label class and launch-time variant (capacity type, zone) that
// workloads select on, and an entry nothing lands on says nothing. A pool nothing lands on
// keeps its first row, so that every group appears. Every row stays in the JSON report.
func ShownRows(rows []InstanceTypeRow) (shown []InstanceTypeRow, empty int) {
	used := map[string]bool{}
	for _, row := range rows {
		if len(row.Contributors) > 0 {
			used[row.NodeGroupID] = true
		}
	}
	first := map[string]bool{}
	for _, row := range rows {
		if row.Pool != "" && len(row.Contributors) == 0 && (used[row.NodeGroupID] || first[row.NodeGroupID]) {
			empty++
			continue
		}
		first[row.NodeGroupID] = true
		shown = append(shown, row)
	}
	return shown, empty
}

// WorkloadNumbers are the figures of one workload whose pods hold branch ENIs.
type WorkloadNumbers struct {
	ID            string             `json:"id"`
	Kind          string             `json:"kind"`
	Namespace     string             `json:"namespace"`
	Name          string             `json:"name"`
	Location      inventory.Position `json:"location"`
	SelectedBy    []string           `json:"selectedBy"`
	HandRequested bool               `json:"handRequested"`
	// Numbers: T, running, A, K, retainedFinished, retainedInFlight, retained, churn, active,
	// held, countHeld, heldBy, bounded (docs/json-report.md).
	Numbers   map[string]any `json:"numbers"`
	Hidden    int            `json:"hidden"`
	Unbounded []string       `json:"unbounded"`
	// NodeGroups are the node groups its pods may land on. The workloads of one placement
	// share the list, and the JSON report writes each distinct list once, in its placements,
	// which Placement names (with 125 node groups, the lists were two thirds of a 70,000-
	// workload report).
	NodeGroups []string `json:"-"`
	// Placement is set by the JSON report alone: the id of NodeGroups in its placements.
	Placement string `json:"placement"`
	// ScaledBy is the autoscaler whose maximum the running pods are counted at.
	ScaledBy *inventory.ScaledBy `json:"scaledBy,omitempty"`
	// Clusters are the clusters these figures hold in, when the run has more than one.
	Clusters []string `json:"clusters,omitempty"`
}

// Model says which release model a report used.
type Model struct {
	ENIRelease      inventory.Release `json:"eniRelease"`
	CooldownSeconds int               `json:"cooldownSeconds"`
	WindowSeconds   int               `json:"windowSeconds"`
	// Disruptions is the pods of one run assumed disrupted and replaced (restartPolicy
	// OnFailure): 0 unless --disruptions says more.
	Disruptions int    `json:"disruptions"`
	Description string `json:"description"`
}

// Inputs summarise what was read.
type Inputs struct {
	Paths []string `json:"paths"`
	// WorkingFolder is the folder the run was in, from the repository root ("k8s"; left out
	// at the root): the report's paths are relative to it, and joined to it they name files
	// as the repository, GitHub's annotations and the SARIF output do.
	WorkingFolder         string   `json:"workingFolder,omitempty"`
	Files                 int      `json:"files"`
	Documents             int      `json:"documents"`
	Workloads             int      `json:"workloads"`
	SecurityGroupPolicies int      `json:"securityGroupPolicies"`
	ServiceAccounts       int      `json:"serviceAccounts"`
	NodeGroups            int      `json:"nodeGroups"`
	SkippedChartTemplates []string `json:"skippedChartTemplates,omitempty"`
	TerraformModules      int      `json:"terraformModules,omitempty"`
	Kustomizations        int      `json:"kustomizations,omitempty"`
	HelmCharts            int      `json:"helmCharts,omitempty"`
	// RenderedCharts are the Helm charts rendered in-process: --helm-chart's, and those found
	// in the scanned folders (with their own values.yaml).
	RenderedCharts []string `json:"renderedCharts,omitempty"`
	// BuiltKustomizations are the root kustomizations built (the others are their bases).
	BuiltKustomizations []string `json:"builtKustomizations,omitempty"`
	// TerraformPlans are the Terraform plan and state files read: the root each replaced the
	// static evaluation of, what it joined to the code, and where the two disagree.
	TerraformPlans []inventory.PlanSummary `json:"terraformPlans,omitempty"`
	// NotModelled are objects of kinds eni-lint does not model that run pods (a pod spec inside):
	// their pods are not counted.
	NotModelled []NotModelled `json:"notModelled,omitempty"`
	// Skipped are entries of the scanned folders that were not read: links that leave them,
	// named pipes, devices and sockets, and second links to a file already read.
	Skipped []SkippedInput `json:"skipped,omitempty"`
}

// NotModelled is an object whose pods eni-lint does not count.
type NotModelled struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Namespace  string             `json:"namespace,omitempty"`
	Name       string             `json:"name"`
	Location   inventory.Position `json:"location"`
}

// SkippedInput is an entry a walk did not read, and why.
type SkippedInput struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Summary counts findings by severity.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Info     int `json:"info"`
	// LoadErrors counts inputs that could not be read.
	LoadErrors int `json:"loadErrors"`
	// Suppressed counts findings an ignore or the baseline covers; they are not in the
	// other counts.
	Suppressed int `json:"suppressed"`
}

// SchemaVersion names the JSON report format; it changes only with incompatible changes.
const SchemaVersion = "eni-lint.report/v4"

// Report is the outcome of one run.
type Report struct {
	// IgnoreUses are the accepted inline ignore entries of the evaluations merged into this
	// report and whether each covered a finding (not written: ENI009 reports the unused).
	IgnoreUses    []IgnoreUse           `json:"-"`
	SchemaVersion string                `json:"schemaVersion"`
	Version       string                `json:"version"`
	Model         Model                 `json:"model"`
	Inputs        Inputs                `json:"inputs"`
	CapacityKnown bool                  `json:"capacityKnown"`
	FailOn        Severity              `json:"failOn"`
	Errors        []inventory.LoadError `json:"errors"`
	Findings      []Finding             `json:"findings"`
	// NodeGroups are the node groups the run used, from flags, config or Terraform, with
	// their resolved instance types, labels, taints and positions.
	NodeGroups []inventory.NodeGroup `json:"nodeGroups"`
	// CNISettings are the VPC CNI settings found in the scanned code (ENABLE_POD_ENI,
	// branch-eni-cooldown).
	CNISettings   []inventory.CNISetting `json:"cniSettings"`
	InstanceTypes []InstanceTypeRow      `json:"instanceTypes"`
	Workloads     []WorkloadNumbers      `json:"workloads"`
	Summary       Summary                `json:"summary"`
	// Baseline is set when a baseline was applied: its file and the entries that no longer
	// occur.
	Baseline *BaselineStatus `json:"baseline,omitempty"`
	// ChangedSince is set when the report was narrowed to what changed since a git ref.
	ChangedSince string `json:"changedSince,omitempty"`
	// OnFargate are the workloads a Fargate profile runs: they hold no node branch ENI and
	// are in no node group's sum.
	OnFargate []FargateWorkload `json:"onFargate,omitempty"`
	// Environments are the verdicts per Terraform environment (--each-var-file); the exit
	// code is the worst of them.
	Environments []EnvironmentVerdict `json:"environments,omitempty"`
	// Clusters are the clusters the run found and judged each on its own; the exit code is
	// the worst of them. Their rows and node groups carry the cluster's name.
	Clusters []Cluster `json:"clusters"`
	// Rules documents every rule the run evaluated, for reporters that describe them.
	Rules []RuleDoc `json:"-"`
}

// BaselineEntry identifies one finding in a baseline: rule, file and object (or, for
// findings about no object, a subject such as nodeGroup/instanceType), not the line.
type BaselineEntry struct {
	Rule      string `json:"rule"`
	File      string `json:"file"`
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	Subject   string `json:"subject,omitempty"`
	// Cluster is the cluster of a finding about a node group, when the run had several.
	Cluster string `json:"cluster,omitempty"`
	// Contributors and Demand are what an aggregate finding (ENI001: a node's demand) was made
	// of when it was recorded: workloads as kind/namespace/name. A finding with a contributor
	// not listed here, or a higher demand, is new.
	Contributors []string `json:"contributors,omitempty"`
	Demand       int      `json:"demand,omitempty"`
	// Count is how many findings share this identity.
	Count int `json:"count"`
}

// BaselineStatus reports how a baseline was used.
type BaselineStatus struct {
	File  string          `json:"file"`
	Stale []BaselineEntry `json:"stale"`
}

// Exit codes, documented in the README.
const (
	ExitClean    = 0
	ExitFindings = 1
	ExitFailed   = 2
)

// ExitCode is 2 when any input could not be read, else 1 when a finding is at or above
// failOn, else 0.
func (r *Report) ExitCode() int {
	if len(r.Errors) > 0 {
		return ExitFailed
	}
	if r.FailOn == None {
		return ExitClean
	}
	for _, f := range r.Findings {
		if f.Suppressed == nil && f.Severity.Rank() >= r.FailOn.Rank() {
			return ExitFindings
		}
	}
	return ExitClean
}

// Sort puts findings in file, line, column, rule order, and errors in file order, so that
// output is stable across runs and worker counts.
func (r *Report) Sort() {
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Location.File, b.Location.File),
			cmp.Compare(a.Location.Line, b.Location.Line),
			cmp.Compare(a.Location.Column, b.Location.Column),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
		)
	})
	slices.SortStableFunc(r.Errors, func(a, b inventory.LoadError) int {
		return cmp.Or(
			cmp.Compare(a.Position.File, b.Position.File),
			cmp.Compare(a.Position.Line, b.Position.Line),
			cmp.Compare(a.Message, b.Message),
		)
	})
	slices.SortStableFunc(r.InstanceTypes, func(a, b InstanceTypeRow) int {
		// Per environment and node group: known types by capacity (the binding one first),
		// unknown ones last.
		return cmp.Or(cmp.Compare(a.Cluster, b.Cluster), cmp.Compare(a.Environment, b.Environment), cmp.Compare(a.NodeGroup, b.NodeGroup), boolOrder(!a.Known, !b.Known),
			cmp.Compare(a.BranchInterfaces, b.BranchInterfaces), cmp.Compare(a.InstanceType, b.InstanceType))
	})
	slices.SortStableFunc(r.Workloads, func(a, b WorkloadNumbers) int { return cmp.Compare(a.ID, b.ID) })
}

// Count fills the summary.
func (r *Report) Count() {
	r.Summary = Summary{LoadErrors: len(r.Errors)}
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			r.Summary.Suppressed++
			continue
		}
		switch f.Severity {
		case Error:
			r.Summary.Errors++
		case Warning:
			r.Summary.Warnings++
		case Info:
			r.Summary.Info++
		}
	}
}

func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	default:
		return 1
	}
}

// EnvironmentVerdict is one environment's outcome with --each-var-file.
type EnvironmentVerdict struct {
	Name     string  `json:"name"`
	VarFile  string  `json:"varFile"`
	ExitCode int     `json:"exitCode"`
	Summary  Summary `json:"summary"`
}

// Cluster is one cluster of a run: node groups, and the objects deployed to them.
type Cluster struct {
	Name string `json:"name"`
	// Kind says how it was found: terraform (a root module, per environment), eksctl (a
	// ClusterConfig), cloudformation (a template), karpenter (NodePools of one folder), flags
	// (--node-group and the config's nodeGroups) or config (an entry of clusters).
	Kind        string   `json:"kind"`
	Root        string   `json:"root,omitempty"`
	Environment string   `json:"environment,omitempty"`
	VarFiles    []string `json:"varFiles,omitempty"`
	// Sources are where the cluster is declared.
	Sources []inventory.Position `json:"sources"`
	// Infrastructure and ManifestPaths are what a config cluster names.
	Infrastructure []string `json:"infrastructure,omitempty"`
	ManifestPaths  []string `json:"manifestPaths,omitempty"`
	// NodeGroups are the ids of its node groups (nodeGroups[].id).
	NodeGroups []string `json:"nodeGroups"`
	// Manifests counts the files whose objects the cluster got; ManifestFiles lists them for
	// `eni-lint clusters` only.
	Manifests     int      `json:"manifests"`
	ManifestFiles []string `json:"manifestFiles,omitempty"`
	// Workloads, SecurityGroupPolicies and ServiceAccounts count the objects it got.
	Workloads             int     `json:"workloads"`
	SecurityGroupPolicies int     `json:"securityGroupPolicies"`
	ServiceAccounts       int     `json:"serviceAccounts"`
	ExitCode              int     `json:"exitCode"`
	Summary               Summary `json:"summary"`
}

// FargateWorkload is a workload whose pods a Fargate profile selects.
type FargateWorkload struct {
	Object   ObjectRef          `json:"object"`
	Location inventory.Position `json:"location"`
	Profile  string             `json:"profile"`
	// ProfileLocation is where the profile is declared.
	ProfileLocation inventory.Position `json:"profileLocation"`
}

// Fixes returns the changes a finding offers (details.fixes[].change), each of which alone
// resolves it, in the order the rule suggests them. Every report lists them after the message.
func (f Finding) Fixes() []string {
	var out []string
	for _, fx := range f.FixDetails() {
		if fx.Change != "" {
			out = append(out, fx.Change)
		}
	}
	return out
}

// Witness is a trajectory of the controllers, played by eni-lint's simulator, that reaches the
// demand an ENI001 reports, or the most a bounded search found (docs/model.md §5a). Times are
// seconds from Start, the reference instant the CronJobs' schedule times are counted from.
type Witness struct {
	ENIRelease inventory.Release `json:"eniRelease"`
	// Bound is the demand the finding reports; Reached what the trajectory holds at At, plus
	// what the workloads it does not play are counted for (NotPlayed).
	Bound            int               `json:"bound"`
	Reached          int               `json:"reached"`
	BranchInterfaces int               `json:"branchInterfaces"`
	Start            string            `json:"start"`
	At               int               `json:"at"`
	Played           []WitnessWorkload `json:"played"`
	NotPlayed        []WitnessWorkload `json:"notPlayed,omitempty"`
	// OtherContributors is how many contributors the finding does not list: neither played nor
	// counted in Reached.
	OtherContributors int `json:"otherContributors,omitempty"`
	// Trajectory is the runs and events played. The findings whose search is the same (the
	// rows of several node groups that the same workloads exceed) share one, and the JSON
	// report lists it once, in its trajectories, which the witness names by id: 40 node
	// groups made 40 copies of the same 140 KB otherwise. Nil when nothing was played.
	Trajectory *WitnessTrajectory `json:"trajectory,omitempty"`
	// Plays is how many trajectories the search could play (it stops once one reaches the
	// bound).
	Plays int `json:"plays"`
	// NotSearched says why there is no trajectory: the run's budget was spent.
	NotSearched string `json:"notSearched,omitempty"`
	// Assumes lists what the trajectory takes for granted that the manifests do not say: a
	// suspended CronJob resumed (or run by hand), as the bound counts it.
	Assumes []string `json:"assumes,omitempty"`
	// Running is the most played pods running (bound, not yet ended) at one second of the
	// trajectory, RunningAtPeak at the peak's second; RunningLimit is what kube-scheduler
	// admits at the peak beside the running pods of the workloads not played (branch ENIs minus
	// those), which the trajectory takes to start at the peak (Assumes): before it the node
	// admits BranchInterfaces. A trajectory above either is not one the node allows, and is
	// not reported as reached.
	Running       int `json:"running"`
	RunningAtPeak int `json:"runningAtPeak"`
	RunningLimit  int `json:"runningLimit"`
}

// WitnessTrajectory is what a witness's search played: the runs holding at the peak and the
// events, in time order. In a report a witness names it by ID (see MarshalJSON), and the
// trajectory itself is written once among the report's trajectories.
type WitnessTrajectory struct {
	ID     string         `json:"id"`
	Runs   []WitnessRun   `json:"runs"`
	Events []WitnessEvent `json:"events"`
}

// MarshalJSON writes the trajectory where a witness refers to it: its ID.
func (t *WitnessTrajectory) MarshalJSON() ([]byte, error) { return json.Marshal(t.ID) }

// UnmarshalJSON reads a witness's reference: the ID alone (the runs and events are in the
// report's trajectories).
func (t *WitnessTrajectory) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &t.ID) }

// NumberTrajectories gives the witnesses' trajectories IDs in the order the findings first
// use them ("t1", "t2", …) and returns them in that order: the table a report writes once.
// The same report numbers the same way each time.
func NumberTrajectories(fs []Finding) []*WitnessTrajectory {
	var out []*WitnessTrajectory
	seen := map[*WitnessTrajectory]bool{}
	for i := range fs {
		w := fs[i].Witness
		if w == nil || w.Trajectory == nil || seen[w.Trajectory] {
			continue
		}
		seen[w.Trajectory] = true
		out = append(out, w.Trajectory)
		w.Trajectory.ID = fmt.Sprintf("t%d", len(out))
	}
	return out
}

// PlacementRecord is one entry of the JSON report's placements: a list of node groups that
// workloads may land on, named by id ("p1", "p2", …).
type PlacementRecord struct {
	ID         string   `json:"id"`
	NodeGroups []string `json:"nodeGroups"`
}

// StarvationRecord is one entry of the JSON report's starvations: a list of the node groups and
// instance types an ENI003 finding's Job starves on (its details' starvingOn), named by id
// ("s1", "s2", …). Every Job of a class and placement starves on the same list.
type StarvationRecord struct {
	ID string `json:"id"`
	On any    `json:"on"`
}

// TrajectoryRecord is a trajectory as the report's table writes it: ID, runs and events.
type TrajectoryRecord WitnessTrajectory

// WitnessWorkload is a contributor of the finding: how many ENIs it holds at the witness's
// peak (played), or why it is not played and what the model counts for it.
type WitnessWorkload struct {
	ID         string `json:"id"`
	HeldAtPeak int    `json:"heldAtPeak"`
	Reason     string `json:"reason,omitempty"`
}

// WitnessRun is one run of a Job that holds ENIs at the peak, with its pods. Deleted is nil when
// the Job is not deleted within the trajectory; a pod's Released (the last second its ENI is
// held) is nil when it is still held when the trajectory ends.
type WitnessRun struct {
	Workload  string       `json:"workload"`
	Scheduled int          `json:"scheduled"`
	Start     int          `json:"start"`
	Finish    int          `json:"finish"`
	Failed    bool         `json:"failed"`
	Deleted   *int         `json:"deleted"`
	DeletedBy string       `json:"deletedBy,omitempty"`
	Pods      []WitnessPod `json:"pods"`
}

// WitnessPod is one pod of a run.
type WitnessPod struct {
	Created int `json:"created"`
	// Bound is when kube-scheduler bound it to the node and its ENI was attached: after
	// Created when it waited Pending for the node's running pods to leave a branch ENI free;
	// nil when it was deleted before.
	Bound *int `json:"bound"`
	Ended int  `json:"ended"`
	// StatusLag is how many seconds after its container finished the kubelet reported the pod
	// ended: the lag the trajectory assumes (0 for most pods).
	StatusLag   int  `json:"statusLag,omitempty"`
	Failed      bool `json:"failed"`
	Deleted     *int `json:"deleted"`
	Released    *int `json:"released"`
	HoldsAtPeak bool `json:"holdsAtPeak"`
}

// WitnessEvent is one step of the trajectory, in time order: a run starting, finishing or
// deleted, and the peak.
type WitnessEvent struct {
	At       int    `json:"at"`
	Workload string `json:"workload,omitempty"`
	Event    string `json:"event"`
	// Held is the ENIs the played workloads hold right after the event.
	Held int `json:"held"`
}

// Integer reads a JSON number the policies produced (float64 after decoding, or json.Number).
func Integer(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	case int:
		return n, true
	case fmt.Stringer:
		var i int
		if _, err := fmt.Sscan(n.String(), &i); err == nil {
			return i, true
		}
	}
	return 0, false
}

// IgnoreUse is one accepted inline ignore entry (an annotation line or a Terraform comment) of
// one evaluation, and whether it covered a finding there. A run reports, as ENI009, the entries
// no evaluation used: an exception that suppresses nothing hides nothing today, and would hide
// whatever comes next without anyone looking.
type IgnoreUse struct {
	ObjectID string
	Object   ObjectRef
	Rules    []string
	Text     string
	Location inventory.Position
	Used     bool
}
