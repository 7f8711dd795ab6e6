/*
 * abi_probe.c — prints what the Python package's ctypes mirror of tilegemm.h must match: the
 * size of every public struct, the offset and size of each of its fields, and the value of every
 * enum constant and macro the package uses. python/tests/test_cpu.py runs it and compares.
 *
 * Output, one fact a line:
 *   struct NAME SIZE
 *   field NAME FIELD OFFSET SIZE
 *   const NAME VALUE
 * Built by tests/CMakeLists.txt (no CUDA needed: the header has no CUDA dependency).
 */
#include <stddef.h>
#include <stdio.h>

#include <tilegemm.h>

#define STRUCT(type) printf("struct %s %zu\n", #type, sizeof(type))
#define FIELD(type, f) \
  printf("field %s %s %zu %zu\n", #type, #f, offsetof(type, f), sizeof(((type *)0)->f))
#define CONST(c) printf("const %s %lld\n", #c, (long long)(c))

int main(void) {
  STRUCT(tg_gemm);
  FIELD(tg_gemm, m);
  FIELD(tg_gemm, n);
  FIELD(tg_gemm, k);
  FIELD(tg_gemm, batch);
  FIELD(tg_gemm, a_type);
  FIELD(tg_gemm, b_type);
  FIELD(tg_gemm, c_type);
  FIELD(tg_gemm, d_type);
  FIELD(tg_gemm, compute);
  FIELD(tg_gemm, a_order);
  FIELD(tg_gemm, b_order);
  FIELD(tg_gemm, c_order);
  FIELD(tg_gemm, lda);
  FIELD(tg_gemm, ldb);
  FIELD(tg_gemm, ldc);
  FIELD(tg_gemm, ldd);
  FIELD(tg_gemm, batch_stride_a);
  FIELD(tg_gemm, batch_stride_b);
  FIELD(tg_gemm, batch_stride_c);
  FIELD(tg_gemm, batch_stride_d);
  FIELD(tg_gemm, alpha);
  FIELD(tg_gemm, beta);
  FIELD(tg_gemm, epilogue);
  FIELD(tg_gemm, bias);
  FIELD(tg_gemm, bias_type);
  FIELD(tg_gemm, kernel);
  FIELD(tg_gemm, scale_mode);
  FIELD(tg_gemm, scale_a);
  FIELD(tg_gemm, scale_b);
  FIELD(tg_gemm, fp8_fast_accum);

  STRUCT(tg_kernel_info);
  FIELD(tg_kernel_info, name);
  FIELD(tg_kernel_info, family);
  FIELD(tg_kernel_info, summary);
  FIELD(tg_kernel_info, sm_min);
  FIELD(tg_kernel_info, sm_max);
  FIELD(tg_kernel_info, rung);
  FIELD(tg_kernel_info, auto_pick);
  FIELD(tg_kernel_info, tile_m);
  FIELD(tg_kernel_info, tile_n);
  FIELD(tg_kernel_info, tile_k);

  STRUCT(tg_tune_options);
  FIELD(tg_tune_options, warmup);
  FIELD(tg_tune_options, iterations);
  FIELD(tg_tune_options, flush_l2);

  STRUCT(tg_tune_candidate);
  FIELD(tg_tune_candidate, kernel);
  FIELD(tg_tune_candidate, status);
  FIELD(tg_tune_candidate, us);
  FIELD(tg_tune_candidate, estimate);

  STRUCT(tg_tune_result);
  FIELD(tg_tune_result, kernel);
  FIELD(tg_tune_result, us);
  FIELD(tg_tune_result, worst_ratio);
  FIELD(tg_tune_result, heuristic_kernel);
  FIELD(tg_tune_result, heuristic_us);
  FIELD(tg_tune_result, candidate_count);
  FIELD(tg_tune_result, candidates);

  CONST(TG_OK);
  CONST(TG_ERR_INVALID_VALUE);
  CONST(TG_ERR_NOT_SUPPORTED);
  CONST(TG_ERR_MISALIGNED);
  CONST(TG_ERR_NO_DEVICE);
  CONST(TG_ERR_CUDA);
  CONST(TG_ERR_OUT_OF_MEMORY);
  CONST(TG_ERR_INTERNAL);
  CONST(TG_F32);
  CONST(TG_F16);
  CONST(TG_BF16);
  CONST(TG_E4M3);
  CONST(TG_E5M2);
  CONST(TG_S8);
  CONST(TG_S32);
  CONST(TG_DTYPE_COUNT);
  CONST(TG_ROW_MAJOR);
  CONST(TG_COL_MAJOR);
  CONST(TG_COMPUTE_F32);
  CONST(TG_COMPUTE_TF32);
  CONST(TG_COMPUTE_S32);
  CONST(TG_COMPUTE_3XTF32);
  CONST(TG_EPI_NONE);
  CONST(TG_EPI_BIAS);
  CONST(TG_EPI_RELU);
  CONST(TG_EPI_GELU);
  CONST(TG_EPI_BIAS_RELU);
  CONST(TG_EPI_BIAS_GELU);
  CONST(TG_BATCH_BROADCAST);
  CONST(TG_SCALE_NONE);
  CONST(TG_SCALE_TENSOR);
  CONST(TG_SCALE_ROW_COL);
  CONST(TG_SCALE_BLOCK);
  CONST(TG_SCALE_BLOCK_K);
  CONST(TG_EXPLAIN_BYTES);
  CONST(TG_TUNE_MAX_CANDIDATES);
  CONST(TILEGEMM_VERSION_MAJOR);
  CONST(TILEGEMM_VERSION_MINOR);
  CONST(TILEGEMM_VERSION_PATCH);
  CONST(sizeof(tg_dtype));
  CONST(sizeof(tg_status));
  return 0;
}
