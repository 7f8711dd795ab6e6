/*
 * problem.h — the validated, canonical form of a request: what every kernel receives.
 *
 * Host code (C11) builds it once from the user's tg_gemm and pointers; kernels (CUDA C) read it.
 * Canonical means:
 *   - D is row-major. A request whose D is column-major is computed as D^T = B^T · A^T: the
 *     operands swap, their orders flip, m and n swap, and the bias runs along m instead of n.
 *   - ld and batch strides are explicit (0 = broadcast only for A, B, C).
 *   - k > 0 and alpha != 0 (otherwise the product vanishes and the epilogue kernel runs alone).
 * The header is valid C and CUDA C++.
 */
#ifndef TG_PROBLEM_H
#define TG_PROBLEM_H

#include <stdint.h>
#include "measure.h"
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define TG_PROBLEM_HD __host__ __device__
#else
#define TG_PROBLEM_HD
#endif

/** Input classes: the (a_type, b_type, compute) families a kernel may accept. */
typedef enum tg_input_class {
  TG_IN_F32 = 0, /* f32 × f32, full fp32 math */
  TG_IN_TF32,    /* f32 × f32, tf32 math */
  TG_IN_F16,     /* f16 × f16 */
  TG_IN_BF16,    /* bf16 × bf16 */
  TG_IN_FP8,     /* e4m3/e5m2 × e4m3/e5m2 */
  TG_IN_S8,      /* s8 × s8, int32 accumulate */
  TG_IN_TF32X3,  /* f32 × f32 as three tf32 products (tf32x3.h): tf32 rows serve it after the
                    planner splits the operands (plan.h) */
  TG_IN_COUNT
} tg_input_class;

/** The short name of an input class ("f32", "tf32", ..., "?" when out of range): what
 *  `tilegemm list`, reasons and the tuning cache's in= field print. */
static inline const char *tg_input_name(tg_input_class c) {
  static const char *const names[TG_IN_COUNT] = {"f32", "tf32", "f16",   "bf16",
                                                 "fp8", "s8",   "3xtf32"};
  return (unsigned)c < TG_IN_COUNT ? names[c] : "?";
}

typedef struct tg_problem {
  int64_t m, n, k, batch; /* canonical sizes: A m×k, B k×n, D m×n row-major */
  tg_input_class input;
  tg_dtype a_type, b_type, c_type, d_type, bias_type;
  tg_order a_order, b_order; /* canonical orders of A (m×k) and B (k×n) */
  const void *a, *b, *c;     /* c is NULL when read_c == 0 */
  void *d;
  const void *bias;           /* NULL when the epilogue has no bias */
  int64_t lda, ldb, ldc, ldd; /* in elements */
  int64_t batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d; /* elements */
  double alpha, beta;
  float alpha_f, beta_f;
  int read_c;       /* beta != 0 */
  int bias_along_m; /* 1 when the user's D was column-major */
  int has_bias;     /* epilogue adds bias */
  int act;          /* tg_activation (below) */
  int exact_int;    /* S32 output of alpha=1, beta=0, no epilogue: store acc */
  int transposed;   /* 1 when the user's D was column-major */
  int align_a, align_b, align_c, align_d; /* bytes (1..16) dividing pointer, ld and stride */
  int align_bias;                         /* bytes (1..16) dividing the bias pointer */
  int sm, sm_count;                       /* device facts (compute capability major*10+minor) */
  void *workspace;                        /* handle-owned device scratch, workspace_bytes long */
  size_t workspace_bytes;
  /* Inter-CTA readiness flags (stream-K): handle-owned, sm_count × TG_SYNC_FLAGS_PER_SM words,
   * zeroed when the handle is created. Within a launch each flag is set to TG_SYNC_FLAG_READY by
   * at most one CTA and, once seen, cleared by the one CTA that waits for it, so every launch
   * leaves them zero: nothing on the host changes between launches, and a launch captured into a
   * CUDA graph replays as it ran. NULL on virtual handles. */
  unsigned *sync_flags;
  /* fp8 scales (tilegemm.h's tg_scale_mode), in the canonical frame: scale_a belongs to the
   * canonical A (the user's B when transposed). Each operand's scales are either vectors along
   * its outer dimension (one per row of A or column of B; BLOCK: one per 1×128 slice, KB×outer)
   * or, in BLOCK mode, 128×128 blocks (ceil(outer/128)×KB): the user's B has the blocks, so the
   * canonical A has them exactly when the request was transposed (scale_a_blocks). */
  int scale_mode;
  const float *scale_a, *scale_b;         /* NULL when scale_mode is NONE or k == 0 */
  int64_t scale_stride_a, scale_stride_b; /* floats between batches' scales; 0 = shared */
  int scale_a_blocks;                     /* BLOCK: canonical A has the 128×128 blocks */
  int fast_accum;                         /* fp8: accumulate all of k in the tensor cores */
} tg_problem;

/* The fp32 scales of one batch of an operand of outer extent `outer` (m for A, n for B) and
 * depth k under scale mode `mode`; `blocks`: BLOCK scales by 128×128 blocks, not 1×128 slices. */
static inline TG_PROBLEM_HD int64_t tg_scale_floats(int mode, int blocks, int64_t outer,
                                                    int64_t k) {
  const int64_t kb = (k + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K;
  if (mode == TG_SCALE_TENSOR) return 1;
  if (mode == TG_SCALE_ROW_COL) return outer;
  if (mode == TG_SCALE_BLOCK)
    return blocks ? (outer + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K * kb : kb * outer;
  return 0;
}

/* Index, within one batch's scales laid out as tg_scale_floats counts them, of the scale that
 * covers the operand's element at outer index o and depth kk. */
static inline TG_PROBLEM_HD int64_t tg_scale_index(int mode, int blocks, int64_t outer, int64_t k,
                                                   int64_t o, int64_t kk) {
  const int64_t kb = kk / TG_SCALE_BLOCK_K, kbs = (k + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K;
  if (mode == TG_SCALE_ROW_COL) return o;
  if (mode == TG_SCALE_BLOCK) return blocks ? o / TG_SCALE_BLOCK_K * kbs + kb : kb * outer + o;
  return 0;
}

/* Readiness flags per multiprocessor (a persistent kernel has at most one CTA per SM, with at
 * most this many flag owners each). */
#define TG_SYNC_FLAGS_PER_SM 4
/* The value of a set readiness flag (a clear one is 0). */
#define TG_SYNC_FLAG_READY 1u

/* Bytes a problem must move at least (measure.h's tg_gemm_min_bytes: A and B read once, D written
 * once, and C read once when beta != 0, over every batch), C counted at D's element size. With
 * its flops (tg_problem_flops) it places a request on the roofline: the planner's memory floor
 * and the sm90 launcher's memory-bound test both use it. */
static inline double tg_problem_min_bytes(const tg_problem *p) {
  const size_t d_bytes = tg_dtype_size(p->d_type);
  return tg_gemm_min_bytes(p->m, p->n, p->k, p->batch, tg_dtype_size(p->a_type),
                           tg_dtype_size(p->b_type), p->read_c ? d_bytes : 0, d_bytes);
}

/* Multiply-adds counted as two flops, over every batch. */
static inline double tg_problem_flops(const tg_problem *p) {
  return tg_gemm_flops(p->m, p->n, p->k, p->batch);
}

/* The epilogue of a problem: the public tg_epilogue taken apart into its bias (has_bias) and its
 * activation (act), applied last. The kernels read these two fields; the sm90 family sorts them
 * further into its epilogue classes and sets (kernels/sm90/sm90_epilogue_sets.cuh). */
typedef enum tg_activation { TG_ACT_NONE = 0, TG_ACT_RELU = 1, TG_ACT_GELU = 2 } tg_activation;

/* 1 when epilogue e adds a bias vector. */
static inline int tg_epilogue_has_bias(tg_epilogue e) {
  return e == TG_EPI_BIAS || e == TG_EPI_BIAS_RELU || e == TG_EPI_BIAS_GELU;
}

/* The activation of epilogue e. */
static inline tg_activation tg_epilogue_activation(tg_epilogue e) {
  if (e == TG_EPI_RELU || e == TG_EPI_BIAS_RELU) return TG_ACT_RELU;
  if (e == TG_EPI_GELU || e == TG_EPI_BIAS_GELU) return TG_ACT_GELU;
  return TG_ACT_NONE;
}

#ifdef __cplusplus
}
#endif

#endif /* TG_PROBLEM_H */
