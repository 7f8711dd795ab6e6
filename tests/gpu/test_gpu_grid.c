/*
 * test_gpu_grid.c — the netlib-style grid of docs/testing.md through the public API, against the
 * CPU oracle: m, n, k ∈ {0,1,2,3,5,9} × every A/B/C order × alpha ∈ {0,1,0.7} ×
 * beta ∈ {0,1,1.3}, ld = packed + 1 with rogue padding, guard bands, poisoned D, NaN in C when
 * beta == 0. Output and C types rotate through the family's allowed types.
 *
 *   test_gpu_grid [--family f32|tf32|3xtf32|f16|bf16|fp8|s8|all] [--kernel NAME] [--quick]
 * --kernel forces a kernel; requests it refuses are counted, not failed (tg_check must agree).
 * --quick trims the grid (m, n, k ∈ {0,1,3,9}, alpha ∈ {0,0.7}, beta ∈ {0,1.3}) for the
 * sanitizer runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "tilegemm.h"

typedef struct family {
  const char *name;
  tg_dtype a, b;
  tg_compute compute;
  tg_dtype outs[3];
  int n_outs;
} family;

static const family k_families[] = {
    {"f32", TG_F32, TG_F32, TG_COMPUTE_F32, {TG_F32, TG_F16, TG_BF16}, 3},
    {"tf32", TG_F32, TG_F32, TG_COMPUTE_TF32, {TG_F32, TG_BF16, TG_F16}, 3},
    {"3xtf32", TG_F32, TG_F32, TG_COMPUTE_3XTF32, {TG_F32, TG_F16, TG_BF16}, 3},
    {"f16", TG_F16, TG_F16, TG_COMPUTE_F32, {TG_F16, TG_F32, TG_BF16}, 3},
    {"bf16", TG_BF16, TG_BF16, TG_COMPUTE_F32, {TG_BF16, TG_F32, TG_F16}, 3},
    {"fp8", TG_E4M3, TG_E5M2, TG_COMPUTE_F32, {TG_BF16, TG_F16, TG_F32}, 3},
    {"s8", TG_S8, TG_S8, TG_COMPUTE_S32, {TG_S32, TG_S8, TG_S32}, 2},
};
#define FAMILY_COUNT ((int)(sizeof k_families / sizeof k_families[0]))
#define MAX_REPORTED_FAILURES 20

int main(int argc, char **argv) {
  const char *only = "all", *kernel = NULL;
  int quick = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--family") == 0 && i + 1 < argc) only = argv[++i];
    else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) kernel = argv[++i];
    else if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else {
      fprintf(stderr, "usage: %s [--family NAME|all] [--kernel NAME] [--quick]\n", argv[0]);
      return 2;
    }
  }
  tg_test_require_gpu("test_gpu_grid");
  tg_handle *h;
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  const int64_t full_sizes[] = {0, 1, 2, 3, 5, 9}, quick_sizes[] = {0, 1, 3, 9};
  const double full_alpha[] = {0.0, 1.0, 0.7}, quick_alpha[] = {0.0, 0.7};
  const double full_beta[] = {0.0, 1.0, 1.3}, quick_beta[] = {0.0, 1.3};
  const int64_t *sizes = quick ? quick_sizes : full_sizes;
  const double *alphas = quick ? quick_alpha : full_alpha, *betas = quick ? quick_beta : full_beta;
  const int ns = quick ? 4 : 6, na = quick ? 2 : 3, nb = quick ? 2 : 3;
  long cases = 0, refused = 0, reported = 0;
  char msg[2048];

  for (int f = 0; f < FAMILY_COUNT; ++f) {
    const family *fam = &k_families[f];
    if (strcmp(only, "all") != 0 && strcmp(only, fam->name) != 0) continue;
    long fam_cases = 0, fam_refused = 0;
    for (int im = 0; im < ns; ++im)
      for (int in = 0; in < ns; ++in)
        for (int ik = 0; ik < ns; ++ik)
          for (int orders = 0; orders < 8; ++orders)
            for (int ia = 0; ia < na; ++ia)
              for (int ib = 0; ib < nb; ++ib) {
                tg_gemm g;
                long idx = fam_cases;
                tg_gemm_init(&g, sizes[im], sizes[in], sizes[ik], fam->a, fam->outs[0]);
                g.b_type = fam->b;
                g.compute = fam->compute;
                g.d_type = fam->outs[idx % fam->n_outs];
                g.c_type = fam->outs[(idx / fam->n_outs) % fam->n_outs];
                g.a_order = (orders & 1) ? TG_COL_MAJOR : TG_ROW_MAJOR;
                g.b_order = (orders & 2) ? TG_COL_MAJOR : TG_ROW_MAJOR;
                g.c_order = (orders & 4) ? TG_COL_MAJOR : TG_ROW_MAJOR;
                g.alpha = alphas[ia];
                g.beta = betas[ib];
                g.kernel = kernel;
                tg_case_options o;
                memset(&o, 0, sizeof o);
                o.seed = (uint64_t)(f * 1000003 + idx);
                o.pad_ld = 1;
                o.exact = g.alpha != 0.7 && g.beta != 1.3; /* integer scalars: bitwise */
                o.allow_refusal = kernel != NULL;
                tg_case_outcome r = tg_run_case(h, &g, &o, msg, sizeof msg);
                ++fam_cases;
                if (r == TG_CASE_REFUSED) {
                  ++fam_refused;
                  /* tg_check must give the same answer as tg_matmul did. */
                  CHECK_MSG(tg_check(h, &g) != TG_OK, "tg_check accepts what tg_matmul refused: %s",
                            msg);
                }
                CHECK(r != TG_CASE_FAIL);
                if (r == TG_CASE_FAIL && reported++ < MAX_REPORTED_FAILURES)
                  fprintf(stderr, "FAIL [%s #%ld] %s\n", fam->name, idx, msg);
              }
    printf("family %-5s %ld cases, %ld refused by the forced kernel\n", fam->name, fam_cases,
           fam_refused);
    cases += fam_cases;
    refused += fam_refused;
  }
  printf("grid: %ld cases, %ld refused, kernel %s\n", cases, refused, kernel ? kernel : "auto");
  CHECK(cases > 0);
  tg_destroy(h);
  return tg_test_finish("test_gpu_grid");
}
