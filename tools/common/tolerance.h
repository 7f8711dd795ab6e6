/*
 * tolerance.h — the per-element error bound of TESTING.md, shared by host and device checks.
 *
 *   |d - ref| <= rel * mag + abs
 *   rel = gain * 4 * (2 u_in + K u_acc + u_out + u_epi) (+ slack of the fp32 tanh for GELU)
 * with mag = |alpha| sum|a||b| + |beta||c| + |bias| from the oracle. In exact mode (small
 * integer data, integer alpha/beta, no GELU) only the output rounding is allowed:
 *   |d - ref| <= u_out * |ref|, i.e. d is the correctly rounded result.
 * Integer outputs are compared with the reference saturated to their range. NaN always fails.
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
  double rel;    /* multiplies mag */
  double abs;    /* absolute floor (subnormal spacing of the output, 1 for integers) */
  double u_out;  /* output unit roundoff (exact mode) */
  double lo, hi; /* saturation range of integer outputs (±huge for floats) */
  int exact;     /* compare as correctly rounded */
} tg_tolerance;

/* The bound for a request (host). exact selects exact mode. */
tg_tolerance tg_tolerance_make(const tg_gemm *g, int exact);

/* error / bound for one element: 0 when exact, > 1 fails, INFINITY for NaN or a miss with a
 * zero bound. */
static inline TG_HD double tg_error_ratio(const tg_tolerance *t, double d, double ref, double mag) {
  if (d != d || ref != ref) return INFINITY;
  ref = ref < t->lo ? t->lo : (ref > t->hi ? t->hi : ref);
  double err = fabs(d - ref);
  if (err == 0.0) return 0.0;
  double bound = t->exact ? t->u_out * fabs(ref) : t->rel * mag + t->abs;
  return bound > 0.0 ? err / bound : INFINITY;
}

#ifdef __cplusplus
}
#endif

#endif /* TG_TOLERANCE_H */
