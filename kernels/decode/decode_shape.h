/*
 * decode_shape.h — how the decode family lays a problem out, shared by its registry rows (C) and
 * its launcher (CUDA C): which operand holds the tokens, and the CTAs and k splits a launch
 * takes. One place, so that the planner's wave and workspace estimates are the launch's own.
 * Valid C and CUDA C++.
 */
#ifndef TG_DECODE_SHAPE_H
#define TG_DECODE_SHAPE_H

#include <stdint.h>

#include "problem.h"
#include "splitk_reduce.h"

#define TG_DECODE_WARPS 8  /* warps of a CTA, each summing its own k-chunks */
#define TG_DECODE_LANES 32 /* threads per warp */
#define TG_DECODE_THREADS (TG_DECODE_WARPS * TG_DECODE_LANES)
#define TG_DECODE_CHUNK_K 32                                  /* k of one warp step */
#define TG_DECODE_CTA_K (TG_DECODE_WARPS * TG_DECODE_CHUNK_K) /* k of one step of all warps */
#define TG_DECODE_MAX_GRID_BATCH 65535 /* grid z; larger batches loop inside the kernel */

/* The tokens are the smaller side of the canonical problem: its m (the weights are B) unless n
 * is smaller (the weights are A, which a column-major D makes of the user's B). */
static inline TG_PROBLEM_HD int tg_decode_weights_are_a(const tg_problem *p) { return p->n < p->m; }
static inline TG_PROBLEM_HD int64_t tg_decode_tokens(const tg_problem *p) {
  return tg_decode_weights_are_a(p) ? p->n : p->m;
}
static inline TG_PROBLEM_HD int64_t tg_decode_rows(const tg_problem *p) {
  return tg_decode_weights_are_a(p) ? p->m : p->n;
}

/* CTAs of one k split: the weight rows in tiles of rows_per_cta, times the batch. */
static inline int64_t tg_decode_ctas(const tg_problem *p, int rows_per_cta) {
  return (tg_decode_rows(p) + rows_per_cta - 1) / rows_per_cta * p->batch;
}

/* K splits: enough CTAs for one per SM when the rows alone give fewer (each CTA streams its
 * rows at the SM's share of DRAM bandwidth), each split at least TG_SPLITK_MIN_TILES steps. */
static inline int tg_decode_splits(const tg_problem *p, int rows_per_cta, int tokens_per_cta) {
  const int wa = tg_decode_weights_are_a(p);
  return tg_splitk_count(p, wa ? rows_per_cta : tokens_per_cta, wa ? tokens_per_cta : rows_per_cta,
                         TG_DECODE_CTA_K, p->sm_count);
}

#endif /* TG_DECODE_SHAPE_H */
