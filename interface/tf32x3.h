/*
 * tf32x3.h — tf32 rounding in fp32 bits (shared with the mma.sync kernels' conversion), and the
 * 3xTF32 compute mode's numbers: how an fp32 value splits into a tf32 value and a tf32
 * remainder, and how the split operands are laid out for a tf32 kernel.
 *
 * a·b ≈ hi(a)·hi(b) + lo(a)·hi(b) + hi(a)·lo(b): each product of two tf32 values is exact in
 * fp32, so the only errors are the neglected lo(a)·lo(b), the rounding of each remainder to tf32
 * and the fp32 accumulation (measure.h states the bound). The planner runs it as one tf32 GEMM
 * over 3·k: A becomes [hi(A) lo(A) hi(A)] along k and B becomes [hi(B); hi(B); lo(B)], both
 * K-major (plan.h). Host code (C) and kernels (CUDA C) use the same functions.
 */
#ifndef TG_TF32X3_H
#define TG_TF32X3_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define TG_TF32X3_HD __host__ __device__
#else
#define TG_TF32X3_HD
#endif

/* Products per multiply-add of the inputs: the split operands are this many times as deep. */
#define TG_TF32X3_PRODUCTS 3
/* The part of the 3·k depth that holds each operand's remainder (the others hold hi): A's
 * second third meets B's hi, B's third third meets A's hi. */
#define TG_TF32X3_LO_PART_A 1
#define TG_TF32X3_LO_PART_B 2

/* tf32 keeps the top 19 bits of an fp32 (sign, 8 exponent, 10 mantissa bits). */
#define TG_TF32_DROPPED_BITS 0x1fffu
#define TG_TF32_HALF_ULP_MINUS_1 0x0fffu /* just under half a tf32 ulp, in fp32 bits */
#define TG_TF32_LSB_SHIFT 13             /* bit 13: the last kept mantissa bit */
#define TG_F32_EXPONENT_MASK 0x7f800000u

static inline TG_TF32X3_HD uint32_t tg_f32_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static inline TG_TF32X3_HD float tg_f32_from_bits(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* x rounded to tf32 (10 stored mantissa bits), to nearest with ties to even, as the tf32 kernels
 * round their inputs. Infinities and NaN pass unchanged; a finite x that would round up past
 * the largest finite value is truncated instead, so a finite input stays finite. */
static inline TG_TF32X3_HD float tg_tf32_round(float x) {
  const uint32_t u = tg_f32_bits(x);
  if ((u & TG_F32_EXPONENT_MASK) == TG_F32_EXPONENT_MASK) return x;
  /* Adding just under half an ulp plus the last kept bit carries into the kept bits exactly
   * when the dropped part is over half an ulp, or exactly half with an odd last bit. */
  const uint32_t r =
      (u + TG_TF32_HALF_ULP_MINUS_1 + ((u >> TG_TF32_LSB_SHIFT) & 1u)) & ~TG_TF32_DROPPED_BITS;
  if ((r & TG_F32_EXPONENT_MASK) == TG_F32_EXPONENT_MASK)
    return tg_f32_from_bits(u & ~TG_TF32_DROPPED_BITS);
  return tg_f32_from_bits(r);
}

/* The split of x: *hi = tf32(x) and *lo = tf32(x − hi). x − hi is exact in fp32 (hi is within
 * a relative 2^-11 of x), so |x − hi − lo| ≤ 2^-22·|x|. Non-finite x: hi = x, lo = 0. */
static inline TG_TF32X3_HD void tg_tf32x3_split(float x, float *hi, float *lo) {
  *hi = tg_tf32_round(x);
  *lo = (tg_f32_bits(x) & TG_F32_EXPONENT_MASK) == TG_F32_EXPONENT_MASK ? 0.0f
                                                                        : tg_tf32_round(x - *hi);
}

#endif /* TG_TF32X3_H */
