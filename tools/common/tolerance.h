/*
 * tolerance.h — the per-element error bound of docs/testing.md (interface/measure.h's, the library's
 * too), with exact mode, shared by host and device checks.
 *
 *   |d - ref| <= rel * mag + abs
 *   rel = gain * 4 * (2 u_in + K u_acc + u_out + u_epi) (+ slack of the fp32 tanh for GELU)
 * (u_out 0 for fp32 D; u_epi = 4·2^-24 only where alpha != 1, beta != 0 or an epilogue runs)
 * with mag = |alpha| sum|a||b| + |beta||c| + |bias| from the oracle. In exact mode (small
 * integer data and scalars whose products stay exact in fp32, so the kernel's fp32 sums are the
 * oracle's) d must be bit for bit the oracle's value rounded to D's type, to nearest with ties
 * to even (docs/testing.md, exact mode), up to the sign of a zero: -0 and +0 compare equal, as
 * the tensor cores' sums of exact zeros need not keep IEEE's sign rules. GELU is not exact arithmetic: with it, exact mode
 * keeps the ordinary bound. Integer outputs are compared with the reference saturated to their
 * range (and, in exact mode, rounded to nearest even, as the kernels convert). NaN always fails.
 */
#ifndef TG_TOLERANCE_H
#define TG_TOLERANCE_H

#include <math.h>
#include "tilegemm.h"

#ifdef __CUDACC__
#define TG_HD __host__ __device__
#else
#define TG_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tg_tolerance {
  double rel;                /* multiplies mag */
  double abs;                /* absolute floor (subnormal spacing of the output, 1 for integers) */
  double u_out;              /* output unit roundoff */
  double lo, hi;             /* saturation range of integer outputs (±huge for floats) */
  int exact;                 /* d must be ref rounded to D's type (bitwise) */
  int mant_bits, emin, emax; /* D's float format (mant_bits 0: an integer type) */
} tg_tolerance;

/* The bound for a request (host). exact selects exact mode. */
tg_tolerance tg_tolerance_make(const tg_gemm *g, int exact);

/* The spacing of a float format (mant_bits stored mantissa bits, smallest normal exponent emin)
 * at finite nonzero v: 2^(exponent of v's leading bit, at least emin, − mant_bits). */
static inline TG_HD double tg_format_spacing(double v, int mant_bits, int emin) {
  int e;
  (void)frexp(fabs(v), &e);
  return ldexp(1.0, (e - 1 < emin ? emin : e - 1) - mant_bits);
}

/* v rounded to a float format of mant_bits stored mantissa bits and exponents emin..emax, to
 * nearest with ties to even; past the largest finite value by half its spacing or more, ±inf. */
static inline TG_HD double tg_round_to_format(double v, int mant_bits, int emin, int emax) {
  if (v == 0.0 || v != v || v - v != 0.0) return v; /* zero, NaN, ±inf */
  const double spacing = tg_format_spacing(v, mant_bits, emin);
  const double r = rint(v / spacing) * spacing; /* exact scaling; rint ties to even */
  const double max_finite = ldexp(2.0 - ldexp(1.0, -mant_bits), emax);
  if (fabs(r) > max_finite) return v < 0.0 ? -INFINITY : INFINITY;
  return r;
}

/* error / bound for one element: 0 when exact, > 1 fails, INFINITY for NaN or a miss with a
 * zero bound. In exact mode a float D's miss counts its distance from the rounded value in
 * spacings of D's type, plus 1. */
static inline TG_HD double tg_error_ratio(const tg_tolerance *t, double d, double ref, double mag) {
  if (d != d || ref != ref) return INFINITY;
  ref = ref < t->lo ? t->lo : (ref > t->hi ? t->hi : ref);
  if (t->exact && t->mant_bits == 0) /* integer D: the reference rounded as the kernel converts */
    return d == rint(ref) ? 0.0 : 1.0 + fabs(d - rint(ref));
  if (t->exact) {
    const double r = tg_round_to_format(ref, t->mant_bits, t->emin, t->emax);
    if (d == r) return 0.0;
    if (d - d != 0.0 || r - r != 0.0) return INFINITY; /* an infinity on one side only */
    return 1.0 + fabs(d - r) / tg_format_spacing(r == 0.0 ? 1.0 : r, t->mant_bits, t->emin);
  }
  double err = fabs(d - ref);
  if (err == 0.0) return 0.0;
  double bound = t->rel * mag + t->abs;
  return bound > 0.0 ? err / bound : INFINITY;
}

#ifdef __cplusplus
}
#endif

#endif /* TG_TOLERANCE_H */
