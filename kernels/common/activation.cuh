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

__device__ __forceinline__ float thread_activate_f32(float v, int act) {
  if (act == TG_ACT_RELU) return v < 0.0f ? 0.0f : v;
  if (act == TG_ACT_GELU)
    return 0.5f * v *
           (1.0f + tanhf((float)TG_GELU_SQRT_2_OVER_PI * (v + (float)TG_GELU_CUBIC * v * v * v)));
  return v;
}

#endif /* TG_ACTIVATION_CUH */
