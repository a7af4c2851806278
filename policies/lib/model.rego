# METADATA
# title: The branch-ENI model
# description: |
#   Everything the rules share: which workloads get a branch ENI (SecurityGroupPolicy
#   selection), where they may land (node groups), how many terminated pods each keeps (T, K,
#   A), and the per-instance-type arithmetic (hidden, active, demand). docs/model.md is the
#   contract this file implements; the section numbers below refer to it.
package eni.model

_settings := input.settings

on_delete if _settings.eniRelease == "onDelete"

# ---------------------------------------------------------------------------------------
# Locations

# Findings name the fields they are about as a list of paths, most precise first; eni-lint
# reports the position of the first one the manifest has, else the document's.

_under(base, field) := field if {
	base == ""
} else := concat(".", [base, field])

job_field(w, field) := _under(w.jobSpecPath, field)

pod_field(w, field) := _under(w.podPath, field)

object_ref(o) := {"id": o.id, "kind": o.kind, "namespace": object.get(o, "namespace", ""), "name": o.name}

# ---------------------------------------------------------------------------------------
# Helpers the rules share

workload_by_id := {w.id: w | some w in input.workloads}

# Where a finding about a workload's retention points: its TTL, or the Job spec a TTL goes
# into; for long-running workloads, their replicas.
retention_paths(w) := [ttl_path(w), w.jobSpecPath] if {
	w.job != null
} else := ["spec.restartPolicy", "spec"] if {
	_terminating_pod(w)
} else := ["spec.replicas", pod_field(w, "spec")]

# The path of the first field of a pod template that decides placement, for findings about
# where a workload may land.
placement_path(w) := pod_field(w, "spec.nodeSelector") if {
	count(w.pod.nodeSelector) > 0
} else := pod_field(w, "spec.affinity.nodeAffinity") if {
	count(w.pod.requiredNodeAffinity) > 0
} else := pod_field(w, "spec.tolerations") if {
	count(w.pod.tolerations) > 0
} else := pod_field(w, "spec")

# A finding as every rule returns it. severity "" means the rule's default from METADATA.
finding(rule, severity, message, obj, paths, details) := {
	"rule": rule,
	"severity": severity,
	"message": message,
	"paths": paths,
	"object": object_ref(obj),
	"details": details,
}

# A finding about something that is not a Kubernetes object (a node group).
finding_at(rule, severity, message, location, details) := {
	"rule": rule,
	"severity": severity,
	"message": message,
	"location": location,
	"details": details,
}

plural(n, word) := sprintf("%d %s", [n, word]) if {
	n == 1
} else := sprintf("%d %ss", [n, word])

describe(w) := sprintf("%s %s", [w.kind, w.name]) if {
	object.get(w, "namespace", "") == ""
} else := sprintf("%s %s/%s", [w.kind, w.namespace, w.name])

# ---------------------------------------------------------------------------------------
# Ignore annotations (eni-lint.io/ignore): which entries suppress, and why others do not

ignore_entries := array.concat(array.concat(_workload_ignore_entries, _entries_of(input.securityGroupPolicies)), _entries_of(input.nodeGroups))

_workload_ignore_entries := _partition_list("ignoreEntries") if _partitioned
else := _entries_of(input.workloads)

# The ignore entries of a list of objects. Every object carries its (often empty) ignores: the
# field is read directly, a call per object would cost as much as the pass.
_entries_of(objects) := [[obj, ig] | some obj in objects; some ig in obj.ignores]

# Why an entry suppresses nothing; undefined when it is valid.
ignore_problem(ig) := sprintf("cannot be read: %s", [ig.error]) if {
	ig.error != ""
} else := "has no reason, so it suppresses nothing; write RULE: reason" if {
	ig.reason == ""
} else := sprintf("is not allowed: the config forbids inline ignores for %s", [concat(", ", forbidden)]) if {
	forbidden := [r | some r in ig.rules; not _inline_allowed(r)]
	count(forbidden) > 0
} else := _entry_problem(ig)

# Problems any ignore entry can have, inline or in the config file.
_entry_problem(ig) := sprintf("names %s, which is not a rule of this run", [concat(", ", unknown)]) if {
	unknown := [r | some r in ig.rules; r != "*"; not r in _settings.ruleIds]
	count(unknown) > 0
} else := sprintf("expired on %s and no longer suppresses anything", [ig.expires]) if {
	ig.expires != ""
	ig.expires < _settings.today
}

_inline_allowed(rule) if _settings.inlineIgnores.rules[rule] == true

_inline_allowed(rule) if {
	not _has_rule_setting(rule)
	_settings.inlineIgnores["default"] == true
}

_has_rule_setting(rule) if _ = _settings.inlineIgnores.rules[rule]

# Config-file ignores that suppress (by index); the engine matches their paths and objects.
config_ignore_problem(ig) := "has no reason, so it suppresses nothing" if {
	ig.reason == ""
} else := _entry_problem(ig)

active_config_ignores := [ig.index |
	some ig in object.get(input, "configIgnores", [])
	not config_ignore_problem(ig)
]

# The entries that suppress: the engine marks the findings they cover.
active_ignores := [{"object": obj.id, "rules": ig.rules, "reason": ig.reason, "expires": ig.expires, "text": ig.text, "path": ig.path, "location": object.get(ig, "location", null), "ref": object_ref(obj)} |
	some [obj, ig] in ignore_entries
	not ignore_problem(ig)
]
