/* cmd_verify.c — `tilegemm verify`: one request through the whole check of docs/testing.md
 * (gpu_case.h, the GPU tests' own): fresh random inputs, guard bands around every buffer and
 * rogue values in any padding, D poisoned, C full of NaN when beta == 0, then every element of D
 * within its bound of the fp64 oracle, the inputs, guards and padding untouched, and a second
 * run into freshly poisoned D bit for bit the same. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gpu_case.h"
#include "options.h"
#include "tilegemm.h"

/* Above this many multiply-adds the fp64 oracle runs on the GPU (tg_reference), not the CPU. */
#define VERIFY_CPU_ORACLE_MAX_MACS (1LL << 27)

static const char k_help[] =
    "usage: tilegemm verify [problem options] [--pad-ld N] [--once] [--exact-extent] [--graph "
    "first|after]\n"
    "                       [--batch-stride-a S] [--batch-stride-b S] [--batch-stride-c S] "
    "[--batch-stride-d S]\n"
    "                       [--offsets A,B,C,D,BIAS] [--in-place] [--planned]\n"
    "\n"
    "Runs one request through the whole check the GPU tests apply (docs/testing.md): fresh random\n"
    "inputs, guard bands around every buffer, D poisoned with NaN (integer D: two poisons),\n"
    "C full of NaN where beta = 0; then every element of D within its error bound of the fp64\n"
    "oracle, A, B, C, the bias, the guards and any padding unchanged, and a second run into\n"
    "freshly poisoned D identical bit for bit.\n"
    "\n"
    "  problem options       those of `tilegemm bench` (--mnkl, --ab-dtype, --c-dtype, --a-major,\n"
    "                        --lda, --alpha, --beta, --epilogue, --kernel, --seed, --exact, ...),\n"
    "                        fp8 scales and accumulation among them (--scale\n"
    "                        none|tensor|rowcol|block, --fast-accum)\n"
    "  --pad-ld N            leading dimensions not given are packed + N, the padding full of\n"
    "                        rogue values (default 0: packed, the request bench runs)\n"
    "  --once                skip the second run (determinism); integer D still runs twice,\n"
    "                        under two poisons, as its unwritten elements have no NaN to show\n"
    "  --exact-extent        each operand allocated at exactly the bytes the request addresses\n"
    "                        and ending with its allocation (no guard bands): run it under\n"
    "                        compute-sanitizer memcheck to catch any read past an operand\n"
    "  --graph first|after   also capture the request into a CUDA graph and replay it (before or\n"
    "                        after the eager runs); D must be the same bit for bit\n"
    "  --batch-stride-X S    elements between batches of A, B, C or D (0 = packed, the default;\n"
    "                        `broadcast` = one matrix for every batch, A, B and C only)\n"
    "  --offsets A,B,C,D,BIAS  move each pointer by this many elements (alignment)\n"
    "  --in-place            C is D (same buffer, ld, stride and type)\n"
    "  --planned             run through tg_plan_create / tg_plan_run instead of tg_matmul\n"
    "\n"
    "The inputs come from the case seed (--seed) mixed with a per-run base, printed first;\n"
    "TILEGEMM_TEST_SEED=BASE repeats a run. A failing GPU test prints this command for its case.\n"
    "exit codes: 0 passed, 1 usage error or the request refused, 2 no CUDA device, 3 failed\n";

/* Integer D is always run twice, under two poisons (gpu_case.h), --once or not. */
static int is_integer_d(const tg_gemm *g) { return g->d_type == TG_S8 || g->d_type == TG_S32; }

enum {
  OWN_ONCE,
  OWN_PAD,
  OWN_EXTENT,
  OWN_GRAPH,
  OWN_STRIDE_A,
  OWN_STRIDE_B,
  OWN_STRIDE_C,
  OWN_STRIDE_D,
  OWN_OFFSETS,
  OWN_IN_PLACE,
  OWN_PLANNED,
  OWN_COUNT
};

/* A --batch-stride-X value: a non-negative integer, or `broadcast` where allowed. */
static int parse_stride(const char *v, int may_broadcast, int64_t *out) {
  if (may_broadcast && strcmp(v, "broadcast") == 0) {
    *out = TG_BATCH_BROADCAST;
    return 0;
  }
  int count = 0;
  return tg_parse_int64_list(v, out, 1, 1, &count);
}

int tg_cmd_verify(int argc, char **argv) {
  tg_cli_own_option own[OWN_COUNT] = {
      {"--once", 0, 0, NULL},           {"--pad-ld", 1, 0, NULL},
      {"--exact-extent", 0, 0, NULL},   {"--graph", 1, 0, NULL},
      {"--batch-stride-a", 1, 0, NULL}, {"--batch-stride-b", 1, 0, NULL},
      {"--batch-stride-c", 1, 0, NULL}, {"--batch-stride-d", 1, 0, NULL},
      {"--offsets", 1, 0, NULL},        {"--in-place", 0, 0, NULL},
      {"--planned", 0, 0, NULL}};
  tg_bench_options o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0, pad = 0;
  char tail = 0;
  if (tg_parse_bench_plus(argc, argv, own, OWN_COUNT, &o, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm verify: %s\n", err);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    return TG_EXIT_OK;
  }
  const int once = own[OWN_ONCE].seen;
  if (own[OWN_PAD].seen &&
      (sscanf(own[OWN_PAD].value, "%d%c", &pad, &tail) != 1 || pad < 0 || pad > 1024)) {
    fprintf(stderr, "tilegemm verify: option --pad-ld: expected an integer in 0..1024\n");
    return TG_EXIT_ERROR;
  }
  int64_t *strides[4] = {&o.g.batch_stride_a, &o.g.batch_stride_b, &o.g.batch_stride_c,
                         &o.g.batch_stride_d};
  for (int i = 0; i < 4; ++i) {
    const tg_cli_own_option *s = &own[OWN_STRIDE_A + i];
    if (s->seen && parse_stride(s->value, i < 3, strides[i]) != 0) {
      fprintf(stderr, "tilegemm verify: option %s: expected a non-negative integer%s, got '%s'\n",
              s->name, i < 3 ? " or broadcast" : "", s->value);
      return TG_EXIT_ERROR;
    }
  }
  tg_case_options co;
  memset(&co, 0, sizeof co);
  int offset_count = 0;
  if (own[OWN_OFFSETS].seen &&
      tg_parse_int64_list(own[OWN_OFFSETS].value, co.offset, 5, 5, &offset_count) != 0) {
    fprintf(
        stderr,
        "tilegemm verify: option --offsets: expected five non-negative integers A,B,C,D,BIAS\n");
    return TG_EXIT_ERROR;
  }
  if (own[OWN_GRAPH].seen) {
    if (strcmp(own[OWN_GRAPH].value, "first") == 0) co.graph = TG_CASE_GRAPH_FIRST;
    else if (strcmp(own[OWN_GRAPH].value, "after") == 0) co.graph = TG_CASE_GRAPH_AFTER;
    else {
      fprintf(stderr, "tilegemm verify: option --graph: expected first or after, got '%s'\n",
              own[OWN_GRAPH].value);
      return TG_EXIT_ERROR;
    }
  }
  co.exact_extent = own[OWN_EXTENT].seen;
  co.c_is_d = own[OWN_IN_PLACE].seen;
  co.planned = own[OWN_PLANNED].seen;
  tg_handle *h = NULL;
  const int rc = tg_cli_open_handle("verify", &h);
  if (rc) return rc;
  co.seed = o.seed;
  co.exact = o.exact;
  co.pad_ld = pad;
  co.determinism = !once;
  co.allow_refusal = 1; /* NOT_SUPPORTED / MISALIGNED is an answer: REFUSED, exit 1 */
  const double macs =
      (double)o.g.m * (double)o.g.n * (double)o.g.k * (double)(o.g.batch ? o.g.batch : 1);
  co.gpu_oracle = macs > (double)VERIFY_CPU_ORACLE_MAX_MACS;
  (void)tg_case_seed_base(); /* printed before the verdict */
  static char msg[4096];
  const tg_case_outcome r = tg_run_case(h, &o.g, &co, msg, sizeof msg);
  char desc[1024];
  tg_describe_case(desc, sizeof desc, &o.g, &co);
  int code = TG_EXIT_OK;
  if (r == TG_CASE_PASS) {
    const int twice = co.determinism || is_integer_d(&o.g);
    printf(
        "PASS (kernel %s, %s oracle): worst error/bound %.3g; guards, padding and inputs "
        "untouched%s\n    %s\n",
        tg_case_last_kernel(), co.gpu_oracle ? "GPU" : "CPU", tg_case_worst_ratio(),
        twice ? "; two runs identical" : "", desc);
  } else if (r == TG_CASE_REFUSED) {
    printf("REFUSED: %s\n", msg);
    code = TG_EXIT_ERROR;
  } else {
    printf("FAIL: %s\n", msg);
    code = TG_EXIT_CHECK_FAILED;
  }
  tg_destroy(h);
  return code;
}
