#!/usr/bin/env bash
# Measures the real binary on every case of the hostile corpus (testdata/hostile, with the
# links, pipes and big files TestHostileCorpus creates): exit code, wall time and peak memory.
#   scripts/bench-hostile.sh
# Needs GNU time (Debian package "time") for the peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/eni-lint" ./cmd/eni-lint
ENI_LINT_HOSTILE_KEEP="$work/cases" go test ./pkg/cli -run 'TestHostileCorpus$' -count=1 >/dev/null
# The arguments of each case, as the test passes them.
args_of() {
  sed -n "s/^\t{name: \"$1\", args: \[\]string{\([^}]*\)}.*/\1/p" pkg/cli/hostile_test.go | tr -d '",'
}
printf '%-32s %4s %8s %10s\n' case exit seconds "peak MB"
for dir in "$work"/cases/*/; do
  name=$(basename "$dir")
  read -r -a extra <<<"$(args_of "$name")"
  set +e
  (cd "$dir/repo" && timeout 300 /usr/bin/time -f "%e %M" -o "$work/time" "$work/eni-lint" check \
    --node-group default=m5.large --timeout 2m "${extra[@]}" </dev/null >/dev/null 2>&1)
  code=$?
  set -e
  read -r secs kb < <(tail -n 1 "$work/time") || true
  printf '%-32s %4s %8s %10s\n' "$name" "$code" "$secs" "$((kb / 1024))"
done
