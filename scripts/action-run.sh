#!/usr/bin/env bash
# The Run step of action.yml: turns the action's inputs (INPUT_* variables) into an eni-lint
# command line in GitHub mode, and writes the step outputs. The step fails exactly when
# eni-lint's exit code is not 0; publishing problems never change it.
set -uo pipefail

args=(check --github --no-color)
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_ENI_RELEASE:-}" ] && args+=(--eni-release "$INPUT_ENI_RELEASE")
[ -n "${INPUT_FAIL_ON:-}" ] && args+=(--fail-on "$INPUT_FAIL_ON")
case "${INPUT_COMMENT:-true}" in
  true) args+=(--comment=true) ;;
  false) args+=(--comment=false) ;;
  *) echo "::error title=eni-lint::input comment must be true or false, not '${INPUT_COMMENT}'"; exit 2 ;;
esac
sarif=""
if [ -n "${INPUT_SARIF_FILE:-}" ]; then
  sarif="$INPUT_SARIF_FILE"
  args+=(--output "sarif=$sarif")
fi
json="${RUNNER_TEMP:-/tmp}/eni-lint-report.json"
args+=(--output "json=$json")
read -r -a paths <<<"$(echo "${INPUT_PATHS:-.}" | tr '\n' ' ')"
[ "${#paths[@]}" -eq 0 ] && paths=(.)

"${ENI_LINT:-eni-lint}" "${args[@]}" "${paths[@]}"
code=$?

findings=0
if [ -f "$json" ]; then
  # Every finding in the JSON report has exactly one "rule" key.
  findings=$(grep -c '"rule": "' "$json" || true)
fi
[ -f "$sarif" ] || sarif=""
{
  echo "exit-code=$code"
  echo "findings=$findings"
  echo "sarif-file=$sarif"
} >>"${GITHUB_OUTPUT:-/dev/null}"
exit "$code"
