#!/usr/bin/env bash
# The Run step of action.yml: turns the action's inputs (INPUT_* variables) into an eni-lint
# command line in GitHub mode, and writes the step outputs. The step fails exactly when
# eni-lint's exit code is not 0; publishing problems never change it.
set -uo pipefail

args=(check --github --no-color)
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_ENI_RELEASE:-}" ] && args+=(--eni-release "$INPUT_ENI_RELEASE")
[ -n "${INPUT_FAIL_ON:-}" ] && args+=(--fail-on "$INPUT_FAIL_ON")
while IFS= read -r line; do
  line="${line#"${line%%[![:space:]]*}"}"
  [ -n "$line" ] && args+=(--node-group "$line")
done <<<"${INPUT_NODE_GROUPS:-}"
while IFS= read -r line; do
  line="${line#"${line%%[![:space:]]*}"}"
  [ -n "$line" ] && args+=(--var-file "$line")
done <<<"${INPUT_VAR_FILES:-}"
while IFS= read -r line; do
  line="${line#"${line%%[![:space:]]*}"}"
  [ -n "$line" ] && args+=(--terraform-plan "$line")
done <<<"${INPUT_TERRAFORM_PLANS:-}"
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
case "${INPUT_REVIEW:-false}" in
  true) args+=(--review) ;;
  false) ;;
  *) echo "::error title=eni-lint::input review must be true or false, not '${INPUT_REVIEW}'"; exit 2 ;;
esac
while IFS= read -r line; do
  line="${line#"${line%%[![:space:]]*}"}"
  [ -n "$line" ] && args+=(--exclude "$line")
done <<<"${INPUT_EXCLUDE:-}"
# args are shell words, quotes and backslashes as a shell reads them (--set 'a=b c'), parsed
# by xargs: nothing in them is expanded or run.
if [ -n "${INPUT_ARGS//[[:space:]]/}" ]; then
  words=$(mktemp "${RUNNER_TEMP:-/tmp}/eni-lint-args.XXXXXX")
  if ! printf '%s\n' "$INPUT_ARGS" | xargs printf '%s\0' >"$words"; then
    echo "::error title=eni-lint::input args is not valid shell words (an unmatched quote?): $INPUT_ARGS"
    rm -f "$words"
    exit 2
  fi
  while IFS= read -r -d '' word; do
    args+=("$word")
  done <"$words"
  rm -f "$words"
fi
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
# A report of this step's own: a second eni-lint step in the job, or a run that fails before
# writing, must not count another run's findings.
json=$(mktemp "${RUNNER_TEMP:-/tmp}/eni-lint-report.XXXXXX")
args+=(--output "json=$json")
read -r -a paths <<<"$(echo "${INPUT_PATHS:-.}" | tr '\n' ' ')"
[ "${#paths[@]}" -eq 0 ] && paths=(.)

"${ENI_LINT:-eni-lint}" "${args[@]}" "${paths[@]}"
code=$?

findings=0
errors=0
if [ -s "$json" ]; then
  # The summary counts the findings that count (suppressed ones are apart) and the inputs
  # that could not be read; they are the only numeric errors/warnings/info/loadErrors keys.
  count() { grep -oE "\"$1\": [0-9]+" "$json" | head -n 1 | grep -oE '[0-9]+$' || echo 0; }
  findings=$(($(count errors) + $(count warnings) + $(count info)))
  errors=$(count loadErrors)
fi
rm -f "$json"
# The SARIF file's path as a later step names it: from the workspace root (working-directory
# may be a subfolder), absolute when it is outside the workspace.
if [ -n "$sarif" ] && [ -f "$sarif" ]; then
  case "$sarif" in
    /*) abs="$sarif" ;;
    *) abs="$PWD/$sarif" ;;
  esac
  workspace="${GITHUB_WORKSPACE:-$PWD}"
  case "$abs" in
    "$workspace"/*) sarif="${abs#"$workspace"/}" ;;
    *) sarif="$abs" ;;
  esac
else
  sarif=""
fi
{
  echo "exit-code=$code"
  echo "findings=$findings"
  echo "errors=$errors"
  echo "sarif-file=$sarif"
} >>"${GITHUB_OUTPUT:-/dev/null}"
exit "$code"
