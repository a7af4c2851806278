# METADATA
# title: Label selectors, node selection and tolerations
# description: |
#   Kubernetes matching semantics used by the model: label selectors (SecurityGroupPolicy
#   podSelector and serviceAccountSelector), nodeSelector, required node affinity, and taints
#   against tolerations.
package eni.selectors

# A label selector requirement. NotIn and DoesNotExist match when the key is absent.
requirement_matches(req, labels) if {
	req.operator == "In"
	labels[req.key] in req.values
}

# NotIn: a key that is absent matches, as in labels.Selector (`not labels[key] in values` is
# false when the key is absent: Rego's `not` of an expression with an undefined operand).
requirement_matches(req, labels) if {
	req.operator == "NotIn"
	not has_key(labels, req.key)
}

requirement_matches(req, labels) if {
	req.operator == "NotIn"
	value := labels[req.key]
	not value in req.values
}

requirement_matches(req, labels) if {
	req.operator == "Exists"
	_ = labels[req.key]
}

requirement_matches(req, labels) if {
	req.operator == "DoesNotExist"
	not has_key(labels, req.key)
}

# Node selector requirements also have Gt and Lt, on integer label values: as labels.Selector
# does, a label that is absent or not a 64-bit integer (strconv.ParseInt) matches neither.
node_requirement_matches(req, labels) if {
	not req.operator in {"Gt", "Lt"}
	requirement_matches(req, labels)
}

node_requirement_matches(req, labels) if {
	req.operator == "Gt"
	int64_of(labels[req.key]) > int64_of(req.values[0])
}

node_requirement_matches(req, labels) if {
	req.operator == "Lt"
	int64_of(labels[req.key]) < int64_of(req.values[0])
}

# The integer labels.Requirement compares: a label value that strconv.ParseInt(s, 10, 64)
# reads. A sign is not allowed in a label value, so a requirement value "-1" or "+3" makes
# the scheduler's requirement invalid and its term match nothing; undefined for all of them.
int64_of(s) := n if {
	regex.match(`^[0-9]+$`, s)
	n := to_number(s)
	n >= -9223372036854775808
	n <= 9223372036854775807
}

has_key(obj, key) if _ = obj[key]

# The reason a requirement is invalid, as the API's validation would say; undefined when valid.
requirement_error(req) := sprintf("operator %q is not one of In, NotIn, Exists, DoesNotExist", [req.operator]) if {
	not req.operator in {"In", "NotIn", "Exists", "DoesNotExist"}
} else := sprintf("operator %s needs at least one value", [req.operator]) if {
	req.operator in {"In", "NotIn"}
	count(req.values) == 0
} else := sprintf("operator %s takes no values", [req.operator]) if {
	req.operator in {"Exists", "DoesNotExist"}
	count(req.values) > 0
} else := "an expression has no key" if {
	req.key == ""
}

# The index and reason of the first invalid expression of a selector; undefined when valid.
selector_error(sel) := [i, msg] if {
	errors := [[j, m] | some j, req in object.get(sel, "matchExpressions", []); m := requirement_error(req)]
	count(errors) > 0
	[i, msg] := errors[0]
}

# An empty selector ({}) matches everything; matchLabels and matchExpressions are ANDed.
# Callers check the selector is valid first (selector_error).
selector_matches(sel, labels) if {
	object.subset(labels, sel.matchLabels)
	every req in sel.matchExpressions {
		requirement_matches(req, labels)
	}
}

selector_is_empty(sel) if {
	count(object.get(sel, "matchLabels", {})) == 0
	count(object.get(sel, "matchExpressions", [])) == 0
}

# Required node affinity: terms are ORed, expressions in a term ANDed; a term with neither
# expressions nor fields matches nothing. matchFields (node names) cannot be known from
# manifests, so they are assumed to admit the node: the worst case for branch ENIs.
affinity_admits(terms, _) if count(terms) == 0

affinity_admits(terms, labels) if {
	some term in terms
	count(term.matchExpressions) + count(term.matchFields) > 0
	every req in term.matchExpressions {
		node_requirement_matches(req, labels)
	}
}

node_selector_admits(selector, labels) if object.subset(labels, selector)

# A taint only keeps pods away when its effect is NoSchedule or NoExecute.
blocking(taint) if taint.effect in {"NoSchedule", "NoExecute"}

tolerates(tol, taint) if {
	tol.operator == "Exists"
	tol.key in {"", taint.key}
	tol.effect in {"", taint.effect}
}

tolerates(tol, taint) if {
	tol.operator == "Equal"
	tol.key == taint.key
	tol.value == taint.value
	tol.effect in {"", taint.effect}
}

tolerates_all(tolerations, taints) if {
	every taint in taints {
		tolerated_or_harmless(tolerations, taint)
	}
}

tolerated_or_harmless(_, taint) if not blocking(taint)

tolerated_or_harmless(tolerations, taint) if {
	some tol in tolerations
	tolerates(tol, taint)
}

# Whether a pod template may be placed on a node with these labels and taints.
admits(pod, labels, taints) if {
	node_selector_admits(pod.nodeSelector, labels)
	affinity_admits(pod.requiredNodeAffinity, labels)
	tolerates_all(pod.tolerations, taints)
}
