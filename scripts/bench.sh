#!/usr/bin/env bash
# Measures eni-lint on synthetic monorepos against the parse-only floor: wall time, peak RSS,
# their ratio and the phase split, one process per measurement (internal/tools/bench).
#   scripts/bench.sh                      # the monorepo table: 8k … 100k documents, 10 … 125 groups
#   scripts/bench.sh -sizes pr,8k -runs 3 # some trees, fastest of three runs
#   scripts/bench.sh -check               # CI: fails when 4x the documents or the node groups
#                                         # costs more than the limits in internal/tools/bench
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./internal/tools/bench "$@"
