# Builders for the policy tests: inventory objects as the Go loaders produce them (defaults
# applied), so each test states only what it is about.
package eni.fixtures

loc(line) := {"file": "test.yaml", "line": line, "column": 3}

rule_ids := ["ENI001", "ENI002", "ENI003", "ENI004", "ENI005", "ENI006", "ENI007", "ENI008", "ENI009", "ENI010", "ENI011"]

settings_on_delete := {
	"eniRelease": "onDelete", "cooldownSeconds": 60, "windowSeconds": 90, "defaultNamespace": "default",
	"today": "2026-06-01", "inlineIgnores": {"default": true, "rules": {}}, "ruleIds": rule_ids,
}

settings_on_completion := object.union(settings_on_delete, {"eniRelease": "onCompletion"})

base_job := {
	"parallelism": 1, "completions": 1, "backoffLimit": 6, "backoffLimitPerIndex": null,
	"completionMode": "NonIndexed", "suspend": false, "ttlSecondsAfterFinished": null,
	"activeDeadlineSeconds": null, "manualSelector": false,
	"managedBy": "kubernetes.io/job-controller", "podFailurePolicyIgnore": false,
	"restartPolicy": "Never", "defaulted": [],
}

base_cron := {
	"schedule": "*/5 * * * *", "periodSeconds": 300, "concurrencyPolicy": "Forbid",
	"successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1, "suspend": false, "defaulted": [],
}

pod(labels) := {
	"labels": labels, "serviceAccountName": "default", "hostNetwork": false, "nodeSelector": {},
	"requiredNodeAffinity": [], "tolerations": [], "podEniRequests": [],
}

sgp_labels := {"sgp": "yes"}

job(name, spec) := {
	"id": sprintf("Job/default/%s", [name]), "apiVersion": "batch/v1", "kind": "Job",
	"name": name, "namespace": "default",
	"job": object.union(base_job, spec), "pod": pod(sgp_labels),
	"jobSpecPath": "spec", "podPath": "spec.template",
}

cronjob(name, cron, spec) := {
	"id": sprintf("CronJob/default/%s", [name]), "apiVersion": "batch/v1", "kind": "CronJob",
	"name": name, "namespace": "default",
	"cronJob": object.union(base_cron, cron), "job": object.union(base_job, spec), "pod": pod(sgp_labels),
	"jobSpecPath": "spec.jobTemplate.spec", "podPath": "spec.jobTemplate.spec.template",
}

deployment(name, replicas, surge) := {
	"id": sprintf("Deployment/default/%s", [name]), "apiVersion": "apps/v1", "kind": "Deployment",
	"name": name, "namespace": "default",
	"replicas": replicas, "maxSurge": surge, "pod": pod(sgp_labels), "podPath": "spec.template",
}

# A workload with other pod-template fields.
with_pod(w, fields) := object.union(w, {"pod": object.union(w.pod, fields)})

sgp(name, pod_selector) := {
	"id": sprintf("SecurityGroupPolicy/default/%s", [name]), "apiVersion": "vpcresources.k8s.aws/v1beta1",
	"kind": "SecurityGroupPolicy", "name": name, "namespace": "default",
	"podSelector": pod_selector, "serviceAccountSelector": null, "groupIds": ["sg-1"],
}

sgp_all := sgp("all", {"matchLabels": {"sgp": "yes"}, "matchExpressions": []})

branch := {"m5.large": 9, "m5.xlarge": 18, "m5.2xlarge": 38, "m5.4xlarge": 54, "t3.medium": 0, "m4.large": 0}

arch := "amd64"

instance(name) := {
	"name": name, "key": name, "known": true, "trunking": branch[name] > 0, "branchInterfaces": branch[name],
	"source": "test", "location": {"file": "", "line": 0, "column": 0},
	"nodeLabels": {
		"node.kubernetes.io/instance-type": name, "kubernetes.io/arch": arch,
		"kubernetes.io/os": "linux",
	},
}

unknown_instance(name) := {
	"name": name, "key": name, "known": false, "trunking": false, "branchInterfaces": 0,
	"location": {"file": ".eni-lint.yaml", "line": 4, "column": 7},
	"nodeLabels": {"node.kubernetes.io/instance-type": name, "kubernetes.io/os": "linux"},
}

node_group(name, types) := {
	"id": sprintf("NodeGroup/%s@--node-group:0", [name]), "kind": "NodeGroup", "name": name, "source": "flag", "location": {"file": "--node-group", "line": 0, "column": 0},
	"labels": {}, "taints": [], "maxPods": null,
	"instanceTypes": [labelled(instance(t), name) | some t in types],
}

labelled(inst, group) := object.union(inst, {"nodeLabels": object.union(inst.nodeLabels, {"eks.amazonaws.com/nodegroup": group})})

families := {"m5": [
	{"name": "m5.large", "branchInterfaces": 9},
	{"name": "m5.xlarge", "branchInterfaces": 18},
	{"name": "m5.2xlarge", "branchInterfaces": 38},
]}

inventory(workloads, sgps, groups) := {
	"settings": settings_on_delete,
	"workloads": workloads,
	"securityGroupPolicies": sgps,
	"serviceAccounts": [],
	"namespaces": [],
	"nodeGroups": groups,
	"instanceFamilies": families,
}

on_completion(inv) := object.union(inv, {"settings": settings_on_completion})

# The findings of one rule package, for assertions.
of_rule(fs, id) := [f | some f in fs; f.rule == id]
