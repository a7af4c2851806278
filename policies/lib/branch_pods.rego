# The branch-ENI model, §3 of docs/model.md: which pods the VPC resource controller gives a
# branch ENI (the SecurityGroupPolicies that select them), and why it ignores a policy.
package eni.model

import data.eni.selectors

# ---------------------------------------------------------------------------------------
# §3 Which pods get a branch ENI

# Why the controller ignores a policy; undefined when it applies it.
sgp_ignored_reason(sgp) := "it has neither spec.podSelector nor spec.serviceAccountSelector" if {
	sgp.podSelector == null
	sgp.serviceAccountSelector == null
} else := "it lists no spec.securityGroups.groupIds" if {
	count(sgp.groupIds) == 0
}

applied_sgps := [s | some s in input.securityGroupPolicies; not sgp_ignored_reason(s)]

# Policies whose selectors the API accepts; the controller treats an invalid selector as
# matching nothing (ENI006 reports it). Checked once per policy, not once per workload.
matchable_sgps := [s | some s in applied_sgps; not sgp_selector_error(s)]

# The first invalid selector of a policy: [field, expression index, reason].
sgp_selector_error(sgp) := ["podSelector", i, msg] if {
	sgp.podSelector != null
	[i, msg] := selectors.selector_error(sgp.podSelector)
} else := ["serviceAccountSelector", i, msg] if {
	sgp.serviceAccountSelector != null
	[i, msg] := selectors.selector_error(sgp.serviceAccountSelector)
}

# Selection of every workload: the policies that select it and those that cannot be decided.
# A selection depends only on the namespace, the pod labels that the namespace's policies
# test, and the ServiceAccount when a policy there selects by it: _selection_of is called with
# exactly those, so workloads that agree on them (every replica of a chart, every workload of
# a namespace without policies on their labels) share one evaluation through OPA's function
# cache. The cost follows the distinct selections, not the workloads.
selection := object.union_n([p.selection | some p in input.partitions]) if _partitioned
else := {id: result | some [id, result] in _selection_entries}

_selection_entries contains [w.id, result] if {
	some w in input.workloads
	ns := w.namespace
	keys := _selector_keys[ns]
	labels := object.filter(w.pod.labels, keys)
	result := _selection_of(ns, labels, _selection_account(ns, w.pod.serviceAccountName))
}

# The label keys the policies of each namespace test (matchLabels and matchExpressions of
# their podSelectors): no other label can change which of them select a pod.
_selector_keys := {ns: keys |
	some ns in {s.namespace | some s in matchable_sgps}
	keys := {k |
		some s in matchable_sgps
		s.namespace == ns
		s.podSelector != null
		some k in _selector_label_keys(s.podSelector)
	}
}

_selector_label_keys(sel) := {k | some k, _ in object.get(sel, "matchLabels", {})} | {r.key | some r in object.get(sel, "matchExpressions", [])}

# The ServiceAccount name matters only where a policy selects by ServiceAccount.
_selection_account(ns, name) := name if {
	ns in _namespaces_with_sa_selectors
} else := ""

_selection_of(ns, labels, sa_name) := result if {
	# The policies that can select these labels: those anchored on one of the pod's labels
	# (a matchLabels entry, looked up directly) and those that need a full evaluation, in
	# the order they were read. The pod's own labels need nothing else; the ServiceAccount is
	# looked up only for the policies that pass.
	anchored := [[i, s] | some lk, lv in labels; some [i, s] in _sgp_index[[ns, lk, lv]]]
	on_key := [[i, s] | some lk, _ in labels; some [i, s] in _sgp_key_index[[ns, lk]]]
	others := [[i, s] | some [sns, i, s] in _unanchored_sgps; sns == ns]
	candidates := [s | some [_, s] in sort(array.concat(array.concat(anchored, on_key), others))]
	count(candidates) > 0
	pod_ok := [s | some s in candidates; _admitted_by_pod_selector(s, labels)]
	count(pod_ok) > 0
	sa := _service_account_selection(ns, sa_name, pod_ok)
	result := object.union(sa, {"names": sort([s.name | some s in sa.matched])})
}

# Which of the policies whose podSelector admits a pod also admit its ServiceAccount. Most
# namespaces have no policy with a serviceAccountSelector: there, nothing is looked up.
_service_account_selection(ns, sa_name, pod_ok) := {"matched": pod_ok, "unknownSA": []} if {
	not ns in _namespaces_with_sa_selectors
} else := result if {
	sa := _service_account(object.get(object.get(_service_account_labels, ns, {}), sa_name, []), sa_name)
	states := [[s, st] | some s in pod_ok; st := _service_account_state(s, sa)]
	result := {
		"matched": [s | some [s, st] in states; st == "match"],
		"unknownSA": [s | some [s, st] in states; st == "unknown-sa"],
	}
}

_namespaces_with_sa_selectors := {s.namespace | some s in matchable_sgps; s.serviceAccountSelector != null}

# The labels of the ServiceAccounts of each namespace, by name (a list: a repository may
# declare one twice).
_service_account_labels := {ns: by_name |
	some ns in {sa.namespace | some sa in input.serviceAccounts}
	in_namespace := [sa | some sa in input.serviceAccounts; sa.namespace == ns]
	by_name := {name: [sa.labels | some sa in in_namespace; sa.name == name] | some name in {sa.name | some sa in in_namespace}}
}

# A policy whose podSelector has matchLabels selects only pods that carry its first entry
# (matchLabels are ANDed): it is indexed by namespace and that label, so a workload looks up
# the policies of its own labels instead of testing every policy of its namespace. Without
# matchLabels, a matchExpressions `In` selects only pods with one of its values for its key:
# the policy is indexed under each of them; an `Exists` only pods with its key: the policy is
# indexed by the key (_sgp_key_index). Only policies with neither (NotIn and DoesNotExist
# alone, or no podSelector) are tested one by one. Each entry keeps the policy's position, so
# that the matched policies stay in the order they were read.
sgp_anchors(s) := {[k, s.podSelector.matchLabels[k]]} if {
	s.podSelector != null
	keys := [k | some k, _ in object.get(s.podSelector, "matchLabels", {})]
	count(keys) > 0
	k := keys[0]
} else := {[r.key, v] | some v in r.values} if {
	s.podSelector != null
	ins := [r | some r in object.get(s.podSelector, "matchExpressions", []); r.operator == "In"]
	count(ins) > 0
	r := ins[0]
}

_sgp_key_anchor(s) := r.key if {
	s.podSelector != null
	not sgp_anchors(s)
	exists := [r | some r in object.get(s.podSelector, "matchExpressions", []); r.operator == "Exists"]
	count(exists) > 0
	r := exists[0]
}

_anchored_sgps := [[[s.namespace, a[0], a[1]], i, s] |
	some i, s in matchable_sgps
	some a in sgp_anchors(s)
]

_key_anchored_sgps := [[[s.namespace, k], i, s] |
	some i, s in matchable_sgps
	k := _sgp_key_anchor(s)
]

_unanchored_sgps := [[s.namespace, i, s] |
	some i, s in matchable_sgps
	not sgp_anchors(s)
	not _sgp_key_anchor(s)
]

# A policy that selects on one label and nothing else admits every pod its index entry found:
# the lookup was the whole test.
_only_anchor := {s.id |
	some s in matchable_sgps
	s.podSelector != null
	count(object.get(s.podSelector, "matchLabels", {})) == 1
	count(object.get(s.podSelector, "matchExpressions", [])) == 0
}

_admitted_by_pod_selector(s, _) if s.id in _only_anchor

_admitted_by_pod_selector(s, labels) if {
	not s.id in _only_anchor
	_pod_selector_admits(s, labels)
}

_sgp_index := {key: entries |
	some [key, _, _] in _anchored_sgps
	entries := [[i, s] | some [k, i, s] in _anchored_sgps; k == key]
}

_sgp_key_index := {key: entries |
	some [key, _, _] in _key_anchored_sgps
	entries := [[i, s] | some [k, i, s] in _key_anchored_sgps; k == key]
}

# The ServiceAccount a workload's pods run as: its labels, or unknown. The `default`
# ServiceAccount is created by Kubernetes in every namespace without labels, so a missing
# manifest for it is not an unknown.
_service_account(found, name) := {"known": true, "labels": found[0]} if {
	count(found) > 0
} else := {"known": true, "labels": {}} if {
	name == "default"
} else := {"known": false, "labels": {}}

# A policy without podSelector leaves the decision to its serviceAccountSelector (AND).
_pod_selector_admits(sgp, _) if sgp.podSelector == null

_pod_selector_admits(sgp, labels) if selectors.selector_matches(sgp.podSelector, labels)

# How a policy whose podSelector admits the pod relates to its ServiceAccount: match,
# nomatch or unknown-sa.
_service_account_state(sgp, sa) := "match" if {
	sgp.serviceAccountSelector == null
} else := "match" if {
	selectors.selector_is_empty(sgp.serviceAccountSelector)
} else := "unknown-sa" if {
	not sa.known
} else := "match" if {
	selectors.selector_matches(sgp.serviceAccountSelector, sa.labels)
} else := "nomatch"

# Pods an SGP selects that still get no branch ENI (§3), and the field that says so.
no_branch_eni_reason(w) := [sprintf("Fargate profile %q runs its pods, and Fargate gives them their security groups without a node branch ENI", [w.fargate.profile]), pod_field(w, "metadata")] if {
	w.fargate
} else := ["hostNetwork pods never get a branch ENI", pod_field(w, "spec.hostNetwork")] if {
	w.pod.hostNetwork
} else := ["pods for Windows nodes get no branch ENI", pod_field(w, sprintf("spec.nodeSelector.%s", [key]))] if {
	some key in ["kubernetes.io/os", "beta.kubernetes.io/os"]
	w.pod.nodeSelector[key] == "windows"
} else := ["Fargate pods get their security groups without a node branch ENI", pod_field(w, "metadata.labels.eks.amazonaws.com/fargate-profile")] if {
	w.pod.labels["eks.amazonaws.com/fargate-profile"]
}

# Workloads whose pods hold branch ENIs: selected by a policy (the webhook injects the
# request) or requesting vpc.amazonaws.com/pod-eni themselves, and not exempt (exempt_ids).
# The tests are written inline: a function call per workload costs more than the rest of this
# pass (docs/architecture.md).
eni_workloads := _partition_list("eniWorkloads") if _partitioned
else := _eni_workloads_here

_eni_workloads_here := [w |
	some w in input.workloads

	# In _branch_eni_requesters, tested without building it: selected by a policy, or
	# requesting the ENI by hand.
	count(object.get(selection, [w.id, "matched"], [])) + count(w.pod.podEniRequests) > 0
	not w.id in _exempt_ids_here
]

# The per-workload tables (_eni_workload_ids, _branch_eni_requesters, numbers, _unbounded_of,
# placements, contributions, workload_by_id) stay for tests and custom rules, which may use the
# model (docs/guide.md); the built-in rules work per class and a run builds none of them.
_eni_workload_ids := {w.id | some w in eni_workloads}

# The workloads whose pods get no branch ENI whatever selects them (the tests of
# no_branch_eni_reason, in its order), by id: a pass per field test, each a few microseconds
# a workload, where a function call per workload would cost more. eni_workloads leaves them
# out; ENI008 reports the selected ones.
exempt_ids := {id | some id in _partition_list("exemptIds")} if _partitioned
else := _exempt_ids_here

_exempt_ids_here := ((({w.id | some w in input.workloads; w.fargate} | {w.id | some w in input.workloads; w.pod.hostNetwork}) | {w.id | some w in input.workloads; w.pod.nodeSelector["kubernetes.io/os"] == "windows"}) | {w.id | some w in input.workloads; w.pod.nodeSelector["beta.kubernetes.io/os"] == "windows"}) | {w.id | some w in input.workloads; w.pod.labels["eks.amazonaws.com/fargate-profile"]}

# The workloads that ask for a branch ENI: a policy selects them, or they request it by hand.
_branch_eni_requesters := selected_ids | {w.id | some w in input.workloads; count(w.pod.podEniRequests) > 0}

selected_ids := {id | some id, sel in selection; count(sel.matched) > 0}

# The distinct selections: many workloads share one (_selection_of), and what is asked of all
# selections together (which policies select anything) is asked once per distinct one.
distinct_selections := {sel | some sel in _partition_list("distinctSelections")} if _partitioned
else := {sel | some sel in selection}

_is_job_like(w) if w.job != null
