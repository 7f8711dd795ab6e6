#!/usr/bin/env bash
# ncu_memory.sh — memory traffic of our kernel against cuBLAS's, one launch each (ncu, caches
# flushed, clocks as they run): time, clock, DRAM bytes, L2 read/write sectors from the SMs,
# sectors crossing between the L2 partitions, tensor-pipe activity, instructions. One table
# row per kernel; full ncu output under $OUT. Assumes scripts/gpu_suite.sh build has run.
#
#   scripts/ncu_memory.sh [M,N,K ...] [-- extra bench arguments, e.g. --kernel NAME --ab-dtype f16]
#   (default shape 4096,4096,4096)
set -u
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
shapes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shapes+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#shapes[@]} -eq 0 ] && shapes=(4096,4096,4096)
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics=$metrics,lts__t_sectors_srcunit_ltcfabric.sum,smsp__inst_executed.sum
metrics=$metrics,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
printf '%-16s %-12s %9s %6s %9s %9s %9s %9s %8s %7s %8s\n' shape kernel "time_us" GHz \
  "dram_rd_MB" "dram_wr_MB" "l2_rd_Msec" "l2_wr_Msec" fabric_M tensor% inst_M
for s in "${shapes[@]}"; do
  for who in ours cublas; do
    filter=regex:sm90_gemm_kernel
    [ $who = cublas ] && filter=regex:nvjet
    log="$OUT/ncu_memory_${who}_${s//,/x}.txt"
    # warm-up launches first; the alternating bench launches both libraries' kernels
    ncu --clock-control none -k "$filter" --launch-skip 2 --launch-count 1 --metrics "$metrics" \
      "$BUILD/tilegemm" bench --mnkl "$s" --vs-cublas --warmup 2 --iterations 1 --skip-ref-check "$@" \
      >"$log" 2>&1
    awk -v s="$s" -v who="$who" '
      function num(x) { gsub(",", "", x); return x + 0 }
      function mb(v, unit) { return unit == "Gbyte" ? v * 1000 : unit == "Kbyte" ? v / 1000 : unit == "byte" ? v / 1e6 : v }
      $1 == "gpu__time_duration.sum" { t = num($NF); if ($2 == "ms" || $2 == "msecond") t *= 1000; if ($2 == "ns" || $2 == "nsecond") t /= 1000 }
      $1 == "sm__cycles_elapsed.avg.per_second" { ghz = num($NF); if ($2 ~ /^[Mm]hz$/) ghz /= 1000 }
      $1 == "dram__bytes_read.sum" { dr = mb(num($NF), $2) }
      $1 == "dram__bytes_write.sum" { dw = mb(num($NF), $2) }
      $1 == "lts__t_sectors_srcunit_tex_op_read.sum" { lr = num($NF) / 1e6 }
      $1 == "lts__t_sectors_srcunit_tex_op_write.sum" { lw = num($NF) / 1e6 }
      $1 == "lts__t_sectors_srcunit_ltcfabric.sum" { fb = num($NF) / 1e6 }
      $1 ~ /tensor_op_hmma/ { tp = num($NF) }
      $1 == "smsp__inst_executed.sum" { ins = num($NF) / 1e6 }
      END { if (t == 0) { printf "%-16s %-12s (no profile: see the log)\n", s, who; exit }
            printf "%-16s %-12s %9.1f %6.2f %9.1f %9.1f %9.2f %9.2f %8.2f %7.1f %8.1f\n",
                   s, who, t, ghz, dr, dw, lr, lw, fb, tp, ins }' "$log"
  done
done
