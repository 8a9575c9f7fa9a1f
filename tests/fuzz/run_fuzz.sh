#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz from its seed corpus.
#
#   tests/fuzz/run_fuzz.sh BINARY SECONDS [CORPUS_DIR] [-- libFuzzer flags...]
#
# BINARY is a built target (build-asan/tests/fuzz/fuzz_fx_text). The seeds are
# the repository's own inputs of the target's kind (tests/fuzz/seeds/ plus the
# examples and test data listed below), copied into CORPUS_DIR (default: a
# temporary directory, removed after a smoke run) where libFuzzer adds what it
# finds. Crash inputs go to CORPUS_DIR/../findings (or the temporary's).
# Exit status: 0 when the run ends without a finding, libFuzzer's otherwise.
# CTest's fuzz smoke (label `fuzz`) calls this with a few seconds; a long
# campaign: docs/reliability.md "Fuzzing".
set -euo pipefail
bin="$1"
seconds="$2"
shift 2
corpus=""
if [[ $# -gt 0 && "$1" != "--" ]]; then
  corpus="$1"
  shift
fi
[[ "${1:-}" == "--" ]] && shift
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
name="$(basename "$bin")"

cleanup=""
if [[ -z "$corpus" ]]; then
  corpus="$(mktemp -d)/corpus"
  cleanup="$(dirname "$corpus")"
  trap 'rm -rf "$cleanup"' EXIT
fi
findings="$(dirname "$corpus")/findings"
mkdir -p "$corpus" "$findings"

# Seeds: files of the target's kind under 64 KB (libFuzzer mutates small
# inputs faster; big real dumps are in the corpus tests already).
seed() {
  local prefix="$1"
  shift
  local f
  for f in "$@"; do
    [[ -f "$f" && $(stat -c %s "$f") -le 65536 ]] || continue
    local out="$corpus/seed_$(basename "$f")"
    { printf '%b' "$prefix"; cat "$f"; } >"$out"
  done
}
shopt -s nullglob
fx=("$root"/examples/*.fx "$root"/examples/measurements/*.fx "$root"/tests/data/fx-dumps/*.txt
    "$root"/tests/data/moe/*.txt "$root"/tests/data/seed_graph.txt)
case "$name" in
  fuzz_fx_text | fuzz_optimize_check) seed '' "${fx[@]}" ;;
  fuzz_symbolic_sizes) seed '\x05\x06\x03' "${fx[@]}" ;;
  fuzz_graph_json) seed '' "$here"/seeds/graph_json/* ;;
  fuzz_rules) seed '' "$root"/rewrites/library/*.rules "$root"/examples/*.rules ;;
  fuzz_config) seed '' "$here"/seeds/config/* "$root"/tests/scenarios/reinplace/custom_ops.json ;;
  fuzz_device_profile) seed '' "$root"/cost/devices/*.json "$root"/examples/profiles/*.json ;;
  fuzz_measurements)
    seed '' "$root"/examples/measurements/*.csv "$root"/examples/measurements/*.json \
      "$root"/tests/data/measurements/*/*.json "$root"/tests/data/profiles/*.json ;;
  fuzz_egraph_json) seed '' "$root"/tests/data/extraction-gym/*/*.json ;;
  fuzz_inputs) seed '' "$here"/seeds/inputs/* ;;
  *) echo "run_fuzz.sh: no seeds listed for '$name'" >&2 ;;
esac

# ASan's allocator returns null for absurd sizes (the readers must report
# them, not abort); leaks are not findings of these targets.
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
if [[ -z "${ASAN_SYMBOLIZER_PATH:-}" ]] && command -v llvm-symbolizer >/dev/null; then
  export ASAN_SYMBOLIZER_PATH="$(command -v llvm-symbolizer)"
fi
status=0
"$bin" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
  -rss_limit_mb=4096 -artifact_prefix="$findings/" -print_final_stats=1 "$@" || status=$?
if [[ $status -ne 0 ]]; then
  echo "run_fuzz.sh: $name found something (exit $status); inputs in $findings:" >&2
  ls "$findings" >&2
  # A smoke run's temporary goes away: show the inputs here.
  if [[ -n "$cleanup" ]]; then
    for f in "$findings"/*; do echo "--- $f" >&2; head -c 2000 "$f" | od -c | head -40 >&2; done
  fi
fi
exit $status
