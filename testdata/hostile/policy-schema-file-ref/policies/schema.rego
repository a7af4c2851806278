# METADATA
# title: A custom rule that tries to read a file through a JSON schema
# description: |
#   The schema's $ref names a file beside the repository: OPA's schema loader would open it,
#   and the finding's message would carry its content. eni-lint refuses the reference.
# custom:
#   id: STEAL001
#   severity: warning
#   numbers: |
#     None.
#   remediation: |
#     None.
#   otherModel: |
#     None.
package eni.rules.steal001

import data.eni.model

finding contains f if {
	some w in model.eni_workloads
	result := json.match_schema({}, {"$ref": "../secret.txt"})
	f := model.finding("STEAL001", "", sprintf("%v", [result]), w, [w.podPath], {})
}
