#!/usr/bin/env bash
# Measures `eni-lint audit` on a synthetic kubectl snapshot (default 10,000 nodes and 500,000
# pods, one in ten using Security groups for Pods) with the real binary: wall time and peak
# memory. The snapshot is streamed, so memory should follow the SGP pods kept, not the file.
#   scripts/bench-audit.sh [NODES [PODS]]
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-10000}
pods=${2:-500000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/eni-lint" ./cmd/eni-lint
go run ./internal/tools/gensnapshot -nodes "$nodes" -pods "$pods" -out "$work/snapshot.json"
echo "snapshot: $nodes nodes, $pods pods, $(du -h "$work/snapshot.json" | cut -f1)"
run() { "$work/eni-lint" audit "$work/snapshot.json" --format json --fail-on none >"$work/audit.json"; }
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "wall %e s, peak RSS %M KB" bash -c "$(declare -f run); work=$work; run"
else
  time run # GNU time (Debian package "time") also reports peak memory
fi
echo "report: $(du -h "$work/audit.json" | cut -f1)"
