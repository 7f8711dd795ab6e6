/*
 * element.cuh — device-side element access by run-time dtype: loads widened to double or float,
 * stores rounded to nearest even (saturating for integers). Used where the dtype is a run-time
 * value (the reference kernel, epilogues of mixed-type requests); the fast paths use typed
 * conversions instead.
 */
#ifndef TG_ELEMENT_CUH
#define TG_ELEMENT_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

#include "tilegemm.h"

/* The value of element `off` of an array of dtype t, exactly, as a double. */
__device__ __forceinline__ double thread_load_f64(const void *base, int64_t off, tg_dtype t) {
  switch (t) {
    case TG_F32: return (double)((const float *)base)[off];
    case TG_F16: return (double)__half2float(((const __half *)base)[off]);
    case TG_BF16: return (double)__bfloat162float(((const __nv_bfloat16 *)base)[off]);
    case TG_E4M3: {
      __nv_fp8_e4m3 v;
      v.__x = ((const __nv_fp8_storage_t *)base)[off];
      return (double)(float)v;
    }
    case TG_E5M2: {
      __nv_fp8_e5m2 v;
      v.__x = ((const __nv_fp8_storage_t *)base)[off];
      return (double)(float)v;
    }
    case TG_S8: return (double)((const int8_t *)base)[off];
    case TG_S32: return (double)((const int32_t *)base)[off];
  }
  return 0.0;
}

/* Rounds a double to the nearest integer (ties to even) and clamps it to [lo, hi]; NaN → 0. */
__device__ __forceinline__ int64_t thread_round_saturate(double v, double lo, double hi) {
  if (!(v == v)) return 0;
  v = rint(v);
  v = v < lo ? lo : (v > hi ? hi : v);
  return (int64_t)v;
}

/* Stores v into element `off` of an array of dtype t, rounding once to nearest even. */
__device__ __forceinline__ void thread_store_from_f64(void *base, int64_t off, tg_dtype t,
                                                      double v) {
  switch (t) {
    case TG_F32: ((float *)base)[off] = __double2float_rn(v); break;
    case TG_F16: ((__half *)base)[off] = __double2half(v); break;
    case TG_BF16: ((__nv_bfloat16 *)base)[off] = __double2bfloat16(v); break;
    case TG_S32:
      ((int32_t *)base)[off] = (int32_t)thread_round_saturate(v, -2147483648.0, 2147483647.0);
      break;
    case TG_S8: ((int8_t *)base)[off] = (int8_t)thread_round_saturate(v, -128.0, 127.0); break;
    default: break; /* fp8 outputs are refused by validation */
  }
}

/* The value of element `off` of a C-like array (f32, f16, bf16, s32, s8) as a float. */
__device__ __forceinline__ float thread_load_f32(const void *base, int64_t off, tg_dtype t) {
  switch (t) {
    case TG_F32: return ((const float *)base)[off];
    case TG_F16: return __half2float(((const __half *)base)[off]);
    case TG_BF16: return __bfloat162float(((const __nv_bfloat16 *)base)[off]);
    case TG_S32: return (float)((const int32_t *)base)[off];
    case TG_S8: return (float)((const int8_t *)base)[off];
    default: return 0.0f;
  }
}

/* Rounds v to nearest even and saturates it to int32 (NaN → 0). */
__device__ __forceinline__ int32_t thread_float_to_s32_sat(float v) {
  if (!(v == v)) return 0;
  if (v >= 2147483648.0f) return 2147483647;
  if (v < -2147483648.0f) return (-2147483647 - 1);
  return __float2int_rn(v);
}

/* Stores v into element `off` of an output array of dtype t (f32, f16, bf16, s32, s8),
 * rounding once to nearest even (integers saturate). */
__device__ __forceinline__ void thread_store_from_f32(void *base, int64_t off, tg_dtype t,
                                                      float v) {
  switch (t) {
    case TG_F32: ((float *)base)[off] = v; break;
    case TG_F16: ((__half *)base)[off] = __float2half_rn(v); break;
    case TG_BF16: ((__nv_bfloat16 *)base)[off] = __float2bfloat16_rn(v); break;
    case TG_S32: ((int32_t *)base)[off] = thread_float_to_s32_sat(v); break;
    case TG_S8: {
      int32_t r = thread_float_to_s32_sat(v);
      ((int8_t *)base)[off] = (int8_t)(r < -128 ? -128 : (r > 127 ? 127 : r));
      break;
    }
    default: break;
  }
}

#endif /* TG_ELEMENT_CUH */
