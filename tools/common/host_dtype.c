/*
 * host_dtype.c — one generic encoder/decoder for the small float formats (binary16, bfloat16,
 * fp8 E4M3 and E5M2), parameterised by exponent and mantissa widths, rounding from double in
 * a single step (no double rounding through float).
 */
#include "host_dtype.h"

#include <math.h>
#include <string.h>

typedef struct float_format {
  int exp_bits, mant_bits;
  int has_inf;       /* IEEE-like: all-ones exponent is Inf/NaN */
  uint32_t nan_bits; /* canonical NaN encoding (without sign) */
} float_format;

static const float_format k_f16 = {5, 10, 1, 0x7e00};
static const float_format k_bf16 = {8, 7, 1, 0x7fc0};
static const float_format k_e4m3 = {4, 3, 0, 0x7f}; /* OCP E4M3FN: S.1111.111 is NaN, max 448 */
static const float_format k_e5m2 = {5, 2, 1, 0x7e};

static int bias_of(const float_format *f) { return (1 << (f->exp_bits - 1)) - 1; }

static double max_finite(const float_format *f) {
  int emax = f->has_inf ? (1 << f->exp_bits) - 2 - bias_of(f) : (1 << f->exp_bits) - 1 - bias_of(f);
  /* E4M3FN reserves mantissa 111 at the top exponent for NaN: its largest mantissa is 110. */
  double top_mant = f->has_inf ? 2.0 - ldexp(1.0, -f->mant_bits) : 2.0 - ldexp(2.0, -f->mant_bits);
  return ldexp(top_mant, emax);
}

static double decode(uint32_t bits, const float_format *f) {
  uint32_t sign = (bits >> (f->exp_bits + f->mant_bits)) & 1u;
  uint32_t e = (bits >> f->mant_bits) & ((1u << f->exp_bits) - 1u);
  uint32_t m = bits & ((1u << f->mant_bits) - 1u);
  uint32_t emax_field = (1u << f->exp_bits) - 1u;
  double v;
  if (f->has_inf && e == emax_field) v = m ? NAN : INFINITY;
  else if (!f->has_inf && e == emax_field && m == (1u << f->mant_bits) - 1u) v = NAN;
  else if (e == 0) v = ldexp((double)m, 1 - bias_of(f) - f->mant_bits);
  else v = ldexp(1.0 + ldexp((double)m, -f->mant_bits), (int)e - bias_of(f));
  return sign ? -v : v;
}

/* Rounds |v| to the format's grid (nearest even), saturating or overflowing to Inf. */
static double round_to(double v, const float_format *f) {
  if (isnan(v) || v == 0.0 || isinf(v)) return v;
  double a = fabs(v);
  int e;
  frexp(a, &e); /* a = frac * 2^e, frac in [0.5, 1) */
  e -= 1;       /* a in [2^e, 2^(e+1)) */
  int emin = 1 - bias_of(f);
  if (e < emin) e = emin; /* subnormal spacing */
  double q = ldexp(1.0, e - f->mant_bits);
  double r = nearbyint(a / q) * q;
  if (r > max_finite(f)) {
    /* IEEE overflow: past max + half an ulp rounds to Inf; E4M3FN saturates. */
    double half_ulp = ldexp(1.0, (int)floor(log2(max_finite(f))) - f->mant_bits - 1);
    if (!f->has_inf || a < max_finite(f) + half_ulp) r = max_finite(f);
    else r = INFINITY;
  }
  return v < 0 ? -r : r;
}

static uint32_t encode(double v, const float_format *f) {
  uint32_t sign_shift = (uint32_t)(f->exp_bits + f->mant_bits);
  if (isnan(v)) return f->nan_bits;
  uint32_t sign = signbit(v) ? 1u << sign_shift : 0u;
  double a = fabs(round_to(v, f));
  if (a == 0.0) return sign;
  if (isinf(a)) return sign | (((1u << f->exp_bits) - 1u) << f->mant_bits);
  int emin = 1 - bias_of(f);
  if (a < ldexp(1.0, emin)) /* subnormal: exact multiple of the smallest spacing */
    return sign | (uint32_t)ldexp(a, f->mant_bits - emin);
  int e;
  double frac = frexp(a, &e); /* [0.5, 1) */
  e -= 1;
  uint32_t m = (uint32_t)ldexp(frac * 2.0 - 1.0, f->mant_bits);
  return sign | ((uint32_t)(e + bias_of(f)) << f->mant_bits) | m;
}

static const float_format *small_format(tg_dtype t) {
  switch (t) {
    case TG_F16: return &k_f16;
    case TG_BF16: return &k_bf16;
    case TG_E4M3: return &k_e4m3;
    case TG_E5M2: return &k_e5m2;
    default: return NULL;
  }
}

static double saturate_int(double v, double lo, double hi) {
  if (isnan(v)) return 0.0;
  v = nearbyint(v);
  return v < lo ? lo : (v > hi ? hi : v);
}

double tg_host_load(const void *base, int64_t off, tg_dtype t) {
  switch (t) {
    case TG_F32: return (double)((const float *)base)[off];
    case TG_F16:
    case TG_BF16: return decode(((const uint16_t *)base)[off], small_format(t));
    case TG_E4M3:
    case TG_E5M2: return decode(((const uint8_t *)base)[off], small_format(t));
    case TG_S8: return (double)((const int8_t *)base)[off];
    case TG_S32: return (double)((const int32_t *)base)[off];
  }
  return 0.0;
}

void tg_host_store(void *base, int64_t off, tg_dtype t, double v) {
  switch (t) {
    case TG_F32: ((float *)base)[off] = (float)v; break;
    case TG_F16:
    case TG_BF16: ((uint16_t *)base)[off] = (uint16_t)encode(v, small_format(t)); break;
    case TG_E4M3:
    case TG_E5M2: ((uint8_t *)base)[off] = (uint8_t)encode(v, small_format(t)); break;
    case TG_S8: ((int8_t *)base)[off] = (int8_t)saturate_int(v, -128.0, 127.0); break;
    case TG_S32:
      ((int32_t *)base)[off] = (int32_t)saturate_int(v, -2147483648.0, 2147483647.0);
      break;
  }
}

double tg_host_round(double v, tg_dtype t) {
  unsigned char cell[8];
  memset(cell, 0, sizeof cell);
  tg_host_store(cell, 0, t, v);
  return tg_host_load(cell, 0, t);
}
