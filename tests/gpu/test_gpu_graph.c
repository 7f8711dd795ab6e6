/*
 * test_gpu_graph.c — a request captured into a CUDA graph and replayed gives the bits it gives
 * eagerly, for every registered kernel: small odd shapes, several waves of edge tiles, the shapes
 * that split K (sm80 split-K) or split the last wave (sm90 stream-K, the memory-bound spread),
 * the epilogue alone (k = 0), and repacked operands. Each case runs on a handle of its own whose
 * first work is the capture (nothing allocated yet: the workspace is allocated while the stream
 * is captured), then eagerly; gpu_case.c compares the two and both against the fp64 oracle.
 *
 *   test_gpu_graph [--kernel NAME]
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "tilegemm.h"

/* Above this many multiply-adds the GPU oracle checks a case. */
#define CPU_ORACLE_MAX_MACS (1LL << 24)

static long g_ran, g_refused;

static void run(const tg_gemm *g, int graph, const char *what) {
  tg_handle *h;
  if (tg_create(&h) != TG_OK) {
    CHECK_MSG(0, "tg_create: %s", tg_last_error(NULL));
    return;
  }
  tg_case_options o;
  memset(&o, 0, sizeof o);
  o.seed = (uint64_t)(g_ran + 1);
  o.graph = graph;
  o.allow_refusal = g->kernel != NULL;
  o.gpu_oracle =
      (double)g->m * (double)g->n * (double)g->k * (double)g->batch > (double)CPU_ORACLE_MAX_MACS;
  static char msg[4096], repro[2048];
  const tg_case_outcome r = tg_run_case(h, g, &o, msg, sizeof msg);
  ++g_ran;
  g_refused += r == TG_CASE_REFUSED;
  if (r == TG_CASE_FAIL) {
    tg_case_command(repro, sizeof repro, g, &o);
    CHECK_MSG(0, "%s: %s\n    repro: %s", what, msg, repro);
  }
  tg_destroy(h);
}

/* The first input type (with its output) that kernel `name` serves at m×n×k, or -1. */
static int served_type(const char *name, int64_t m, int64_t n, int64_t k, tg_gemm *out) {
  static const struct {
    tg_dtype in, out;
    tg_compute compute;
  } types[] = {{TG_BF16, TG_BF16, TG_COMPUTE_F32}, {TG_F16, TG_F16, TG_COMPUTE_F32},
               {TG_F32, TG_F32, TG_COMPUTE_F32},   {TG_F32, TG_F32, TG_COMPUTE_TF32},
               {TG_S8, TG_S32, TG_COMPUTE_S32},    {TG_E4M3, TG_BF16, TG_COMPUTE_F32}};
  tg_handle *v;
  if (tg_create(&v) != TG_OK) return -1;
  int found = -1;
  for (int i = 0; i < (int)(sizeof types / sizeof types[0]) && found < 0; ++i) {
    tg_gemm_init(out, m, n, k, types[i].in, types[i].out);
    out->compute = types[i].compute;
    out->b_order = TG_COL_MAJOR;
    out->kernel = name;
    if (tg_check(v, out) == TG_OK) found = i;
  }
  tg_destroy(v);
  return found;
}

static void kernel_cases(const tg_kernel_info *info) {
  const int64_t tm = info->tile_m ? info->tile_m : 64, tn = info->tile_n ? info->tile_n : 64;
  const int sm90 = strcmp(info->family, "sm90") == 0;
  const int split_k = strstr(info->name, "splitk") != NULL;
  struct {
    int64_t m, n, k, batch;
    const char *what;
  } shapes[] = {
      {37, 45, 61, 2, "small odd"},
      {3 * tm - 5, 3 * tn - 3, 300, 1, "three waves of edge tiles"},
      {sm90 ? 12 * tm - 37 : 0, 12 * tn - 5, 209, 1, "stream-K (a mostly idle last wave)"},
      {sm90 ? 40 : 0, 12 * tn - 5, 2792, 1, "memory-bound spread of a single wave"},
      {split_k ? 64 : 0, 64, 4096, 1, "split-K"},
  };
  int served = 0;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    if (shapes[i].m == 0) continue;
    tg_gemm g;
    if (served_type(info->name, shapes[i].m, shapes[i].n, shapes[i].k, &g) < 0) continue;
    g.batch = shapes[i].batch;
    g.beta = i == 1 ? 1.0 : 0.0; /* C read once */
    g.epilogue = i == 1 ? TG_EPI_BIAS_RELU : TG_EPI_NONE;
    char what[160];
    snprintf(what, sizeof what, "%s, %s", info->name, shapes[i].what);
    run(&g, i % 2 ? TG_CASE_GRAPH_AFTER : TG_CASE_GRAPH_FIRST, what);
    ++served;
  }
  /* Not vacuous: every kernel but the ones for other devices ran at least one case. */
  printf("  %-30s %d shapes\n", info->name, served);
}

static void planner_cases(void) {
  tg_gemm g;
  /* The shape whose captured result once differed (stream-K turned off under capture). */
  tg_gemm_init(&g, 33, 4096, 4096, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  run(&g, TG_CASE_GRAPH_FIRST, "33x4096x4096 bf16");
  run(&g, TG_CASE_GRAPH_AFTER, "33x4096x4096 bf16 (graph after)");
  /* Repacked operands: B row-major (N-major) and an odd lda. */
  tg_gemm_init(&g, 300, 520, 264, TG_F16, TG_F16);
  g.lda = 267;
  run(&g, TG_CASE_GRAPH_FIRST, "repacked A and B");
  /* The epilogue alone (k = 0). */
  tg_gemm_init(&g, 70, 90, 0, TG_BF16, TG_F32);
  g.beta = 0.5;
  g.epilogue = TG_EPI_BIAS_GELU;
  run(&g, TG_CASE_GRAPH_FIRST, "k = 0, epilogue only");
}

int main(int argc, char **argv) {
  const char *only = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) only = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--kernel NAME]\n", argv[0]);
      return 2;
    }
  }
  tg_test_require_gpu("test_gpu_graph");
  (void)tg_case_seed_base();
  if (!only) planner_cases();
  for (int i = 0, n = tg_kernel_count(); i < n; ++i) {
    tg_kernel_info info;
    if (tg_kernel_get(i, &info) != TG_OK || (only && strcmp(info.name, only) != 0)) continue;
    kernel_cases(&info);
  }
  printf("graph: %ld cases, %ld refused\n", g_ran, g_refused);
  return tg_test_finish("test_gpu_graph");
}
