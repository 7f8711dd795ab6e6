/* main.c — `tilegemm`: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tilegemm.h"

static const char k_usage[] =
    "usage: tilegemm <command> [options]\n"
    "\n"
    "commands:\n"
    "  info     the CUDA device: name, SMs, clocks, memory, driver and runtime versions\n"
    "  list     every registered kernel: family, architectures, tile, ladder rung\n"
    "  bench    run one GEMM, verify it against the fp64 GPU oracle, time it (and cuBLAS)\n"
    "  verify   one request through the GPU tests' whole check (docs/testing.md): guard bands,\n"
    "           poisoned D, NaN C where beta = 0, the oracle's bound, a second identical run;\n"
    "           exact-extent buffers (for memcheck), graph capture, a planned run\n"
    "  explain  which kernel the planner picks for a request and why, with every kernel's\n"
    "           modeled cost (no GPU needed with --virtual SM,SMS)\n"
    "  ladder   run every rung of the kernel ladder (docs/ladder.md) against cuBLAS\n"
    "  tune     time every kernel on each shape, verify the fastest, store it in the tuning\n"
    "           cache the planner reads first (docs/tuning.md); before/after table\n"
    "  sweep    shapes x types (bench/shapes/*.txt) vs cuBLAS, verified: CSV for bench/plot.py\n"
    "  trace    one thread's view of a kernel: the elements of A and B it loads per k-tile\n"
    "           (global -> shared memory, swizzle included), its fragments, the D it writes,\n"
    "           and pictures of the tiles (no GPU needed; docs/ladder.md)\n"
    "  version  the library version\n"
    "\n"
    "request options: bench, verify, explain and trace describe a request with the same options\n"
    "(tune and sweep with most of them): sizes (--mnkl), types (--ab-dtype, --c-dtype, ...),\n"
    "majors, leading dimensions, alpha, beta, the epilogue, the kernel, and for fp8 inputs\n"
    "their scales (--scale none|tensor|rowcol|block: one per matrix, per row of A and column\n"
    "of B, or per 1x128 slice of A and 128x128 block of B) and accumulation (--fast-accum:\n"
    "all of k in the tensor cores' format); `tilegemm bench --help` lists them all.\n"
    "\n"
    "`tilegemm <command> --help` describes a command's options.\n"
    "exit codes: 0 ok, 1 usage or run-time error, 2 no CUDA device, 3 verification failed\n";

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
      strcmp(argv[1], "help") == 0) {
    fputs(k_usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? TG_EXIT_ERROR : TG_EXIT_OK;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "info") == 0) return tg_cmd_info(argc, argv);
  if (strcmp(cmd, "list") == 0) return tg_cmd_list(argc, argv);
  if (strcmp(cmd, "bench") == 0) return tg_cmd_bench(argc, argv);
  if (strcmp(cmd, "ladder") == 0) return tg_cmd_ladder(argc, argv);
  if (strcmp(cmd, "tune") == 0) return tg_cmd_tune(argc, argv);
  if (strcmp(cmd, "sweep") == 0) return tg_cmd_sweep(argc, argv);
  if (strcmp(cmd, "explain") == 0) return tg_cmd_explain(argc, argv);
  if (strcmp(cmd, "verify") == 0) return tg_cmd_verify(argc, argv);
  if (strcmp(cmd, "trace") == 0) return tg_cmd_trace(argc, argv);
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    printf("tilegemm %s\n", tg_version());
    return TG_EXIT_OK;
  }
  fprintf(stderr, "tilegemm: unknown command '%s' (see tilegemm --help)\n", cmd);
  return TG_EXIT_ERROR;
}
