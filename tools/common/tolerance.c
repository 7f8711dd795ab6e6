/* tolerance.c — builds the bound of tolerance.h from a request. */
#include "tolerance.h"

#include <math.h>

#include "host_dtype.h"

/* Roundings an fp32 epilogue adds: alpha scale, beta·C, bias, activation. */
#define EPILOGUE_ROUNDINGS 4.0
/* Largest slope of the tanh-approximated GELU, and the fp32 tanhf error it may carry. */
#define GELU_MAX_SLOPE 1.13
#define GELU_EVAL_SLACK 0x1p-20
/* Safety factor of docs/testing.md on the first-order bound. */
#define BOUND_FACTOR 4.0

tg_tolerance tg_tolerance_make(const tg_gemm *g, int exact) {
  tg_tolerance t;
  const int int_path = g->compute == TG_COMPUTE_S32;
  const double u_in = g->compute == TG_COMPUTE_TF32 ? 0x1p-11 : 0.0;
  const double u_acc = int_path ? 0.0 : 0x1p-24;
  /* docs/testing.md's bound, plus the fp32 epilogue's roundings where there is an epilogue (alpha,
   * beta·C, bias, activation); fp32 D adds no rounding of its own beyond them (u_out 0). */
  const int epilogue = g->alpha != 1.0 || g->beta != 0.0 || g->epilogue != TG_EPI_NONE;
  const double u_epi = epilogue ? EPILOGUE_ROUNDINGS * 0x1p-24 : 0.0;
  const int gelu = g->epilogue == TG_EPI_GELU || g->epilogue == TG_EPI_BIAS_GELU;
  t.u_out = tg_unit_roundoff(g->d_type);
  t.exact = exact && !gelu;
  t.rel = BOUND_FACTOR * (2.0 * u_in + (double)g->k * u_acc + (g->d_type == TG_F32 ? 0.0 : t.u_out) + u_epi);
  if (gelu) t.rel = t.rel * GELU_MAX_SLOPE + GELU_EVAL_SLACK;
  t.lo = -HUGE_VAL;
  t.hi = HUGE_VAL;
  if (g->d_type == TG_S8) t.lo = -128.0, t.hi = 127.0;
  if (g->d_type == TG_S32) t.lo = -2147483648.0, t.hi = 2147483647.0;
  t.mant_bits = t.emin = t.emax = 0;
  switch (g->d_type) {
    case TG_F16: t.abs = 0x1p-24, t.mant_bits = 10, t.emin = -14, t.emax = 15; break;
    case TG_BF16: t.abs = 0x1p-133, t.mant_bits = 7, t.emin = -126, t.emax = 127; break;
    case TG_F32: t.abs = 0x1p-149, t.mant_bits = 23, t.emin = -126, t.emax = 127; break;
    default: t.abs = 1.0; break; /* integer rounding (D is never fp8: validate.c) */
  }
  return t;
}
