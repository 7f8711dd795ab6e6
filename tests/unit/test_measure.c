/*
 * test_measure.c — one module (interface/measure.h) for what a request costs and how exact its
 * answer must be, with no GPU: the library's bound (tg_tune's, tg_tune_tolerance) is the one the
 * tests and tools check against (tg_tolerance_make); the unit roundoffs are the formats'; and a
 * problem's flops and bytes (the planner's, the sm90 launcher's) are its request's (the tools')
 * when C has D's type.
 */
#include <stdint.h>

#include "check.h"
#include "measure.h"
#include "problem_build.h"
#include "tolerance.h"
#include "tune_verify.h"
#include "validate.h"

#define ADDR(x) ((void *)(uintptr_t)(x))

static void test_unit_roundoffs(void) {
  CHECK(tg_unit_roundoff(TG_F32) == 0x1p-24 && tg_unit_roundoff(TG_F16) == 0x1p-11);
  CHECK(tg_unit_roundoff(TG_BF16) == 0x1p-8 && tg_unit_roundoff(TG_E4M3) == 0x1p-4);
  CHECK(tg_unit_roundoff(TG_E5M2) == 0x1p-3 && tg_unit_roundoff(TG_S8) == 0.0 &&
        tg_unit_roundoff(TG_S32) == 0.0);
}

static void test_library_and_tools_share_the_bound(void) {
  static const struct {
    tg_dtype ab, cd;
    tg_compute compute;
    tg_epilogue epilogue;
    double alpha, beta;
  } cases[] = {
      {TG_BF16, TG_BF16, TG_COMPUTE_F32, TG_EPI_NONE, 1.0, 0.0},
      {TG_F16, TG_F32, TG_COMPUTE_F32, TG_EPI_BIAS_RELU, 1.0, 1.0},
      {TG_F32, TG_F32, TG_COMPUTE_TF32, TG_EPI_GELU, 0.5, 0.0},
      {TG_E4M3, TG_BF16, TG_COMPUTE_F32, TG_EPI_BIAS_GELU, 2.0, 0.25},
      {TG_S8, TG_S32, TG_COMPUTE_S32, TG_EPI_NONE, 1.0, 0.0},
      {TG_S8, TG_S8, TG_COMPUTE_S32, TG_EPI_RELU, 1.0, 0.0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    tg_gemm g;
    tg_gemm_init(&g, 64, 48, 1000, cases[i].ab, cases[i].cd);
    g.compute = cases[i].compute;
    g.epilogue = cases[i].epilogue;
    g.alpha = cases[i].alpha;
    g.beta = cases[i].beta;
    double rel, abs, lo, hi;
    tg_tune_tolerance(&g, &rel, &abs, &lo, &hi);
    const tg_tolerance t = tg_tolerance_make(&g, 0);
    CHECK_MSG(rel == t.rel && abs == t.abs && lo == t.lo && hi == t.hi,
              "case %d: library and tools disagree", (int)i);
    CHECK_MSG(t.u_out == tg_unit_roundoff(cases[i].cd) && rel >= 0.0, "case %d", (int)i);
  }
}

static void test_problem_costs_are_the_request_s(void) {
  for (int beta = 0; beta <= 1; ++beta) {
    tg_gemm g;
    tg_gemm_init(&g, 3000, 500, 700, TG_BF16, TG_BF16);
    g.batch = 3;
    g.beta = beta;
    tg_layout L;
    CHECK_MSG(tg_validate_gemm(NULL, "test", &g, &L) == TG_OK, "%s", tg_last_error(NULL));
    tg_problem p;
    tg_problem_build(&p, &g, &L, ADDR(0x1000), ADDR(0x2000), ADDR(0x3000), ADDR(0x4000), 90, 132);
    CHECK(tg_problem_flops(&p) == tg_request_flops(&g) &&
          tg_request_flops(&g) == 2.0 * 3000 * 500 * 700 * 3);
    CHECK(tg_problem_min_bytes(&p) == tg_request_bytes(&g));
    CHECK(tg_request_bytes(&g) ==
          3.0 * 2 * (3000.0 * 700 + 700.0 * 500 + 3000.0 * 500 * (1 + beta)));
  }
}

int main(void) {
  test_unit_roundoffs();
  test_library_and_tools_share_the_bound();
  test_problem_costs_are_the_request_s();
  return tg_test_finish("test_measure");
}
