/* tolerance.c — the bound of tolerance.h for a request: measure.h's, with exact mode. */
#include "tolerance.h"

#include "measure.h"

tg_tolerance tg_tolerance_make(const tg_gemm *g, int exact) {
  const tg_bound b = tg_request_bound(g);
  const int gelu = g->epilogue == TG_EPI_GELU || g->epilogue == TG_EPI_BIAS_GELU;
  tg_tolerance t;
  t.rel = b.rel;
  t.abs = b.abs;
  t.u_out = b.u_out;
  t.lo = b.lo;
  t.hi = b.hi;
  t.exact = exact && !gelu; /* GELU is not exact arithmetic */
  t.mant_bits = b.mant_bits;
  t.emin = b.emin;
  t.emax = b.emax;
  return t;
}
