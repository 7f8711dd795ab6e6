/*
 * random_values.h — counter-based random test data, identical on host and device: element i
 * of a buffer filled with seed s has the same value wherever it was generated.
 *
 * Normal mode: uniform on [-1, 1) (before rounding to the dtype); s8 uniform on [-32, 32].
 * Exact mode: small integers, |x| <= 4 (|x| <= 1 for 8-bit types), so that fp32
 * accumulation is exact and results compare bitwise.
 */
#ifndef TG_RANDOM_VALUES_H
#define TG_RANDOM_VALUES_H

#include <stdint.h>
#include "tilegemm.h"
#include "tolerance.h" /* TG_HD */

#define TG_RANDOM_S8_RANGE 32
#define TG_EXACT_RANGE 4
#define TG_EXACT_RANGE_8BIT 1

static inline TG_HD uint64_t tg_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* A uniformly drawn integer in [-r, r]. */
static inline TG_HD int64_t tg_random_int(uint64_t seed, int64_t i, int64_t r) {
  uint64_t h = tg_mix64(seed * 0x100000001b3ull ^ tg_mix64((uint64_t)i));
  return (int64_t)(h % (uint64_t)(2 * r + 1)) - r;
}

static inline TG_HD double tg_random_value(uint64_t seed, int64_t i, tg_dtype t, int exact) {
  int eight_bit = t == TG_E4M3 || t == TG_E5M2 || t == TG_S8;
  if (exact)
    return (double)tg_random_int(seed, i, eight_bit ? TG_EXACT_RANGE_8BIT : TG_EXACT_RANGE);
  if (t == TG_S8 || t == TG_S32) return (double)tg_random_int(seed, i, TG_RANDOM_S8_RANGE);
  uint64_t h = tg_mix64(seed * 0x100000001b3ull ^ tg_mix64((uint64_t)i));
  return (double)(h >> 11) * 0x1p-52 - 1.0; /* 53 random bits → [-1, 1) */
}

#endif /* TG_RANDOM_VALUES_H */
