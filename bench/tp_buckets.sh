#!/usr/bin/env bash
# Where the matmul + communication (MC2) fusions flip with the token count and the TP
# degree: `eqfuse optimize --buckets` on the Llama-2-7B-sized TP decoder layer
# (tests/data/tp/llama7b_tp{2,4,8}_compile.fx, torch.compile, tokens symbolic) at
# TP 2, 4 and 8, per device profile and mode. Prints the decision table of each run.
#
#   bench/tp_buckets.sh [BUILD_DIR] [DEVICE] [MODE]
#   bench/tp_buckets.sh build ascend910b2 reduce-overhead
#
# docs/benchmarks.md "Tensor parallelism" records the figures (a model's output,
# not a measurement: no run needs a device).
set -euo pipefail
build="${1:-build}"
device="${2:-ascend910b2}"
mode="${3:-reduce-overhead}"
here="$(cd "$(dirname "$0")/.." && pwd)"
buckets="1,16,64,128,256,512,1024,2048,4096,8192"
for tp in 2 4 8; do
  layer="$here/tests/data/tp/llama7b_tp${tp}_compile.fx"
  # The token count is the symbol of the layer's first input (torch.compile names it).
  symbol="$(sed -n 's/.*def forward(self, [a-z0-9_]*: "Sym(\([a-z0-9]*\))".*/\1/p' "$layer")"
  echo "## TP $tp ($device, $mode)"
  "$build/eqfuse" optimize "$layer" --world-size "$tp" --device "$device" --mode "$mode" \
    --buckets "$symbol=$buckets" -o /dev/null 2>&1 | sed -n '/^decisions per bucket/,$p'
  echo
done
