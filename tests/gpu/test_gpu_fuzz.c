/*
 * test_gpu_fuzz.c — seeded random requests through tg_matmul against the fp64 oracle: sizes
 * (a few large enough for several tiles of the biggest kernels), every input type and compute
 * mode, orders, packed, odd and padded leading dimensions, packed, padded, odd, overlapping and
 * broadcast batch strides (batch 1 with any stride too), alpha/beta, epilogues, misaligned
 * pointers, C == D in place; one in four through a plan (tg_plan_run). Every failure prints its
 * seed and the `tilegemm verify` line that repeats it.
 *
 *   test_gpu_fuzz [--seed S] [--cases N] [--from I] [--case I] [--kernel NAME] [--exact-extent]
 *                 [--graph-every G] [--large-every L] [--fp8]
 * Without --seed the requests are drawn from the run's seed base (gpu_case.h): new ones each run.
 * Cases are numbered: --from I runs cases I .. I + N − 1 (runs side by side take other numbers).
 * --exact-extent allocates every operand at exactly its extent (run it under compute-sanitizer
 * memcheck); one case in G also runs captured into a CUDA graph (default 16, 0 = none); one
 * in L is large and checked against the GPU oracle (default 25, 0 = none). --fp8 draws fp8
 * inputs only (every scaling; for a run forced onto an fp8 kernel, which refuses the rest).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "random_values.h"
#include "tilegemm.h"

#define DEFAULT_CASES 400
#define MAX_DIM 96
#define MAX_LARGE_DIM 700
#define MAX_REPORTED_FAILURES 20
#define DEFAULT_GRAPH_EVERY 16
#define DEFAULT_LARGE_EVERY 25
/* Case seeds stay below 2^63: `verify --seed` takes them back. */
#define CASE_SEED_MASK 0x7fffffffffffffffull

typedef struct fuzz_config {
  const char *kernel;
  int exact_extent;
  int graph_every, large_every;
  int fp8_only; /* --fp8 */
} fuzz_config;

typedef struct draw {
  uint64_t seed;
  int64_t n;
} draw;

/* Uniform integer in [0, r). */
static int64_t pick(draw *d, int64_t r) {
  return (tg_random_int(d->seed, d->n++, 1 << 30) + (1 << 30)) % r;
}

/* A leading dimension for `packed`: packed, oddly padded, padded to 8 elements, or more. */
static int64_t pick_ld(draw *d, int64_t packed) {
  if (packed < 1) packed = 1;
  switch (pick(d, 5)) {
    case 0:
    case 1: return packed;
    case 2: return packed + 1 + pick(d, 3);
    case 3: return (packed + 7) / 8 * 8;
    default: return (packed + 7) / 8 * 8 + 8 * (1 + pick(d, 2));
  }
}

/* One matrix's extent in elements ((outer − 1)·ld + inner). */
static int64_t extent(int64_t rows, int64_t cols, tg_order order, int64_t ld) {
  if (rows == 0 || cols == 0) return 0;
  return order == TG_ROW_MAJOR ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
}

/* A batch stride: packed (0), padded, odd, broadcast and overlapping (inputs), or, for a single
 * batch, any value at all. */
static int64_t pick_stride(draw *d, int input, int64_t one, int64_t batch) {
  switch (pick(d, 6)) {
    case 0: return 0;
    case 1: return one + 8 * (1 + pick(d, 4));
    case 2: return one + 1 + 2 * pick(d, 8);
    case 3: return input ? TG_BATCH_BROADCAST : 0;
    case 4: return input && one > 1 ? 1 + pick(d, one) : one + pick(d, 3); /* batches overlap */
    default: return batch == 1 ? 1 + pick(d, 1 << 20) : one;
  }
}

static void make_case(uint64_t seed, long index, tg_gemm *g, tg_case_options *o,
                      const fuzz_config *cfg) {
  draw d = {seed * 1000003u + (uint64_t)index, 0};
  static const tg_dtype floats[] = {TG_F32, TG_F16, TG_BF16};
  static const double alphas[] = {0.0, 1.0, 0.7, -1.5}, betas[] = {0.0, 1.0, 1.3, -0.5};
  const int large = cfg->large_every > 0 && pick(&d, cfg->large_every) == 0;
  int64_t dims[3];
  for (int i = 0; i < 3; ++i) /* half small, half up to MAX_DIM; large cases up to MAX_LARGE_DIM */
    dims[i] = large         ? 1 + pick(&d, MAX_LARGE_DIM)
              : pick(&d, 2) ? pick(&d, 10)
                            : pick(&d, MAX_DIM + 1);
  int fam = (int)pick(&d, 7);
  if (cfg->fp8_only) fam = 4; /* drawn all the same, so that the sizes stay those of the case */
  tg_gemm_init(g, dims[0], dims[1], dims[2], TG_F32, TG_F32);
  switch (fam) {
    case 0: break;
    case 1: g->compute = TG_COMPUTE_TF32; break;
    case 6: g->compute = TG_COMPUTE_3XTF32; break;
    case 2: g->a_type = g->b_type = TG_F16; break;
    case 3: g->a_type = g->b_type = TG_BF16; break;
    case 4:
      g->a_type = pick(&d, 2) ? TG_E4M3 : TG_E5M2;
      g->b_type = pick(&d, 2) ? TG_E4M3 : TG_E5M2;
      break;
    default:
      g->a_type = g->b_type = TG_S8;
      g->compute = TG_COMPUTE_S32;
      break;
  }
  if (fam == 5) {
    g->c_type = pick(&d, 2) ? TG_S32 : TG_S8;
    g->d_type = pick(&d, 2) ? TG_S32 : TG_S8;
  } else {
    g->c_type = floats[pick(&d, 3)];
    g->d_type = floats[pick(&d, 3)];
  }
  g->batch = 1 + pick(&d, 3);
  g->a_order = (tg_order)pick(&d, 2);
  g->b_order = (tg_order)pick(&d, 2);
  g->c_order = (tg_order)pick(&d, 2);
  g->lda = pick_ld(&d, g->a_order == TG_ROW_MAJOR ? g->k : g->m);
  g->ldb = pick_ld(&d, g->b_order == TG_ROW_MAJOR ? g->n : g->k);
  g->ldc = pick_ld(&d, g->c_order == TG_ROW_MAJOR ? g->n : g->m);
  g->ldd = pick_ld(&d, g->c_order == TG_ROW_MAJOR ? g->n : g->m);
  g->batch_stride_a = pick_stride(&d, 1, extent(g->m, g->k, g->a_order, g->lda), g->batch);
  g->batch_stride_b = pick_stride(&d, 1, extent(g->k, g->n, g->b_order, g->ldb), g->batch);
  g->batch_stride_c = pick_stride(&d, 1, extent(g->m, g->n, g->c_order, g->ldc), g->batch);
  g->batch_stride_d = pick_stride(&d, 0, extent(g->m, g->n, g->c_order, g->ldd), g->batch);
  g->alpha = alphas[pick(&d, 4)];
  g->beta = betas[pick(&d, 4)];
  g->epilogue = (tg_epilogue)pick(&d, 6);
  g->bias_type = floats[pick(&d, 3)];
  g->kernel = cfg->kernel;
  memset(o, 0, sizeof *o);
  o->seed = (seed * 31u + (uint64_t)index) & CASE_SEED_MASK;
  for (int i = 0; i < 5; ++i) o->offset[i] = pick(&d, 5) == 0;
  o->c_is_d = pick(&d, 5) == 0;
  o->determinism = pick(&d, 8) == 0;
  o->allow_refusal = cfg->kernel != NULL;
  o->exact_extent = cfg->exact_extent;
  if (cfg->graph_every > 0 && pick(&d, cfg->graph_every) == 0)
    o->graph = pick(&d, 2) ? TG_CASE_GRAPH_FIRST : TG_CASE_GRAPH_AFTER;
  o->gpu_oracle = large;
  o->planned = pick(&d, 4) == 0;
  if (fam == 4) { /* fp8: any scaling, fast accumulation one time in three (drawn last, so that
                     the other families' cases stay as they were) */
    g->scale_mode = (tg_scale_mode)pick(&d, 4);
    g->fp8_fast_accum = pick(&d, 3) == 0;
  }
}

int main(int argc, char **argv) {
  uint64_t seed = 0;
  int seed_given = 0;
  long cases = DEFAULT_CASES, only = -1, from = 0;
  fuzz_config cfg = {NULL, 0, DEFAULT_GRAPH_EVERY, DEFAULT_LARGE_EVERY, 0};
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10), seed_given = 1;
    else if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc) cases = atol(argv[++i]);
    else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) only = atol(argv[++i]);
    else if (strcmp(argv[i], "--from") == 0 && i + 1 < argc) from = atol(argv[++i]);
    else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) cfg.kernel = argv[++i];
    else if (strcmp(argv[i], "--exact-extent") == 0) cfg.exact_extent = 1;
    else if (strcmp(argv[i], "--graph-every") == 0 && i + 1 < argc)
      cfg.graph_every = atoi(argv[++i]);
    else if (strcmp(argv[i], "--large-every") == 0 && i + 1 < argc)
      cfg.large_every = atoi(argv[++i]);
    else if (strcmp(argv[i], "--fp8") == 0) cfg.fp8_only = 1;
    else {
      fprintf(stderr,
              "usage: %s [--seed S] [--cases N] [--from I] [--case I] [--kernel NAME] "
              "[--exact-extent] [--graph-every G] "
              "[--large-every L] [--fp8]\n",
              argv[0]);
      return 2;
    }
  }
  tg_test_require_gpu("test_gpu_fuzz");
  if (!seed_given) seed = tg_case_seed_base();
  tg_handle *h;
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  static char msg[4096], repro[2048];
  long ran = 0, refused = 0, reported = 0, graphs = 0, large = 0;
  for (long i = (only >= 0 ? only : from); i < (only >= 0 ? only + 1 : from + cases); ++i) {
    tg_gemm g;
    tg_case_options o;
    make_case(seed, i, &g, &o, &cfg);
    tg_case_outcome r = tg_run_case(h, &g, &o, msg, sizeof msg);
    ++ran;
    refused += r == TG_CASE_REFUSED;
    graphs += o.graph != 0;
    large += o.gpu_oracle;
    CHECK(r != TG_CASE_FAIL);
    if (r == TG_CASE_FAIL && reported++ < MAX_REPORTED_FAILURES) {
      tg_case_command(repro, sizeof repro, &g, &o);
      fprintf(stderr, "FAIL %s\n    fuzz: %s --seed %llu --case %ld%s%s%s%s\n    repro: %s\n", msg,
              argv[0], (unsigned long long)seed, i, cfg.kernel ? " --kernel " : "",
              cfg.kernel ? cfg.kernel : "", cfg.exact_extent ? " --exact-extent" : "",
              cfg.fp8_only ? " --fp8" : "", repro);
    }
  }
  printf("fuzz: seed %llu, %ld cases (%ld large, %ld captured in graphs%s), %ld refused\n",
         (unsigned long long)seed, ran, large, graphs, cfg.exact_extent ? ", exact extents" : "",
         refused);
  tg_destroy(h);
  return tg_test_finish("test_gpu_fuzz");
}
