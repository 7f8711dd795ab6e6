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

/* log2(e), to turn e^x into the hardware's 2^x. */
#define TG_LOG2_E 1.4426950408889634

/* GELU in fp32 as 0.5·v·(1 + tanh(u)) = v·σ(2u) = v / (1 + e^(−2u)), u = √(2/π)(v + 0.044715v³):
 * e^(−2u) = 2^(v·(a·v² + b)) with a and b folded from the constants, then the hardware's 2^x
 * and reciprocal (ex2.approx.ftz, rcp.approx.ftz: about 2^-22 relative, inside the oracle's
 * GELU slack of 2^-20). About 9 instructions, and no branches: the sm90 epilogues unroll it over
 * whole tiles, where every instruction is code fetched per tile (the same formula through
 * __expf and __fdividef took 15). The limits come out right: for very negative v, 2^x overflows
 * to inf and its reciprocal is 0, giving −0; v = +inf gives inf; v = −inf gives NaN, as the
 * formula does in exact arithmetic (−inf·0); NaN stays NaN. */
__device__ __forceinline__ float thread_gelu_f32(float v) {
  constexpr float kA = (float)(-2.0 * TG_LOG2_E * TG_GELU_SQRT_2_OVER_PI * TG_GELU_CUBIC);
  constexpr float kB = (float)(-2.0 * TG_LOG2_E * TG_GELU_SQRT_2_OVER_PI);
  const float x = v * fmaf(kA, v * v, kB);
  float e, r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x));
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(1.0f + e));
  return v * r;
}

__device__ __forceinline__ float thread_relu_f32(float v) { return v < 0.0f ? 0.0f : v; }

__device__ __forceinline__ float thread_activate_f32(float v, int act) {
  if (act == TG_ACT_RELU) return thread_relu_f32(v);
  if (act == TG_ACT_GELU) return thread_gelu_f32(v);
  return v;
}

#endif /* TG_ACTIVATION_CUH */
