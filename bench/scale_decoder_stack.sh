#!/usr/bin/env bash
# End-to-end scaling of `eqfuse optimize` on the decoder-stack workload
# (bench/workloads/decoder_stack.hpp), as a user runs it: one process per
# size, wall time and peak RSS from GNU time, the modeled saving and how the
# extraction was found from the summary. The last rows run the DeepSeek-style
# example layer stacked 61 times and the Llama-2-7B tensor-parallel layer
# (tests/data/tp/llama7b_tp8_compile.fx, TP 8, torch.compile) stacked 61 and 244
# times (bench/gen_layer_stack). Prints a Markdown table.
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
row() {  # LABEL BLOCKS FILE [OPTIMIZE OPTIONS...]
  local label="$1" n="$2" file="$3"
  shift 3
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/eqfuse" optimize "$file" "$@" \
    -o /dev/null 2> "$tmp/summary"
  read -r wall rss_kb < "$tmp/time"
  kernels="$(sed -n 's/^  kernels *//p' "$tmp/summary")"
  change="$(sed -n 's/.*(\([-+][0-9.]*%\))$/\1/p' "$tmp/summary")"
  extraction="$(sed -n 's/^  extraction *//p' "$tmp/summary")"
  per_block="$(awk -v w="$wall" -v n="$n" 'BEGIN { printf "%.2f", 1000 * w / n }')"
  echo "| $label | $kernels | $change | $extraction | $wall | $per_block | $((rss_kb / 1024)) |"
}
for n in "${sizes[@]}"; do
  "$build/bench/gen_decoder_stack" "$n" > "$tmp/stack.fx"
  row "$n" "$n" "$tmp/stack.fx"
done
here="$(cd "$(dirname "$0")/.." && pwd)"
"$build/bench/gen_layer_stack" "$here/examples/deepseek_layer.fx" 61 arg1_1=2 arg2_1=2 > "$tmp/ds.fx"
row "DeepSeek layer x61" 61 "$tmp/ds.fx"
for copies in 61 244; do
  "$build/bench/gen_layer_stack" "$here/tests/data/tp/llama7b_tp8_compile.fx" "$copies" \
    arg1_1=0 arg3_1=1 > "$tmp/tp.fx"
  row "Llama-7B TP-8 layer x$copies" "$copies" "$tmp/tp.fx" --world-size 8
done
