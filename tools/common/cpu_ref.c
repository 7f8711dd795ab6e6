/* cpu_ref.c — the CPU oracle (see cpu_ref.h). Plain loops, written to be obviously right. */
#include "cpu_ref.h"

#include <math.h>

#include "host_dtype.h"
#include "problem.h"
#include "random_values.h"

/* Mirrors the library's activation constants (kernels/common/activation.cuh). */
#define GELU_SQRT_2_OVER_PI 0.7978845608028654
#define GELU_CUBIC 0.044715

int64_t tg_resolved_ld(int64_t ld, tg_order order, int64_t rows, int64_t cols) {
  int64_t inner = order == TG_ROW_MAJOR ? cols : rows;
  if (inner < 1) inner = 1;
  return ld == 0 ? inner : ld;
}

int64_t tg_resolved_batch_stride(int64_t stride, int64_t ld, tg_order order, int64_t rows,
                                 int64_t cols) {
  if (stride == TG_BATCH_BROADCAST) return 0;
  if (stride != 0) return stride;
  return ld * (order == TG_ROW_MAJOR ? rows : cols);
}

int64_t tg_operand_span(int64_t rows, int64_t cols, tg_order order, int64_t ld, int64_t stride,
                        int64_t batch) {
  if (rows == 0 || cols == 0 || batch == 0) return 0;
  int64_t l = tg_resolved_ld(ld, order, rows, cols);
  int64_t s = tg_resolved_batch_stride(stride, l, order, rows, cols);
  int64_t outer = order == TG_ROW_MAJOR ? rows : cols, inner = order == TG_ROW_MAJOR ? cols : rows;
  return (batch - 1) * s + (outer - 1) * l + inner;
}

int64_t tg_element_offset(int64_t b, int64_t row, int64_t col, tg_order order, int64_t ld,
                          int64_t batch_stride) {
  return b * batch_stride + (order == TG_ROW_MAJOR ? row * ld + col : col * ld + row);
}

double tg_cpu_activate(tg_epilogue e, double v) {
  if (e == TG_EPI_RELU || e == TG_EPI_BIAS_RELU) return v < 0.0 ? 0.0 : v;
  if (e == TG_EPI_GELU || e == TG_EPI_BIAS_GELU)
    return 0.5 * v * (1.0 + tanh(GELU_SQRT_2_OVER_PI * (v + GELU_CUBIC * v * v * v)));
  return v;
}

void tg_cpu_reference(const tg_gemm *g, const void *A, const void *B, const void *C,
                      const void *bias, double *ref, double *mag) {
  tg_cpu_reference_scaled(g, A, B, C, bias, NULL, NULL, ref, mag);
}

/* The scale of an operand's element at outer index o, depth kk, batch b (problem.h's layout;
 * a broadcast operand has one set of scales). */
static double host_scale(const tg_gemm *g, const float *scales, int64_t stride, int blocks,
                         int64_t outer, int64_t b, int64_t o, int64_t kk) {
  if (g->scale_mode == TG_SCALE_NONE) return 1.0;
  const int64_t per_batch =
      stride == TG_BATCH_BROADCAST ? 0 : tg_scale_floats(g->scale_mode, blocks, outer, g->k);
  return scales[b * per_batch + tg_scale_index(g->scale_mode, blocks, outer, g->k, o, kk)];
}

void tg_cpu_reference_scaled(const tg_gemm *g, const void *A, const void *B, const void *C,
                             const void *bias, const float *scale_a, const float *scale_b,
                             double *ref, double *mag) {
  const int64_t M = g->m, N = g->n, K = g->k;
  const int64_t lda = tg_resolved_ld(g->lda, g->a_order, M, K);
  const int64_t ldb = tg_resolved_ld(g->ldb, g->b_order, K, N);
  const int64_t ldc = tg_resolved_ld(g->ldc, g->c_order, M, N);
  const int64_t sa = tg_resolved_batch_stride(g->batch_stride_a, lda, g->a_order, M, K);
  const int64_t sb = tg_resolved_batch_stride(g->batch_stride_b, ldb, g->b_order, K, N);
  const int64_t sc = tg_resolved_batch_stride(g->batch_stride_c, ldc, g->c_order, M, N);
  const int has_bias = g->epilogue == TG_EPI_BIAS || g->epilogue == TG_EPI_BIAS_RELU ||
                       g->epilogue == TG_EPI_BIAS_GELU;
  const int reads_ab = g->alpha != 0.0;
  for (int64_t b = 0; b < g->batch; ++b)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double sum = 0.0, abs_sum = 0.0;
        for (int64_t kk = 0; reads_ab && kk < K; ++kk) {
          double a = tg_host_load(A, tg_element_offset(b, i, kk, g->a_order, lda, sa), g->a_type) *
                     host_scale(g, scale_a, g->batch_stride_a, 0, M, b, i, kk);
          double x = tg_host_load(B, tg_element_offset(b, kk, j, g->b_order, ldb, sb), g->b_type) *
                     host_scale(g, scale_b, g->batch_stride_b, g->scale_mode == TG_SCALE_BLOCK, N,
                                b, j, kk);
          sum += a * x;
          abs_sum += fabs(a) * fabs(x);
        }
        double v = g->alpha * sum, scale = fabs(g->alpha) * abs_sum;
        if (g->beta != 0.0) {
          double c = tg_host_load(C, tg_element_offset(b, i, j, g->c_order, ldc, sc), g->c_type);
          v += g->beta * c;
          scale += fabs(g->beta) * fabs(c);
        }
        if (has_bias) {
          double x = tg_host_load(bias, j, g->bias_type);
          v += x;
          scale += fabs(x);
        }
        int64_t o = (b * M + i) * N + j;
        ref[o] = tg_cpu_activate(g->epilogue, v);
        if (mag) mag[o] = scale;
      }
}

/* Random scales are log-uniform on [SCALE_MIN, SCALE_MAX): SCALE_MIN · 2^(SCALE_LOG2_SPAN·u). */
#define SCALE_MIN 0.5
#define SCALE_MAX 2.0f
#define SCALE_LOG2_SPAN 2.0
/* Exact mode's scales: powers of two, so that scaled products of small integers stay exact. */
#define EXACT_SCALE_LOW 0.5f
#define EXACT_SCALE_HIGH 1.0f

int64_t tg_scale_count(const tg_gemm *g, char operand) {
  if (g->scale_mode == TG_SCALE_NONE) return 0;
  const int is_a = operand == 'a';
  /* B's BLOCK scales cover 128×128 blocks; A's cover 1×128 slices (tilegemm.h). */
  const int blocks = !is_a && g->scale_mode == TG_SCALE_BLOCK;
  const int64_t per_batch = tg_scale_floats(g->scale_mode, blocks, is_a ? g->m : g->n, g->k);
  const int64_t stride = is_a ? g->batch_stride_a : g->batch_stride_b;
  return per_batch * (stride == TG_BATCH_BROADCAST ? 1 : g->batch);
}

float tg_scale_value(uint64_t seed, int64_t i, int exact) {
  const double r = tg_random_value(seed, i, TG_F32, 0); /* uniform on [-1, 1) */
  if (exact) return r < 0.0 ? EXACT_SCALE_LOW : EXACT_SCALE_HIGH;
  const double u = 0.5 * (r + 1.0); /* [0, 1) */
  const float v = (float)(SCALE_MIN * exp2(SCALE_LOG2_SPAN * u));
  return v < SCALE_MAX ? v : nextafterf(SCALE_MAX, 0.0f); /* rounding to float may reach 2 */
}
