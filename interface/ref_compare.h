/*
 * ref_compare.h — the library's own check of a result against the fp64 oracle (tg_tune
 * verifies its winner with it), and the NaN fill that makes unwritten outputs visible.
 * The tools and tests have their own comparison (tools/common); both hold D to the same bound,
 * measure.h's tg_request_bound.
 */
#ifndef TG_REF_COMPARE_H
#define TG_REF_COMPARE_H

#include <stdint.h>
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where D lies (the user's frame: m × n per batch, D's order, ld and batch stride) and the
 * per-element bound |d - ref| <= rel * mag + abs, with ref saturated to [lo, hi] first (the
 * range of an integer D; ±HUGE_VAL for floats). */
typedef struct tg_compare_spec {
  const void *d;
  tg_dtype d_type;
  tg_order d_order;
  int64_t ldd, batch_stride_d;
  int64_t m, n, batch;
  const double *ref, *mag; /* row-major, packed m × n per batch, batch after batch */
  double rel, abs, lo, hi;
} tg_compare_spec;

/* Accumulated on the device over any number of launches (zero it first). */
typedef struct tg_compare_counts {
  unsigned long long worst_bits; /* bit pattern of the largest error/bound (a double >= 0) */
  unsigned long long failures;   /* elements over the bound, NaN included */
} tg_compare_counts;

/* Folds every element of s into *counts (device memory). Only enqueues work. */
tg_status tg_ref_compare_launch(const tg_compare_spec *s, tg_compare_counts *counts,
                                struct CUstream_st *stream);

/* Sets every byte of D's m × n elements per batch (not its padding) to 0xff: NaN in every
 * float format. Only enqueues work. */
tg_status tg_ref_poison_launch(const tg_compare_spec *s, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_REF_COMPARE_H */
