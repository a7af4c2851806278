package eni.rules.org001_test

import data.eni.rules.org001

job(labels) := {
	"id": "Job/default/j", "kind": "Job", "name": "j", "namespace": "default",
	"job": {"parallelism": 1, "completions": 1, "backoffLimit": 6, "backoffLimitPerIndex": null, "completionMode": "NonIndexed", "suspend": false, "ttlSecondsAfterFinished": 60, "activeDeadlineSeconds": null, "manualSelector": false, "managedBy": "kubernetes.io/job-controller", "podFailurePolicyIgnore": false},
	"pod": {"labels": labels, "serviceAccountName": "default", "hostNetwork": false, "nodeSelector": {}, "requiredNodeAffinity": [], "tolerations": [], "podEniRequests": []},
	"jobSpecPath": "spec", "podPath": "spec.template",
}

sgp := {"id": "s", "name": "s", "namespace": "default", "podSelector": {"matchLabels": {}, "matchExpressions": []}, "serviceAccountSelector": null, "groupIds": ["sg-1"]}

inventory(w) := {"settings": {"eniRelease": "onDelete"}, "workloads": [w], "securityGroupPolicies": [sgp], "serviceAccounts": [], "nodeGroups": []}

test_fires_without_team if count(org001.finding) == 1 with input as inventory(job({"app": "x"}))

test_quiet_with_team if count(org001.finding) == 0 with input as inventory(job({"team": "billing"}))
