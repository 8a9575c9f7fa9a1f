#!/usr/bin/env bash
# Scaling of `eqfuse optimize` on long elementwise chains (bench/gen_chain:
# x -> add -> relu -> add -> ...), one process per size with default limits,
# as a user runs it: wall time and peak RSS from GNU time, time per node, the
# phase times and any time-limit message from the summary. Then extraction
# alone on extraction-gym chains (faster-greedy-dag, whose copied cost sets
# were quadratic in memory). Prints Markdown tables; docs/benchmarks.md "Long
# chains" records them. Every phase must stay linear: a flat "us per node"
# column, or a phase stopped by its time limit with a note saying so.
#
#   bench/scale_chain.sh [BUILD_DIR] [NODES...]
#   bench/scale_chain.sh build 10000 100000 1000000
#
# The 1M row needs about 6 GB of memory and a minute. Take the figures on a
# quiet machine, one run at a time.
set -euo pipefail
build="${1:-build}"
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(10000 100000 1000000)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "| nodes | wall (s) | us per node | peak RSS (MB) | phases (ms) | stopped |"
echo "|---:|---:|---:|---:|---|---|"
for n in "${sizes[@]}"; do
  "$build/bench/gen_chain" fx "$n" mixed > "$tmp/chain.fx"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/eqfuse" optimize "$tmp/chain.fx" \
    -o /dev/null 2> "$tmp/summary" || true
  read -r wall rss_kb < "$tmp/time"
  phases="$(sed -n 's/^  time (ms) *//p' "$tmp/summary")"
  stopped="$(grep -o 'stopped by the time limit[^;]*' "$tmp/summary" | head -2 | paste -sd';' - || true)"
  per_node="$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.1f", 1e6 * w / n }')"
  echo "| $n | $wall | $per_node | $((rss_kb / 1024)) | $phases | ${stopped:-no} |"
done

echo
echo "| gym chain classes | extractor | wall (s) | peak RSS (MB) | dag cost |"
echo "|---:|---|---:|---:|---:|"
for n in 20000 200000; do
  "$build/bench/gen_chain" gym "$n" > "$tmp/chain.json"
  for x in faster-greedy-dag greedy-dag; do
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/eqfuse" extract "$tmp/chain.json" \
      --extractor "$x" > "$tmp/out" 2> /dev/null || true
    read -r wall rss_kb < "$tmp/time"
    cost="$(sed -n 's/.*"dag_cost":\([0-9.e+]*\).*/\1/p' "$tmp/out")"
    echo "| $n | $x | $wall | $((rss_kb / 1024)) | ${cost:-failed} |"
  done
done
