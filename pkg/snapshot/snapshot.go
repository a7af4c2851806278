// Package snapshot reads what `kubectl get nodes,pods,jobs,cronjobs,events -A -o json` (or
// -o yaml) prints, and keeps only what an audit of branch ENIs needs: nodes, the pods that use
// Security groups for Pods, Jobs, CronJobs and the events of pods that could not get an IP.
// It never talks to a cluster. JSON is read as a stream, one item at a time, so a snapshot of
// 500,000 pods needs memory for the SGP pods it keeps, not for the file.
package snapshot

import (
	"time"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// Resource names the VPC resource controller uses: the extended resource SGP pods request
// (and nodes advertise), and the annotation that records a pod's branch ENI.
const (
	PodENIResource   = "vpc.amazonaws.com/pod-eni"
	PodENIAnnotation = "vpc.amazonaws.com/pod-eni"
)

// Snapshot is what a set of kubectl outputs held.
type Snapshot struct {
	Nodes    []Node
	Pods     []Pod
	Jobs     map[string]Job     // by namespace/name
	CronJobs map[string]CronJob // by namespace/name
	// Events are the IP-assignment failures of pods, by namespace/name of the pod.
	Events map[string][]Event
	// Latest is the newest time stamp in the snapshot: a lower bound of when it was taken.
	Latest time.Time
	// Items counts what was read per kind; Skipped counts the pods left out (no SGP).
	Items   map[string]int
	Skipped int
	Errors  []inventory.LoadError
	read    int // items read, all kinds together
}

// Node is one node and its branch-ENI capacity as the node itself reports it.
type Node struct {
	Name         string
	InstanceType string // node.kubernetes.io/instance-type (or the beta label)
	// PodENI is status.capacity["vpc.amazonaws.com/pod-eni"], nil when the node does not
	// advertise it (trunking not set up, or not an SGP node).
	PodENI *int
	Labels map[string]string
	Taints []inventory.Taint
	At     inventory.Position
}

// Pod is a pod that uses Security groups for Pods: it requests vpc.amazonaws.com/pod-eni, or
// the controller gave it a branch ENI (the annotation).
type Pod struct {
	Namespace, Name string
	NodeName        string
	Phase           string // Pending, Running, Succeeded, Failed, Unknown
	// ENIs is how many branch ENIs the annotation lists (0: none assigned).
	ENIs int
	// Requested is the pod-eni the pod's containers request (the scheduler's count).
	Requested int
	Owner     OwnerRef
	// Finished is when the last container ended (zero: not finished, or unknown).
	Finished time.Time
	// ContainerCreating: a container still waits with reason ContainerCreating.
	ContainerCreating bool
	Deleting          bool // metadata.deletionTimestamp is set
	At                inventory.Position
}

// Terminated reports whether the scheduler no longer counts the pod.
func (p Pod) Terminated() bool { return p.Phase == "Succeeded" || p.Phase == "Failed" }

// OwnerRef is a pod's or a Job's controller.
type OwnerRef struct {
	Kind, Name string
}

// Job is what an audit needs of a Job: its TTL and its owner (a CronJob).
type Job struct {
	Namespace, Name string
	TTL             *int
	Owner           OwnerRef
}

// CronJob is what an audit needs of a CronJob: its history limits and its Jobs' TTL.
type CronJob struct {
	Namespace, Name        string
	SuccessfulHistoryLimit *int
	FailedHistoryLimit     *int
	TTL                    *int // spec.jobTemplate.spec.ttlSecondsAfterFinished
	At                     inventory.Position
}

// Event is an event about a pod that says it could not get an IP address (a branch ENI).
type Event struct {
	Reason, Message string
	Count           int
	Last            time.Time
}

// Key is the namespace/name key of the maps.
func Key(namespace, name string) string { return namespace + "/" + name }
