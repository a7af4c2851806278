#!/usr/bin/env bash
# Measures eni-lint on a synthetic monorepo (default 100,000 documents) with the real binary:
# wall time and peak memory for the whole run, and the time of each step (--timings).
#   scripts/bench.sh [DOCS [POLICY_EVERY]]
# POLICY_EVERY (default 10) sets how dense SecurityGroupPolicies are: one every N documents.
set -euo pipefail
cd "$(dirname "$0")/.."
docs=${1:-100000}
policy_every=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/eni-lint" ./cmd/eni-lint
go run ./internal/tools/genmonorepo -out "$work/repo" -docs "$docs" -namespaces $((docs / 200 + 1)) -policy-every "$policy_every"
echo "documents: $docs (a policy every $policy_every), files: $(find "$work/repo" -type f | wc -l), size: $(du -sh "$work/repo" | cut -f1)"
run() { "$work/eni-lint" check "$work/repo" --node-group 'default=m5.large,m5.xlarge' --format json --timings >"$work/report.json"; }
set +e
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "wall %e s, peak RSS %M KB" bash -c "$(declare -f run); work=$work; run"
else
  time run # GNU time (Debian package "time") also reports peak memory
fi
echo "exit code $? (1: findings, as expected)"
