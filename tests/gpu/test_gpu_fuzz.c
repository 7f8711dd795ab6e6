/*
 * test_gpu_fuzz.c — seeded random requests through tg_matmul against the CPU oracle: sizes,
 * types, orders, padded leading dimensions, batch strides, broadcast, alpha/beta, epilogues,
 * misaligned pointers, in place. Every failure prints a one-line repro command.
 *
 *   test_gpu_fuzz [--seed S] [--cases N] [--case I] [--kernel NAME]
 * Without --seed the requests are drawn from the run's seed base (gpu_case.h): new ones each run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "random_values.h"
#include "tilegemm.h"

#define DEFAULT_CASES 400
#define MAX_DIM 96
#define MAX_REPORTED_FAILURES 20

typedef struct draw {
  uint64_t seed;
  int64_t n;
} draw;

/* Uniform integer in [0, r). */
static int64_t pick(draw *d, int64_t r) { return (tg_random_int(d->seed, d->n++, 1 << 30) + (1 << 30)) % r; }

static void make_case(uint64_t seed, long index, tg_gemm *g, tg_case_options *o, const char *kernel) {
  draw d = {seed * 1000003u + (uint64_t)index, 0};
  static const tg_dtype floats[] = {TG_F32, TG_F16, TG_BF16};
  static const double alphas[] = {0.0, 1.0, 0.7, -1.5}, betas[] = {0.0, 1.0, 1.3, -0.5};
  int64_t dims[3];
  for (int i = 0; i < 3; ++i) /* half small, half up to MAX_DIM */
    dims[i] = pick(&d, 2) ? pick(&d, 10) : pick(&d, MAX_DIM + 1);
  int fam = (int)pick(&d, 6);
  tg_gemm_init(g, dims[0], dims[1], dims[2], TG_F32, TG_F32);
  switch (fam) {
    case 0: break;
    case 1: g->compute = TG_COMPUTE_TF32; break;
    case 2: g->a_type = g->b_type = TG_F16; break;
    case 3: g->a_type = g->b_type = TG_BF16; break;
    case 4:
      g->a_type = pick(&d, 2) ? TG_E4M3 : TG_E5M2;
      g->b_type = pick(&d, 2) ? TG_E4M3 : TG_E5M2;
      break;
    default: g->a_type = g->b_type = TG_S8; g->compute = TG_COMPUTE_S32; break;
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
  if (pick(&d, 4) == 0) g->batch_stride_a = TG_BATCH_BROADCAST;
  if (pick(&d, 4) == 0) g->batch_stride_b = TG_BATCH_BROADCAST;
  g->alpha = alphas[pick(&d, 4)];
  g->beta = betas[pick(&d, 4)];
  g->epilogue = (tg_epilogue)pick(&d, 6);
  g->bias_type = floats[pick(&d, 3)];
  g->kernel = kernel;
  memset(o, 0, sizeof *o);
  o->seed = seed * 31u + (uint64_t)index;
  o->pad_ld = (int)pick(&d, 4);
  for (int i = 0; i < 4; ++i) o->offset[i] = pick(&d, 5) == 0;
  o->c_is_d = pick(&d, 5) == 0;
  o->determinism = pick(&d, 8) == 0;
  o->offset[4] = pick(&d, 5) == 0; /* the bias's, drawn last: earlier cases keep their draws */
  o->allow_refusal = kernel != NULL;
}

int main(int argc, char **argv) {
  uint64_t seed = 0;
  int seed_given = 0;
  long cases = DEFAULT_CASES, only = -1;
  const char *kernel = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10), seed_given = 1;
    else if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc) cases = atol(argv[++i]);
    else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) only = atol(argv[++i]);
    else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) kernel = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--seed S] [--cases N] [--case I] [--kernel NAME]\n", argv[0]);
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
  char msg[2048];
  long ran = 0, refused = 0, reported = 0;
  for (long i = (only >= 0 ? only : 0); i < (only >= 0 ? only + 1 : cases); ++i) {
    tg_gemm g;
    tg_case_options o;
    make_case(seed, i, &g, &o, kernel);
    tg_case_outcome r = tg_run_case(h, &g, &o, msg, sizeof msg);
    ++ran;
    refused += r == TG_CASE_REFUSED;
    CHECK(r != TG_CASE_FAIL);
    if (r == TG_CASE_FAIL && reported++ < MAX_REPORTED_FAILURES)
      fprintf(stderr, "FAIL %s\n    repro: TILEGEMM_TEST_SEED=%llu %s --seed %llu --case %ld%s%s\n", msg,
              tg_case_seed_base(), argv[0], (unsigned long long)seed, i, kernel ? " --kernel " : "",
              kernel ? kernel : "");
  }
  printf("fuzz: seed %llu, %ld cases, %ld refused\n", (unsigned long long)seed, ran, refused);
  tg_destroy(h);
  return tg_test_finish("test_gpu_fuzz");
}
