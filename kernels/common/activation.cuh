/*
 * activation.cuh — the epilogue activations, in one place for every kernel and the oracle.
 * ReLU keeps NaN (v < 0 ? 0 : v); GELU is the tanh approximation (as cuBLASLt's GELU epilogue).
 */
#ifndef TG_ACTIVATION_CUH
#define TG_ACTIVATION_CUH

#include "problem.h"

#define TG_GELU_SQRT_2_OVER_PI 0.7978845608028654
#define TG_GELU_CUBIC 0.044715

__host__ __device__ __forceinline__ double thread_activate_f64(double v, int act) {
  if (act == TG_ACT_RELU) return v < 0.0 ? 0.0 : v;
  if (act == TG_ACT_GELU)
    return 0.5 * v * (1.0 + tanh(TG_GELU_SQRT_2_OVER_PI * (v + TG_GELU_CUBIC * v * v * v)));
  return v;
}

/* GELU in fp32 as 0.5·v·(1 + tanh(u)) = v·σ(2u) = v / (1 + e^(−2u)): one hardware exp and one
 * hardware reciprocal (__expf, __fdividef: a few ulp, inside the oracle's GELU slack of 2^-20)
 * instead of tanhf's longer, branching sequence. The limits come out right: e^(−2u) overflows
 * to inf for very negative v and __fdividef gives −0; v = +inf gives inf; NaN stays NaN. */
__device__ __forceinline__ float thread_activate_f32(float v, int act) {
  if (act == TG_ACT_RELU) return v < 0.0f ? 0.0f : v;
  if (act == TG_ACT_GELU) {
    const float u = (float)TG_GELU_SQRT_2_OVER_PI * (v + (float)TG_GELU_CUBIC * v * v * v);
    return __fdividef(v, 1.0f + __expf(-2.0f * u));
  }
  return v;
}

#endif /* TG_ACTIVATION_CUH */
