#!/usr/bin/env bash
# change_check.sh — one GPU call after a change to the sm90 kernels: build the whole tree, run
# the `gpu` test label and, beside it, compute-sanitizer over the sm90 rows
# (scripts/sanitize.sh with SANITIZE_ONLY=sm90_), then, on a quiet GPU, an A/B of the new
# tilegemm command against a carried build of the base (scripts/ab_bench.sh). Compact summary
# last; logs under $OUT (bundled into change_logs.tar.gz).
#
#   scripts/change_check.sh BASE_BIN CASE_FILE [REPEATS]
# Environment: OUT (default ./out), BUILD (default build-gpu), SANITIZE_JOBS (default 8).
set -u
base_bin=$1 cases=$2 repeats=${3:-2}
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
summary=()
note() { summary+=("$1"); echo "== $1"; }
# The build stage of gpu_suite.sh (its logs, nvidia-smi and `tilegemm info` land in $OUT; it
# archives $OUT/*.log and *.txt, so its own output goes to a .out file).
if ! BUILD="$BUILD" OUT="$OUT" bash scripts/gpu_suite.sh build >"$OUT/gpu_suite_build.out" 2>&1; then
  tail -40 "$OUT/gpu_suite_build.out"; exit 1
fi
note "$(grep -m1 -oE 'build: .*' "$OUT/gpu_suite_build.out")"
start=$(date +%s)
( ctest --test-dir "$BUILD" -L gpu -j4 --timeout 400 >"$OUT/ctest_gpu.log" 2>&1; echo $? >"$OUT/ctest_gpu.rc" ) &
tests=$!
SANITIZE_ONLY=sm90_ SANITIZE_JOBS=${SANITIZE_JOBS:-8} SANITIZE_TIMEOUT=300 BUILD="$BUILD" OUT="$OUT" \
  bash scripts/sanitize.sh >"$OUT/sanitize_summary.txt" 2>&1
wait $tests
note "gpu tests: rc=$(cat "$OUT/ctest_gpu.rc") ($(grep -E 'tests passed' "$OUT/ctest_gpu.log")), with the sanitizers beside them: $(( $(date +%s) - start )) s"
grep -hE "checks,|FAIL|repro" "$OUT/ctest_gpu.log" | head -20
note "sanitizers: $(grep -c . "$OUT/sanitize_summary.txt") runs, $(grep -cE 'rc=0 \| (ERROR SUMMARY: 0 error|RACECHECK SUMMARY: 0 hazard)' "$OUT/sanitize_summary.txt") clean"
grep -vE 'rc=0 \| (ERROR SUMMARY: 0 error|RACECHECK SUMMARY: 0 hazard)' "$OUT/sanitize_summary.txt"
LABEL_A=base LABEL_B=new OUT="$OUT" bash scripts/ab_bench.sh "$base_bin" "$BUILD/tilegemm" "$cases" "$repeats" \
  >"$OUT/ab_summary.txt" 2>&1
(cd "$OUT" && tar czf change_logs.tar.gz --remove-files ./*.log 2>/dev/null)
printf '%s\n' "${summary[@]}"
cat "$OUT/ab_summary.txt"
