#!/usr/bin/env bash
# End-to-end scaling of `eqfuse optimize` on the decoder-stack workload
# (bench/workloads/decoder_stack.hpp), as a user runs it: one process per
# size, wall time and peak RSS from GNU time, the modeled saving and how the
# extraction was found from the summary. Prints a Markdown table.
#
#   bench/scale_decoder_stack.sh [BUILD_DIR] [BLOCKS...]
#   bench/scale_decoder_stack.sh build 61 300 1000 4000
#
# Take the figures on a quiet machine; docs/benchmarks.md records them.
set -euo pipefail
build="${1:-build}"
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(61 300 1000 4000)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "| blocks | kernels before -> after | modeled change | extraction | wall (s) | ms per block | peak RSS (MB) |"
echo "|---:|---|---:|---|---:|---:|---:|"
for n in "${sizes[@]}"; do
  "$build/bench/gen_decoder_stack" "$n" > "$tmp/stack.fx"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/eqfuse" optimize "$tmp/stack.fx" \
    -o /dev/null 2> "$tmp/summary"
  read -r wall rss_kb < "$tmp/time"
  kernels="$(sed -n 's/^  kernels *//p' "$tmp/summary")"
  change="$(sed -n 's/.*(\([-+][0-9.]*%\))$/\1/p' "$tmp/summary")"
  extraction="$(sed -n 's/^  extraction *//p' "$tmp/summary")"
  per_block="$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.2f", 1000 * w / n }')"
  echo "| $n | $kernels | $change | $extraction | $wall | $per_block | $((rss_kb / 1024)) |"
done
