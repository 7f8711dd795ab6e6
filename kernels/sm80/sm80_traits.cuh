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

/* Bytes of k one mma consumes per row: two 16-byte chunks, for every type. */
#define TG_SM80_MMA_K_BYTES 32

struct Sm80F16 {
  static constexpr int kBytes = 2;
  static constexpr bool kRoundsFragments = false; /* see Sm80TF32 */
  static constexpr bool kMnMajorOk = true; /* ldmatrix.trans moves 16-bit elements */
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

/* tf32 keeps the top 19 bits of an fp32 (sign, 8 exponent, 10 mantissa bits); mma.sync
 * ignores the other 13. */
#define TG_TF32_DROPPED_BITS 0x1fffu
#define TG_TF32_HALF_ULP_MINUS_1 0x0fffu /* just under half a tf32 ulp, in fp32 bits */
#define TG_TF32_LSB_SHIFT 13             /* bit 13: the last kept mantissa bit */
#define TG_F32_CANONICAL_NAN 0x7fffffffu

/* fp32 data multiplied as tf32, rounded to nearest, ties to even (TESTING.md's u_in = 2⁻¹¹),
 * instead of letting the tensor core truncate (2⁻¹⁰). Each warp rounds the fragment registers
 * it multiplies (kRoundsFragments), one instruction per register on sm_90
 * (cvt.rn.tf32.f32 is a single F2FP there; cvt.rna is a four-instruction sequence, and rounding
 * the staged tiles in shared memory cost a quarter of the throughput in extra shared-memory
 * round trips). Before sm_90, which has no cvt.rn to tf32, the same rounding in integer
 * arithmetic: adding 0xfff plus the last kept bit carries into the kept bits exactly when the
 * dropped part is over half an ulp, or exactly half with an odd last bit; infinities stay
 * infinities, the largest finite values round up to infinity, a NaN (which the carry could
 * turn into a number) becomes the canonical NaN. Checked bit for bit by test_gpu_features
 * (tf32 bits). */
struct Sm80TF32 {
  static constexpr int kBytes = 4;
  static constexpr bool kMnMajorOk = false; /* 32-bit elements: operands come K-major */
  static constexpr bool kRoundsFragments = true;
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k8_tf32(d, a, b);
  }
  __device__ __forceinline__ static uint32_t round_word(uint32_t r) {
#if __CUDA_ARCH__ >= 900
    return thread_cvt_rn_tf32(r);
#else
    const float x = __uint_as_float(r);
    if (x != x) return TG_F32_CANONICAL_NAN;
    return (r + TG_TF32_HALF_ULP_MINUS_1 + ((r >> TG_TF32_LSB_SHIFT) & 1u)) & ~TG_TF32_DROPPED_BITS;
#endif
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
