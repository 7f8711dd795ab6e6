/*
 * sm80_traits.cuh — what the sm80 mainloop needs to know about an input type: bytes per
 * element, the k depth of one mma.sync, the accumulator type, the instruction itself, and
 * whether the staged tiles must be rounded first (tf32). Every type's mma consumes exactly two
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
  static constexpr bool kRoundsInSmem = false; /* see Sm80TF32 */
  static constexpr bool kMnMajorOk = true; /* ldmatrix.trans moves 16-bit elements */
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k16_f16(d, a, b);
  }
};

struct Sm80BF16 {
  static constexpr int kBytes = 2;
  static constexpr bool kRoundsInSmem = false;
  static constexpr bool kMnMajorOk = true;
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k16_bf16(d, a, b);
  }
};

/* tf32 keeps the top 19 bits of an fp32 (sign, 8 exponent, 10 mantissa bits); mma.sync
 * ignores the other 13. */
#define TG_TF32_HALF_ULP 0x1000u /* bit 12: half a tf32 ulp, in fp32 bits */
#define TG_F32_CANONICAL_NAN 0x7fffffffu

/* fp32 data multiplied as tf32, rounded to nearest, ties away from zero, as cvt.rna.tf32.f32
 * does, instead of letting the tensor core truncate. The rounding is done in shared memory: each
 * thread rounds the 16-byte chunks it copied there, once per k-tile (kRoundsInSmem), so every
 * element is rounded once per CTA instead of once per warp that loads it into a fragment (4× for
 * A, 2× for B with 2×4 warps). In integer arithmetic (NaN test, add, select; cheaper than
 * cvt.rna's sequence): adding half a tf32 ulp to the bits carries into the kept bits exactly
 * when the dropped part is half an ulp or more (infinities stay infinities, the largest finite
 * values round up to infinity); a NaN, which that carry could turn into a number, becomes the
 * canonical NaN. The dropped bits are left as the add makes them (0 becomes 0x1000, the
 * largest finite value 0x7f800fff): mma.sync ignores them, as it would ignore them unrounded.
 * Checked bit for bit by test_gpu_features (tf32 bits). */
struct Sm80TF32 {
  static constexpr int kBytes = 4;
  static constexpr bool kMnMajorOk = false; /* 32-bit elements: operands come K-major */
  static constexpr bool kRoundsInSmem = true;
  typedef float Acc;
  __device__ static void mma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k8_tf32(d, a, b);
  }
  __device__ static uint32_t round_word(uint32_t r) {
    const float x = __uint_as_float(r);
    return x != x ? TG_F32_CANONICAL_NAN : r + TG_TF32_HALF_ULP;
  }
};

struct Sm80S8 {
  static constexpr int kBytes = 1;
  static constexpr bool kRoundsInSmem = false;
  static constexpr bool kMnMajorOk = false; /* 8-bit elements: operands come K-major */
  typedef int32_t Acc;
  __device__ static void mma(int32_t (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    warp_mma_m16n8k32_s8(d, a, b);
  }
};

#endif /* TG_SM80_TRAITS_CUH */
