#!/usr/bin/env bash
# sanitize.sh — compute-sanitizer (memcheck with leak check, initcheck, racecheck, synccheck)
# over the GPU tests, each run time-boxed; one summary line per run, logs under $OUT. The
# initcheck runs leave C unwritten wherever beta == 0 (TILEGEMM_TEST_UNWRITTEN_C=1); the
# memcheck runs allocate every operand at exactly its extent (TILEGEMM_TEST_EXACT_EXTENT=1), so
# a read past an operand's last element crosses its allocation, and they add 2,000 exact-extent
# fuzz requests and the fuzz forced onto one kernel of each family.
# Assumes scripts/gpu_suite.sh build has run (BUILD, default build-gpu).
# Environment: SANITIZE_TOOLS (default "memcheck initcheck racecheck synccheck"), SANITIZE_RUNS
# (';'-separated test commands instead of the list below), SANITIZE_TIMEOUT (s per run, 150),
# SANITIZE_ONLY (an extended regex: only the runs, racecheck launches included, that match it,
# e.g. "sm90_" after a change to the sm90 kernels alone), SANITIZE_JOBS (runs at once, default
# 1: each is a process of its own on the one GPU, mostly bound by the sanitizer's host-side
# work, so several share a 16-core machine well; summary lines still come out in list order).
# racecheck: the sm90 feature suites outlast it even with --quick (none finished in 420 s on an
# H100), so for the sm90 rows it runs single `tilegemm bench` launches that take
# each shared-memory path once instead (sm90_racecheck_launches below: multi-wave stream-K with
# the plain epilogue, the FULL epilogue with C and bias+GELU, the memory-bound spread, two whole
# waves; 5-51 s each); the other feature suites run with --quick. A run that starts with
# "tilegemm" is a CLI launch, any other a test binary.
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
  "test_gpu_graph"
  "test_gpu_features --kernel sm90_128x256x64"
  "test_gpu_features --kernel sm90_128x256x64_c1"
  "test_gpu_features --kernel sm90_256x128x64"
  "test_gpu_features --kernel sm90_128x192x64"
  "test_gpu_features --kernel sm90_128x144x64"
  "test_gpu_features --kernel sm90_128x208x64"
  "test_gpu_features --kernel sm90_256x160x64"
  "test_gpu_features --kernel sm90_pp_128x128x64"
  "test_gpu_features --kernel sm90_128x128x64"
  "test_gpu_features --kernel sm90_128x64x64"
  "test_gpu_features --kernel sm90_tf32_128x192x32"
  "test_gpu_features --kernel sm90_tf32_128x64x32"
  "test_gpu_features --kernel sm90_s8_128x192x128"
  "test_gpu_features --kernel sm90_s8_128x64x128"
  "test_gpu_features --kernel sm90_f8_128x128x128"
  "test_gpu_features --kernel sm80_128x256x64"
  "test_gpu_features --kernel sm80_64x64x64_splitk"
  "test_gpu_features --kernel sm80_tf32_128x128x32"
  "test_gpu_features --kernel sm80_s8_128x128x128"
  "test_gpu_features --kernel f32_128x128x16"
  "test_gpu_features --kernel f32_64x64x16_splitk"
  "test_gpu_features --kernel decode_t8_w16"
  "test_gpu_features --kernel ref"
  "test_ladder_edges"
  "test_gpu_repack"
  "test_gpu_tf32x3"
  "test_gpu_decode"
)
# memcheck only: the exact-extent fuzz in parts (2,000 requests), and forced onto a kernel of
# each family (the fuzz's other input types are refused by it); fp8 requests alone (every
# scaling, either D order) forced onto the fp8 row that takes BLOCK scales.
memcheck_runs=()
for part in 0 1 2 3 4 5 6 7; do
  memcheck_runs+=("test_gpu_fuzz --exact-extent --large-every 0 --cases 250 --from $((20000 + 250 * part))")
done
for k in sm80_64x64x64 sm80_128x128x64_splitk sm80_tf32_64x64x32 sm80_s8_128x128x128 ladder_11_mma_swizzle \
         ladder_12_mma_multistage ladder_09_wmma simt_07_warptile simt_06_vectorized ref sm90_128x64x64 sm90_128x256x64 \
         sm90_tf32_128x192x32 sm90_tf32_128x64x32 sm90_s8_128x192x128 sm90_s8_128x64x128 \
         f32_128x128x16 f32_64x64x16 f32_64x64x16_splitk decode_t8_w16; do
  memcheck_runs+=("test_gpu_fuzz --exact-extent --large-every 0 --cases 150 --kernel $k")
done
memcheck_runs+=("test_gpu_fuzz --exact-extent --large-every 0 --cases 150 --fp8 --kernel sm90_f8_128x128x128")
if [ -n "${SANITIZE_RUNS:-}" ]; then
  IFS=';' read -r -a runs <<<"$SANITIZE_RUNS"
  memcheck_runs=()
fi

# Five single launches per sm90 row (name:tile_m:tile_n), shaped as test_gpu_features's cases:
# 12×12 tiles cut short at k = 209 (over a wave of items, the last one mostly idle: stream-K),
# 300 × (2·tile_n + 8) × 200 with beta = 1 and bias+GELU, M = 40 against 12 tiles of N at
# k = 2792 (decode: the spread single wave), and 24×11 tiles cut short at k = 64 (two whole
# waves: each consumer warp stashes its next tile in shared memory under the last wgmma), plain
# (the LEAN kernels) and with bias+ReLU (the BIAS kernels: the tile's bias loaded under the last
# wgmma, the stage descriptors kept in registers). A row marked `plain` holds the plain epilogue
# only (sm90_256x160x64): its epilogue launches are left out; a row marked `tf32` or `s8` (fifth
# field) runs f32 inputs with tf32 compute or int8 inputs, one marked `f8` e4m3 inputs with BLOCK
# scales, and a sixth launch of it the first shape into a column-major D (the transposed frame:
# the canonical A holds the 128×128 scale blocks).
sm90_racecheck_launches() {
  local row name tm tn only inputs
  for row in sm90_128x256x64:128:256 sm90_256x128x64:256:128 sm90_128x192x64:128:192 sm90_128x208x64:128:208 \
             sm90_256x160x64:256:160:plain sm90_128x144x64:128:144 sm90_128x256x64_c1:128:256 \
             sm90_pp_128x128x64:128:128 sm90_128x128x64:128:128 sm90_128x64x64:128:64 \
             sm90_tf32_128x192x32:128:192::tf32 sm90_tf32_128x64x32:128:64::tf32 \
             sm90_s8_128x192x128:128:192::s8 sm90_s8_128x64x128:128:64::s8 \
             sm90_f8_128x128x128:128:128::f8; do
    IFS=: read -r name tm tn only inputs <<<"$row"
    local types=""
    [ "$inputs" = tf32 ] && types="--ab-dtype f32 --acc-dtype tf32 "
    [ "$inputs" = s8 ] && types="--ab-dtype s8 "
    [ "$inputs" = f8 ] && types="--ab-dtype e4m3 --b-major k --scale block "
    local one="tilegemm bench --warmup 0 --iterations 1 --kernel $name $types--mnkl"
    # n short of the tile edge by 5 and 3 columns; by 8 for a plain-only row (its D 16-byte aligned)
    local short5=5 short3=3
    [ "$only" = plain ] && short5=8 short3=8
    echo "$one $((12 * tm - 37)),$((12 * tn - short5)),209"
    [ "$only" = plain ] || echo "$one 300,$((2 * tn + 8)),200 --beta 1 --epilogue bias-gelu"
    echo "$one 40,$((12 * tn - short5)),2792"
    echo "$one $((24 * tm - 5)),$((11 * tn - short3)),64"
    [ "$only" = plain ] || echo "$one $((24 * tm - 5)),$((11 * tn - short3)),64 --epilogue bias-relu"
    [ "$inputs" = f8 ] && echo "$one $((12 * tm - 37)),$((12 * tn - short5)),209 --c-major m"
  done
}
JOBS=${SANITIZE_JOBS:-1}
# One run: its log under $OUT, its summary line into $2.
sanitize_one() {
  local tool=$1 line=$2 r=$3 extra=""
  [ "$tool" = memcheck ] && extra="--leak-check full"
  local name log start rc summary
  name=$(echo "$r" | tr ' ,' '__' | tr -d '-')
  log="$OUT/san_${tool}_${name}.log"
  start=$(date +%s)
  local bin=$T/$r
  case "$r" in tilegemm*) bin=$BUILD/$r ;; esac
  # initcheck: C is allocated and never written where beta == 0 (gpu_case.h), so a read of it
  # is an uninitialized read (docs/testing.md, "Memory safety").
  local unwritten_c=0 exact_extent=0
  [ "$tool" = initcheck ] && unwritten_c=1
  [ "$tool" = memcheck ] && exact_extent=1
  # shellcheck disable=SC2086
  TILEGEMM_TEST_UNWRITTEN_C=$unwritten_c TILEGEMM_TEST_EXACT_EXTENT=$exact_extent \
    timeout "$LIMIT" compute-sanitizer --tool "$tool" $extra \
    --error-exitcode 99 $bin >"$log" 2>&1
  rc=$?
  summary=$(grep -oE "ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard[^$]*" "$log" | tail -1)
  echo "$tool | $r | rc=$rc | ${summary:-no summary (timeout?)} | $(( $(date +%s) - start )) s" >"$line"
}
lines=$(mktemp -d)
n=0
for tool in ${SANITIZE_TOOLS:-memcheck initcheck racecheck synccheck}; do
  tool_runs=()
  for r in "${runs[@]}"; do
    case "$tool $r" in
      "racecheck test_gpu_features --kernel sm90_"*) continue ;; # the launches below stand in
      "racecheck test_gpu_features"*) r="$r --quick" ;;
      "racecheck test_gpu_graph"*) continue ;; # its shapes are the sm90 launches below
    esac
    tool_runs+=("$r")
  done
  if [ "$tool" = memcheck ]; then tool_runs+=("${memcheck_runs[@]}"); fi
  if [ "$tool" = racecheck ] && [ -z "${SANITIZE_RUNS:-}" ]; then
    while IFS= read -r r; do tool_runs+=("$r"); done < <(sm90_racecheck_launches)
  fi
  if [ -n "${SANITIZE_ONLY:-}" ]; then
    kept=()
    for r in "${tool_runs[@]}"; do [[ "$r" =~ $SANITIZE_ONLY ]] && kept+=("$r"); done
    tool_runs=("${kept[@]}")
  fi
  for r in "${tool_runs[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    sanitize_one "$tool" "$lines/$(printf %04d $n)" "$r" &
    n=$((n + 1))
  done
done
wait
cat "$lines"/* 2>/dev/null
rm -rf "$lines"
(cd "$OUT" && tar czf sanitize_logs.tar.gz --remove-files san_*.log 2>/dev/null)
