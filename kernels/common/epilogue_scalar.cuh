/*
 * epilogue_scalar.cuh — the epilogue of one output element, in fp32, for kernels that hold
 * their accumulators in fp32 and write float outputs (the SIMT ladder and the 16-bit
 * tensor-core ladder):
 *
 *     v = alpha * acc (+ beta * C[row, col]) (+ bias[col] or bias[row]) → act(v) → round to D
 *
 * exactly the order of docs/kernels.md, so every kernel computes the same function. C, bias
 * and D are F32, F16 or BF16 (the float inputs' combinations of tilegemm.h), chosen at run time
 * by a uniform switch; loads widen exactly, the store rounds once to nearest even.
 */
#ifndef TG_EPILOGUE_SCALAR_CUH
#define TG_EPILOGUE_SCALAR_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "activation.cuh"
#include "problem.h"
#include "trace_record.cuh"

/* Element `off` of a float-type array, as fp32 (exact). Other types never reach here. */
__device__ __forceinline__ float thread_load_float_as_f32(const void *base, int64_t off,
                                                          tg_dtype t) {
  switch (t) {
    case TG_F16: return __half2float(static_cast<const __half *>(base)[off]);
    case TG_BF16: return __bfloat162float(static_cast<const __nv_bfloat16 *>(base)[off]);
    default: return static_cast<const float *>(base)[off];
  }
}

/* Rounds v once to D's float type and stores it at element `off` of D. */
__device__ __forceinline__ void thread_store_f32_as(void *d, int64_t off, tg_dtype t, float v) {
  TG_RECORD_STORE(off); /* nothing but in the recording build (trace_record.cuh) */
  switch (t) {
    case TG_F16: static_cast<__half *>(d)[off] = __float2half_rn(v); break;
    case TG_BF16: static_cast<__nv_bfloat16 *>(d)[off] = __float2bfloat16_rn(v); break;
    default: static_cast<float *>(d)[off] = v; break;
  }
}

/* alpha·acc + beta·C + bias, then the activation: the value of D(row, col) of batch `bat`
 * before its rounding to D's type. */
__device__ __forceinline__ float thread_epilogue_value(const tg_problem &p, int64_t bat,
                                                       int64_t row, int64_t col, float acc) {
  float v = p.alpha_f * acc;
  if (p.read_c)
    v += p.beta_f *
         thread_load_float_as_f32(p.c, bat * p.batch_stride_c + row * p.ldc + col, p.c_type);
  if (p.has_bias) v += thread_load_float_as_f32(p.bias, p.bias_along_m ? row : col, p.bias_type);
  return thread_activate_f32(v, p.act);
}

/* The whole epilogue of D(row, col) of batch `bat`; the caller checks row < m and col < n. */
__device__ __forceinline__ void thread_epilogue_store(const tg_problem &p, int64_t bat, int64_t row,
                                                      int64_t col, float acc) {
  thread_store_f32_as(p.d, bat * p.batch_stride_d + row * p.ldd + col, p.d_type,
                      thread_epilogue_value(p, bat, row, col, acc));
}

#endif /* TG_EPILOGUE_SCALAR_CUH */
