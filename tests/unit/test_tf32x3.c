/*
 * test_tf32x3.c — the 3xTF32 compute mode without a GPU: the split of tf32x3.h (hi is the
 * nearest tf32 value, ties to even; lo the nearest tf32 value of the exact remainder; special
 * values), the error claim the bound rests on (|a·b − (hi·hi + lo·hi + hi·lo)| ≤ 3·2^-22·|a·b|),
 * validation, the planner's split plans (a tf32 row after splitting, 3·k deep, K-major), the
 * bound's terms and tg_explain's account of it.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "measure.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "tf32x3.h"
#include "validate.h"

/* Significant bits of a tf32 value (10 stored + the implicit one). */
#define TF32_SIGNIFICANT_BITS 11
#define RANDOM_VALUES 200000

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t next_u32(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}

/* A random finite float: any sign, exponent in [emin, emax], random mantissa bits. */
static float random_float(int emin, int emax) {
  const uint32_t exponent =
      (uint32_t)(emin + (int)(next_u32() % (uint32_t)(emax - emin + 1)) + 127);
  const uint32_t u = (next_u32() & 0x80000000u) | exponent << 23 | (next_u32() & 0x7fffffu);
  return tg_f32_from_bits(u);
}

/* The nearest value with TF32_SIGNIFICANT_BITS significant bits, ties to even, computed in
 * double from the exponent (an independent route to tg_tf32_round for normal x). */
static double nearest_tf32(double x) {
  int e;
  (void)frexp(x, &e);
  const double ulp = ldexp(1.0, e - TF32_SIGNIFICANT_BITS);
  return nearbyint(x / ulp) * ulp; /* the default rounding mode: to nearest, ties to even */
}

static int is_tf32(float x) { return (tg_f32_bits(x) & TG_TF32_DROPPED_BITS) == 0; }

static void test_split_of_normal_values(void) {
  for (int i = 0; i < RANDOM_VALUES; ++i) {
    const float x = random_float(-100, 100);
    float hi, lo;
    tg_tf32x3_split(x, &hi, &lo);
    CHECK_MSG(is_tf32(hi) && is_tf32(lo), "x=%a: hi=%a lo=%a not tf32", x, hi, lo);
    CHECK_MSG((double)hi == nearest_tf32(x), "x=%a: hi=%a, nearest %a", x, hi, nearest_tf32(x));
    const double rest = (double)x - (double)hi;
    CHECK_MSG((double)(x - hi) == rest, "x=%a: x - hi is not exact", x);
    CHECK_MSG(lo == 0.0f || (double)lo == nearest_tf32(rest), "x=%a: lo=%a", x, lo);
    CHECK_MSG(fabs(rest - lo) <= 0x1p-22 * fabs((double)x), "x=%a: |x-hi-lo| too large", x);
  }
  /* Ties go to the even neighbour: 1 + 2^-11 (halfway between 1 and 1 + 2^-10) rounds to 1,
   * 1 + 3·2^-11 to 1 + 2^-9. */
  CHECK(tg_tf32_round(1.0f + 0x1p-11f) == 1.0f);
  CHECK(tg_tf32_round(1.0f + 3.0f * 0x1p-11f) == 1.0f + 0x1p-9f);
  CHECK(tg_tf32_round(-(1.0f + 3.0f * 0x1p-11f)) == -(1.0f + 0x1p-9f));
}

static void test_split_of_special_values(void) {
  float hi, lo;
  const float exact[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, 1.0f, -2.5f, 0x1.ffep-100f};
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; ++i) {
    tg_tf32x3_split(exact[i], &hi, &lo);
    CHECK_MSG((double)hi + (double)lo == (double)exact[i] && is_tf32(hi) && is_tf32(lo),
              "x=%a: hi=%a lo=%a", exact[i], hi, lo);
  }
  /* Subnormal inputs: tf32's subnormals are 2^-136 apart, so the split keeps x to within half
   * that (the limit docs/api.md states for tiny inputs). */
  const float tiny[] = {0x1p-149f, -0x1.ffffep-127f, 0x1.234p-130f, 0x1.fffp-137f};
  for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; ++i) {
    tg_tf32x3_split(tiny[i], &hi, &lo);
    CHECK_MSG(is_tf32(hi) && is_tf32(lo) && fabs((double)tiny[i] - hi - lo) <= 0x1p-137,
              "x=%a: hi=%a lo=%a", tiny[i], hi, lo);
  }
  /* The largest finite value would round up to infinity: it is truncated, and stays finite. */
  tg_tf32x3_split(FLT_MAX, &hi, &lo);
  CHECK(isfinite(hi) && isfinite(lo) && is_tf32(hi) && is_tf32(lo) &&
        fabs((double)FLT_MAX - hi - lo) <= 0x1p-21 * (double)FLT_MAX);
  tg_tf32x3_split(-INFINITY, &hi, &lo);
  CHECK(hi == -INFINITY && lo == 0.0f);
  tg_tf32x3_split(NAN, &hi, &lo);
  CHECK(isnan(hi) && lo == 0.0f);
}

/* The claim behind TG_U_TF32X3: the three products miss a·b by at most 3·2^-22·|a·b|. */
static void test_three_products(void) {
  double worst = 0.0;
  for (int i = 0; i < RANDOM_VALUES; ++i) {
    const float a = random_float(-40, 40), b = random_float(-40, 40);
    float ah, al, bh, bl;
    tg_tf32x3_split(a, &ah, &al);
    tg_tf32x3_split(b, &bh, &bl);
    const double exact = (double)a * b;
    const double three = (double)ah * bh + (double)al * bh + (double)ah * bl;
    const double rel = fabs(exact - three) / fabs(exact);
    if (rel > worst) worst = rel;
  }
  CHECK_MSG(worst <= 2.0 * TG_U_TF32X3, "worst relative error %.3g above %.3g", worst,
            2.0 * TG_U_TF32X3);
  CHECK_MSG(worst > 0.25 * TG_U_TF32X3, "worst relative error %.3g: the claim is far too loose",
            worst);
}

static void build(tg_problem *p, const tg_gemm *g, int sm) {
  tg_layout L;
  CHECK_MSG(tg_validate_gemm(NULL, "test", g, &L) == TG_OK, "%s", tg_last_error(NULL));
  tg_problem_build(p, g, &L, (void *)(uintptr_t)0x1000, (void *)(uintptr_t)0x2000, NULL,
                   (void *)(uintptr_t)0x3000, sm, 132);
}

static void test_validation(void) {
  tg_gemm g;
  tg_layout L;
  tg_gemm_init(&g, 8, 8, 8, TG_BF16, TG_BF16);
  g.compute = TG_COMPUTE_3XTF32;
  CHECK(tg_validate_gemm(NULL, "test", &g, &L) == TG_ERR_NOT_SUPPORTED &&
        strstr(tg_last_error(NULL), "'a_type'") && strstr(tg_last_error(NULL), "3xtf32"));
  tg_gemm_init(&g, 8, 8, 8, TG_F32, TG_BF16);
  g.compute = TG_COMPUTE_3XTF32;
  CHECK(tg_validate_gemm(NULL, "test", &g, &L) == TG_OK && L.input == TG_IN_TF32X3);
  g.compute = (tg_compute)(TG_COMPUTE_3XTF32 + 1);
  CHECK(tg_validate_gemm(NULL, "test", &g, &L) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(NULL), "'compute'"));
  CHECK(strcmp(tg_compute_name(TG_COMPUTE_3XTF32), "3xtf32") == 0 &&
        strcmp(tg_input_name(TG_IN_TF32X3), "3xtf32") == 0);
}

/* Every order of A, B and D, on sm_90 and sm_80: the plan is a tf32 row after the split, and the
 * problem its kernel sees is a K-major tf32 product 3·k deep. */
static void test_split_plans(void) {
  const int sms[] = {90, 80};
  for (int s = 0; s < 2; ++s)
    for (int orders = 0; orders < 8; ++orders) {
      tg_gemm g;
      tg_problem p, q;
      tg_plan plan;
      char why[256];
      tg_gemm_init(&g, 1000, 777, 333, TG_F32, TG_F32);
      g.compute = TG_COMPUTE_3XTF32;
      g.a_order = orders & 1 ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.b_order = orders & 2 ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.c_order = orders & 4 ? TG_COL_MAJOR : TG_ROW_MAJOR;
      build(&p, &g, sms[s]);
      CHECK(tg_plan_choose(&p, NULL, NULL, &plan, why, sizeof why) == TG_OK);
      CHECK_MSG(plan.tf32x3 && !plan.repack_a && !plan.repack_b &&
                    (plan.kernel->inputs & TG_MASK(TG_IN_TF32)) &&
                    strcmp(plan.kernel->family, "ref") != 0,
                "sm_%d orders %d: %s (tf32x3 %d)", sms[s], orders, plan.kernel->name, plan.tf32x3);
      q = p;
      tg_plan_apply(&plan, &q);
      CHECK(q.input == TG_IN_TF32 && q.k == TG_TF32X3_PRODUCTS * p.k && q.m == p.m && q.n == p.n);
      CHECK(q.a_order == TG_ROW_MAJOR && q.b_order == TG_COL_MAJOR && q.lda >= q.k &&
            q.ldb >= q.k && q.lda % 4 == 0 && q.ldb % 4 == 0 && q.align_a == 16 && q.align_b == 16);
      CHECK(tg_kernel_can_serve(plan.kernel, &q, why, sizeof why) == TG_OK);
    }
  /* The reference kernel computes 3xTF32 requests in fp64 directly: no split. */
  tg_gemm g;
  tg_problem p;
  tg_plan plan;
  char why[256];
  tg_gemm_init(&g, 64, 64, 64, TG_F32, TG_F32);
  g.compute = TG_COMPUTE_3XTF32;
  build(&p, &g, 90);
  CHECK(tg_plan_choose(&p, "ref", NULL, &plan, why, sizeof why) == TG_OK && !plan.tf32x3);
  /* A row without tf32 refuses it, naming the input class. */
  CHECK(tg_plan_choose(&p, "f32_64x64x16", NULL, &plan, why, sizeof why) != TG_OK &&
        strstr(why, "3xtf32"));
}

/* The bound: tighter than tf32's, with three products per multiply-add accumulated. */
static void test_bound(void) {
  tg_gemm g;
  tg_gemm_init(&g, 64, 64, 1000, TG_F32, TG_F32);
  g.compute = TG_COMPUTE_3XTF32;
  const tg_bound x3 = tg_request_bound(&g);
  CHECK(x3.rel == TG_BOUND_FACTOR * (2.0 * TG_U_TF32X3 + 3.0 * 1000.0 * 0x1p-24));
  g.compute = TG_COMPUTE_TF32;
  CHECK(tg_request_bound(&g).rel > 4.0 * x3.rel);
}

static void test_explain(void) {
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, 90, 132) == TG_OK);
  if (!h) return;
  static char text[TG_EXPLAIN_BYTES];
  tg_gemm g;
  tg_gemm_init(&g, 4096, 4096, 4096, TG_F32, TG_F32);
  g.compute = TG_COMPUTE_3XTF32;
  CHECK(tg_check(h, &g) == TG_OK && strstr(tg_last_kernel(h), "tf32"));
  CHECK(tg_explain(h, &g, text, sizeof text) == TG_OK);
  CHECK_MSG(strstr(text, "3xTF32") && strstr(text, "after the 3xTF32 split"), "%s", text);
  tg_destroy(h);
}

int main(void) {
  test_split_of_normal_values();
  test_split_of_special_values();
  test_three_products();
  test_validation();
  test_split_plans();
  test_bound();
  test_explain();
  return tg_test_finish("test_tf32x3");
}
