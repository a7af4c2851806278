package eni.model_test

import data.eni.fixtures as fx
import data.eni.model

# --- T, the terminated pods of one run (docs/model.md §5) ---

test_t_defaults if model.job_t(fx.base_job) == 7

test_t_completions if model.job_t(object.union(fx.base_job, {"completions": 3})) == 9

test_t_work_queue if model.job_t(object.union(fx.base_job, {"completions": null, "parallelism": 4})) == 10

test_t_indexed_per_index if {
	job := object.union(fx.base_job, {"completions": 4, "completionMode": "Indexed", "backoffLimitPerIndex": 1, "backoffLimit": 2147483647})
	model.job_t(job) == 8
}

test_t_indexed_per_index_capped_by_backoff if {
	job := object.union(fx.base_job, {"completions": 4, "completionMode": "Indexed", "backoffLimitPerIndex": 3, "backoffLimit": 2})
	model.job_t(job) == 6
}

test_t_suspended if model.job_t(object.union(fx.base_job, {"suspend": true})) == 0

test_t_zero_parallelism if model.job_t(object.union(fx.base_job, {"parallelism": 0})) == 0

test_running_capped_by_completions if model._job_running(object.union(fx.base_job, {"parallelism": 5, "completions": 2})) == 2

# --- CronJob A and K ---

test_cron_forbid_a if model._cron_active_runs(fx.cronjob("c", {}, {})) == 1

test_cron_allow_with_deadline_a if {
	w := fx.cronjob("c", {"concurrencyPolicy": "Allow"}, {"activeDeadlineSeconds": 600})
	model._cron_active_runs(w) == 3 # ceil(600/300) + 1
}

test_cron_ttl_k if {
	w := fx.cronjob("c", {}, {"ttlSecondsAfterFinished": 60})
	model._cron_kept(w) == 2 # min(4, 1 + ceil(60/300))
}

test_cron_unbounded_allow if {
	w := fx.cronjob("c", {"concurrencyPolicy": "Allow"}, {})
	count(model._unbounded_reasons(w)) == 1
	n := model._numbers[w.id] with input as fx.inventory([w], [fx.sgp_all], [])
	not n.bounded
	n.retained == 34 # the lower bound, with one run at a time
	n.active == 1
}

# --- Worked example 1 of the model doc (the seed), with eni-lint's in-flight correction ---

test_seed_numbers if {
	w := fx.cronjob("seed", {}, {})
	n := model._numbers[w.id] with input as fx.inventory([w], [fx.sgp_all], [])
	n.T == 7
	n.A == 1
	n.K == 4
	n.retainedFinished == 28 # the model doc's "retained"
	n.retainedInFlight == 6 # the running Job's own failed pods, which the doc leaves out
	n.countHeld == 35 # the count of §5 alone
	n.held == 41 # (S + F + 1) x 7 + 6 created inside one 90 s window: §5a
	n.retained == 41
	n.active == 1
}

test_seed_row_exceeds if {
	w := fx.cronjob("seed", {}, {})
	rows := model.rows with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows[0].hidden == 41
	rows[0].demand == 41
	rows[0].verdict == "exceeds"
}

test_seed_ttl_backoff_fits if {
	w := fx.cronjob("seed", {}, {"ttlSecondsAfterFinished": 60, "backoffLimit": 2})
	rows := model.rows with input as fx.inventory([w], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows[0].hidden == 9 # T=3 of the oldest run, plus 6 packed in its 150 s tail (§5a)
	rows[0].demand == 9
	rows[0].verdict == "fits"
}

# --- Worked example 2: a Job without TTL and a Deployment ---

test_job_and_deployment if {
	job := fx.job("batch", {"completions": 3})
	dep := fx.deployment("api", 2, 1)
	rows := model.rows with input as fx.inventory([job, dep], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows[0].hidden == 9
	rows[0].active == 3
	rows[0].demand == 12
}

test_job_alone_fits_at_capacity if {
	rows := model.rows with input as fx.inventory([fx.job("batch", {"completions": 3})], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows[0].demand == 9
	rows[0].verdict == "fits"
}

# --- onCompletion counts churn, not retention ---

test_on_completion_churn if {
	w := fx.cronjob("seed", {}, {})
	inv := fx.on_completion(fx.inventory([w], [fx.sgp_all], [fx.node_group("default", ["m5.large"])]))
	rows := model.rows with input as inv
	rows[0].hidden == 9 # three chains inside one 90 s window (§5a)
	rows[0].demand == 9
	rows[0].verdict == "fits"
}

# --- Capacity is limited by maxPods ---

test_max_pods_caps_capacity if {
	g := object.union(fx.node_group("default", ["m5.xlarge"]), {"maxPods": 10})
	rows := model.rows with input as fx.inventory([fx.deployment("api", 1, 0)], [fx.sgp_all], [g])
	rows[0].branchInterfaces == 10
}

# --- Selection (§3) ---

test_other_namespace_not_selected if {
	sgp := object.union(fx.sgp_all, {"namespace": "other"})
	ws := model.eni_workloads with input as fx.inventory([fx.job("j", {})], [sgp], [])
	count(ws) == 0
}

test_pod_selector_mismatch if {
	sgp := fx.sgp("x", {"matchLabels": {"app": "other"}, "matchExpressions": []})
	ws := model.eni_workloads with input as fx.inventory([fx.job("j", {})], [sgp], [])
	count(ws) == 0
}

test_empty_selector_selects_all if {
	sgp := fx.sgp("x", {"matchLabels": {}, "matchExpressions": []})
	ws := model.eni_workloads with input as fx.inventory([fx.job("j", {})], [sgp], [])
	count(ws) == 1
}

# matchExpressions In and Exists are looked up by label like matchLabels: the lookup finds
# exactly the policies the full test would, each once, with NotIn still tested in full.
test_selection_by_expressions_is_indexed if {
	w := fx.with_pod(fx.job("j", {}), {"labels": {"team": "core", "tier": "batch"}})
	by_in := fx.sgp("by-in", {"matchLabels": {}, "matchExpressions": [{"key": "team", "operator": "In", "values": ["core", "core", "web"]}]})
	by_exists := fx.sgp("by-exists", {"matchLabels": {}, "matchExpressions": [{"key": "tier", "operator": "Exists", "values": []}, {"key": "team", "operator": "NotIn", "values": ["web"]}]})
	by_not_in := fx.sgp("by-not-in", {"matchLabels": {}, "matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["a"]}]})
	other_value := fx.sgp("other-value", {"matchLabels": {}, "matchExpressions": [{"key": "team", "operator": "In", "values": ["web"]}]})
	other_key := fx.sgp("other-key", {"matchLabels": {}, "matchExpressions": [{"key": "gpu", "operator": "Exists", "values": []}]})
	inv := fx.inventory([w], [by_in, by_exists, by_not_in, other_value, other_key], [])
	model.selection[w.id].names == ["by-exists", "by-in", "by-not-in"] with input as inv
}

test_policy_without_groups_ignored if {
	sgp := object.union(fx.sgp_all, {"groupIds": []})
	ws := model.eni_workloads with input as fx.inventory([fx.job("j", {})], [sgp], [])
	count(ws) == 0
}

sa_sgp := object.union(fx.sgp("by-sa", null), {"serviceAccountSelector": {"matchLabels": {"db": "yes"}, "matchExpressions": []}})

sa(name, labels) := {"id": name, "kind": "ServiceAccount", "name": name, "namespace": "default", "labels": labels}

test_service_account_selector_matches_labels if {
	w := fx.with_pod(fx.job("j", {}), {"serviceAccountName": "app"})
	inv := object.union(fx.inventory([w], [sa_sgp], []), {"serviceAccounts": [sa("app", {"db": "yes"})]})
	count(model.eni_workloads) == 1 with input as inv
}

test_service_account_selector_missing_manifest_is_unknown if {
	w := fx.with_pod(fx.job("j", {}), {"serviceAccountName": "app"})
	inv := fx.inventory([w], [sa_sgp], [])
	count(model.eni_workloads) == 0 with input as inv
	count(model.selection[w.id].unknownSA) == 1 with input as inv
}

test_both_selectors_are_anded if {
	both := object.union(sa_sgp, {"podSelector": {"matchLabels": {"app": "x"}, "matchExpressions": []}})
	w := fx.with_pod(fx.job("j", {}), {"serviceAccountName": "app"})
	inv := object.union(fx.inventory([w], [both], []), {"serviceAccounts": [sa("app", {"db": "yes"})]})
	count(model.eni_workloads) == 0 with input as inv
}

test_host_network_gets_no_eni if {
	w := fx.with_pod(fx.job("j", {}), {"hostNetwork": true})
	count(model.eni_workloads) == 0 with input as fx.inventory([w], [fx.sgp_all], [])
}

# Each exemption of no_branch_eni_reason keeps a selected workload out of eni_workloads, and
# eni_workloads tests them inline: the two must agree.
test_exemptions_agree_with_no_branch_eni_reason if {
	plain := fx.job("plain", {})
	exempt := [
		fx.with_pod(fx.job("host", {}), {"hostNetwork": true}),
		fx.with_pod(fx.job("win", {}), {"nodeSelector": {"kubernetes.io/os": "windows"}}),
		fx.with_pod(fx.job("win-beta", {}), {"nodeSelector": {"beta.kubernetes.io/os": "windows"}}),
		fx.with_pod(fx.job("fargate-label", {}), {"labels": object.union(fx.sgp_labels, {"eks.amazonaws.com/fargate-profile": "fp"})}),
		object.union(fx.job("fargate", {}), {"fargate": {"profile": "fp"}}),
	]
	linux := fx.with_pod(fx.job("linux", {}), {"nodeSelector": {"kubernetes.io/os": "linux"}})
	no_selector := fx.with_pod(fx.job("null-selector", {}), {"nodeSelector": null})
	inv := fx.inventory(array.concat([plain, linux, no_selector], exempt), [fx.sgp_all], [])
	ids := {w.id | some w in model.eni_workloads} with input as inv
	ids == {plain.id, linux.id, no_selector.id}
	every w in exempt {
		model.no_branch_eni_reason(w) with input as inv
	}
	every w in [plain, linux, no_selector] {
		not model.no_branch_eni_reason(w) with input as inv
	}
}

# --- Placement (§4) ---

test_node_selector_limits_placement if {
	w := fx.with_pod(fx.job("j", {}), {"nodeSelector": {"node.kubernetes.io/instance-type": "m5.xlarge"}})
	inv := fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large", "m5.xlarge"])])
	ps := model._placements[w.id] with input as inv
	[p.type.name | some p in ps] == ["m5.xlarge"]
}

test_taint_needs_toleration if {
	g := object.union(fx.node_group("g", ["m5.large"]), {"taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}]})
	w := fx.job("j", {})
	count(model._placements[w.id]) == 0 with input as fx.inventory([w], [fx.sgp_all], [g])
	tolerant := fx.with_pod(w, {"tolerations": [{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"}]})
	count(model._placements[w.id]) == 1 with input as fx.inventory([tolerant], [fx.sgp_all], [g])
}

test_prefer_no_schedule_does_not_block if {
	g := object.union(fx.node_group("g", ["m5.large"]), {"taints": [{"key": "x", "value": "", "effect": "PreferNoSchedule"}]})
	w := fx.job("j", {})
	count(model._placements[w.id]) == 1 with input as fx.inventory([w], [fx.sgp_all], [g])
}

test_required_affinity if {
	term := {"matchExpressions": [{"key": "node.kubernetes.io/instance-type", "operator": "NotIn", "values": ["m5.large"]}], "matchFields": []}
	w := fx.with_pod(fx.job("j", {}), {"requiredNodeAffinity": [term]})
	inv := fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large", "m5.xlarge"])])
	[p.type.name | some p in model._placements[w.id]] == ["m5.xlarge"] with input as inv
}

# A ReplicationController (core/v1) runs its replicas, like a ReplicaSet.
test_replication_controller_runs_its_replicas if {
	rc := object.union(fx.deployment("legacy", 4, 0), {"id": "ReplicationController/default/legacy", "apiVersion": "v1", "kind": "ReplicationController"})
	rows := model.rows with input as fx.inventory([rc], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows[0].active == 4
}

# --- Rows are keyed by node group id and type entry, not by name ---

# An eksctl group and a Karpenter pool both called "default": each row counts the CronJob
# once (demand 41), not once per group of that name (82).
test_same_name_groups_count_once if {
	w := fx.cronjob("seed", {}, {})
	a := fx.node_group("default", ["m5.large"])
	b := object.union(fx.node_group("default", ["m5.large"]), {"id": "NodeGroup/default@pools.yaml:1"})
	rows := model.rows with input as fx.inventory([w], [fx.sgp_all], [a, b])
	count(rows) == 2
	every r in rows {
		r.demand == 41
	}
}

# The same type listed twice with different launch-time labels (a Karpenter pool allowing spot
# and on-demand): a workload pinned to on-demand counts only on that entry.
test_variants_are_separate_rows if {
	od := object.union(fx.instance("m5.large"), {"key": "m5.large [karpenter.sh/capacity-type=on-demand]", "variant": "karpenter.sh/capacity-type=on-demand", "nodeLabels": object.union(fx.instance("m5.large").nodeLabels, {"karpenter.sh/capacity-type": "on-demand"})})
	spot := object.union(fx.instance("m5.large"), {"key": "m5.large [karpenter.sh/capacity-type=spot]", "variant": "karpenter.sh/capacity-type=spot", "nodeLabels": object.union(fx.instance("m5.large").nodeLabels, {"karpenter.sh/capacity-type": "spot"})})
	pool := object.union(fx.node_group("pool", []), {"instanceTypes": [od, spot]})
	pinned := fx.with_pod(fx.cronjob("pinned", {}, {}), {"nodeSelector": {"karpenter.sh/capacity-type": "on-demand"}})
	rows := model.rows with input as fx.inventory([pinned], [fx.sgp_all], [pool])
	[r.demand | some r in rows; r.variant == "karpenter.sh/capacity-type=on-demand"] == [41]
	[r.demand | some r in rows; r.variant == "karpenter.sh/capacity-type=spot"] == [0]
	model.type_label(rows[0]) == "m5.large [karpenter.sh/capacity-type=on-demand]"
}

# --- KEDA ScaledJob: A = maxReplicaCount, K = history limits + A, or fewer with a TTL ---

scaled_job(name, sj, spec) := object.union(fx.job(name, spec), {
	"id": sprintf("ScaledJob/default/%s", [name]), "kind": "ScaledJob",
	"jobSpecPath": "spec.jobTargetRef", "podPath": "spec.jobTargetRef.template",
	"scaledJob": object.union({"maxReplicaCount": 100, "successfulJobsHistoryLimit": 100, "failedJobsHistoryLimit": 100, "pollingInterval": 30, "scalingStrategy": "default", "runningJobPercentage": null}, sj),
})

# Each poll deletes at most A finished Jobs, whose pods hold W (90 s) more: the deletions of the
# 4 polls in [x − 90, x] hold together beside the S + F kept and the A alive. (A Job that
# deletes its running pods is finished, and deleted, only once they have stopped: Kubernetes
# 1.31.)
test_scaled_job_defaults if {
	n := model._numbers["ScaledJob/default/q"] with input as fx.inventory([scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2})], [fx.sgp_all], [])
	n.A == 3
	n.K == 212 # 100 + 100 + the Jobs deleted at the 4 polls within W, 3 each
	n.retained == 642 # 212 x 3 + 3 x 2 in flight
	n.active == 3
	n.bounded
	slow := scaled_job("q", {"maxReplicaCount": 3, "pollingInterval": 120}, {"backoffLimit": 2})
	model._numbers["ScaledJob/default/q"].K == 203 with input as fx.inventory([slow], [fx.sgp_all], []) # one poll within W
	parallel := scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2, "parallelism": 2, "completions": 2})
	model._numbers["ScaledJob/default/q"].K == 212 with input as fx.inventory([parallel], [fx.sgp_all], []) # pods deleted while they run have stopped by the deletion: 4 polls
}

test_scaled_job_ttl if {
	w := scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2, "ttlSecondsAfterFinished": 60})
	n := model._numbers["ScaledJob/default/q"] with input as fx.inventory([w], [fx.sgp_all], [])
	n.K == 18 # 3 x (floor((60 + 90) / 30) + 1): the Jobs that finished within the TTL and W
}

# onCompletion: the Jobs that ended within W or are alive were created at one of the 4 polls of
# that window or alive at its start: (4 + 1) x 3 Jobs of 3 pods, 3 of them running.
test_scaled_job_on_completion if {
	n := model._numbers["ScaledJob/default/q"] with input as fx.on_completion(fx.inventory([scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2})], [fx.sgp_all], []))
	n.churn == 42 # 4 x 3 x 3 + 3 x 2
	n.held == 45
}

test_scaled_job_custom_strategy_is_unbounded if {
	w := scaled_job("q", {"scalingStrategy": "custom", "runningJobPercentage": 0.5}, {})
	reasons := model._unbounded_reasons(w) with input as fx.inventory([w], [fx.sgp_all], [])
	count(reasons) == 1
	contains(reasons[0].reason, "customScalingRunningJobPercentage 0.5")
	w1 := scaled_job("q", {"scalingStrategy": "custom", "runningJobPercentage": 1}, {})
	count(model._unbounded_reasons(w1)) == 0 with input as fx.inventory([w1], [fx.sgp_all], [])
}

# --- Bare Pods that end ---

bare_pod(name, restart) := {
	"id": sprintf("Pod/default/%s", [name]), "apiVersion": "v1", "kind": "Pod", "name": name, "namespace": "default",
	"pod": object.union(fx.pod(fx.sgp_labels), {"restartPolicy": restart}), "podPath": "",
}

test_bare_pod_that_ends_is_retained if {
	inv := fx.inventory([bare_pod("once", "Never"), bare_pod("retry", "OnFailure"), bare_pod("server", "Always")], [fx.sgp_all], [])
	model._numbers["Pod/default/once"].retained == 1 with input as inv
	model._numbers["Pod/default/once"].active == 0 with input as inv
	model._numbers["Pod/default/retry"].retained == 1 with input as inv
	model._numbers["Pod/default/server"].active == 1 with input as inv
	model._numbers["Pod/default/server"].retained == 0 with input as inv
	model._numbers["Pod/default/once"].churn == 1 with input as fx.on_completion(inv)
}

# --- Spark executors: running pods, unbounded without maxExecutors ---

test_spark_executors if {
	e := {
		"id": "SparkApplication/default/a#executors", "kind": "SparkApplication", "name": "a (executors)", "namespace": "default",
		"replicas": 6, "pod": fx.pod(fx.sgp_labels), "podPath": "spec.executor", "spark": {"role": "executor"},
	}
	n := model._numbers[e.id] with input as fx.inventory([e], [fx.sgp_all], [])
	n.active == 6
	n.retained == 0
	n.bounded
	u := object.union(e, {"spark": {"role": "executor", "unboundedExecutors": true}})
	not model._numbers[e.id].bounded with input as fx.inventory([u], [fx.sgp_all], [])
}

# A ScheduledSparkApplication's operator deletes past runs only when it starts the next one:
# under onDelete the run it deletes then still holds (cool-down) while the new driver starts,
# so every 15 minutes, Forbid, keeping 3 and 2: K = 6 and held 7, where a CronJob's history is
# cleaned up as each run ends. A timeToLiveSeconds of 600 s deletes each run 600 s after it
# ends: the runs that ended within 600 + 90 s (one per period) and the running one.
test_scheduled_spark_driver_keeps_one_more_under_on_delete if {
	d := object.union(fx.cronjob("compaction", {"schedule": "*/15 * * * *", "periodSeconds": 900, "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 2}, {"backoffLimit": 0}), {
		"id": "ScheduledSparkApplication/default/compaction#driver", "kind": "ScheduledSparkApplication",
		"spark": {"role": "driver"},
	})
	n := model._numbers[d.id] with input as fx.inventory([d], [fx.sgp_all], [])
	n.K == 6
	n.held == 7
	ttl := object.union(d, {"job": object.union(d.job, {"ttlSecondsAfterFinished": 600})})
	model._numbers[d.id].K == 2 with input as fx.inventory([ttl], [fx.sgp_all], [])
	onc := model._numbers[d.id] with input as fx.on_completion(fx.inventory([d], [fx.sgp_all], []))
	onc.retained == 0
}

# Reasons the loader found (Argo withParam) make the numbers lower bounds.
test_loader_reasons_are_unbounded if {
	w := object.union(fx.job("wf", {}), {"unbounded": [{"reason": "withParam expands", "path": "spec.templates[0].dag.tasks[0].withParam"}]})
	reasons := model._unbounded_reasons(w) with input as fx.inventory([w], [fx.sgp_all], [])
	reasons == [{"reason": "withParam expands", "paths": ["spec.templates[0].dag.tasks[0].withParam"]}]
	not model._numbers["Job/default/wf"].bounded with input as fx.inventory([w], [fx.sgp_all], [])
}

test_spark_executors_kept if {
	e := {
		"id": "SparkApplication/default/a#executors", "kind": "SparkApplication", "name": "a (executors)", "namespace": "default",
		"replicas": 4, "pod": fx.pod(fx.sgp_labels), "podPath": "spec.executor", "ttlPath": "spec.sparkConf",
		"spark": {"role": "executor", "keepsExecutors": true},
	}
	n := model._numbers[e.id] with input as fx.inventory([e], [fx.sgp_all], [])
	n.retained == 4
	n.active == 4
	not n.bounded
}

# --- Rows that scale: keys, the top contributors, and fixes from every contributor ---

# Workloads that share a placement key share one placement; another key lands elsewhere.
test_placement_keys_share_placements if {
	a := fx.job("a", {})
	b := fx.job("b", {})
	pinned := fx.with_pod(fx.job("pinned", {}), {"nodeSelector": {"node.kubernetes.io/instance-type": "m5.xlarge"}})
	inv := fx.inventory([a, b, pinned], [fx.sgp_all], [fx.node_group("g", ["m5.large", "m5.xlarge"])])
	count(model._placement_keys) == 2 with input as inv
	rows := model.rows with input as inv
	[r.hidden | some r in rows; r.instanceType == "m5.large"] == [14]
	[r.hidden | some r in rows; r.instanceType == "m5.xlarge"] == [21]
}

# 25 standalone Jobs of T = 2 on a group of capacity 49 (maxPods): demand 50, excess 1. The
# row lists the 20 that hold the most and counts the other 5, and each of the 25 alone is a
# remedy (backoffLimit 0 frees 1), those outside the top 20 too; the finding lists three.
test_rows_list_the_top_contributors_and_fixes_see_all if {
	slots := [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
	jobs := [fx.job(sprintf("j%02d", [i]), {"backoffLimit": 1}) | some i, _ in slots]
	g := object.union(fx.node_group("g", ["m5.4xlarge"]), {"maxPods": 49})
	inv := fx.inventory(jobs, [fx.sgp_all], [g])
	rows := model.rows with input as inv
	count(rows[0].contributors) == 20
	rows[0].otherContributors == 5
	rows[0].demand == 50
	fs := data.eni.rules.eni001.finding with input as inv
	count(fs) == 1
	some f in fs
	count(f.details.contributors) == 20
	f.details.otherContributors == 5
	count([x | some x in f.details.fixes; x.workload]) == 3 # at most three of a rank are listed
	count(data.eni.remedies.workload_remedies(rows[0], rows)) == 25 with input as inv
}

# A policy found through its first matchLabels entry is still tested on the rest of its
# selector: here an expression the pod does not meet.
test_indexed_policy_still_tests_its_expressions if {
	sel := {"matchLabels": {"sgp": "yes"}, "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}]}
	p := fx.sgp("prod-only", sel)
	dev := fx.with_pod(fx.job("dev", {}), {"labels": {"sgp": "yes", "env": "dev"}})
	prod := fx.with_pod(fx.job("prod", {}), {"labels": {"sgp": "yes", "env": "prod"}})
	inv := fx.inventory([dev, prod], [p], [])
	[w.name | some w in model.eni_workloads] == ["prod"] with input as inv
}
