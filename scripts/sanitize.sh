#!/usr/bin/env bash
# sanitize.sh — compute-sanitizer (memcheck with leak check, initcheck, racecheck, synccheck)
# over the GPU tests, each run time-boxed; one summary line per run, logs under $OUT.
# Assumes scripts/gpu_suite.sh build has run (BUILD, default build-gpu).
# Environment: SANITIZE_TOOLS (default "memcheck initcheck racecheck synccheck"), SANITIZE_RUNS
# (';'-separated test commands instead of the list below), SANITIZE_TIMEOUT (s per run, 150),
# SANITIZE_JOBS (runs at once, default 1: each is a process of its own on the one GPU, mostly
# bound by the sanitizer's host-side work, so several share a 16-core machine well; summary
# lines still come out in list order).
# racecheck runs test_gpu_features with --quick (every code path, a quarter of the cases): the
# full feature suite of one sm90 row did not finish under racecheck in 330 s.
set -u
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
T=$BUILD/tests
LIMIT=${SANITIZE_TIMEOUT:-150}
runs=(
  "test_gpu_grid --quick --family bf16"
  "test_gpu_grid --quick --family f32"
  "test_gpu_grid --quick --family s8"
  "test_gpu_fuzz --cases 60"
  "test_gpu_features --kernel sm90_128x256x64"
  "test_gpu_features --kernel sm90_256x128x64"
  "test_gpu_features --kernel sm90_128x192x64"
  "test_gpu_features --kernel sm90_pp_128x128x64"
  "test_gpu_features --kernel sm90_128x128x64"
  "test_gpu_features --kernel sm90_128x64x64"
  "test_gpu_features --kernel sm80_128x256x64"
  "test_gpu_features --kernel sm80_64x64x64_splitk"
  "test_gpu_features --kernel sm80_tf32_128x128x32"
  "test_gpu_features --kernel sm80_s8_128x128x128"
  "test_gpu_features --kernel ref"
  "test_ladder_edges"
)
if [ -n "${SANITIZE_RUNS:-}" ]; then IFS=';' read -r -a runs <<<"$SANITIZE_RUNS"; fi
JOBS=${SANITIZE_JOBS:-1}
# One run: its log under $OUT, its summary line into $2.
sanitize_one() {
  local tool=$1 line=$2 r=$3 extra=""
  [ "$tool" = memcheck ] && extra="--leak-check full"
  local name log start rc summary
  name=$(echo "$r" | tr ' ' '_' | tr -d '-')
  log="$OUT/san_${tool}_${name}.log"
  start=$(date +%s)
  # shellcheck disable=SC2086
  timeout "$LIMIT" compute-sanitizer --tool "$tool" $extra --error-exitcode 99 $T/$r >"$log" 2>&1
  rc=$?
  summary=$(grep -oE "ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard[^$]*" "$log" | tail -1)
  echo "$tool | $r | rc=$rc | ${summary:-no summary (timeout?)} | $(( $(date +%s) - start )) s" >"$line"
}
lines=$(mktemp -d)
n=0
for tool in ${SANITIZE_TOOLS:-memcheck initcheck racecheck synccheck}; do
  for r in "${runs[@]}"; do
    case "$tool $r" in "racecheck test_gpu_features"*) r="$r --quick" ;; esac
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    sanitize_one "$tool" "$lines/$(printf %04d $n)" "$r" &
    n=$((n + 1))
  done
done
wait
cat "$lines"/* 2>/dev/null
rm -rf "$lines"
(cd "$OUT" && tar czf sanitize_logs.tar.gz --remove-files san_*.log 2>/dev/null)
