/*
 * test_plan.c — the canonical form (D^T = B^T·A^T for a column-major D), alignment classes,
 * kernel choice and its explanation (tg_explain), with no GPU: the planner is pure C.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "validate.h"

static void build(tg_problem *p, const tg_gemm *g, const void *A, const void *B, const void *C,
                  void *D) {
  tg_layout L;
  tg_status s = tg_validate_gemm(NULL, "test", g, &L);
  CHECK_MSG(s == TG_OK, "%s", tg_last_error(NULL));
  tg_problem_build(p, g, &L, A, B, C, D, 90, 132);
}

#define ADDR(x) ((void *)(uintptr_t)(x))

static void test_row_major_d_is_kept(void) {
  tg_gemm g;
  tg_problem p;
  tg_gemm_init(&g, 3, 5, 7, TG_F16, TG_F32);
  g.b_order = TG_COL_MAJOR;
  g.ldb = 9;
  g.beta = 2.0;
  g.epilogue = TG_EPI_BIAS_GELU;
  g.bias = ADDR(0x9000);
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), ADDR(0x3000), ADDR(0x4000));
  CHECK(p.m == 3 && p.n == 5 && p.k == 7 && !p.transposed && !p.bias_along_m);
  CHECK(p.a == ADDR(0x1000) && p.b == ADDR(0x2000) && p.c == ADDR(0x3000) && p.d == ADDR(0x4000));
  CHECK(p.a_order == TG_ROW_MAJOR && p.b_order == TG_COL_MAJOR);
  CHECK(p.lda == 7 && p.ldb == 9 && p.ldc == 5 && p.ldd == 5);
  CHECK(p.input == TG_IN_F16 && p.read_c && p.has_bias && p.act == TG_ACT_GELU);
  CHECK(p.alpha_f == 1.0f && p.beta_f == 2.0f && !p.exact_int);
}

static void test_column_major_d_is_transposed(void) {
  tg_gemm g;
  tg_problem p;
  tg_gemm_init(&g, 3, 5, 7, TG_E4M3, TG_BF16);
  g.b_type = TG_E5M2;
  g.a_order = TG_COL_MAJOR; /* A 3×7, lda >= 3 */
  g.lda = 4;
  g.b_order = TG_ROW_MAJOR; /* B 7×5, ldb >= 5 */
  g.ldb = 6;
  g.c_order = TG_COL_MAJOR;
  g.batch = 2;
  g.batch_stride_a = 100;
  g.batch_stride_b = TG_BATCH_BROADCAST;
  g.epilogue = TG_EPI_BIAS;
  g.bias = ADDR(0x9000);
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), NULL, ADDR(0x4000));
  /* D^T (5×3, row-major) = B^T (5×7) · A^T (7×3). */
  CHECK(p.transposed && p.bias_along_m);
  CHECK(p.m == 5 && p.n == 3 && p.k == 7);
  CHECK(p.a == ADDR(0x2000) && p.b == ADDR(0x1000));
  CHECK(p.a_type == TG_E5M2 && p.b_type == TG_E4M3);
  CHECK(p.a_order == TG_COL_MAJOR && p.b_order == TG_ROW_MAJOR);
  CHECK(p.lda == 6 && p.ldb == 4 && p.ldd == 3);
  CHECK(p.batch_stride_a == 0 && p.batch_stride_b == 100 && p.batch_stride_d == 15);
  CHECK(!p.read_c && p.c == NULL && p.input == TG_IN_FP8);
}

static void test_vanishing_product(void) {
  tg_gemm g;
  tg_problem p;
  tg_gemm_init(&g, 3, 5, 7, TG_BF16, TG_BF16);
  g.alpha = 0.0;
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), NULL, ADDR(0x4000));
  CHECK(p.k == 0 && p.a == NULL && p.b == NULL);
}

static void test_alignment(void) {
  CHECK(tg_alignment_bytes(ADDR(4096), 64, 0, 1, 2) == 16);
  CHECK(tg_alignment_bytes(ADDR(4098), 64, 0, 1, 2) == 2);
  CHECK(tg_alignment_bytes(ADDR(4096), 63, 0, 1, 2) == 2); /* odd ld of 16-bit data */
  CHECK(tg_alignment_bytes(ADDR(4096), 4, 0, 1, 2) == 8);
  CHECK(tg_alignment_bytes(ADDR(4096), 64, 3, 2, 4) == 4);  /* stride matters when batched */
  CHECK(tg_alignment_bytes(ADDR(4096), 64, 3, 1, 4) == 16); /* but not for one batch */
  CHECK(tg_alignment_bytes(ADDR(4097), 64, 0, 1, 1) == 1);
  tg_gemm g;
  tg_problem p;
  tg_gemm_init(&g, 8, 8, 8, TG_F16, TG_F16);
  g.lda = 9;
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), NULL, ADDR(0x4002));
  CHECK(p.align_a == 2 && p.align_b == 16 && p.align_d == 2);
}

static void test_exact_int_flag(void) {
  tg_gemm g;
  tg_problem p;
  tg_gemm_init(&g, 2, 2, 2, TG_S8, TG_S32);
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), NULL, ADDR(0x4000));
  CHECK(p.exact_int && p.input == TG_IN_S8);
  g.alpha = 2.0;
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), NULL, ADDR(0x4000));
  CHECK(!p.exact_int);
}

static void test_planner(void) {
  tg_gemm g;
  tg_problem p;
  tg_plan plan;
  char why[256];
  tg_gemm_init(&g, 64, 64, 64, TG_BF16, TG_BF16);
  build(&p, &g, ADDR(0x1000), ADDR(0x2000), NULL, ADDR(0x4000));
  CHECK(tg_plan_choose(&p, NULL, NULL, &plan, why, sizeof why) == TG_OK && plan.kernel != NULL);
  CHECK(tg_plan_choose(&p, "ref", NULL, &plan, why, sizeof why) == TG_OK &&
        strcmp(plan.kernel->name, "ref") == 0);
  CHECK(!plan.repack_a && !plan.repack_b && plan.splits == 1);
  CHECK(tg_plan_choose(&p, "missing", NULL, &plan, why, sizeof why) == TG_ERR_INVALID_VALUE &&
        plan.kernel == NULL);
  /* Every registered row that claims a problem must pass the generic test, and the planner
   * must never pick a row that is not auto-pickable. */
  for (int i = 0; i < tg_registry_count(); ++i) {
    const tg_kernel *r = tg_registry_at(i);
    CHECK_MSG(r->launch != NULL, "%s has no launcher", r->name);
    CHECK_MSG(tg_registry_find(r->name) == r, "%s is not unique", r->name);
    CHECK_MSG(r->sm_min >= TG_SM_ANY_MIN && r->sm_min <= r->sm_max, "%s: bad sm range", r->name);
    CHECK_MSG(r->a_orders && r->b_orders && r->inputs && r->outputs, "%s: empty mask", r->name);
  }
  CHECK(tg_registry_at(-1) == NULL && tg_registry_at(tg_registry_count()) == NULL);
  CHECK(tg_plan_choose(&p, NULL, NULL, &plan, why, sizeof why) == TG_OK && plan.kernel->auto_pick);
  /* A device outside every row's range gets NOT_SUPPORTED with a reason. */
  p.sm = 70;
  CHECK(tg_plan_choose(&p, NULL, NULL, &plan, why, sizeof why) == TG_ERR_NOT_SUPPORTED &&
        strstr(why, "sm_70"));
  CHECK(tg_plan_choose(&p, "ref", NULL, &plan, why, sizeof why) == TG_ERR_NOT_SUPPORTED &&
        strstr(why, "ref"));
}

/* tg_explain names the kernel tg_check picks, says why, lists the rows, and fails as tg_check
 * does; a short buffer is cut, terminated. */
static void test_explain(void) {
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, 90, 132) == TG_OK);
  if (!h) return;
  static char text[TG_EXPLAIN_BYTES];
  tg_gemm g;
  tg_gemm_init(&g, 4096, 4096, 4096, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  CHECK(tg_check(h, &g) == TG_OK);
  char picked[64];
  snprintf(picked, sizeof picked, "kernel: %s (the cost model", tg_last_kernel(h));
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_OK);
  CHECK_MSG(strstr(text, picked) != NULL, "no '%s' in:\n%s", picked, text);
  CHECK(strstr(text, "<- picked") != NULL && strstr(text, "sm80_128x128x64 ") != NULL);
  CHECK(strstr(text, "simt_01_naive                cannot serve") != NULL);
  g.kernel = "sm80_64x64x64";
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_OK &&
        strstr(text, "kernel: sm80_64x64x64 (named by the request)"));
  g.kernel = "no_such_kernel";
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_ERR_INVALID_VALUE &&
        strstr(text, "no_such_kernel"));
  g.kernel = NULL;
  g.c_order = TG_COL_MAJOR;
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_OK && strstr(text, "transposed"));
  g.m = -1;
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_ERR_INVALID_VALUE && strstr(text, "'m'"));
  g.m = 4096;
  g.alpha = 0.0;
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_OK && strstr(text, "alpha = 0: no product"));
  CHECK(strcmp(tg_last_kernel(h), "epilogue") == 0);
  g.alpha = 1.0;
  char tiny[16];
  memset(tiny, 'x', sizeof tiny);
  CHECK(tg_explain(h, &g, tiny, sizeof tiny) == TG_OK && tiny[sizeof tiny - 1] == '\0');
  CHECK(tg_explain(h, &g, NULL, 0) == TG_OK);
  CHECK(tg_explain(h, &g, NULL, 8) == TG_ERR_INVALID_VALUE);
  CHECK(tg_explain(NULL, &g, text, sizeof text) == TG_ERR_INVALID_VALUE);
  tg_destroy(h);
}

int main(void) {
  test_explain();
  test_row_major_d_is_kept();
  test_column_major_d_is_transposed();
  test_vanishing_product();
  test_alignment();
  test_exact_int_flag();
  test_planner();
  return tg_test_finish("test_plan");
}
