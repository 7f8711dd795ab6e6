#!/usr/bin/env bash
# ladder_check.sh — on the GPU machine: every ladder rung through the forced netlib grid (quick),
# the fuzzer and its edge test, then the ladder tables at 4096³ (CSV under $OUT).
# Assumes scripts/gpu_suite.sh build has run (BUILD, default build-gpu).
set -u
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/out}
T=$BUILD/tests
fails=0
for k in simt_01_naive simt_02_coalesced simt_03_smem simt_04_1d_blocktile simt_05_2d_blocktile \
         simt_06_vectorized simt_07_warptile simt_08_double_buffer; do
  timeout 120 $T/test_gpu_grid --quick --family f32 --kernel $k >>"$OUT/ladder_tests.log" 2>&1 || { echo "FAILED grid $k"; fails=$((fails+1)); }
  timeout 120 $T/test_gpu_fuzz --kernel $k --cases 200 >>"$OUT/ladder_tests.log" 2>&1 || { echo "FAILED fuzz $k"; fails=$((fails+1)); }
done
for k in ladder_09_wmma ladder_10_wmma_double_buffer ladder_11_mma_swizzle ladder_12_mma_multistage; do
  for f in bf16 f16; do
    timeout 120 $T/test_gpu_grid --quick --family $f --kernel $k >>"$OUT/ladder_tests.log" 2>&1 || { echo "FAILED grid $k $f"; fails=$((fails+1)); }
  done
  timeout 120 $T/test_gpu_fuzz --kernel $k --cases 200 >>"$OUT/ladder_tests.log" 2>&1 || { echo "FAILED fuzz $k"; fails=$((fails+1)); }
done
timeout 200 $T/test_ladder_edges >>"$OUT/ladder_tests.log" 2>&1 || { echo "FAILED test_ladder_edges"; fails=$((fails+1)); }
echo "ladder tests: $fails failures"
for d in f32 bf16 f16; do
  timeout 200 "$BUILD/tilegemm" ladder --mnk 4096,4096,4096 --dtype $d >"$OUT/ladder_$d.txt" 2>&1
  timeout 200 "$BUILD/tilegemm" ladder --mnk 4096,4096,4096 --dtype $d --csv >"$OUT/ladder_$d.csv" 2>&1
  cat "$OUT/ladder_$d.txt"
done
