/*
 * measure.h — what a request costs and how exact its answer must be, once, for the library (the
 * planner, the sm90 launcher, tg_tune's check), the tests and the tools (bench, verify, the
 * floor of docs/performance.md): its flops, the bytes it must move at least, the unit roundoff of each
 * element type, and the per-element error bound of docs/testing.md. Header-only (static inline), valid
 * C and CUDA C++.
 *
 * The bound: |d - ref| <= rel · mag + abs, with mag = |alpha| Σ|a||b| + |beta||c| + |bias| from
 * the oracle, ref saturated to [lo, hi] first (the range of an integer D), and
 *   rel = 4 (2 u_in + P K u_acc + u_fp8 + u_out + u_epi) (× the largest slope of GELU, + its
 *         evaluation error, for GELU), u_in 2^-11 for tf32 and 1.5·2^-22 for 3xTF32 (0
 *         otherwise), P = 3 products per multiply-add for 3xTF32 (1 otherwise), u_out 0 for
 *         fp32 D, u_epi = 4 u_f32 only where
 *         alpha != 1, beta != 0 or an epilogue runs, u_fp8 (fp8 inputs) = min(K, 128) u_tc
 *         (K u_tc with fast accumulation) + 3 u_f32 with scales, u_tc = 2^-13 the tensor cores'
 *         accumulation of fp8 products;
 *   abs = the subnormal spacing of D's type (1 for integer D: rounding).
 */
#ifndef TG_MEASURE_H
#define TG_MEASURE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include "tf32x3.h"
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Multiply-adds counted as two flops, over every batch. */
static inline double tg_gemm_flops(int64_t m, int64_t n, int64_t k, int64_t batch) {
  return 2.0 * (double)m * (double)n * (double)k * (double)batch;
}

/* Bytes a GEMM must move at least: A (m×k of a_bytes each) and B (k×n) read once, D (m×n)
 * written once and C read once (c_bytes per element; 0 when C is not read), over every batch. */
static inline double tg_gemm_min_bytes(int64_t m, int64_t n, int64_t k, int64_t batch,
                                       size_t a_bytes, size_t b_bytes, size_t c_bytes,
                                       size_t d_bytes) {
  const double dm = (double)m, dn = (double)n, dk = (double)k;
  return (double)batch * (dm * dk * (double)a_bytes + dk * dn * (double)b_bytes +
                          dm * dn * (double)d_bytes + dm * dn * (double)c_bytes);
}

/* The same of a request (tg_gemm): C counted at its own type when beta != 0. */
static inline double tg_request_flops(const tg_gemm *g) {
  return tg_gemm_flops(g->m, g->n, g->k, g->batch);
}
static inline double tg_request_bytes(const tg_gemm *g) {
  return tg_gemm_min_bytes(g->m, g->n, g->k, g->batch, tg_dtype_size(g->a_type),
                           tg_dtype_size(g->b_type), g->beta != 0.0 ? tg_dtype_size(g->c_type) : 0,
                           tg_dtype_size(g->d_type));
}

/* Unit roundoff of t: 2^-p for p significand bits (the hidden bit included); 0 for integers. */
static inline double tg_unit_roundoff(tg_dtype t) {
  switch (t) {
    case TG_F32: return 0x1p-24;
    case TG_F16: return 0x1p-11;
    case TG_BF16: return 0x1p-8;
    case TG_E4M3: return 0x1p-4;
    case TG_E5M2: return 0x1p-3;
    default: return 0.0;
  }
}

/* Unit roundoff of the inputs as tf32 rounds them. */
#define TG_U_TF32 0x1p-11
/* 3xTF32 (tf32x3.h): per product a·b, the neglected lo(a)·lo(b) and the roundings of both
 * remainders to tf32 are each at most 2^-22·|a·b|; the bound's 2·u_in carries their sum. */
#define TG_U_TF32X3 (0.5 * 3.0 * 0x1p-22)
/* Unit roundoff of the tensor cores' own accumulation of fp8 products: they keep about 14
 * significant bits and truncate. Promoted fp8 accumulation (tg_gemm.fp8_fast_accum 0) runs at
 * most TG_FP8_PROMOTE_K of k in that format before adding into fp32. */
#define TG_U_FP8_TENSOR_ACC 0x1p-13
#define TG_FP8_PROMOTE_K 128
/* Roundings fp8 scales add: sa·sb, and its product with the partial sum. */
#define TG_BOUND_SCALE_ROUNDINGS 3.0
/* Roundings an fp32 epilogue adds: alpha scale, beta·C, bias, activation. */
#define TG_BOUND_EPILOGUE_ROUNDINGS 4.0
/* Largest slope of the tanh-approximated GELU, and the fp32 tanhf error it may carry. */
#define TG_BOUND_GELU_MAX_SLOPE 1.13
#define TG_BOUND_GELU_EVAL_SLACK 0x1p-20
/* Safety factor of docs/testing.md on the first-order bound. */
#define TG_BOUND_FACTOR 4.0

/* The error bound of a request (above), and D's format: mant_bits stored mantissa bits and
 * exponents emin..emax of a float D (mant_bits 0: an integer D). */
typedef struct tg_bound {
  double rel, abs;
  double u_out;  /* D's unit roundoff */
  double lo, hi; /* saturation range of an integer D (±HUGE_VAL for floats) */
  int mant_bits, emin, emax;
} tg_bound;

static inline tg_bound tg_request_bound(const tg_gemm *g) {
  tg_bound b;
  const double u_f32 = tg_unit_roundoff(TG_F32);
  const double u_in = g->compute == TG_COMPUTE_TF32     ? TG_U_TF32
                      : g->compute == TG_COMPUTE_3XTF32 ? TG_U_TF32X3
                                                        : 0.0;
  /* Products accumulated per multiply-add: 3xTF32 adds three into fp32 for each. */
  const double products = g->compute == TG_COMPUTE_3XTF32 ? TG_TF32X3_PRODUCTS : 1.0;
  const double u_acc = g->compute == TG_COMPUTE_S32 ? 0.0 : u_f32;
  const int epilogue = g->alpha != 1.0 || g->beta != 0.0 || g->epilogue != TG_EPI_NONE;
  const double u_epi = epilogue ? TG_BOUND_EPILOGUE_ROUNDINGS * u_f32 : 0.0;
  /* fp8: the tensor cores' format over runs of TG_FP8_PROMOTE_K (all of k in fast mode), fp32
   * across them; the scales' roundings. */
  const int fp8 = (g->a_type == TG_E4M3 || g->a_type == TG_E5M2) &&
                  (g->b_type == TG_E4M3 || g->b_type == TG_E5M2);
  const double fast_run = g->fp8_fast_accum && g->scale_mode != TG_SCALE_BLOCK
                              ? (double)g->k
                              : (g->k < TG_FP8_PROMOTE_K ? (double)g->k : TG_FP8_PROMOTE_K);
  const double u_fp8 =
      fp8 ? fast_run * TG_U_FP8_TENSOR_ACC +
                (g->scale_mode != TG_SCALE_NONE ? TG_BOUND_SCALE_ROUNDINGS * u_f32 : 0.0)
          : 0.0;
  b.u_out = tg_unit_roundoff(g->d_type);
  b.rel = TG_BOUND_FACTOR * (2.0 * u_in + products * (double)g->k * u_acc + u_fp8 +
                             (g->d_type == TG_F32 ? 0.0 : b.u_out) + u_epi);
  if (g->epilogue == TG_EPI_GELU || g->epilogue == TG_EPI_BIAS_GELU)
    b.rel = b.rel * TG_BOUND_GELU_MAX_SLOPE + TG_BOUND_GELU_EVAL_SLACK;
  b.lo = -HUGE_VAL;
  b.hi = HUGE_VAL;
  if (g->d_type == TG_S8) b.lo = -128.0, b.hi = 127.0;
  if (g->d_type == TG_S32) b.lo = -2147483648.0, b.hi = 2147483647.0;
  b.mant_bits = b.emin = b.emax = 0;
  switch (g->d_type) {
    case TG_F16: b.abs = 0x1p-24, b.mant_bits = 10, b.emin = -14, b.emax = 15; break;
    case TG_BF16: b.abs = 0x1p-133, b.mant_bits = 7, b.emin = -126, b.emax = 127; break;
    case TG_F32: b.abs = 0x1p-149, b.mant_bits = 23, b.emin = -126, b.emax = 127; break;
    default: b.abs = 1.0; break; /* integer rounding (D is never fp8: validate.c) */
  }
  return b;
}

#ifdef __cplusplus
}
#endif

#endif /* TG_MEASURE_H */
