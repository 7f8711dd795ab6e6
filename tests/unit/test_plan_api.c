/*
 * test_plan_api.c — planned requests (tg_plan_create / tg_plan_run / tg_plan_destroy) without a
 * GPU: creation validates as tg_matmul does and names the parameter, picks what tg_check picks,
 * and a run checks its pointers (and plans anew for less aligned ones) before it finds the
 * handle has no device.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tilegemm.h"

#define ADDR(x) ((void *)(uintptr_t)(x))

static void test_creation_matches_check(tg_handle *h) {
  static const struct {
    int64_t m, n, k;
    tg_dtype ab, cd;
    tg_order b;
  } cases[] = {{4096, 4096, 4096, TG_BF16, TG_BF16, TG_COL_MAJOR},
               {33, 4096, 4096, TG_F16, TG_F32, TG_ROW_MAJOR},
               {100, 70, 30, TG_F32, TG_F32, TG_ROW_MAJOR},
               {64, 64, 520, TG_S8, TG_S32, TG_COL_MAJOR},
               {5, 6, 0, TG_BF16, TG_BF16, TG_ROW_MAJOR}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    tg_gemm g;
    tg_gemm_init(&g, cases[i].m, cases[i].n, cases[i].k, cases[i].ab, cases[i].cd);
    g.b_order = cases[i].b;
    CHECK(tg_check(h, &g) == TG_OK);
    char expected[64];
    snprintf(expected, sizeof expected, "%s", tg_last_kernel(h));
    tg_matmul_plan *p = NULL;
    CHECK_MSG(tg_plan_create(h, &g, &p) == TG_OK, "%s", tg_last_error(h));
    CHECK_MSG(p && strcmp(tg_plan_kernel(p), expected) == 0, "case %zu: plan %s, tg_check %s", i,
              p ? tg_plan_kernel(p) : "-", expected);
    /* A run checks its pointers, then finds no device to run on; so does one whose operands
     * are less aligned than the plan's, after planning them anew. */
    CHECK(tg_plan_run(p, ADDR(1ull << 32), ADDR(2ull << 32), NULL, ADDR(3ull << 32), 0) ==
          TG_ERR_NO_DEVICE);
    CHECK(tg_plan_run(p, ADDR((1ull << 32) + 2), ADDR(2ull << 32), NULL, ADDR(3ull << 32), 0) ==
          TG_ERR_NO_DEVICE);
    CHECK(strstr(tg_last_error(h), "tg_plan_run") && strstr(tg_last_error(h), "virtual"));
    CHECK(tg_plan_run(p, ADDR(0x10000), ADDR(0x20000), NULL, NULL, 0) == TG_ERR_INVALID_VALUE);
    CHECK(strstr(tg_last_error(h), "tg_plan_run") && strstr(tg_last_error(h), "'D'"));
    tg_plan_destroy(p);
  }
}

static void test_bad_requests(tg_handle *h) {
  tg_gemm g;
  tg_matmul_plan *p = ADDR(1);
  tg_gemm_init(&g, 8, 8, 8, TG_BF16, TG_BF16);
  g.lda = 3; /* below packed */
  CHECK(tg_plan_create(h, &g, &p) == TG_ERR_INVALID_VALUE && p == NULL);
  CHECK(strstr(tg_last_error(h), "tg_plan_create") && strstr(tg_last_error(h), "'lda'"));
  tg_gemm_init(&g, 8, 8, 8, TG_BF16, TG_BF16);
  g.kernel = "no_such_kernel";
  CHECK(tg_plan_create(h, &g, &p) == TG_ERR_INVALID_VALUE);
  CHECK(tg_plan_create(h, &g, NULL) == TG_ERR_INVALID_VALUE);
  CHECK(tg_plan_create(NULL, &g, &p) == TG_ERR_INVALID_VALUE);
  CHECK(tg_plan_run(NULL, NULL, NULL, NULL, NULL, 0) == TG_ERR_INVALID_VALUE);
  tg_plan_destroy(NULL);
}

/* The plan keeps its own copy of the request and of the kernel's name. */
static void test_request_copied(tg_handle *h) {
  tg_gemm g;
  char name[32] = "sm80_64x64x64";
  tg_gemm_init(&g, 64, 64, 64, TG_F16, TG_F16);
  g.kernel = name;
  tg_matmul_plan *p = NULL;
  CHECK(tg_plan_create(h, &g, &p) == TG_OK);
  memset(name, 'x', sizeof name - 1);
  g.m = -1;
  CHECK(p && strcmp(tg_plan_kernel(p), "sm80_64x64x64") == 0);
  tg_plan_destroy(p);
  tg_gemm_init(&g, 0, 64, 64, TG_F16, TG_F16); /* nothing to compute */
  CHECK(tg_plan_create(h, &g, &p) == TG_OK && strcmp(tg_plan_kernel(p), "") == 0);
  CHECK(tg_plan_run(p, NULL, NULL, NULL, NULL, 0) == TG_OK);
  tg_plan_destroy(p);
}

int main(void) {
  tg_handle *h = NULL;
  if (tg_create_virtual(&h, 90, 132) != TG_OK) {
    fprintf(stderr, "tg_create_virtual: %s\n", tg_last_error(NULL));
    return 1;
  }
  test_creation_matches_check(h);
  test_bad_requests(h);
  test_request_copied(h);
  tg_destroy(h);
  return tg_test_finish("test_plan_api");
}
