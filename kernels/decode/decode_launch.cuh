/*
 * decode_launch.cuh — from a decode registry row to its kernels: the operands seen as weights
 * and tokens, the grid, the k split and its reduction. DECODE_ROW(...) defines a row's C entry
 * points (decode.h).
 */
#ifndef TG_DECODE_LAUNCH_CUH
#define TG_DECODE_LAUNCH_CUH

#include <stdio.h>

#include "decode.h"
#include "decode_gemm.cuh"
#include "decode_shape.h"
#include "splitk_reduce.h"

template <int RT, int TT, int AHEAD, int CTAS>
struct DecodeRow {
  static constexpr int kRows = RT * TG_DECODE_MMA_ROWS, kTokens = TT * TG_DECODE_MMA_TOKENS;

  static int splits(const tg_problem *p) { return tg_decode_splits(p, kRows, kTokens); }

  static tg_status check(const tg_problem *p, const char *name, char *why, size_t why_len) {
    if (tg_decode_tokens(p) > kTokens) {
      snprintf(why, why_len, "kernel '%s' serves problems whose m or n is at most %d (the tokens)",
               name, kTokens);
      return TG_ERR_NOT_SUPPORTED;
    }
    return TG_OK;
  }

  /* Waves of one-split launches, exact (the row is memory_waves): CTAs over the SMs' slots. */
  static double waves(const tg_problem *p) {
    const double slots = (double)(p->sm_count > 0 ? p->sm_count : 1) * CTAS;
    return (double)tg_decode_ctas(p, kRows) / slots;
  }

  template <bool BF16>
  static tg_status run(const tg_problem *p, cudaStream_t stream) {
    DecodeOperands o;
    o.weights_are_a = tg_decode_weights_are_a(p);
    o.w = static_cast<const uint16_t *>(o.weights_are_a ? p->a : p->b);
    o.x = static_cast<const uint16_t *>(o.weights_are_a ? p->b : p->a);
    o.ldw = o.weights_are_a ? p->lda : p->ldb;
    o.ldx = o.weights_are_a ? p->ldb : p->lda;
    o.batch_stride_w = o.weights_are_a ? p->batch_stride_a : p->batch_stride_b;
    o.batch_stride_x = o.weights_are_a ? p->batch_stride_b : p->batch_stride_a;
    o.rows = tg_decode_rows(p);
    o.tokens = tg_decode_tokens(p);
    if (o.rows == 0 || o.tokens == 0 || p->batch == 0) return TG_OK;
    const int s = splits(p);
    const int64_t k_split = s > 1 ? tg_splitk_k(p, s, TG_DECODE_CTA_K) : p->k;
    float *partial = s > 1 ? static_cast<float *>(p->workspace) : nullptr;
    const dim3 grid(
        (unsigned)((o.rows + kRows - 1) / kRows), (unsigned)s,
        (unsigned)(p->batch < TG_DECODE_MAX_GRID_BATCH ? p->batch : TG_DECODE_MAX_GRID_BATCH));
    decode_gemm_kernel<RT, TT, AHEAD, CTAS, BF16>
        <<<grid, TG_DECODE_THREADS, 0, stream>>>(*p, o, k_split, partial);
    if (s > 1) return tg_splitk_reduce(p, s, partial, stream);
    return TG_OK;
  }

  static tg_status launch(const tg_problem *p, cudaStream_t stream) {
    if (p->input == TG_IN_F16) return run<false>(p, stream);
    if (p->input == TG_IN_BF16) return run<true>(p, stream);
    return TG_ERR_INTERNAL;
  }
};

/* A registry row's entry points: RT 16-row weight tiles and TT 8-token tiles per CTA. */
#define DECODE_ROW(fn, name, summary, RT, TT, AHEAD, CTAS)                                    \
  extern "C" tg_status tg_decode_launch_##fn(const tg_problem *p, cudaStream_t stream) {      \
    return DecodeRow<RT, TT, AHEAD, CTAS>::launch(p, stream);                                 \
  }                                                                                           \
  extern "C" int tg_decode_splits_##fn(const tg_problem *p) {                                 \
    return DecodeRow<RT, TT, AHEAD, CTAS>::splits(p);                                         \
  }                                                                                           \
  extern "C" size_t tg_decode_workspace_##fn(const tg_problem *p) {                           \
    return tg_splitk_partial_bytes(p, DecodeRow<RT, TT, AHEAD, CTAS>::splits(p));             \
  }                                                                                           \
  extern "C" double tg_decode_waves_##fn(const tg_problem *p) {                               \
    return DecodeRow<RT, TT, AHEAD, CTAS>::waves(p);                                          \
  }                                                                                           \
  extern "C" tg_status tg_decode_check_##fn(const tg_problem *p, char *why, size_t why_len) { \
    return DecodeRow<RT, TT, AHEAD, CTAS>::check(p, name, why, why_len);                      \
  }

#endif /* TG_DECODE_LAUNCH_CUH */
