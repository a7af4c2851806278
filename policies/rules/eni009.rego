# METADATA
# title: An ignore annotation that does not suppress
# description: |
#   An eni-lint.io/ignore annotation suppresses findings of the rules it names on its object
#   (or pod template) only when it gives a reason, names known rules, has not expired, and the
#   config allows inline ignores for those rules. An `ignores:` entry of the config file needs a
#   reason, known rules and a date not passed. Otherwise an entry suppresses nothing, and this
#   finding says why, so a typo or an old exception never hides a problem silently. An
#   accepted inline entry (an annotation line or a Terraform comment) that covers no finding
#   of its rules in any cluster of the run is reported as well: it suppresses nothing today
#   and would hide the next finding without anyone looking. Entries are matched to findings
#   by the engine, after every rule has run, so that part of this rule is decided there.
# custom:
#   id: ENI009
#   severity: warning
#   numbers: |
#     The expiry date against the run's date.
#   remediation: |
#     Write each entry as `RULE[,RULE...]: reason[; expires=YYYY-MM-DD]`, one per line. Renew or
#     remove expired entries, and remove entries that match no finding. Where the config sets allowInlineIgnores to false, use an
#     `ignores:` entry in .eni-lint.yaml instead, if the organisation allows it.
#   otherModel: |
#     The same under both release models.
#   details:
#     - {key: entry, type: string, about: "the ignore as written"}
#     - {key: problem, type: string, about: "why it suppresses nothing"}
package eni.rules.eni009

import data.eni.model

finding contains f if {
	some [obj, ig] in model.ignore_entries
	reason := model.ignore_problem(ig)
	f := problem(obj, ig, reason)
}

# Annotation entries point at the annotation; comment entries (Terraform) at the comment.
problem(obj, ig, reason) := object.union(
	model.finding_at("ENI009", "", message(obj, ig, reason), ig.location, details(ig, reason)),
	{"object": model.object_ref(obj)},
) if {
	ig.location
} else := model.finding("ENI009", "", message(obj, ig, reason), obj, [ig.path], details(ig, reason))

message(obj, ig, reason) := sprintf("%s: ignore %q %s", [model.describe(obj), ig.text, reason])

details(ig, reason) := {"entry": ig.text, "problem": reason}

finding contains f if {
	some ig in object.get(input, "configIgnores", [])
	reason := model.config_ignore_problem(ig)
	f := model.finding_at(
		"ENI009", "",
		sprintf("config ignore of %s %s", [concat(", ", ig.rules), reason]),
		ig.location,
		{"entry": ig.text, "problem": reason},
	)
}
