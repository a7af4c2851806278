package inventory

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file is the one place where Kubernetes API defaults are applied (batch/v1 and apps/v1
// SetDefaults_*), exactly as docs/model.md §5 lists them. Loaders hand over what the
// manifest declares; rules only ever see effective values plus the list of defaulted fields.

// MaxInt32 is backoffLimit's default when backoffLimitPerIndex is set.
const MaxInt32 = math.MaxInt32

// DeclaredJob is a Job spec as written: nil means the field is absent.
type DeclaredJob struct {
	Parallelism             *int
	Completions             *int
	BackoffLimit            *int
	BackoffLimitPerIndex    *int
	CompletionMode          *string
	Suspend                 *bool
	TTLSecondsAfterFinished *int
	ActiveDeadlineSeconds   *int
	ManualSelector          *bool
	ManagedBy               *string
	// PodFailurePolicyIgnore is true when a podFailurePolicy rule has action Ignore on exit
	// codes or on pod conditions other than DisruptionTarget.
	PodFailurePolicyIgnore bool
	// PodFailurePolicyIgnoreDisruptions is true when an Ignore rule matches only the
	// DisruptionTarget condition.
	PodFailurePolicyIgnoreDisruptions bool
	RestartPolicy                     *string
	// TerminationGracePeriodSeconds and PodActiveDeadlineSeconds are the pod template's
	// spec.terminationGracePeriodSeconds and spec.activeDeadlineSeconds.
	TerminationGracePeriodSeconds *int
	PodActiveDeadlineSeconds      *int
}

// DefaultTerminationGracePeriod is the pod spec's terminationGracePeriodSeconds default
// (core/v1 SetDefaults_PodSpec).
const DefaultTerminationGracePeriod = 30

// JobDefaults applies batch/v1 Job defaults.
func JobDefaults(d DeclaredJob) JobSpec {
	var s JobSpec
	defaulted := func(field string) { s.Defaulted = append(s.Defaulted, field) }
	switch {
	case d.Parallelism == nil && d.Completions == nil:
		// Both unset: a single-pod Job.
		s.Parallelism, s.Completions = 1, intPtr(1)
		defaulted("parallelism")
		defaulted("completions")
	case d.Parallelism == nil:
		s.Parallelism, s.Completions = 1, intPtr(*d.Completions)
		defaulted("parallelism")
	default:
		// completions stays nil when only parallelism is set: a work-queue Job.
		s.Parallelism = *d.Parallelism
		if d.Completions != nil {
			s.Completions = intPtr(*d.Completions)
		}
	}
	s.BackoffLimitPerIndex = copyInt(d.BackoffLimitPerIndex)
	switch {
	case d.BackoffLimit != nil:
		s.BackoffLimit = *d.BackoffLimit
	case d.BackoffLimitPerIndex != nil:
		s.BackoffLimit = MaxInt32
		defaulted("backoffLimit")
	default:
		s.BackoffLimit = 6
		defaulted("backoffLimit")
	}
	s.CompletionMode = "NonIndexed"
	if d.CompletionMode != nil {
		s.CompletionMode = *d.CompletionMode
	} else {
		defaulted("completionMode")
	}
	s.Suspend = d.Suspend != nil && *d.Suspend
	s.TTLSecondsAfterFinished = copyInt(d.TTLSecondsAfterFinished)
	s.ActiveDeadlineSeconds = copyInt(d.ActiveDeadlineSeconds)
	s.ManualSelector = d.ManualSelector != nil && *d.ManualSelector
	s.ManagedBy = "kubernetes.io/job-controller"
	if d.ManagedBy != nil {
		s.ManagedBy = *d.ManagedBy
	} else {
		defaulted("managedBy")
	}
	s.PodFailurePolicyIgnore = d.PodFailurePolicyIgnore
	s.PodFailurePolicyIgnoreDisruptions = d.PodFailurePolicyIgnoreDisruptions
	s.RestartPolicy = "Never"
	if d.RestartPolicy != nil {
		s.RestartPolicy = *d.RestartPolicy
	}
	s.TerminationGracePeriodSeconds = DefaultTerminationGracePeriod
	if d.TerminationGracePeriodSeconds != nil {
		s.TerminationGracePeriodSeconds = *d.TerminationGracePeriodSeconds
	}
	s.PodActiveDeadlineSeconds = copyInt(d.PodActiveDeadlineSeconds)
	if s.Defaulted == nil {
		s.Defaulted = []string{}
	}
	return s
}

// DeclaredCronJob is a CronJob's own spec as written.
type DeclaredCronJob struct {
	Schedule                   string
	TimeZone                   *string
	ConcurrencyPolicy          *string
	SuccessfulJobsHistoryLimit *int
	FailedJobsHistoryLimit     *int
	Suspend                    *bool
	StartingDeadlineSeconds    *int
}

// CronJobDefaults applies batch/v1 CronJob defaults and works out the schedule's shortest gap.
func CronJobDefaults(d DeclaredCronJob) CronJobSpec {
	s := CronJobSpec{Schedule: d.Schedule, Defaulted: []string{}}
	s.ConcurrencyPolicy = "Allow"
	if d.ConcurrencyPolicy != nil {
		s.ConcurrencyPolicy = *d.ConcurrencyPolicy
	} else {
		s.Defaulted = append(s.Defaulted, "concurrencyPolicy")
	}
	s.SuccessfulJobsHistoryLimit = 3
	if d.SuccessfulJobsHistoryLimit != nil {
		s.SuccessfulJobsHistoryLimit = *d.SuccessfulJobsHistoryLimit
	} else {
		s.Defaulted = append(s.Defaulted, "successfulJobsHistoryLimit")
	}
	s.FailedJobsHistoryLimit = 1
	if d.FailedJobsHistoryLimit != nil {
		s.FailedJobsHistoryLimit = *d.FailedJobsHistoryLimit
	} else {
		s.Defaulted = append(s.Defaulted, "failedJobsHistoryLimit")
	}
	s.Suspend = d.Suspend != nil && *d.Suspend
	s.StartingDeadlineSeconds = copyInt(d.StartingDeadlineSeconds)
	tz := ""
	if d.TimeZone != nil {
		tz = *d.TimeZone
		s.TimeZone = tz
	}
	period, err := ShortestGap(d.Schedule, tz)
	if err != nil {
		s.ScheduleError = err.Error()
	} else {
		s.PeriodSeconds = period
		if times, ok := WeekTimes(d.Schedule, tz); ok {
			s.WeekTimes = times
		}
		s.RunSpans = RunSpans(d.Schedule, tz)
		s.EvenGaps = EvenGaps(d.Schedule, tz)
	}
	return s
}

// DeploymentSurge returns the extra pods a RollingUpdate may create above replicas.
// maxSurge is nil (default 25%), an integer, or a percentage string; strategyType "Recreate"
// has no surge. Percentages round up, as the Deployment controller does.
func DeploymentSurge(replicas int, strategyType string, maxSurge *string) (int, error) {
	if strategyType == "Recreate" {
		return 0, nil
	}
	v := "25%"
	if maxSurge != nil {
		v = *maxSurge
	}
	if pct, ok := strings.CutSuffix(v, "%"); ok {
		p, err := strconv.Atoi(pct)
		if err != nil || p < 0 {
			return 0, fmt.Errorf("maxSurge %q is not a percentage", v)
		}
		return (replicas*p + 99) / 100, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("maxSurge %q is not a number or percentage", v)
	}
	return n, nil
}

func intPtr(n int) *int { return &n }

func copyInt(p *int) *int {
	if p == nil {
		return nil
	}
	return intPtr(*p)
}
