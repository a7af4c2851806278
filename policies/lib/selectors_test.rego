package eni.selectors_test

import data.eni.selectors

# Kubernetes (labels.Selector, and the scheduler's node affinity): NotIn and DoesNotExist
# match a set of labels that lacks the key; In, Exists, Gt and Lt do not.
test_not_in_matches_when_the_key_is_absent if {
	selectors.requirement_matches({"key": "team", "operator": "NotIn", "values": ["payments"]}, {"app": "x"})
}

test_not_in_matches_another_value if {
	selectors.requirement_matches({"key": "team", "operator": "NotIn", "values": ["payments"]}, {"team": "core"})
}

test_not_in_refuses_a_listed_value if {
	not selectors.requirement_matches({"key": "team", "operator": "NotIn", "values": ["payments"]}, {"team": "payments"})
}

test_selector_not_in_without_the_key if {
	selectors.selector_matches({"matchLabels": {}, "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["web"]}]}, {"rds-access": "true"})
}

test_node_not_in_without_the_key if {
	selectors.node_requirement_matches({"key": "team", "operator": "NotIn", "values": ["payments"]}, {"kubernetes.io/os": "linux"})
}

test_gt_without_the_key_does_not_match if {
	not selectors.node_requirement_matches({"key": "cpu", "operator": "Gt", "values": ["4"]}, {})
}
