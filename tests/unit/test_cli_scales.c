/*
 * test_cli_scales.c — the fp8 scales of `tilegemm bench`, `tune` and `sweep`, without a GPU:
 * how many floats each operand's scales take (tilegemm.h's layouts, per batch), the random
 * values (in [0.5, 2); 0.5 or 1 in exact mode), and how the cuBLASLt side-by-side maps them:
 * what it refuses, and the padded layout of B's 128x128-block scales, checked element by element
 * against problem.h's tg_scale_index.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_ref.h"
#include "cublas_runner.h"
#include "operands.h"
#include "problem.h"

#define VALUE_DRAWS 100000
#define WHY_BYTES 160

/* An fp8 request of the given sizes and scale mode: A k-major (row-major), B k-major
 * (column-major), as cuBLASLt runs fp8. */
static tg_gemm fp8_request(int64_t m, int64_t n, int64_t k, int64_t batch, tg_scale_mode mode) {
  tg_gemm g;
  tg_gemm_init(&g, m, n, k, TG_E4M3, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  g.batch = batch;
  g.scale_mode = mode;
  return g;
}

static void test_counts(void) {
  /* 200×300×1000 in 3 batches: ceil(1000/128) = 8 k-blocks, ceil(300/128) = 3 n-blocks. */
  tg_gemm g = fp8_request(200, 300, 1000, 3, TG_SCALE_NONE);
  CHECK(tg_scale_count(&g, 'a') == 0 && tg_scale_count(&g, 'b') == 0);
  g.scale_mode = TG_SCALE_TENSOR;
  CHECK(tg_scale_count(&g, 'a') == 3 && tg_scale_count(&g, 'b') == 3);
  g.scale_mode = TG_SCALE_ROW_COL;
  CHECK(tg_scale_count(&g, 'a') == 3 * 200 && tg_scale_count(&g, 'b') == 3 * 300);
  g.scale_mode = TG_SCALE_BLOCK;
  CHECK(tg_scale_count(&g, 'a') == 3 * 8 * 200 && tg_scale_count(&g, 'b') == 3 * 3 * 8);
  /* A broadcast operand has one set for every batch. */
  g.batch_stride_a = TG_BATCH_BROADCAST;
  CHECK(tg_scale_count(&g, 'a') == 8 * 200 && tg_scale_count(&g, 'b') == 3 * 3 * 8);
  g.batch_stride_a = 0;
  g.batch_stride_b = TG_BATCH_BROADCAST;
  CHECK(tg_scale_count(&g, 'a') == 3 * 8 * 200 && tg_scale_count(&g, 'b') == 3 * 8);
  /* Exactly one k-block at k = 128; none of anything at batch 0. */
  g = fp8_request(5, 129, 128, 1, TG_SCALE_BLOCK);
  CHECK(tg_scale_count(&g, 'a') == 5 && tg_scale_count(&g, 'b') == 2);
  g.batch = 0;
  CHECK(tg_scale_count(&g, 'a') == 0 && tg_scale_count(&g, 'b') == 0);
}

static void test_values(void) {
  float lo = 2.0f, hi = 0.0f;
  int low_half = 0, exact_low = 0, exact_high = 0, exact_other = 0;
  for (int64_t i = 0; i < VALUE_DRAWS; ++i) {
    const float v = tg_scale_value(7, i, 0);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    low_half += v < 1.0f;
    const float e = tg_scale_value(7, i, 1);
    exact_low += e == 0.5f;
    exact_high += e == 1.0f;
    exact_other += e != 0.5f && e != 1.0f;
  }
  CHECK_MSG(lo >= 0.5f && hi < 2.0f, "values in [%g, %g]", lo, hi);
  CHECK_MSG(lo < 0.51f && hi > 1.98f, "values in [%g, %g] do not cover [0.5, 2)", lo, hi);
  /* Log-uniform: half of them below 1. */
  CHECK_MSG(abs(2 * low_half - VALUE_DRAWS) < VALUE_DRAWS / 50, "%d of %d below 1", low_half,
            VALUE_DRAWS);
  CHECK(exact_other == 0 && exact_low > 0 && exact_high > 0);
  /* A seed and an index give one value; other seeds, others. */
  CHECK(tg_scale_value(7, 12345, 0) == tg_scale_value(7, 12345, 0));
  CHECK(tg_scale_value(7, 12345, 0) != tg_scale_value(8, 12345, 0));
}

static void test_cublas_refusals(void) {
  char why[WHY_BYTES];
  for (int mode = TG_SCALE_TENSOR; mode <= TG_SCALE_BLOCK; ++mode) {
    tg_gemm g = fp8_request(256, 256, 512, 1, (tg_scale_mode)mode);
    why[0] = '\0';
    CHECK_MSG(tg_cublas_scales_supported(&g, why, sizeof why) == 0, "mode %d: %s", mode, why);
    /* Per-batch scales: cuBLASLt has one set for every batch. */
    g.batch = 2;
    CHECK(tg_cublas_scales_supported(&g, why, sizeof why) != 0 && strstr(why, "per batch"));
    g.batch_stride_a = TG_BATCH_BROADCAST;
    CHECK(tg_cublas_scales_supported(&g, why, sizeof why) != 0 && strstr(why, "B's scales"));
    g.batch_stride_b = TG_BATCH_BROADCAST;
    CHECK(tg_cublas_scales_supported(&g, why, sizeof why) == 0);
    /* Operands not contiguous along k: only block scales depend on it. */
    g = fp8_request(256, 256, 512, 1, (tg_scale_mode)mode);
    g.a_order = TG_COL_MAJOR;
    const int refused = tg_cublas_scales_supported(&g, why, sizeof why) != 0;
    CHECK_MSG(refused == (mode == TG_SCALE_BLOCK), "mode %d, A m-major: refused %d", mode, refused);
    if (refused) CHECK_MSG(strstr(why, "k-major") && !strchr(why, '\n'), "%s", why);
    g = fp8_request(256, 256, 512, 1, (tg_scale_mode)mode);
    g.b_order = TG_ROW_MAJOR;
    CHECK((tg_cublas_scales_supported(&g, why, sizeof why) != 0) == (mode == TG_SCALE_BLOCK));
  }
}

/* cuBLASLt's layouts of the block scales against problem.h's: A's 1×128 slices are read as they
 * are (k-block major, m fastest); B's 128×128 blocks after padding their rows. */
static void test_cublas_block_layout(void) {
  CHECK(tg_cublas_block_scales_ld(1) == 4 && tg_cublas_block_scales_ld(128) == 4);
  CHECK(tg_cublas_block_scales_ld(512) == 4 && tg_cublas_block_scales_ld(513) == 8);
  CHECK(tg_cublas_block_scales_ld(1024) == 8);
  static const int64_t sizes[][2] = {{300, 640}, {128, 512}, {1, 1}, {129, 1000}};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; ++t) {
    const int64_t n = sizes[t][0], k = sizes[t][1], m = n + 3;
    const int64_t count_b = tg_scale_floats(TG_SCALE_BLOCK, 1, n, k);
    const int64_t ld = tg_cublas_block_scales_ld(k);
    const int64_t kb = (k + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K;
    const int64_t rows = (n + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K;
    float *src = (float *)malloc((size_t)count_b * sizeof *src);
    float *dst = (float *)malloc((size_t)(rows * ld) * sizeof *dst);
    CHECK(src && dst);
    if (!src || !dst) {
      free(src);
      free(dst);
      return;
    }
    for (int64_t i = 0; i < count_b; ++i) src[i] = (float)(i + 1);
    memset(dst, 0xff, (size_t)(rows * ld) * sizeof *dst);
    tg_cublas_pad_block_scales(src, n, k, dst);
    int bad = 0;
    for (int64_t j = 0; j < n; ++j) /* B's element (kk, j): cuBLASLt's row j/128, column kk/128 */
      for (int64_t kk = 0; kk < k; kk += TG_SCALE_BLOCK_K / 2)
        bad += dst[j / TG_SCALE_BLOCK_K * ld + kk / TG_SCALE_BLOCK_K] !=
               src[tg_scale_index(TG_SCALE_BLOCK, 1, n, k, j, kk)];
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = kb; c < ld; ++c) bad += dst[r * ld + c] != 0.0f;
    CHECK_MSG(bad == 0, "n=%lld k=%lld: %d misplaced", (long long)n, (long long)k, bad);
    /* A (m×k): cuBLASLt's VEC128_32F reads scale kb·m + i for row i, k-block kb: problem.h's. */
    bad = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; kk += TG_SCALE_BLOCK_K / 2)
        bad += tg_scale_index(TG_SCALE_BLOCK, 0, m, k, i, kk) != kk / TG_SCALE_BLOCK_K * m + i;
    CHECK_MSG(bad == 0, "m=%lld k=%lld: A's layout differs in %d", (long long)m, (long long)k, bad);
    free(src);
    free(dst);
  }
}

int main(void) {
  test_counts();
  test_values();
  test_cublas_refusals();
  test_cublas_block_layout();
  return tg_test_finish("test_cli_scales");
}
