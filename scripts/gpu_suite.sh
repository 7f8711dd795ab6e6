#!/usr/bin/env bash
# gpu_suite.sh — everything the GPU machine is for, in one call: build, the `gpu` test label
# (and the `sass` one: the kernels' machine code, scripts/sass_check.py),
# compute-sanitizer over the GPU tests, and benchmarks; full logs under $OUT, a compact summary
# printed last.
#
#   scripts/gpu_suite.sh [stage...]     stages: build tests sanitize bench (default: all)
# Environment: OUT (log folder, default ./out), BUILD (build folder, default build-gpu),
#   SANITIZE_TOOLS (default "memcheck initcheck racecheck synccheck"),
#   SANITIZE_RUNS (';'-separated test commands; default scripts/sanitize.sh's list),
#   SANITIZE_JOBS (sanitizer runs at once, default 6),
#   TEST_JOBS (GPU tests at once, default 4: the feature suite's parts side by side),
#   TEST_TIMEOUT (seconds per GPU test, default 240),
#   CMAKE_ARGS (extra configure arguments, e.g. -DTILEGEMM_FAMILIES=...),
#   BENCH_ARGS (a file of `tilegemm bench` argument lines; default bench/suite_default.txt).
set -u
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(build tests sanitize bench)
summary=()
note() { summary+=("$1"); echo "== $1"; }
has() { for s in "${stages[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

if has build; then
  start=$(date +%s)
  # shellcheck disable=SC2086
  if cmake -B "$BUILD" -S . -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >"$OUT/configure.log" 2>&1 &&
     cmake --build "$BUILD" -j16 >"$OUT/build.log" 2>&1; then
    note "build: ok in $(( $(date +%s) - start )) s"
  else
    tail -40 "$OUT/build.log"; note "build: FAILED"; printf '%s\n' "${summary[@]}"; exit 1
  fi
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv \
  >"$OUT/nvidia_smi.txt" 2>&1
"$BUILD/tilegemm" info >"$OUT/info.txt" 2>&1

if has tests; then
  start=$(date +%s)
  ctest --test-dir "$BUILD" -L gpu -V -j "${TEST_JOBS:-4}" --timeout "${TEST_TIMEOUT:-240}" >"$OUT/ctest_gpu.log" 2>&1
  rc=$?
  grep -E "tests passed|tests failed|Passed|Failed|Skipped" "$OUT/ctest_gpu.log" | tail -8
  grep -hE "^[0-9]+: (grid|features|fuzz|family|tile edges|FAIL)|checks,|repro" "$OUT/ctest_gpu.log" | head -60
  note "gpu tests: rc=$rc in $(( $(date +%s) - start )) s ($(grep -E 'tests passed' "$OUT/ctest_gpu.log"))"
  ctest --test-dir "$BUILD" -L cpu >"$OUT/ctest_cpu.log" 2>&1
  note "cpu tests on the GPU machine: rc=$? ($(grep -E 'tests passed' "$OUT/ctest_cpu.log"))"
  ctest --test-dir "$BUILD" -L sass -V >"$OUT/ctest_sass.log" 2>&1
  note "sass check: rc=$? ($(grep -oE 'sass_check: [^(]*\([^)]*\), [0-9]+ problems|SKIPPED' "$OUT/ctest_sass.log" | head -1))"
fi

if has sanitize; then
  # One sanitizer policy for every caller (scripts/sanitize.sh: racecheck takes the feature
  # suite's --quick cases); its lines join the summary, its logs land in $OUT.
  # Its own list of runs unless SANITIZE_RUNS names others; six at a time.
  while IFS= read -r line; do note "sanitizer $line"; done < <(
    BUILD="$BUILD" OUT="$OUT" SANITIZE_TIMEOUT="${SANITIZE_TIMEOUT:-240}" \
      SANITIZE_JOBS="${SANITIZE_JOBS:-6}" bash scripts/sanitize.sh)
fi

if has bench; then
  list=${BENCH_ARGS:-bench/suite_default.txt}
  first=1
  : >"$OUT/bench.csv"
  while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    timeout 120 "$BUILD/tilegemm" bench $line --csv >"$OUT/bench_row.txt" 2>"$OUT/bench_err.txt"
    rc=$?
    if [ $first = 1 ]; then head -1 "$OUT/bench_row.txt" >>"$OUT/bench.csv"; first=0; fi
    tail -n +2 "$OUT/bench_row.txt" >>"$OUT/bench.csv"
    row=$(tail -n 1 "$OUT/bench_row.txt")
    IFS=, read -r _ _ _ _ _ _ m n k l a b c d acc am bm cm al be ep kern ms tf gb chk wr cms ctf ratio <<<"$row"
    note "bench rc=$rc ${m}x${n}x${k}x${l} ${a}/${b}->${d} ${am}${bm}${cm} ${ep} [$kern] ${ms} ms ${tf} TF/s check=${chk}(${wr}) cuBLAS ${ctf} TF/s ratio ${ratio} $(head -c 160 "$OUT/bench_err.txt")"
  done <"$list"
fi

# $OUT returns at most 8 files: keep the logs in one archive.
# One archive per call, named by its stages (and numbered), so that no call overwrites another's.
tag=$(IFS=-; echo "${stages[*]}")
n=1
while [ -e "$OUT/logs-$tag-$n.tar.gz" ]; do n=$((n + 1)); done
(cd "$OUT" && tar czf "logs-$tag-$n.tar.gz" --remove-files ./*.log ./*.txt 2>/dev/null)
echo
echo "================ summary ================"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
printf '%s\n' "${summary[@]}"
