/*
 * cublas_runner.c — maps a tg_gemm onto cuBLASLt, which is column-major: a column-major D is
 * computed as D = op(A)·op(B); a row-major D as the column-major D^T = op(B)^T·op(A)^T.
 * Each operand becomes (transpose flag, column-major layout of what is stored).
 *
 * fp8 scales. cuBLASLt's scale modes against tilegemm's layouts (tilegemm.h), for operands
 * stored contiguous along k (the fp8 layout cuBLASLt runs on Hopper), one set of scales:
 *   TENSOR   one float per operand: SCALAR_32F.
 *   ROW_COL  a vector along each operand's outer dimension (m for A, n for B): OUTER_VEC_32F
 *            reads the same vectors.
 *   BLOCK    A's 1×128 slices, ceil(k/128)×m floats with m fastest: VEC128_32F reads that
 *            layout. B's 128×128 blocks, ceil(n/128) rows of ceil(k/128) floats: BLK128x128_32F
 *            reads rows padded to a multiple of 4 floats, so the runner copies B's scales into
 *            that layout when it is created (later changes to them are not seen) unless the
 *            rows need no padding.
 * For a row-major D cuBLASLt's A is the user's B (above): its A scale is scale_b, its B scale
 * scale_a. cuBLASLt applies one set of scales to every batch, so per-batch scales are refused;
 * before cuBLAS 12.9 it has TENSOR scales only.
 * fp8_fast_accum maps to FAST_ACCUM, except with BLOCK scales, which tilegemm promotes every
 * 128 of k either way: cuBLASLt then runs its BLOCK kernels, which promote likewise.
 */
#include "cublas_runner.h"

#include <cublasLt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref.h"

#define CUBLAS_WORKSPACE_BYTES ((size_t)32 << 20)

struct tg_cublas_runner {
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, lc, ld;
  cublasLtMatmulAlgo_t algo;
  void *workspace;
  float *block_scales; /* B's 128×128-block scales in cuBLASLt's padded layout, or NULL */
  int swap;            /* 1: cuBLAS's first operand is B (row-major D) */
  int int_scale;       /* alpha/beta passed as int32 */
  float alpha_f, beta_f;
  int32_t alpha_i, beta_i;
  int has_bias;
};

static int dtype_to_cuda(tg_dtype t, cudaDataType_t *out) {
  switch (t) {
    case TG_F32: *out = CUDA_R_32F; return 0;
    case TG_F16: *out = CUDA_R_16F; return 0;
    case TG_BF16: *out = CUDA_R_16BF; return 0;
    case TG_E4M3: *out = CUDA_R_8F_E4M3; return 0;
    case TG_E5M2: *out = CUDA_R_8F_E5M2; return 0;
    case TG_S8: *out = CUDA_R_8I; return 0;
    case TG_S32: *out = CUDA_R_32I; return 0;
  }
  return -1;
}

/* Operand stored rows×cols with `order`; cuBLAS needs Q = P (want_transpose = 0) or P^T.
 * Column-major storage of P is P itself; row-major storage is P^T read column-major. */
static cublasStatus_t make_operand(cudaDataType_t type, int64_t rows, int64_t cols, tg_order order,
                                   int64_t ld, int64_t stride, int64_t batch, int want_transpose,
                                   cublasOperation_t *op, cublasLtMatrixLayout_t *layout) {
  int stored_is_p = order == TG_COL_MAJOR;
  int64_t r = stored_is_p ? rows : cols, c = stored_is_p ? cols : rows;
  *op = (stored_is_p == !want_transpose) ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasStatus_t s = cublasLtMatrixLayoutCreate(layout, type, (uint64_t)r, (uint64_t)c, ld);
  if (s == CUBLAS_STATUS_SUCCESS && batch > 1) {
    int32_t count = (int32_t)batch;
    s = cublasLtMatrixLayoutSetAttribute(*layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                         sizeof count);
    if (s == CUBLAS_STATUS_SUCCESS)
      s = cublasLtMatrixLayoutSetAttribute(*layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                           &stride, sizeof stride);
  }
  return s;
}

static cublasLtEpilogue_t epilogue_of(tg_epilogue e) {
  switch (e) {
    case TG_EPI_BIAS: return CUBLASLT_EPILOGUE_BIAS;
    case TG_EPI_RELU: return CUBLASLT_EPILOGUE_RELU;
    case TG_EPI_GELU: return CUBLASLT_EPILOGUE_GELU;
    case TG_EPI_BIAS_RELU: return CUBLASLT_EPILOGUE_RELU_BIAS;
    case TG_EPI_BIAS_GELU: return CUBLASLT_EPILOGUE_GELU_BIAS;
    default: return CUBLASLT_EPILOGUE_DEFAULT;
  }
}

/* ---- fp8 scales (header) ---- */

/* Scale blocks along an extent: ceil(x / TG_SCALE_BLOCK_K). */
static int64_t scale_blocks(int64_t x) { return (x + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K; }

int tg_cublas_scales_supported(const tg_gemm *g, char *why, size_t why_len) {
  const int64_t strides[2] = {g->batch_stride_a, g->batch_stride_b};
  for (int i = 0; i < 2; ++i)
    if (g->batch > 1 && strides[i] != TG_BATCH_BROADCAST) {
      snprintf(why, why_len,
               "cuBLASLt applies one set of fp8 scales to every batch; %s's scales are per batch",
               i == 0 ? "A" : "B");
      return -1;
    }
  /* k-contiguous: A (m×k) row-major, B (k×n) column-major. */
  if (g->scale_mode == TG_SCALE_BLOCK &&
      (g->a_order != TG_ROW_MAJOR || g->b_order != TG_COL_MAJOR)) {
    snprintf(why, why_len,
             "cuBLASLt's 128-element scale blocks run along each operand's contiguous dimension: "
             "block scales need A and B k-major");
    return -1;
  }
  return 0;
}

int64_t tg_cublas_block_scales_ld(int64_t k) {
  return (scale_blocks(k) + TG_CUBLAS_BLOCK_SCALE_ALIGN - 1) / TG_CUBLAS_BLOCK_SCALE_ALIGN *
         TG_CUBLAS_BLOCK_SCALE_ALIGN;
}

void tg_cublas_pad_block_scales(const float *src, int64_t n, int64_t k, float *dst) {
  const int64_t kb = scale_blocks(k), nb = scale_blocks(n);
  const int64_t ld = tg_cublas_block_scales_ld(k);
  for (int64_t row = 0; row < nb; ++row)
    for (int64_t col = 0; col < ld; ++col)
      dst[row * ld + col] = col < kb ? src[row * kb + col] : 0.0f;
}

/* Scale modes (A_SCALE_MODE with OUTER_VEC_32F, VEC128_32F, BLK128x128_32F) came with cuBLAS
 * 12.9; before it, the scale pointers hold one scale per matrix. */
#define CUBLAS_SCALE_MODES_VERSION 120900
#if CUBLAS_VERSION >= CUBLAS_SCALE_MODES_VERSION
#define CUBLAS_HAS_SCALE_MODES 1
#else
#define CUBLAS_HAS_SCALE_MODES 0
#endif

#if CUBLAS_HAS_SCALE_MODES
/* cuBLASLt's scale mode of the user's A (is_a) or B under tilegemm's mode. */
static int32_t scale_mode_of(tg_scale_mode m, int is_a) {
  switch (m) {
    case TG_SCALE_ROW_COL: return CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
    case TG_SCALE_BLOCK:
      return is_a ? CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F
                  : CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    default: return CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
  }
}
#endif

/* A device copy of g's scale_b in cuBLASLt's padded 128×128-block layout into r->block_scales
 * (host round trip; one set). 0, or -1 with the reason. */
static int copy_block_scales(tg_cublas_runner *r, const tg_gemm *g, char *why, size_t why_len) {
  const int64_t kb = scale_blocks(g->k), nb = scale_blocks(g->n);
  const size_t padded = (size_t)(nb * tg_cublas_block_scales_ld(g->k));
  float *src = (float *)malloc((size_t)(nb * kb) * sizeof *src);
  float *dst = (float *)malloc(padded * sizeof *dst);
  cudaError_t e = cudaErrorMemoryAllocation;
  if (src && dst &&
      (e = cudaMemcpy(src, g->scale_b, (size_t)(nb * kb) * sizeof *src, cudaMemcpyDeviceToHost)) ==
          cudaSuccess) {
    tg_cublas_pad_block_scales(src, g->n, g->k, dst);
    if ((e = cudaMalloc((void **)&r->block_scales, padded * sizeof *dst)) == cudaSuccess)
      e = cudaMemcpy(r->block_scales, dst, padded * sizeof *dst, cudaMemcpyHostToDevice);
  }
  free(src);
  free(dst);
  if (e != cudaSuccess) {
    snprintf(why, why_len, "copying B's block scales for cuBLASLt: %s", cudaGetErrorString(e));
    (void)cudaGetLastError();
    return -1;
  }
  return 0;
}

/* Sets attribute `attr` of r->desc; 0, or -1 with `what` and cuBLAS's status in why. */
static int set_attr(tg_cublas_runner *r, cublasLtMatmulDescAttributes_t attr, const void *value,
                    size_t size, const char *what, char *why, size_t why_len) {
  const cublasStatus_t st = cublasLtMatmulDescSetAttribute(r->desc, attr, value, size);
  if (st == CUBLAS_STATUS_SUCCESS) return 0;
  snprintf(why, why_len, "cuBLASLt %s: %s", what, cublasLtGetStatusString(st));
  return -1;
}

/* Sets the scale pointers, modes and fast accumulation of *g on r->desc (nothing when g has
 * neither scales nor fast accumulation, or A and B are not read). 0, or -1 with the reason. */
static int set_scales(tg_cublas_runner *r, const tg_gemm *g, char *why, size_t why_len) {
  const int reads_ab = g->k > 0 && g->alpha != 0.0;
  if (reads_ab && g->scale_mode != TG_SCALE_NONE) {
    if (tg_cublas_scales_supported(g, why, why_len) != 0) return -1;
    if (!CUBLAS_HAS_SCALE_MODES && g->scale_mode != TG_SCALE_TENSOR) {
      snprintf(why, why_len, "cuBLASLt %d.%d has one fp8 scale per matrix only (12.9 has more)",
               CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR);
      return -1;
    }
    const float *user_b = g->scale_b;
    if (g->scale_mode == TG_SCALE_BLOCK && tg_cublas_block_scales_ld(g->k) != scale_blocks(g->k)) {
      if (copy_block_scales(r, g, why, why_len) != 0) return -1;
      user_b = r->block_scales;
    }
    /* cuBLASLt's A is the user's A for a column-major D, the user's B for a row-major one. */
    const void *ptr_first = r->swap ? (const void *)user_b : (const void *)g->scale_a;
    const void *ptr_second = r->swap ? (const void *)g->scale_a : (const void *)user_b;
    if (set_attr(r, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &ptr_first, sizeof ptr_first,
                 "A scale pointer", why, why_len) != 0 ||
        set_attr(r, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &ptr_second, sizeof ptr_second,
                 "B scale pointer", why, why_len) != 0)
      return -1;
#if CUBLAS_HAS_SCALE_MODES
    const int32_t mode_first = scale_mode_of(g->scale_mode, !r->swap);
    const int32_t mode_second = scale_mode_of(g->scale_mode, r->swap);
    if (set_attr(r, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode_first, sizeof mode_first,
                 "A scale mode", why, why_len) != 0 ||
        set_attr(r, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode_second, sizeof mode_second,
                 "B scale mode", why, why_len) != 0)
      return -1;
#endif
  }
  if (g->fp8_fast_accum && g->scale_mode != TG_SCALE_BLOCK) {
    const int8_t fast = 1;
    return set_attr(r, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast, "fast accumulation",
                    why, why_len);
  }
  return 0;
}

#define TRY(call, what)                                                              \
  do {                                                                               \
    cublasStatus_t st_ = (call);                                                     \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                              \
      snprintf(why, why_len, "cuBLASLt %s: %s", what, cublasLtGetStatusString(st_)); \
      goto fail;                                                                     \
    }                                                                                \
  } while (0)

tg_cublas_runner *tg_cublas_create(const tg_gemm *g, char *why, size_t why_len) {
  tg_cublas_runner *r = (tg_cublas_runner *)calloc(1, sizeof *r);
  cudaDataType_t ta, tb, tc, td, scale;
  cublasComputeType_t compute;
  if (!r) {
    snprintf(why, why_len, "host allocation failed");
    return NULL;
  }
  if (dtype_to_cuda(g->a_type, &ta) || dtype_to_cuda(g->b_type, &tb) ||
      dtype_to_cuda(g->c_type, &tc) || dtype_to_cuda(g->d_type, &td)) {
    snprintf(why, why_len, "unknown dtype");
    goto fail;
  }
  if (g->c_type != g->d_type && g->beta != 0.0) {
    snprintf(why, why_len, "cuBLASLt needs c_type == d_type");
    goto fail;
  }
  r->has_bias = g->epilogue == TG_EPI_BIAS || g->epilogue == TG_EPI_BIAS_RELU ||
                g->epilogue == TG_EPI_BIAS_GELU;
  if (r->has_bias && g->c_order == TG_COL_MAJOR) {
    snprintf(why, why_len, "cuBLASLt's bias runs along D's rows; tilegemm's along columns");
    goto fail;
  }
  /* cuBLAS has no 3xTF32 mode: such requests are compared with its fp32 GEMM (COMPUTE_32F). */
  compute = g->compute == TG_COMPUTE_TF32  ? CUBLAS_COMPUTE_32F_FAST_TF32
            : g->compute == TG_COMPUTE_S32 ? CUBLAS_COMPUTE_32I
                                           : CUBLAS_COMPUTE_32F;
  r->int_scale = g->compute == TG_COMPUTE_S32 && g->d_type == TG_S32;
  scale = r->int_scale ? CUDA_R_32I : CUDA_R_32F;
  r->alpha_f = (float)g->alpha;
  r->beta_f = (float)g->beta;
  r->alpha_i = (int32_t)g->alpha;
  r->beta_i = (int32_t)g->beta;
  if (r->int_scale && ((double)r->alpha_i != g->alpha || (double)r->beta_i != g->beta)) {
    snprintf(why, why_len, "cuBLASLt int32 output needs integer alpha and beta");
    goto fail;
  }

  TRY(cublasLtCreate(&r->lt), "create");
  TRY(cublasLtMatmulDescCreate(&r->desc, compute, scale), "matmul descriptor");
  r->swap = g->c_order == TG_ROW_MAJOR;
  {
    int64_t lda = tg_resolved_ld(g->lda, g->a_order, g->m, g->k);
    int64_t ldb = tg_resolved_ld(g->ldb, g->b_order, g->k, g->n);
    int64_t ldc = tg_resolved_ld(g->ldc, g->c_order, g->m, g->n);
    int64_t ldd = tg_resolved_ld(g->ldd, g->c_order, g->m, g->n);
    int64_t sa = tg_resolved_batch_stride(g->batch_stride_a, lda, g->a_order, g->m, g->k);
    int64_t sb = tg_resolved_batch_stride(g->batch_stride_b, ldb, g->b_order, g->k, g->n);
    int64_t sc = tg_resolved_batch_stride(g->batch_stride_c, ldc, g->c_order, g->m, g->n);
    int64_t sd = tg_resolved_batch_stride(g->batch_stride_d, ldd, g->c_order, g->m, g->n);
    cublasOperation_t op_first, op_second;
    /* Column-major D = X·Y: X = A, Y = B; row-major D: X = B^T, Y = A^T. */
    if (!r->swap) {
      TRY(make_operand(ta, g->m, g->k, g->a_order, lda, sa, g->batch, 0, &op_first, &r->la),
          "layout A");
      TRY(make_operand(tb, g->k, g->n, g->b_order, ldb, sb, g->batch, 0, &op_second, &r->lb),
          "layout B");
    } else {
      TRY(make_operand(tb, g->k, g->n, g->b_order, ldb, sb, g->batch, 1, &op_first, &r->la),
          "layout B");
      TRY(make_operand(ta, g->m, g->k, g->a_order, lda, sa, g->batch, 1, &op_second, &r->lb),
          "layout A");
    }
    int64_t rows = r->swap ? g->n : g->m, cols = r->swap ? g->m : g->n;
    cublasOperation_t n_op;
    TRY(make_operand(tc, rows, cols, TG_COL_MAJOR, ldc, sc, g->batch, 0, &n_op, &r->lc),
        "layout C");
    TRY(make_operand(td, rows, cols, TG_COL_MAJOR, ldd, sd, g->batch, 0, &n_op, &r->ld),
        "layout D");
    TRY(cublasLtMatmulDescSetAttribute(r->desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_first,
                                       sizeof op_first),
        "transa");
    TRY(cublasLtMatmulDescSetAttribute(r->desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_second,
                                       sizeof op_second),
        "transb");
  }
  if (g->epilogue != TG_EPI_NONE) {
    cublasLtEpilogue_t epi = epilogue_of(g->epilogue);
    TRY(cublasLtMatmulDescSetAttribute(r->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi),
        "epilogue");
    if (r->has_bias) {
      cudaDataType_t bt;
      dtype_to_cuda(g->bias_type, &bt);
      TRY(cublasLtMatmulDescSetAttribute(r->desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt,
                                         sizeof bt),
          "bias type");
      TRY(cublasLtMatmulDescSetAttribute(r->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &g->bias,
                                         sizeof g->bias),
          "bias");
    }
  }
  if (set_scales(r, g, why, why_len) != 0) goto fail;
  if (cudaMalloc(&r->workspace, CUBLAS_WORKSPACE_BYTES) != cudaSuccess) {
    snprintf(why, why_len, "workspace allocation failed");
    goto fail;
  }
  {
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    size_t ws = CUBLAS_WORKSPACE_BYTES;
    TRY(cublasLtMatmulPreferenceCreate(&pref), "preference");
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                         sizeof ws);
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(r->lt, r->desc, r->la, r->lb, r->lc, r->ld,
                                                       pref, 1, &result, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
      snprintf(why, why_len, "cuBLASLt has no algorithm for this request (%s)",
               cublasLtGetStatusString(st));
      goto fail;
    }
    r->algo = result.algo;
  }
  return r;
fail:
  tg_cublas_destroy(r);
  return NULL;
}

int tg_cublas_run(tg_cublas_runner *r, const void *A, const void *B, const void *C, void *D,
                  cudaStream_t stream, char *why, size_t why_len) {
  const void *alpha = r->int_scale ? (const void *)&r->alpha_i : (const void *)&r->alpha_f;
  const void *beta = r->int_scale ? (const void *)&r->beta_i : (const void *)&r->beta_f;
  const void *first = r->swap ? B : A, *second = r->swap ? A : B;
  cublasStatus_t st =
      cublasLtMatmul(r->lt, r->desc, alpha, first, r->la, second, r->lb, beta, C ? C : D, r->lc, D,
                     r->ld, &r->algo, r->workspace, CUBLAS_WORKSPACE_BYTES, stream);
  if (st != CUBLAS_STATUS_SUCCESS) {
    snprintf(why, why_len, "cublasLtMatmul: %s", cublasLtGetStatusString(st));
    return -1;
  }
  return 0;
}

void tg_cublas_destroy(tg_cublas_runner *r) {
  if (!r) return;
  if (r->workspace) cudaFree(r->workspace);
  if (r->block_scales) cudaFree(r->block_scales);
  if (r->la) cublasLtMatrixLayoutDestroy(r->la);
  if (r->lb) cublasLtMatrixLayoutDestroy(r->lb);
  if (r->lc) cublasLtMatrixLayoutDestroy(r->lc);
  if (r->ld) cublasLtMatrixLayoutDestroy(r->ld);
  if (r->desc) cublasLtMatmulDescDestroy(r->desc);
  if (r->lt) cublasLtDestroy(r->lt);
  free(r);
}
