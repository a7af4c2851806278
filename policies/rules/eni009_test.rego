package eni.rules.eni009_test

import data.eni.fixtures as fx
import data.eni.rules.eni009

ignore(rules, reason, expires) := {"rules": rules, "reason": reason, "expires": expires, "path": "metadata.annotations.eni-lint.io/ignore", "error": "", "text": "x"}

with_ignores(w, igs) := object.union(w, {"ignores": igs})

inv(igs) := fx.inventory([with_ignores(fx.job("j", {}), igs)], [fx.sgp_all], [])

test_fires_without_reason if {
	fs := eni009.finding with input as inv([ignore(["ENI002"], "", "")])
	some f in fs
	contains(f.message, "has no reason")
	f.paths == ["metadata.annotations.eni-lint.io/ignore"]
}

test_fires_expired if {
	fs := eni009.finding with input as inv([ignore(["ENI002"], "one-off", "2020-01-31")])
	some f in fs
	contains(f.message, "expired on 2020-01-31")
}

test_fires_unknown_rule if {
	fs := eni009.finding with input as inv([ignore(["ENI999"], "typo", "")])
	some f in fs
	contains(f.message, "ENI999")
}

test_fires_malformed if {
	bad := object.union(ignore([], "", ""), {"error": "want RULE: reason"})
	count(eni009.finding) == 1 with input as inv([bad])
}

test_fires_forbidden_by_config if {
	i := inv([ignore(["ENI002"], "ok", "")])
	forbidden := object.union(i, {"settings": object.union(i.settings, {"inlineIgnores": {"default": true, "rules": {"ENI002": false}}})})
	some f in eni009.finding with input as forbidden
	contains(f.message, "not allowed")
}

test_quiet_valid if {
	count(eni009.finding) == 0 with input as inv([ignore(["ENI002"], "migrations run once", "2099-12-31")])
}

config_ignore(reason, expires) := {"index": 0, "rules": ["ENI002"], "reason": reason, "expires": expires, "location": {"file": ".eni-lint.yaml", "line": 7, "column": 5}, "text": "ENI002"}

test_fires_config_ignore_expired if {
	i := object.union(inv([]), {"configIgnores": [config_ignore("vendored", "2020-01-01")]})
	some f in eni009.finding with input as i
	f.location.line == 7
	contains(f.message, "expired")
}

test_quiet_config_ignore_valid if {
	i := object.union(inv([]), {"configIgnores": [config_ignore("vendored", "")]})
	count(eni009.finding) == 0 with input as i
	data.eni.model.active_config_ignores == [0] with input as i
}
