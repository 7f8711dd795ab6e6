/*
 * splitk_reduce.h — split-K as the families that split k share it (sm80, f32): how many splits a
 * problem takes, the k of each, the bytes of the partial sums, and their reduction
 * (kernels/common/splitk_reduce.cu).
 */
#ifndef TG_SPLITK_REDUCE_H
#define TG_SPLITK_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each split keeps at least this many k-tiles, and a problem takes at most this many splits. */
#define TG_SPLITK_MIN_TILES 4
#define TG_SPLITK_MAX 16
/* Bytes of one partial sum (fp32, or int32 for s8 inputs). */
#define TG_SPLITK_PARTIAL_BYTES 4

/* Number of k splits (1 = none) of p in bm × bn × bk tiles: enough (batch, split) CTAs to fill
 * `slots` CTA slots, within the limits above. */
static inline int tg_splitk_count(const tg_problem *p, int bm, int bn, int bk, int64_t slots) {
  const int64_t ctas = ((p->m + bm - 1) / bm) * ((p->n + bn - 1) / bn) * p->batch;
  const int64_t want = ctas > 0 ? (slots + ctas - 1) / ctas : 1;
  const int64_t most = ((p->k + bk - 1) / bk) / TG_SPLITK_MIN_TILES;
  int64_t s = want < most ? want : most;
  if (s > TG_SPLITK_MAX) s = TG_SPLITK_MAX;
  return s < 1 ? 1 : (int)s;
}

/* k elements per split: a whole number of k-tiles. */
static inline int64_t tg_splitk_k(const tg_problem *p, int splits, int bk) {
  const int64_t k_tiles = (p->k + bk - 1) / bk;
  return (k_tiles + splits - 1) / splits * bk;
}

/* Bytes of the partial sums of `splits` splits ([split][batch][m][n]; none without a split). */
static inline size_t tg_splitk_partial_bytes(const tg_problem *p, int splits) {
  return splits > 1 ? (size_t)splits * (size_t)(p->batch * p->m * p->n) * TG_SPLITK_PARTIAL_BYTES
                    : 0u;
}

/* Sums `splits` partial planes ([split][batch][m][n], packed; int32 for s8 inputs, fp32
 * otherwise) in split order and applies the epilogue of p. */
tg_status tg_splitk_reduce(const tg_problem *p, int splits, const void *partial,
                           struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_SPLITK_REDUCE_H */
