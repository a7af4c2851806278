package simulate

import "github.com/eni-lint/eni-lint/pkg/inventory"

// FromInventory is the simulator's form of a Job or CronJob the loader read (or a Spark
// driver, which the operator runs as a Job of one pod, on a schedule for a
// ScheduledSparkApplication), when the simulator plays its shape: pods one at a time or in parallel (NonIndexed, or Indexed
// without per-index back-off, whose pods count the same), restartPolicy Never or OnFailure, no per-index
// back-off, no Ignore rules, the Job controller, a known schedule; otherwise the second result
// says why not. A Job's start is left to the adversary.
func FromInventory(w inventory.Workload) (Workload, string) {
	j := w.Job
	if w.Kind == "Pod" && j == nil && w.Pod.RestartPolicy == "Never" {
		// A bare pod that ends: one pod, which nothing deletes, as a Job of one pod without
		// retries is played (its start the adversary's).
		return Workload{Completions: 1, TTL: -1, Deadline: -1, StartingDeadline: -1, Start: -1, Grace: inventory.DefaultTerminationGracePeriod}, ""
	}
	driver := w.Spark != nil && w.Spark.Role == "driver"
	if driver && w.Spark.Retries {
		return Workload{}, "a Spark driver the operator retries (restartPolicy " + w.Spark.RestartPolicy + "), which the simulator does not play"
	}
	keda := w.ScaledJob != nil
	if keda && w.ScaledJob.ScalingStrategy == "custom" {
		return Workload{}, "a ScaledJob with the custom scaling strategy, which the simulator does not play"
	}
	if j == nil || (w.Kind != "Job" && w.Kind != "CronJob" && !driver && !keda) {
		return Workload{}, "not a Job or CronJob"
	}
	completions := 0
	if j.Completions != nil {
		completions = *j.Completions
	}
	switch {
	case j.Parallelism < 1 || j.Completions != nil && completions < 1:
		return Workload{}, "no pods (parallelism or completions 0)"
	case j.BackoffLimitPerIndex != nil, j.RestartPolicy != "Never" && j.RestartPolicy != "OnFailure", j.Suspend, j.PodFailurePolicyIgnore,
		j.ManualSelector, j.ManagedBy != "kubernetes.io/job-controller":
		return Workload{}, "a shape the simulator does not play"
	}
	out := Workload{Completions: completions, Parallelism: j.Parallelism, BackoffLimit: j.BackoffLimit, TTL: -1, Deadline: -1, StartingDeadline: -1, Start: -1,
		Grace: j.TerminationGracePeriodSeconds, OnFailure: j.RestartPolicy == "OnFailure"}
	if j.TTLSecondsAfterFinished != nil {
		out.TTL = *j.TTLSecondsAfterFinished
	}
	if j.ActiveDeadlineSeconds != nil {
		out.Deadline = *j.ActiveDeadlineSeconds
	}
	if keda {
		sj := w.ScaledJob
		out.KEDA, out.Poll, out.MaxJobs = true, max(1, sj.PollingInterval), sj.MaxReplicaCount
		out.SuccessfulHistory, out.FailedHistory, out.Period = sj.SuccessfulJobsHistoryLimit, sj.FailedJobsHistoryLimit, max(1, sj.PollingInterval)
		return out, ""
	}
	if c := w.CronJob; c != nil {
		out.Timezone, out.Schedule = c.TimeZone, c.Schedule
		if c.PeriodSeconds <= 0 {
			return Workload{}, "no schedule the controller can run"
		}
		// Allow without activeDeadlineSeconds is played too: its runs may last as long as
		// they like, and the figure (ENI005's lower bound) is what one trajectory reaches.
		out.CronJob, out.Period, out.Policy, out.Spark = true, c.PeriodSeconds, c.ConcurrencyPolicy, driver
		out.SuccessfulHistory, out.FailedHistory = c.SuccessfulJobsHistoryLimit, c.FailedJobsHistoryLimit
		if c.StartingDeadlineSeconds != nil {
			out.StartingDeadline = *c.StartingDeadlineSeconds
		}
	}
	return out, ""
}
