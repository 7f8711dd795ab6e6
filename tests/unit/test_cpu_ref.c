/*
 * test_cpu_ref.c — the CPU oracle and the host conversions it stands on: known bit patterns of
 * every format, round-to-nearest-even ties, saturation, hand-computed products in every
 * layout, exact integer products for every dtype, epilogues, batches, and the error bound.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_ref.h"
#include "device_tools.h"
#include "host_dtype.h"
#include "random_values.h"
#include "tolerance.h"

static uint32_t bits_of(double v, tg_dtype t) {
  unsigned char cell[4] = {0, 0, 0, 0};
  tg_host_store(cell, 0, t, v);
  uint32_t b = 0;
  memcpy(&b, cell, tg_dtype_size(t));
  return b;
}

static void test_known_encodings(void) {
  /* binary16 */
  CHECK(bits_of(1.0, TG_F16) == 0x3C00);
  CHECK(bits_of(-2.0, TG_F16) == 0xC000);
  CHECK(bits_of(65504.0, TG_F16) == 0x7BFF);
  CHECK(bits_of(65519.0, TG_F16) == 0x7BFF);
  CHECK(bits_of(65520.0, TG_F16) == 0x7C00);     /* the tie past max goes to Inf */
  CHECK(bits_of(0x1p-24, TG_F16) == 0x0001);     /* smallest subnormal */
  CHECK(bits_of(0x1p-25, TG_F16) == 0x0000);     /* tie → even (zero) */
  CHECK(bits_of(3 * 0x1p-25, TG_F16) == 0x0002); /* tie → even */
  CHECK(bits_of(1.0 + 0x1p-11, TG_F16) == 0x3C00);
  CHECK(bits_of(1.0 + 3 * 0x1p-11, TG_F16) == 0x3C02);
  CHECK(bits_of(NAN, TG_F16) == 0x7E00);
  CHECK(bits_of(-0.0, TG_F16) == 0x8000);
  /* bfloat16 */
  CHECK(bits_of(1.0, TG_BF16) == 0x3F80);
  CHECK(bits_of(1.0 + 0x1p-8, TG_BF16) == 0x3F80);
  CHECK(bits_of(1.0 + 3 * 0x1p-8, TG_BF16) == 0x3F82);
  CHECK(bits_of(-3.0, TG_BF16) == 0xC040);
  CHECK(bits_of(INFINITY, TG_BF16) == 0x7F80);
  /* fp8 E4M3 (fn): no Inf, max 448, saturating */
  CHECK(bits_of(1.0, TG_E4M3) == 0x38);
  CHECK(bits_of(0.5, TG_E4M3) == 0x30);
  CHECK(bits_of(-2.0, TG_E4M3) == 0xC0);
  CHECK(bits_of(448.0, TG_E4M3) == 0x7E);
  CHECK(bits_of(500.0, TG_E4M3) == 0x7E);
  CHECK(bits_of(0x1p-9, TG_E4M3) == 0x01);
  CHECK(bits_of(NAN, TG_E4M3) == 0x7F);
  /* fp8 E5M2 */
  CHECK(bits_of(1.0, TG_E5M2) == 0x3C);
  CHECK(bits_of(57344.0, TG_E5M2) == 0x7B);
  CHECK(bits_of(0x1p-16, TG_E5M2) == 0x01);
  CHECK(bits_of(1e9, TG_E5M2) == 0x7C);
  /* integers: nearest even, saturating, NaN → 0 */
  CHECK(tg_host_round(2.5, TG_S8) == 2.0 && tg_host_round(3.5, TG_S8) == 4.0);
  CHECK(tg_host_round(300.0, TG_S8) == 127.0 && tg_host_round(-300.0, TG_S8) == -128.0);
  CHECK(tg_host_round(-2.5, TG_S32) == -2.0 && tg_host_round(1e12, TG_S32) == 2147483647.0);
  CHECK(tg_host_round(NAN, TG_S32) == 0.0);
  CHECK(tg_host_round(1.0 / 3.0, TG_F32) == (double)(1.0f / 3.0f));
}

/* Decoding then encoding every 8- and 16-bit pattern gives it back (NaNs aside). */
static void test_round_trips(void) {
  const tg_dtype small[] = {TG_E4M3, TG_E5M2, TG_F16, TG_BF16};
  for (int t = 0; t < 4; ++t) {
    uint32_t count = tg_dtype_size(small[t]) == 1 ? 256u : 65536u;
    int bad = 0;
    for (uint32_t b = 0; b < count; ++b) {
      unsigned char cell[2];
      memcpy(cell, &b, 2);
      double v = tg_host_load(cell, 0, small[t]);
      if (isnan(v)) continue;
      if (bits_of(v, small[t]) != b) ++bad;
    }
    CHECK_MSG(bad == 0, "%s: %d patterns do not round-trip", tg_dtype_name(small[t]), bad);
  }
}

/* Stores logical row-major values into a layout. */
static void store_matrix(void *dst, tg_dtype t, const double *vals, int64_t rows, int64_t cols,
                         tg_order order, int64_t ld) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      tg_host_store(dst, tg_element_offset(0, i, j, order, ld, 0), t, vals[i * cols + j]);
}

static void test_hand_computed(void) {
  const double a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}, c[] = {1, -1, 2, -2};
  const double ab[] = {19, 22, 43, 50};
  for (int mask = 0; mask < 8; ++mask) {
    tg_gemm g;
    tg_gemm_init(&g, 2, 2, 2, TG_F32, TG_F32);
    g.a_order = (mask & 1) ? TG_COL_MAJOR : TG_ROW_MAJOR;
    g.b_order = (mask & 2) ? TG_COL_MAJOR : TG_ROW_MAJOR;
    g.c_order = (mask & 4) ? TG_COL_MAJOR : TG_ROW_MAJOR;
    g.lda = g.ldb = g.ldc = 3; /* padded */
    g.alpha = 2.0;
    g.beta = -1.0;
    float A[6], B[6], C[6];
    for (int i = 0; i < 6; ++i) A[i] = B[i] = C[i] = NAN; /* padding must not be read */
    store_matrix(A, TG_F32, a, 2, 2, g.a_order, 3);
    store_matrix(B, TG_F32, b, 2, 2, g.b_order, 3);
    store_matrix(C, TG_F32, c, 2, 2, g.c_order, 3);
    double ref[4], mag[4];
    tg_cpu_reference(&g, A, B, C, NULL, ref, mag);
    for (int i = 0; i < 4; ++i) {
      CHECK_MSG(ref[i] == 2 * ab[i] - c[i], "orders %d element %d: %g", mask, i, ref[i]);
      CHECK(mag[i] == 2 * ab[i] + fabs(c[i]));
    }
  }
  /* Epilogues: bias per column, relu keeps NaN-free values, gelu's tanh form. */
  tg_gemm g;
  tg_gemm_init(&g, 2, 2, 2, TG_F32, TG_F32);
  float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8}, bias[2] = {-40, 0.5f};
  double ref[4];
  g.epilogue = TG_EPI_BIAS_RELU;
  tg_cpu_reference(&g, A, B, NULL, bias, ref, NULL);
  CHECK(ref[0] == 0.0 && ref[1] == 22.5 && ref[2] == 3.0 && ref[3] == 50.5);
  CHECK(fabs(tg_cpu_activate(TG_EPI_GELU, 1.0) - 0.8411919906082768) < 1e-15);
  CHECK(tg_cpu_activate(TG_EPI_RELU, -0.0) == 0.0 && isnan(tg_cpu_activate(TG_EPI_RELU, NAN)));
  /* alpha == 0 reads neither A nor B; beta == 0 does not read C. */
  g.epilogue = TG_EPI_NONE;
  g.alpha = 0.0;
  g.beta = 0.0;
  tg_cpu_reference(&g, NULL, NULL, NULL, NULL, ref, NULL);
  CHECK(ref[0] == 0.0 && ref[3] == 0.0);
}

/* Every dtype family: small integers make every product and sum exact, so the oracle must
 * equal an int64 computation exactly, in every layout, with batches. */
static void test_exact_integers(void) {
  struct {
    tg_dtype ab;
    tg_dtype cd;
    tg_compute comp;
  } fams[] = {{TG_F32, TG_F32, TG_COMPUTE_F32},   {TG_F32, TG_F32, TG_COMPUTE_TF32},
              {TG_F16, TG_F16, TG_COMPUTE_F32},   {TG_BF16, TG_F32, TG_COMPUTE_F32},
              {TG_E4M3, TG_BF16, TG_COMPUTE_F32}, {TG_E5M2, TG_F16, TG_COMPUTE_F32},
              {TG_S8, TG_S32, TG_COMPUTE_S32},    {TG_S8, TG_S8, TG_COMPUTE_S32}};
  enum { M = 5, N = 3, K = 7, BATCH = 2, LD_PAD = 2 };
  for (size_t f = 0; f < sizeof fams / sizeof fams[0]; ++f)
    for (int mask = 0; mask < 8; ++mask) {
      tg_gemm g;
      tg_gemm_init(&g, M, N, K, fams[f].ab, fams[f].cd);
      g.compute = fams[f].comp;
      g.batch = BATCH;
      g.a_order = (mask & 1) ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.b_order = (mask & 2) ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.c_order = (mask & 4) ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.lda = (g.a_order == TG_ROW_MAJOR ? K : M) + LD_PAD;
      g.ldb = (g.b_order == TG_ROW_MAJOR ? N : K) + LD_PAD;
      g.ldc = (g.c_order == TG_ROW_MAJOR ? N : M) + LD_PAD;
      g.beta = 3.0;
      int64_t sa = tg_operand_span(M, K, g.a_order, g.lda, 0, BATCH);
      int64_t sb = tg_operand_span(K, N, g.b_order, g.ldb, 0, BATCH);
      int64_t sc = tg_operand_span(M, N, g.c_order, g.ldc, 0, BATCH);
      unsigned char *A = calloc((size_t)sa, 4), *B = calloc((size_t)sb, 4),
                    *C = calloc((size_t)sc, 4);
      int64_t ia[BATCH][M][K], ib[BATCH][K][N], ic[BATCH][M][N];
      int64_t lda = g.lda, ldb = g.ldb, ldc = g.ldc;
      int64_t stra = tg_resolved_batch_stride(0, lda, g.a_order, M, K);
      int64_t strb = tg_resolved_batch_stride(0, ldb, g.b_order, K, N);
      int64_t strc = tg_resolved_batch_stride(0, ldc, g.c_order, M, N);
      uint64_t seed = 1000 + f * 8 + (uint64_t)mask;
      for (int b = 0; b < BATCH; ++b) {
        for (int i = 0; i < M; ++i)
          for (int k = 0; k < K; ++k) {
            ia[b][i][k] = tg_random_int(seed, (b * M + i) * K + k, 1);
            tg_host_store(A, tg_element_offset(b, i, k, g.a_order, lda, stra), g.a_type,
                          (double)ia[b][i][k]);
          }
        for (int k = 0; k < K; ++k)
          for (int j = 0; j < N; ++j) {
            ib[b][k][j] = tg_random_int(seed + 1, (b * K + k) * N + j, 1);
            tg_host_store(B, tg_element_offset(b, k, j, g.b_order, ldb, strb), g.b_type,
                          (double)ib[b][k][j]);
          }
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            ic[b][i][j] = tg_random_int(seed + 2, (b * M + i) * N + j, 4);
            tg_host_store(C, tg_element_offset(b, i, j, g.c_order, ldc, strc), g.c_type,
                          (double)ic[b][i][j]);
          }
      }
      double ref[BATCH * M * N];
      tg_cpu_reference(&g, A, B, C, NULL, ref, NULL);
      int bad = 0;
      for (int b = 0; b < BATCH; ++b)
        for (int i = 0; i < M; ++i)
          for (int j = 0; j < N; ++j) {
            int64_t s = 3 * ic[b][i][j];
            for (int k = 0; k < K; ++k) s += ia[b][i][k] * ib[b][k][j];
            if (ref[(b * M + i) * N + j] != (double)s) ++bad;
          }
      CHECK_MSG(bad == 0, "%s->%s orders %d: %d wrong", tg_dtype_name(fams[f].ab),
                tg_dtype_name(fams[f].cd), mask, bad);
      free(A);
      free(B);
      free(C);
    }
}

static void test_broadcast_batch(void) {
  tg_gemm g;
  tg_gemm_init(&g, 1, 1, 2, TG_F32, TG_F32);
  g.batch = 3;
  g.batch_stride_a = TG_BATCH_BROADCAST;
  float A[2] = {1, 2}, B[6] = {1, 1, 2, 2, 3, 3};
  double ref[3];
  tg_cpu_reference(&g, A, B, NULL, NULL, ref, NULL);
  CHECK(ref[0] == 3 && ref[1] == 6 && ref[2] == 9);
}

static void test_tolerance(void) {
  tg_gemm g;
  tg_gemm_init(&g, 8, 8, 1024, TG_BF16, TG_F16);
  tg_tolerance t = tg_tolerance_make(&g, 0);
  CHECK(t.u_out == 0x1p-11 && t.abs == 0x1p-24);
  CHECK(fabs(t.rel - 4.0 * (1024 * 0x1p-24 + 0x1p-11)) <
        1e-18); /* docs/testing.md's bound exactly */
  g.beta = 1.0;
  CHECK(fabs(tg_tolerance_make(&g, 0).rel - 4.0 * (1024 * 0x1p-24 + 0x1p-11 + 4 * 0x1p-24)) <
        1e-18);
  g.beta = 0.0;
  g.d_type = TG_F32;
  CHECK(fabs(tg_tolerance_make(&g, 0).rel - 4.0 * 1024 * 0x1p-24) < 1e-18); /* fp32 D: u_out 0 */
  g.d_type = TG_F16;
  CHECK(tg_error_ratio(&t, NAN, 1.0, 1.0) == INFINITY);
  CHECK(tg_error_ratio(&t, 1.0, 1.0, 1.0) == 0.0);
  CHECK(tg_error_ratio(&t, 1.0 + 0.5 * t.rel, 1.0, 1.0) < 1.0);
  CHECK(tg_error_ratio(&t, 1.0 + 2.0 * t.rel, 1.0, 1.0) > 1.0);
  g.compute = TG_COMPUTE_TF32;
  g.a_type = g.b_type = TG_F32;
  CHECK(tg_tolerance_make(&g, 0).rel > t.rel);
  tg_tolerance e = tg_tolerance_make(&g, 1);
  CHECK(tg_error_ratio(&e, 2049.0 - 1.0, 2049.0, 1e9) == 0.0); /* a tie in f16: to even */
  CHECK(tg_error_ratio(&e, 2050.0, 2049.0, 1e9) > 1.0);        /* the odd neighbour fails */
  CHECK(tg_error_ratio(&e, 2050.0, 2048.0, 1e9) > 1.0);
  CHECK(tg_error_ratio(&e, 2048.0, 2047.5, 1e9) == 0.0); /* a tie at the binade's top */
  CHECK(tg_error_ratio(&e, 2047.0, 2047.5, 1e9) > 1.0);
  CHECK(tg_error_ratio(&e, 2047.0, 2047.3, 1e9) == 0.0);
  CHECK(tg_error_ratio(&e, 2048.0, 2047.3, 1e9) > 1.0); /* within u_out·|ref|, not the rounding */
  CHECK(tg_error_ratio(&e, 0x1p-23, 0x1.8p-24, 1e9) == 0.0); /* a subnormal tie: 2·2^-24, even */
  CHECK(tg_error_ratio(&e, 0x1p-24, 0x1.8p-24, 1e9) > 1.0);
  CHECK(tg_error_ratio(&e, INFINITY, 65520.0, 1e9) == 0.0); /* past max by half a spacing */
  CHECK(tg_error_ratio(&e, 65504.0, 65519.0, 1e9) == 0.0);
  g.epilogue = TG_EPI_GELU;
  CHECK(!tg_tolerance_make(&g, 1).exact); /* GELU is not exact arithmetic */
  g.epilogue = TG_EPI_NONE;
  g.d_type = TG_BF16;
  e = tg_tolerance_make(&g, 1);
  CHECK(tg_error_ratio(&e, 256.0, 257.0, 1e9) == 0.0); /* bf16: a tie, to even */
  CHECK(tg_error_ratio(&e, 258.0, 257.0, 1e9) > 1.0);
  g.d_type = TG_F32;
  e = tg_tolerance_make(&g, 1);
  CHECK(tg_error_ratio(&e, 16777216.0, 16777217.0, 1e9) == 0.0); /* f32: a tie, to even */
  CHECK(tg_error_ratio(&e, 16777218.0, 16777217.0, 1e9) > 1.0);
  CHECK(tg_error_ratio(&e, 3.0, 3.0, 1e9) == 0.0);
  tg_gemm_init(&g, 8, 8, 8, TG_S8, TG_S8);
  tg_tolerance s = tg_tolerance_make(&g, 1);
  CHECK(tg_error_ratio(&s, 127.0, 300.0, 0.0) == 0.0); /* saturated */
  CHECK(tg_error_ratio(&s, 126.0, 126.0, 0.0) == 0.0);
  CHECK(tg_error_ratio(&s, 125.0, 126.0, 0.0) > 1.0);
  CHECK(tg_error_ratio(&s, -5.0, -5.25, 0.0) == 0.0); /* alpha = 0.75: rounded to nearest */
  CHECK(tg_error_ratio(&s, -6.0, -5.5, 0.0) == 0.0);  /* a tie: to even */
  CHECK(tg_error_ratio(&s, -5.0, -5.5, 0.0) > 1.0);
}

static void test_verify_host(void) {
  tg_gemm g;
  tg_gemm_init(&g, 2, 3, 4, TG_F32, TG_F32);
  g.c_order = TG_COL_MAJOR;
  float D[6] = {1, 4, 2, 5, 3, 6}; /* column-major 2×3 */
  double ref[6] = {1, 2, 3, 4, 5, 6}, mag[6] = {1, 2, 3, 4, 5, 6};
  tg_verify_result r;
  tg_verify_host(&g, D, ref, mag, tg_tolerance_make(&g, 0), &r);
  CHECK(r.failures == 0 && r.checked == 6 && r.worst_ratio == 0.0);
  D[3] = 5.5f;
  D[4] = NAN;
  tg_verify_host(&g, D, ref, mag, tg_tolerance_make(&g, 0), &r);
  CHECK(r.failures == 2 && r.nans == 1 && r.first_bad == 2); /* (0,2), the NaN, comes first */
}

int main(void) {
  test_known_encodings();
  test_round_trips();
  test_hand_computed();
  test_exact_integers();
  test_broadcast_batch();
  test_tolerance();
  test_verify_host();
  return tg_test_finish("test_cpu_ref");
}
