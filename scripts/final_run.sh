#!/usr/bin/env bash
# final_run.sh — racecheck over every ladder rung's edge test, then the ladder tables (rungs
# 1-14) and the sm80/sm90 benchmark suites as CSV; bundled into $OUT/final.tar.gz.
set -u
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/out}
R=$OUT/final
mkdir -p "$R"
for k in simt_01_naive simt_02_coalesced simt_03_smem simt_04_1d_blocktile simt_05_2d_blocktile \
         simt_06_vectorized simt_07_warptile simt_08_double_buffer ladder_09_wmma \
         ladder_10_wmma_double_buffer ladder_11_mma_swizzle ladder_12_mma_multistage; do
  timeout 45 compute-sanitizer --tool racecheck --error-exitcode 99 $BUILD/tests/test_ladder_edges --kernel $k >"$R/race_$k.log" 2>&1
  echo "racecheck $k rc=$? $(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazard[^$]*' "$R/race_$k.log" | tail -1)"
done
for d in f32 bf16 f16; do
  timeout 120 $BUILD/tilegemm ladder --mnk 4096,4096,4096 --dtype $d --csv >"$R/ladder_${d}_h100.csv" 2>"$R/ladder_${d}_h100.log"
  echo "ladder $d rc=$?"; cut -d, -f1,22,23,24,26,30 "$R/ladder_${d}_h100.csv"
done
for suite in sm90 sm80; do
  first=1
  while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    timeout 60 $BUILD/tilegemm bench $line --csv >"$R/row.txt" 2>/dev/null
    [ $first = 1 ] && head -1 "$R/row.txt" >"$R/bench_${suite}_h100.csv" && first=0
    tail -n +2 "$R/row.txt" >>"$R/bench_${suite}_h100.csv"
  done <bench/suite_$suite.txt
  rm -f "$R/row.txt"
  echo "== $suite"; cut -d, -f7-10,11,16-18,21,22,24,26,29,30 "$R/bench_${suite}_h100.csv"
done
(cd "$OUT" && tar czf final.tar.gz final && rm -rf final)
