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

test_running_capped_by_completions if model.job_running(object.union(fx.base_job, {"parallelism": 5, "completions": 2})) == 2

# --- CronJob A and K ---

test_cron_forbid_a if model.cron_active_runs(fx.cronjob("c", {}, {})) == 1

test_cron_allow_with_deadline_a if {
	w := fx.cronjob("c", {"concurrencyPolicy": "Allow"}, {"activeDeadlineSeconds": 600})
	model.cron_active_runs(w) == 3 # ceil(600/300) + 1
}

test_cron_ttl_k if {
	w := fx.cronjob("c", {}, {"ttlSecondsAfterFinished": 60})
	model.cron_kept(w) == 2 # min(4, 1 + ceil(60/300))
}

test_cron_unbounded_allow if {
	w := fx.cronjob("c", {"concurrencyPolicy": "Allow"}, {})
	count(model.unbounded_reasons(w)) == 1
	n := model.numbers[w.id] with input as fx.inventory([w], [fx.sgp_all], [])
	not n.bounded
	n.retained == 34 # the lower bound, with one run at a time
	n.active == 1
}

# --- Worked example 1 of the model doc (the seed), with eni-lint's in-flight correction ---

test_seed_numbers if {
	w := fx.cronjob("seed", {}, {})
	n := model.numbers[w.id] with input as fx.inventory([w], [fx.sgp_all], [])
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
	ps := model.placements[w.id] with input as inv
	[p.type.name | some p in ps] == ["m5.xlarge"]
}

test_taint_needs_toleration if {
	g := object.union(fx.node_group("g", ["m5.large"]), {"taints": [{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}]})
	w := fx.job("j", {})
	count(model.placements[w.id]) == 0 with input as fx.inventory([w], [fx.sgp_all], [g])
	tolerant := fx.with_pod(w, {"tolerations": [{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"}]})
	count(model.placements[w.id]) == 1 with input as fx.inventory([tolerant], [fx.sgp_all], [g])
}

test_prefer_no_schedule_does_not_block if {
	g := object.union(fx.node_group("g", ["m5.large"]), {"taints": [{"key": "x", "value": "", "effect": "PreferNoSchedule"}]})
	w := fx.job("j", {})
	count(model.placements[w.id]) == 1 with input as fx.inventory([w], [fx.sgp_all], [g])
}

test_required_affinity if {
	term := {"matchExpressions": [{"key": "node.kubernetes.io/instance-type", "operator": "NotIn", "values": ["m5.large"]}], "matchFields": []}
	w := fx.with_pod(fx.job("j", {}), {"requiredNodeAffinity": [term]})
	inv := fx.inventory([w], [fx.sgp_all], [fx.node_group("g", ["m5.large", "m5.xlarge"])])
	[p.type.name | some p in model.placements[w.id]] == ["m5.xlarge"] with input as inv
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
# 4 polls in [x − 90, x] hold together beside the S + F kept and the A alive. (Pods that a Job
# deletes while they run, which this one does not, widen the window by their stop.)
test_scaled_job_defaults if {
	n := model.numbers["ScaledJob/default/q"] with input as fx.inventory([scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2})], [fx.sgp_all], [])
	n.A == 3
	n.K == 212 # 100 + 100 + the Jobs deleted at the 4 polls within W, 3 each
	n.retained == 642 # 212 x 3 + 3 x 2 in flight
	n.active == 3
	n.bounded
	slow := scaled_job("q", {"maxReplicaCount": 3, "pollingInterval": 120}, {"backoffLimit": 2})
	model.numbers["ScaledJob/default/q"].K == 203 with input as fx.inventory([slow], [fx.sgp_all], []) # one poll within W
	parallel := scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2, "parallelism": 2, "completions": 2})
	model.numbers["ScaledJob/default/q"].K == 215 with input as fx.inventory([parallel], [fx.sgp_all], []) # pods deleted while they run: 5 polls in 90 + 30 s
}

test_scaled_job_ttl if {
	w := scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2, "ttlSecondsAfterFinished": 60})
	n := model.numbers["ScaledJob/default/q"] with input as fx.inventory([w], [fx.sgp_all], [])
	n.K == 18 # 3 x (floor((60 + 90) / 30) + 1): the Jobs that finished within the TTL and W
}

# onCompletion: the Jobs that ended within W or are alive were created at one of the 4 polls of
# that window or alive at its start: (4 + 1) x 3 Jobs of 3 pods, 3 of them running.
test_scaled_job_on_completion if {
	n := model.numbers["ScaledJob/default/q"] with input as fx.on_completion(fx.inventory([scaled_job("q", {"maxReplicaCount": 3}, {"backoffLimit": 2})], [fx.sgp_all], []))
	n.churn == 42 # 4 x 3 x 3 + 3 x 2
	n.held == 45
}

test_scaled_job_custom_strategy_is_unbounded if {
	w := scaled_job("q", {"scalingStrategy": "custom", "runningJobPercentage": 0.5}, {})
	reasons := model.unbounded_reasons(w) with input as fx.inventory([w], [fx.sgp_all], [])
	count(reasons) == 1
	contains(reasons[0].reason, "customScalingRunningJobPercentage 0.5")
	w1 := scaled_job("q", {"scalingStrategy": "custom", "runningJobPercentage": 1}, {})
	count(model.unbounded_reasons(w1)) == 0 with input as fx.inventory([w1], [fx.sgp_all], [])
}

# --- Bare Pods that end ---

bare_pod(name, restart) := {
	"id": sprintf("Pod/default/%s", [name]), "apiVersion": "v1", "kind": "Pod", "name": name, "namespace": "default",
	"pod": object.union(fx.pod(fx.sgp_labels), {"restartPolicy": restart}), "podPath": "",
}

test_bare_pod_that_ends_is_retained if {
	inv := fx.inventory([bare_pod("once", "Never"), bare_pod("retry", "OnFailure"), bare_pod("server", "Always")], [fx.sgp_all], [])
	model.numbers["Pod/default/once"].retained == 1 with input as inv
	model.numbers["Pod/default/once"].active == 0 with input as inv
	model.numbers["Pod/default/retry"].retained == 1 with input as inv
	model.numbers["Pod/default/server"].active == 1 with input as inv
	model.numbers["Pod/default/server"].retained == 0 with input as inv
	model.numbers["Pod/default/once"].churn == 1 with input as fx.on_completion(inv)
}

# --- Spark executors: running pods, unbounded without maxExecutors ---

test_spark_executors if {
	e := {
		"id": "SparkApplication/default/a#executors", "kind": "SparkApplication", "name": "a (executors)", "namespace": "default",
		"replicas": 6, "pod": fx.pod(fx.sgp_labels), "podPath": "spec.executor", "spark": {"role": "executor"},
	}
	n := model.numbers[e.id] with input as fx.inventory([e], [fx.sgp_all], [])
	n.active == 6
	n.retained == 0
	n.bounded
	u := object.union(e, {"spark": {"role": "executor", "unboundedExecutors": true}})
	not model.numbers[e.id].bounded with input as fx.inventory([u], [fx.sgp_all], [])
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
	n := model.numbers[d.id] with input as fx.inventory([d], [fx.sgp_all], [])
	n.K == 6
	n.held == 7
	ttl := object.union(d, {"job": object.union(d.job, {"ttlSecondsAfterFinished": 600})})
	model.numbers[d.id].K == 2 with input as fx.inventory([ttl], [fx.sgp_all], [])
	onc := model.numbers[d.id] with input as fx.on_completion(fx.inventory([d], [fx.sgp_all], []))
	onc.retained == 0
}

# Reasons the loader found (Argo withParam) make the numbers lower bounds.
test_loader_reasons_are_unbounded if {
	w := object.union(fx.job("wf", {}), {"unbounded": [{"reason": "withParam expands", "path": "spec.templates[0].dag.tasks[0].withParam"}]})
	reasons := model.unbounded_reasons(w) with input as fx.inventory([w], [fx.sgp_all], [])
	reasons == [{"reason": "withParam expands", "paths": ["spec.templates[0].dag.tasks[0].withParam"]}]
	not model.numbers["Job/default/wf"].bounded with input as fx.inventory([w], [fx.sgp_all], [])
}

test_spark_executors_kept if {
	e := {
		"id": "SparkApplication/default/a#executors", "kind": "SparkApplication", "name": "a (executors)", "namespace": "default",
		"replicas": 4, "pod": fx.pod(fx.sgp_labels), "podPath": "spec.executor", "ttlPath": "spec.sparkConf",
		"spark": {"role": "executor", "keepsExecutors": true},
	}
	n := model.numbers[e.id] with input as fx.inventory([e], [fx.sgp_all], [])
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
	count(model.placement_keys) == 2 with input as inv
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

# --- onCompletion: CronJobs whose runs cannot overlap (§5a) ---

# 25 nightly backups every 20 minutes from 00:00, each stopped by a 600 s deadline: a run
# holds within 600 + 30 + 90 = 720 s of its time, so no two hold at once and the row
# counts one of them, not all 25. One run alone holds 4: the deadline ends it long before the
# next time, so only its own pods count, and the back-off spaces them (0, 10, 30, 70 s) so that
# no more than 4 end within 90 s of each other.
nightly(i) := fx.cronjob(sprintf("backup-%02d", [i]), {
	"schedule": "", "periodSeconds": 86400,
	"weekTimes": week_times(i * 1200),
}, {"activeDeadlineSeconds": 600})

week_times(at) := [x | some d in [0, 1, 2, 3, 4, 5, 6]; x := at + (d * 86400)]

test_nightly_backups_do_not_add_up if {
	slots := [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
	inv := fx.on_completion(fx.inventory([nightly(i) | some i in slots], [fx.sgp_all], [fx.node_group("default", ["m5.large"])]))
	rows := model.rows with input as inv
	rows[0].held == 4
	rows[0].hidden == 4
	rows[0].demand == 4
	rows[0].verdict == "fits"
	rows[0].scheduleSeparated.saved == 96
	count(rows[0].scheduleSeparated.workloads) == 25
}

# Two backups 10 minutes apart overlap (busy 720 s > 600 s): they add up.
test_overlapping_backups_add_up if {
	a := nightly(0)
	b := object.union(nightly(1), {"cronJob": object.union(nightly(1).cronJob, {"weekTimes": [600]})})
	inv := fx.on_completion(fx.inventory([a, b], [fx.sgp_all], [fx.node_group("default", ["m5.large"])]))
	rows := model.rows with input as inv
	rows[0].held == 8
}

# Under onDelete without a TTL the schedules do not separate anything: finished Jobs stay until
# the history deletes them.
test_no_separation_on_delete_without_ttl if {
	inv := fx.inventory([nightly(0), nightly(1)], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows := model.rows with input as inv
	not rows[0].scheduleSeparated
}

# With a TTL a finished Job is deleted TTL after it ends: six backups 4 h apart with a 300 s TTL
# hold within 600 + 30 + 300 + 90 s of their times, never together. Each alone is one run's
# pods, 6: the next run of the same CronJob comes a day later, and the back-off lets a run
# create its 7th pod only 630 s after it starts, past its 600 s deadline (78 before, the sum of
# 7 + a 6-pod catch-up each).
backup_with_ttl(i) := object.union(nightly(i), {
	"cronJob": {"weekTimes": week_times(i * 14400)},
	"job": {"ttlSecondsAfterFinished": 300},
})

test_ttl_separates_on_delete if {
	inv := fx.inventory([backup_with_ttl(i) | some i in [0, 1, 2, 3, 4, 5]], [fx.sgp_all], [fx.node_group("default", ["m5.large"])])
	rows := model.rows with input as inv
	count(rows[0].scheduleSeparated.workloads) == 6
	rows[0].held == 6
	rows[0].demand == 6
	rows[0].verdict == "fits"
}

# A replaced run's pod with a long grace period keeps its ENI while it stops: every 5 minutes,
# Replace, grace 3600 s. Counted as if pods stopped within 30 s (7) plus one running pod per run
# replaced in the 3570 s before (12): 19, where the issue's simulator reached 17; before, 7.
test_long_grace_replace_is_counted if {
	cj := fx.cronjob("sync", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600})
	inv := fx.on_completion(fx.inventory([cj], [fx.sgp_all], []))
	model.numbers[cj.id].held == 19 with input as inv
}

# Of those 19, the 12 replaced runs' pods still stopping were all running one W before the
# peak, and an m5.large runs at most 9 SGP pods at once: its row counts 7 + 9 = 16. An
# m5.xlarge (18) counts all 19. Two such CronJobs on one m5.large: 7 + 7 + 9 = 23, not 38.
test_long_grace_stopping_pods_count_at_the_nodes_capacity if {
	cj := fx.cronjob("sync", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600})
	inv := fx.on_completion(fx.inventory([cj], [fx.sgp_all], [fx.node_group("ng", ["m5.large", "m5.xlarge"])]))
	model.numbers[cj.id].lateStopping == 12 with input as inv
	rows := model.rows with input as inv
	[large] := [r | some r in rows; r.instanceType == "m5.large"]
	large.held == 16
	large.demand == 16
	large.lateStopping == {"pods": 12, "overCapacity": 3}
	[xlarge] := [r | some r in rows; r.instanceType == "m5.xlarge"]
	xlarge.demand == 19
	xlarge.lateStopping == {"pods": 12, "overCapacity": 0}
	model.demand_on(large, 18) == 19
	model.demand_on(large, 38) == 19
	other := fx.cronjob("other", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600})
	both := fx.on_completion(fx.inventory([cj, other], [fx.sgp_all], [fx.node_group("ng", ["m5.large"])]))
	[row] := model.rows with input as both
	row.demand == 23
}

# Under onDelete a run stopped by its deadline keeps all its pods until its TTL, which counts
# from its stopped pod's end: its late pods need not have run together, and none is capped.
test_deadline_stopped_runs_under_on_delete_are_not_capped if {
	cj := fx.cronjob("sync", {"concurrencyPolicy": "Replace"}, {"terminationGracePeriodSeconds": 3600, "activeDeadlineSeconds": 120, "ttlSecondsAfterFinished": 60})
	inv := fx.inventory([cj], [fx.sgp_all], [fx.node_group("ng", ["m5.large"])])
	not model.numbers[cj.id].lateStopping with input as inv
	[row] := model.rows with input as inv
	not row.lateStopping
}

# OnFailure pods restart in place: without disruptions a run leaves its one pod (T = 1, where
# Never leaves completions + backoffLimit = 7). With --disruptions 6 each disrupted pod is
# replaced after the same back-off: a single-pod Job then chains like restartPolicy Never.
test_on_failure_chains if {
	never := fx.job("never", {})
	onfail := fx.job("onfail", {"restartPolicy": "OnFailure"})
	inv := fx.on_completion(fx.inventory([never, onfail], [fx.sgp_all], []))
	model.numbers[onfail.id].T == 1 with input as inv
	model.numbers[onfail.id].held == 1 with input as inv
	model.numbers[never.id].T == 7 with input as inv
	disrupted := object.union(inv, {"settings": object.union(inv.settings, {"disruptions": 6})})
	model.numbers[never.id].held == model.numbers[onfail.id].held with input as disrupted
	model.numbers[onfail.id].held < 7 with input as disrupted
	model.numbers[onfail.id].T == 7 with input as disrupted
}

# --- Runs in a window (§5a) ---

# Forbid starts a skipped time late (two runs in the 150 s tail: 7 + 8); Replace starts every
# run at its time, and deletes the run at the next one, so a run creates at most 5 pods in its
# 300 s (one run in the tail: 5 + 5); Forbid whose startingDeadlineSeconds is shorter than what
# the catch-up needs starts every run at its time too (7 + 5).
test_runs_in_a_window_by_policy if {
	forbid := fx.cronjob("f", {}, {"ttlSecondsAfterFinished": 60})
	replace := fx.cronjob("r", {"concurrencyPolicy": "Replace"}, {"ttlSecondsAfterFinished": 60})
	deadline := fx.cronjob("d", {"startingDeadlineSeconds": 60}, {"ttlSecondsAfterFinished": 60})
	inv := fx.inventory([forbid, replace, deadline], [fx.sgp_all], [])
	model.numbers[forbid.id].held == 15 with input as inv
	model.numbers[replace.id].held == 10 with input as inv
	model.numbers[deadline.id].held == 12 with input as inv
}

# Runs in a window from the schedule's real times: twice a night an hour apart ("0 1,2 * * *"),
# a 2-hour TTL, a 10-minute deadline. The window of a run (600 + 30 + 7200 + 90 s) holds two
# schedule times, not the three its shortest gap (3600 s) would allow: 2 runs of 6 (the
# deadline comes before the 7th pod's back-off ends), not 3.
test_runs_in_a_window_from_the_real_times if {
	cron := {"periodSeconds": 3600, "runSpans": [3600, 86400, 90000]}
	spec := {"activeDeadlineSeconds": 600, "ttlSecondsAfterFinished": 7200}
	irregular := fx.cronjob("twice", cron, spec)
	regular := fx.cronjob("hourly", {"periodSeconds": 3600}, spec)
	inv := fx.inventory([irregular, regular], [fx.sgp_all], [])
	model.numbers[irregular.id].held == 12 with input as inv
	model.numbers[regular.id].held == 18 with input as inv
}

# A single chain stopped by its deadline creates only the pods the back-off allows before it:
# 0, 10, 30 s within a 30 s deadline, so 3 of backoffLimit 6's 7.
test_a_deadline_caps_a_chain if {
	short := fx.job("short", {"activeDeadlineSeconds": 30})
	long := fx.job("long", {"activeDeadlineSeconds": 3600})
	inv := fx.inventory([short, long], [fx.sgp_all], [])
	model.numbers[short.id].held == 3 with input as inv
	model.numbers[long.id].held == 7 with input as inv
}

# Forbid with a 300 s deadline every 10 minutes and a one-hour grace period: before 1.31 each
# stopped run's pod keeps its ENI while it stops and the next run starts at its time, so stopped
# pods pile up one per 600 s (6 in the 3570 s before); since 1.31 the Job blocks the next run
# until its pod has stopped, and the run that follows is a late one. Counted as if pods stopped
# in 30 s but runs could start late (10: two runs' chains in one window) plus the 6 late pods:
# 16, where every window counted with the grace gave about 45. A 700 s deadline (past the next
# time) gives the same: stops 700 s apart, 6 late pods on the same base.
test_long_grace_forbid_is_counted_by_its_deadline if {
	cj := fx.cronjob("sync", {"periodSeconds": 600}, {"activeDeadlineSeconds": 300, "terminationGracePeriodSeconds": 3600})
	long := fx.cronjob("long", {"periodSeconds": 600}, {"activeDeadlineSeconds": 700, "terminationGracePeriodSeconds": 3600})
	inv := fx.on_completion(fx.inventory([cj, long], [fx.sgp_all], []))
	model.numbers[cj.id].held == 16 with input as inv
	model.numbers[long.id].held == 16 with input as inv
}

# Replace caps a run's pods at what the back-off lets it create before the next time: only for
# restartPolicy Never and a schedule whose every gap is its period, in UTC.
test_replace_caps_a_runs_pods_by_its_period if {
	every5 := fx.cronjob("r5", {"concurrencyPolicy": "Replace"}, {})
	zoned := fx.cronjob("rz", {"concurrencyPolicy": "Replace", "timeZone": "Europe/Berlin"}, {})
	irregular := fx.cronjob("ri", {"concurrencyPolicy": "Replace", "runSpans": [300, 900]}, {})
	hourly := fx.cronjob("rh", {"concurrencyPolicy": "Replace", "periodSeconds": 3600}, {})
	onfailure := fx.cronjob("ro", {"concurrencyPolicy": "Replace"}, {"restartPolicy": "OnFailure"})
	inv := fx.inventory([every5, zoned, irregular, hourly, onfailure], [fx.sgp_all], [])
	model.run_pods(every5) == 5 with input as inv
	model.run_pods(zoned) == 7 with input as inv
	model.run_pods(irregular) == 7 with input as inv
	model.run_pods(hourly) == 7 with input as inv
	model.run_pods(onfailure) == 1 with input as inv # restarts in place: one pod a run
	disrupted := object.union(inv, {"settings": object.union(inv.settings, {"disruptions": 6})})
	model.run_pods(onfailure) == 7 with input as disrupted
}

# A TTL deletes only Jobs the history kept, so it adds nothing to the count's S + F plus the
# runs finishing in the window: every 5 minutes, Forbid, a 240 s deadline (5 pods a run), a 1 h
# TTL, history 3/1: (3 + 1 + 1)·5 + the 4 pods a run creates in W + stop = 29, where the TTL
# counted on top gave 39 and the witness reaches 28.
test_a_ttl_deletes_only_kept_jobs if {
	cj := fx.cronjob("reports", {}, {"activeDeadlineSeconds": 240, "ttlSecondsAfterFinished": 3600})
	inv := fx.inventory([cj], [fx.sgp_all], [])
	model.numbers[cj.id].held == 29 with input as inv
}
