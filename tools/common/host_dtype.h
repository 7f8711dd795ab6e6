/*
 * host_dtype.h — element conversions on the host for every tg_dtype, rounding to nearest even:
 * the CPU reference and the test data generators read and write device formats with these.
 */
#ifndef TG_HOST_DTYPE_H
#define TG_HOST_DTYPE_H

#include <stdint.h>
#include "measure.h" /* tg_unit_roundoff */
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element `off` of an array of dtype t, widened exactly to double. */
double tg_host_load(const void *base, int64_t off, tg_dtype t);

/* Rounds v once to dtype t (nearest even; integers saturate, NaN → 0; fp8 E4M3 saturates to
 * ±448) and stores it at element `off`. */
void tg_host_store(void *base, int64_t off, tg_dtype t, double v);

/* v rounded to the nearest value representable in t (what a store then load gives). */
double tg_host_round(double v, tg_dtype t);

#ifdef __cplusplus
}
#endif

#endif /* TG_HOST_DTYPE_H */
