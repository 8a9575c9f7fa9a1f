#!/usr/bin/env bash
# output_identity.sh BINARY OUTDIR: what a refactor must leave unchanged. Runs
# BINARY's `optimize -o` and `explain --format text` on every graph of the
# examples, the scenarios and the test corpora (FX files under 3 MB), and
# `check` of each example against its optimized form, writing one file per
# run (stdout/stderr and exit code) under OUTDIR. Run it with the binary from
# before a change and after, then `diff -r OLD NEW` must print nothing.
set -euo pipefail
bin="$(realpath "$1")"
out="$(realpath -m "$2")"
mkdir -p "$out"
cd "$(dirname "$0")/.."
find examples tests/scenarios tests/data/fx-dumps tests/data/corpus tests/data/torch2 \
  tests/data/moe tests/data/tp \( -name "*.fx" -o -name "*.txt" \) -size -3M | sort > "$out/files.txt"
while read -r f; do
  key=$(echo "$f" | tr '/' '_')
  rc=0; "$bin" optimize "$f" -o "$out/$key.opt" -q 2> "$out/$key.opt.err" || rc=$?
  echo "rc $rc" >> "$out/$key.opt.err"
  rc=0; "$bin" explain "$f" --format text -o "$out/$key.explain" 2> "$out/$key.explain.err" || rc=$?
  echo "rc $rc" >> "$out/$key.explain.err"
done < "$out/files.txt"
for f in examples/*.fx; do
  key=$(echo "$f" | tr '/' '_')
  rc=0; "$bin" check "$f" "$out/$key.opt" > "$out/$key.check" 2>&1 || rc=$?
  echo "rc $rc" >> "$out/$key.check"
done
# check names the optimized file it read: the output folder is not part of the result.
sed -i "s|$out|OUT|g" "$out"/*.check
echo "$(wc -l < "$out/files.txt") graphs; outputs in $out"
