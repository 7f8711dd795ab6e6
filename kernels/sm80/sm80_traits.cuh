/*
 * sm80_traits.cuh — what the sm80 mainloop needs to know about an input type: bytes per
 * element, the k depth of one mma.sync, the accumulator type, the instruction itself, and
 * whether the fragments must be rounded first (tf32). Every type's mma consumes exactly two
 * 16-byte chunks of k per row (16 × f16/bf16, 8 × tf32, 32 × s8), so one ldmatrix addressing
 * scheme serves all of them for K-major operands.
 */
#ifndef TG_SM80_TRAITS_CUH
#define TG_SM80_TRAITS_CUH

#include <stdint.h>

#include "ptx_sm80.cuh"
#include "sm80_layout.h" /* TG_SM80_MMA_K_BYTES: the k bytes of one mma per row, every type */

struct Sm80F16 {
  static constexpr int kBytes = 2;
  static constexpr bool kRoundsFragments = false; /* see Sm80TF32 */
  static constexpr bool kMnMajorOk = true;        /* ldmatrix.trans moves 16-bit elements */
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k16_f16(d, a, b);
  }
};

struct Sm80BF16 {
  static constexpr int kBytes = 2;
  static constexpr bool kRoundsFragments = false;
  static constexpr bool kMnMajorOk = true;
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k16_bf16(d, a, b);
  }
};

/* fp32 data multiplied as tf32, rounded to nearest, ties to even (docs/testing.md's u_in = 2⁻¹¹),
 * instead of letting the tensor core truncate (2⁻¹⁰, mma.sync ignores the low 13 bits). Each
 * warp rounds the fragment registers it multiplies (kRoundsFragments) with thread_cvt_rn_tf32,
 * one instruction per register on sm_90 (cvt.rna is a four-instruction sequence there, and
 * rounding the staged tiles in shared memory cost a quarter of the throughput in extra
 * shared-memory round trips). Checked bit for bit by test_gpu_features (tf32 bits). */
struct Sm80TF32 {
  static constexpr int kBytes = 4;
  static constexpr bool kMnMajorOk = false; /* 32-bit elements: operands come K-major */
  static constexpr bool kRoundsFragments = true;
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k8_tf32(d, a, b);
  }
  __device__ __forceinline__ static uint32_t round_word(uint32_t r) {
    return thread_cvt_rn_tf32(r);
  }
};

struct Sm80S8 {
  static constexpr int kBytes = 1;
  static constexpr bool kRoundsFragments = false;
  static constexpr bool kMnMajorOk = false; /* 8-bit elements: operands come K-major */
  typedef int32_t Acc;
  __device__ static void mma(int32_t (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k32_s8(d, a, b);
  }
};

#endif /* TG_SM80_TRAITS_CUH */
