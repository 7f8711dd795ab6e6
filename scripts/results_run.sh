#!/usr/bin/env bash
# results_run.sh — on the GPU machine: tune the square and LLM shape sets (before/after tables),
# then sweep ours vs cuBLAS with the tuned cache. Everything lands in $OUT (at most 8 files come
# back: results are bundled into results.tar.gz). Assumes scripts/gpu_suite.sh build has run.
set -u
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/out}
R=$OUT/results
mkdir -p "$R"
export TILEGEMM_CACHE=$R/tune_cache_h100.txt
B=$BUILD/tilegemm
for set in ${TUNE_SETS:-squares llm}; do
  timeout ${TUNE_TIMEOUT:-200} $B tune --shapes bench/shapes/$set.txt --ab-dtype bf16 --iterations 10 --warmup 2 \
    --csv "$R/tune_${set}_bf16_h100.csv" >"$R/tune_${set}_bf16_h100.txt" 2>&1
  echo "tune $set: rc=$?"; tail -n 25 "$R/tune_${set}_bf16_h100.txt"
done
for spec in ${SWEEPS:-"squares:bf16,f16" "llm:bf16" "odd:bf16"}; do
  set=${spec%%:*}; types=${spec#*:}
  timeout ${SWEEP_TIMEOUT:-200} $B sweep --shapes bench/shapes/$set.txt --dtype $types --cold-l2 \
    --out "$R/sweep_${set}_h100.csv" 2>"$R/sweep_${set}_h100.log"
  echo "sweep $set ($types): rc=$?"; tail -n 3 "$R/sweep_${set}_h100.log"
done
(cd "$OUT" && tar czf results.tar.gz results && rm -rf results)
