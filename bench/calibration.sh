#!/usr/bin/env bash
# The cost model against real timings (tests/data/measurements/h100): fits
# the base profile to the single-op rows and the whole-graph times, holds
# each graph out in turn, and prints the fit quality, the whole-graph
# predictions and the leave-one-graph-out table as `eqfuse calibrate`
# reports them, followed by the wall time of the whole run.
#
#   bench/calibration.sh [BUILD_DIR] [BASE_PROFILE]
#   bench/calibration.sh build h100
#
# docs/benchmarks.md ("Cost model on real measurements") records the figures.
set -euo pipefail
build="${1:-build}"
base="${2:-h100}"
data="$(dirname "$0")/../tests/data/measurements/h100"
start=$(date +%s.%N)
"$build/eqfuse" calibrate --measurements "$data/node_times.csv" --device "$base" \
  --whole-graph "$data/whole_graph_times.json" --leave-one-graph-out |
  sed -n '/^calibrated/,/^$/p;/^fit quality/,$p'
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "\nwall time: %.2f s\n", e - s }'
