/* cmd_bench.c — `tilegemm bench`: one request, verified and timed, optionally against cuBLAS;
 * or, with --host-time, the host time of its calls (host_time.h). */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_run.h"
#include "commands.h"
#include "host_time.h"
#include "options.h"
#include "report.h"
#include "tilegemm.h"

/* TG_HOST_TIME_CALLS as the help text says it. */
#define STRINGIFY(x) #x
#define AS_TEXT(x) STRINGIFY(x)
#define HOST_TIME_CALLS AS_TEXT(TG_HOST_TIME_CALLS)

static const char k_help[] =
    "usage: tilegemm bench [options]\n"
    "\n"
    "Runs D = act(alpha*A*B + beta*C + bias) on the GPU, checks it against the fp64 GPU\n"
    "oracle (error/bound per element, docs/testing.md) and reports the median time.\n"
    "\n"
    "problem:\n"
    "  --mnkl M,N,K[,L]      sizes and batch count                    (default 1024,1024,1024,1)\n"
    "  --ab-dtype T          A and B type: f32 f16 bf16 e4m3 e5m2 s8   (default bf16)\n"
    "  --a-dtype T, --b-dtype T   one operand's type (fp8 pairs may mix)\n"
    "  --c-dtype T           C and D type: f32 f16 bf16 s32 s8         (default: A's; s32 for s8, "
    "bf16 for fp8)\n"
    "  --d-dtype T           D type when it differs from C's\n"
    "  --acc-dtype T         f32, tf32 (f32 inputs on tensor cores), 3xtf32 (f32 inputs as three\n"
    "                        tf32 products: near-fp32 accuracy on tensor cores) or s32\n"
    "                        (default f32 / s32)\n"
    "  --a-major k|m         A (M×K) contiguous along k (row-major) or m  (default k)\n"
    "  --b-major k|n         B (K×N) contiguous along k or n (row-major)  (default k)\n"
    "  --c-major n|m         C and D (M×N) contiguous along n (row-major) or m (default n)\n"
    "  --lda/--ldb/--ldc/--ldd N   leading dimensions (default packed)\n"
    "  --alpha X, --beta X   scalars                                   (default 1, 0)\n"
    "  --epilogue E          none bias relu gelu bias-relu bias-gelu   (default none)\n"
    "  --bias-dtype T        f32 f16 bf16                              (default: D's, f32 for "
    "ints)\n"
    "  --kernel NAME|auto    force a registered kernel (tilegemm list) (default auto)\n"
    "fp8 inputs (e4m3, e5m2):\n"
    "  --scale MODE          fp32 scales of A and B (docs/api.md)      (default none)\n"
    "                          none    no scales\n"
    "                          tensor  one per matrix\n"
    "                          rowcol  one per row of A, one per column of B\n"
    "                          block   one per 1x128 slice of a row of A (along k), one per\n"
    "                                  128x128 block of B (DeepSeek-V3's recipe)\n"
    "                        one set per batch, random in [0.5, 2) (0.5 or 1 with --exact)\n"
    "  --fast-accum          accumulate all of k in the tensor cores' own format: faster, less\n"
    "                        accurate (default: into fp32 at least every 128 of k, as block\n"
    "                        scales do either way)\n"
    "measurement:\n"
    "  --warmup N            untimed runs first                        (default 5)\n"
    "  --iterations N        timed runs; the median is reported        (default 30)\n"
    "  --cold-l2             rotate input sets totalling > 3x L2 so no run hits a warm L2\n"
    "                        (fp8 scales: one set, shared by every input set)\n"
    "  --skip-ref-check      do not verify against the GPU oracle\n"
    "  --vs-cublas           also time cuBLASLt on the same input sets, alternating (with\n"
    "                        --cold-l2 each on a set the other has not just read); print the "
    "ratio\n"
    "                        (fp8: the same scales and accumulation; it reports what it\n"
    "                        cannot express, e.g. scales per batch)\n"
    "  --exact               small-integer data: the check becomes a bitwise comparison\n"
    "                        with the oracle rounded to D's type (GELU keeps the bound)\n"
    "  --seed N              data seed                                 (default 1)\n"
    "  --csv                 print a CSV header and one row instead of the table\n"
    "  --host-time           instead of the above, the host time of one call issued back to\n"
    "                        back with others: the median over --iterations batches (after\n"
    "                        --warmup untimed ones) of " HOST_TIME_CALLS
    " calls each, for tg_matmul,\n"
    "                        tg_plan_run of a plan made once, an empty kernel's launch (the floor\n"
    "                        of any launch here) and, with --vs-cublas, cublasLtMatmul; nothing\n"
    "                        is verified\n"
    "\n"
    "exit codes: 0 ok, 1 error, 2 no CUDA device, 3 verification failed\n";

/* `bench --host-time`: times the calls of o's request on the handle's device and prints them. */
static int host_time(tg_handle *h, const tg_bench_options *o) {
  tg_host_time_result r;
  char msg[512];
  if (tg_host_time_run(h, o, &r, msg, sizeof msg) != 0) {
    fprintf(stderr, "tilegemm bench: %s\n", msg);
    return TG_EXIT_ERROR;
  }
  tg_report_context ctx;
  tg_report_context_read(&ctx);
  tg_host_time_report(stdout, &ctx, o, &r);
  return TG_EXIT_OK;
}

int tg_cmd_bench(int argc, char **argv) {
  tg_cli_own_option own[] = {{"--host-time", 0, 0, NULL}};
  tg_bench_options o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;
  if (tg_parse_bench_plus(argc, argv, own, 1, &o, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm bench: %s\n", err);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    return TG_EXIT_OK;
  }
  if (own[0].seen && (o.csv || o.cold_l2)) {
    fprintf(stderr, "tilegemm bench: option --host-time: --%s does not apply to it\n",
            o.csv ? "csv" : "cold-l2");
    return TG_EXIT_ERROR;
  }
  tg_handle *h = NULL;
  int rc = tg_cli_open_handle("bench", &h);
  if (rc) return rc;
  if (own[0].seen) {
    rc = host_time(h, &o);
    tg_destroy(h);
    return rc;
  }
  tg_bench_result r;
  char msg[512];
  if (tg_bench_run(h, &o, &r, msg, sizeof msg) != 0) {
    fprintf(stderr, "tilegemm bench: %s\n", msg);
    tg_destroy(h);
    return TG_EXIT_ERROR;
  }
  tg_report_context ctx;
  tg_report_context_read(&ctx);
  if (o.csv) {
    tg_report_csv_header(stdout);
    tg_report_csv_row(stdout, &ctx, &o, &r, "");
  } else {
    tg_report_table(stdout, &ctx, &o, &r);
  }
  tg_destroy(h);
  if (r.check.done && !r.check.pass) return TG_EXIT_CHECK_FAILED;
  return TG_EXIT_OK;
}
