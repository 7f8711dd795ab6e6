/* cmd_trace.c — `tilegemm trace`: one thread's view of a kernel (tools/trace/trace.h), for the
 * request the problem options describe, as the library would hand it to the kernel: validated,
 * canonical, repacked where the plan repacks. Plans on a virtual device: no GPU needed. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "options.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "tilegemm.h"
#include "trace.h"
#include "validate.h"

/* The device the trace plans for unless --virtual says otherwise: an H100 (sm_90, 132 SMs). */
#define TRACE_DEFAULT_SM 90
#define TRACE_DEFAULT_SMS 132
/* Arguments a command line may have, with the kernel's defaults put in front. */
#define TRACE_MAX_ARGS 256

static const char k_help[] =
    "usage: tilegemm trace --kernel NAME [problem options] [--block X,Y[,Z]] [--thread T]\n"
    "                      [--k-tile K] [--no-pictures] [--virtual SM,SMS]\n"
    "\n"
    "Prints what one thread of a kernel does, computed from the layout functions the kernel\n"
    "itself runs (no GPU needed): the grid and the CTA tile; for the thread, the elements of A\n"
    "and B it loads in a k-tile (global element -> shared-memory offset, swizzle included), the\n"
    "operands or mma.sync fragments it reads from shared memory, its accumulators and the\n"
    "elements of D it writes; then pictures of the tiles and of shared memory with its cells\n"
    "marked ('#' the thread, '+' its warp, '.' the other threads, ':' zeros past the edge).\n"
    "sm90 kernels (TMA + wgmma, persistent): the CTA's work units in the scheduler's order\n"
    "(whole tiles assumed: stream-K is not traced); thread 0, the producer, lists the TMA boxes\n"
    "that land in the k-tile's stage (coordinates, sizes, multicast, swizzled offsets); a\n"
    "consumer thread (warpgroups 1, 2) its rows, the wgmma descriptors of each k step (no\n"
    "operand loads) and its accumulators; D's stores (TMA) are not traced per thread.\n"
    "\n"
    "  --kernel NAME         a traced kernel (the ladder rungs 1-12, the sm80, f32 and sm90\n"
    "                        families; `tilegemm trace --list`);\n"
    "                        without it, the kernel the planner picks for the request\n"
    "  problem options       those of `tilegemm bench` (--mnkl, --ab-dtype, --a-major, --b-major,\n"
    "                        --lda, ...). Unless given, the input type, the accumulation and the\n"
    "                        orders are the kernel's own: f32 with B n-major for rungs 1-8, bf16\n"
    "                        K-major for rungs 9-12 and sm80's 16-bit rows, f32 with tf32 or s8\n"
    "                        for its tf32 and s8 rows, f32 K-major for the f32 family; sm90:\n"
    "                        bf16, e4m3, f32 with tf32 or s8, K-major\n"
    "  --block X,Y[,Z]       the CTA: blockIdx (default 0,0,0; z is the batch); sm90: X the\n"
    "                        CTA, Y its Y-th work unit\n"
    "  --thread T            the thread: threadIdx.x + blockDim.x * threadIdx.y (default 0)\n"
    "  --k-tile K            the k-tile (default 0)\n"
    "  --no-pictures         leave out the pictures\n"
    "  --virtual SM,SMS      plan for compute capability SM with SMS SMs (default 90,132)\n"
    "  --list                the traced kernels\n"
    "\n"
    "exit codes: 0 ok, 1 usage error, a request the kernel cannot serve, or no trace for it\n";

/* Own options, in this order. */
enum { OWN_BLOCK, OWN_THREAD, OWN_K_TILE, OWN_NO_PICTURES, OWN_VIRTUAL, OWN_LIST, OWN_COUNT };

static int list_kernels(void) {
  for (int i = 0; tg_trace_kernel_at(i); ++i) {
    const tg_trace_kernel *k = tg_trace_kernel_at(i);
    printf("%-30s rung %-2d %s\n", k->name, k->rung, k->summary);
  }
  return TG_EXIT_OK;
}

/* 1 when argv holds option `name` (as "--name value" or "--name=value"). */
static int given(int argc, char **argv, const char *name) {
  const size_t len = strlen(name);
  for (int i = 2; i < argc; ++i)
    if (strncmp(argv[i], name, len) == 0 && (argv[i][len] == '\0' || argv[i][len] == '=')) return 1;
  return 0;
}

/* Copies argv with the traced kernel's input type and orders put first, where the command line
 * does not give them (later options win). Returns the new argc. */
static int with_kernel_defaults(int argc, char **argv, char **out) {
  static const char k_kernel[] = "--kernel", k_kernel_eq[] = "--kernel=";
  const char *kernel = NULL;
  for (int i = 2; i < argc; ++i)
    if (strcmp(argv[i], k_kernel) == 0 && i + 1 < argc) kernel = argv[i + 1];
    else if (strncmp(argv[i], k_kernel_eq, sizeof k_kernel_eq - 1) == 0)
      kernel = argv[i] + sizeof k_kernel_eq - 1;
  const tg_trace_kernel *k = kernel ? tg_trace_kernel_find(kernel) : NULL;
  int n = 0;
  out[n++] = argv[0];
  out[n++] = argv[1];
  if (k) {
    static char ab[] = "--ab-dtype", acc[] = "--acc-dtype", am[] = "--a-major", bm[] = "--b-major";
    static char k_major[] = "k", m_major[] = "m", n_major[] = "n";
    if (!given(argc, argv, ab)) out[n++] = ab, out[n++] = (char *)k->ab_dtype;
    if (k->acc_dtype && !given(argc, argv, acc)) out[n++] = acc, out[n++] = (char *)k->acc_dtype;
    if (!given(argc, argv, am))
      out[n++] = am, out[n++] = k->a_orders >> TG_ROW_MAJOR & 1u ? k_major : m_major;
    if (!given(argc, argv, bm))
      out[n++] = bm, out[n++] = k->b_orders >> TG_COL_MAJOR & 1u ? k_major : n_major;
  }
  for (int i = 2; i < argc && n < TRACE_MAX_ARGS; ++i) out[n++] = argv[i];
  return n;
}

/* The problem the kernel of the plan receives for request g on virtual device (sm, sms): 0, or
 * the exit code after saying why. */
static int plan_request(const tg_gemm *g, int sm, int sms, tg_problem *p, tg_plan *plan) {
  tg_handle *h = NULL;
  if (tg_create_virtual(&h, sm, sms) != TG_OK) {
    fprintf(stderr, "tilegemm trace: %s\n", tg_last_error(NULL));
    return TG_EXIT_ERROR;
  }
  tg_layout L;
  int rc = TG_EXIT_OK;
  char why[256];
  if (tg_validate_gemm(h, "tilegemm trace", g, &L) != TG_OK) {
    fprintf(stderr, "%s\n", tg_last_error(h));
    rc = TG_EXIT_ERROR;
  } else if (g->m == 0 || g->n == 0 || g->batch == 0) {
    fprintf(stderr, "tilegemm trace: D is empty: no kernel runs\n");
    rc = TG_EXIT_ERROR;
  } else {
    const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
    tg_problem_build(p, g, &L, fake, fake, fake, (void *)fake, sm, sms);
    if (p->k == 0) {
      fprintf(stderr,
              "tilegemm trace: the product vanishes (k or alpha is 0): only the "
              "epilogue runs\n");
      rc = TG_EXIT_ERROR;
    } else if (tg_plan_choose(p, g->kernel, NULL, plan, why, sizeof why) != TG_OK) {
      fprintf(stderr, "tilegemm trace: %s\n", why);
      rc = TG_EXIT_ERROR;
    } else {
      tg_plan_apply(plan, p);
    }
  }
  tg_destroy(h);
  return rc;
}

int tg_cmd_trace(int argc, char **argv) {
  tg_cli_own_option own[OWN_COUNT] = {{"--block", 1, 0, NULL},   {"--thread", 1, 0, NULL},
                                      {"--k-tile", 1, 0, NULL},  {"--no-pictures", 0, 0, NULL},
                                      {"--virtual", 1, 0, NULL}, {"--list", 0, 0, NULL}};
  char *args[TRACE_MAX_ARGS];
  if (argc > TRACE_MAX_ARGS / 2) {
    fprintf(stderr, "tilegemm trace: too many arguments\n");
    return TG_EXIT_ERROR;
  }
  const int nargs = with_kernel_defaults(argc, argv, args);
  tg_bench_options o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;
  if (tg_parse_bench_plus(nargs, args, own, OWN_COUNT, &o, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm trace: %s\n", err);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    return TG_EXIT_OK;
  }
  if (own[OWN_LIST].seen) return list_kernels();
  tg_trace_print_options po;
  memset(&po, 0, sizeof po);
  po.pictures = !own[OWN_NO_PICTURES].seen;
  int sm = TRACE_DEFAULT_SM, sms = TRACE_DEFAULT_SMS;
  char tail = 0;
  unsigned bx = 0, by = 0, bz = 0;
  if (own[OWN_BLOCK].seen && sscanf(own[OWN_BLOCK].value, "%u,%u%c", &bx, &by, &tail) != 2 &&
      sscanf(own[OWN_BLOCK].value, "%u,%u,%u%c", &bx, &by, &bz, &tail) != 3) {
    fprintf(stderr, "tilegemm trace: option --block: expected X,Y or X,Y,Z (e.g. 1,0)\n");
    return TG_EXIT_ERROR;
  }
  po.bx = bx, po.by = by, po.bz = bz;
  if (own[OWN_THREAD].seen &&
      (sscanf(own[OWN_THREAD].value, "%d%c", &po.tid, &tail) != 1 || po.tid < 0)) {
    fprintf(stderr, "tilegemm trace: option --thread: expected a thread index (e.g. 37)\n");
    return TG_EXIT_ERROR;
  }
  if (own[OWN_K_TILE].seen &&
      (sscanf(own[OWN_K_TILE].value, "%d%c", &po.kt, &tail) != 1 || po.kt < 0)) {
    fprintf(stderr, "tilegemm trace: option --k-tile: expected a k-tile index (e.g. 0)\n");
    return TG_EXIT_ERROR;
  }
  if (own[OWN_VIRTUAL].seen &&
      (sscanf(own[OWN_VIRTUAL].value, "%d,%d%c", &sm, &sms, &tail) != 2 || sm < 10 || sms < 1)) {
    fprintf(stderr, "tilegemm trace: option --virtual: expected SM,SMS (e.g. 90,132)\n");
    return TG_EXIT_ERROR;
  }
  tg_problem p;
  tg_plan plan;
  const int rc = plan_request(&o.g, sm, sms, &p, &plan);
  if (rc != TG_EXIT_OK) return rc;
  const tg_trace_kernel *k = tg_trace_kernel_find(plan.kernel->name);
  if (!k) {
    fprintf(stderr,
            "tilegemm trace: the plan runs %s (family %s), which has no trace yet; "
            "`tilegemm trace --list` names the traced kernels\n",
            plan.kernel->name, plan.kernel->family);
    return TG_EXIT_ERROR;
  }
  char lead[256];
  char split[32] = "";
  if (plan.splits > 1) snprintf(split, sizeof split, ", k split %d ways", plan.splits);
  snprintf(lead, sizeof lead, "plan: %s%s%s%s%s", plan.kernel->name,
           o.g.kernel ? " (named)" : " (the planner's pick)",
           plan.repack_a ? ", A repacked first" : "", plan.repack_b ? ", B repacked first" : "",
           split);
  po.lead = lead;
  tg_trace t;
  tg_trace_init(&t, k, &p, plan.splits);
  if (tg_trace_print(stdout, &t, &po, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm trace: %s\n", err);
    return TG_EXIT_ERROR;
  }
  return TG_EXIT_OK;
}
