/*
 * sm90_split.cuh — the host's arithmetic of an sm90 launch, for the launcher and the planner
 * alike: how many work items a problem makes, whether a launch spreads its last waves over all
 * clusters (stream-K) and from which item, the waves the planner counts, the stream-K workspace
 * (how many rows an operand's TMA box takes: sm90_layout.h's tg_sm90_box_rows). Plain functions
 * of the problem and the row's numbers: no CUDA call.
 */
#ifndef TG_SM90_SPLIT_CUH
#define TG_SM90_SPLIT_CUH

#include <stddef.h>
#include <stdint.h>

#include "problem.h"
#include "sm90_config.cuh"
#include "sm90_layout.h"

/* Stream-K only when the last wave of whole items would fill at most this share of the
 * clusters, ... The stream-K part runs at about TG_SM90_STREAM_K_SPEED of the speed of whole
 * tiles (shares that start at scattered k break the lockstep in which a wave's tiles walk k
 * together and share operand panels in L2), so spreading the last full wave and a partial one
 * (1 + r of a wave, r = last wave's fill) pays only when (1 + r) / 0.7 < 2, r < 0.4. */
#define TG_SM90_STREAM_K_MAX_LAST_WAVE_PERCENT 40
/* ... and each cluster's share holds at least this many k-tiles. */
#define TG_SM90_STREAM_K_MIN_SHARE 4
/* The speed of the stream-K part relative to whole tiles (above), for the planner. */
#define TG_SM90_STREAM_K_SPEED 0.7

/* A single partial wave (fewer items than clusters) is spread over every cluster only when it
 * fills at most this share of them and the problem is memory-bound (below): then the loads, not
 * the math, set the time, and a CTA's stages hold only so many bytes in flight, so twice the
 * CTAs pull about twice the bytes at once. On compute-bound single waves the spread lost. */
#define TG_SM90_SPREAD_MAX_FILL_PERCENT 50
/* ... over at most this many clusters per item: an item's finisher adds the partial sums of
 * every other cluster that ran part of it, one tile of fp32 after another, so a deep single
 * item spread over all 132 SMs would leave one CTA reading 131 tiles. */
#define TG_SM90_SPREAD_MAX_SPLIT 4
/* Multiply-adds and additions (flops) per byte of A, B and D at which the H100's tensor cores
 * and its DRAM take equal time: 989 TFLOP/s dense bf16 against 3.35 TB/s. Below it a problem is
 * memory-bound (decode: M = 1…128 tokens against 4096-wide weights sits at 1…120). */
#define TG_SM90_RIDGE_FLOPS_PER_BYTE 295.0

/* Whether streaming p's operands (and D) once from DRAM takes longer than its math. */
static inline bool sm90_memory_bound(const tg_problem *p) {
  return tg_problem_flops(p) < TG_SM90_RIDGE_FLOPS_PER_BYTE * tg_problem_min_bytes(p);
}

/* Clusters a spread single wave of `items` runs on, of the `clusters` that fit. */
static inline int64_t sm90_spread_clusters(int64_t items, int64_t clusters) {
  return items * TG_SM90_SPREAD_MAX_SPLIT < clusters ? items * TG_SM90_SPREAD_MAX_SPLIT : clusters;
}

/* First work item of the stream-K part of a cooperative launch over `clusters` clusters:
 * `items` (none) unless the last wave of whole items is mostly idle; then the last partial
 * wave and the full one before it, spread over all clusters, so every share holds over one
 * item. A memory-bound single partial wave is spread whole (item 0) over
 * sm90_spread_clusters of them. */
static inline int64_t sm90_stream_k_first(int64_t items, int64_t clusters, int64_t k_tiles,
                                          int schedule, bool memory_bound) {
  if (schedule != TG_SM90_COOPERATIVE || clusters <= 0 || items <= 0) return items;
  if (items < clusters) {
    if (!memory_bound || items * 100 > clusters * TG_SM90_SPREAD_MAX_FILL_PERCENT) return items;
    return items * k_tiles / sm90_spread_clusters(items, clusters) < TG_SM90_STREAM_K_MIN_SHARE
               ? items
               : 0;
  }
  const int64_t rest = items % clusters, first = (items / clusters - 1) * clusters;
  if (rest == 0 || rest * 100 > clusters * TG_SM90_STREAM_K_MAX_LAST_WAVE_PERCENT) return items;
  if ((items - first) * k_tiles / clusters < TG_SM90_STREAM_K_MIN_SHARE) return items;
  return first;
}

/* Work items (clusters' tile groups) of a BM×BN kernel with clusters of cm CTAs along m or cn
 * along n. */
static inline int64_t sm90_items(const tg_problem *p, int bm, int bn, int cm, int cn) {
  const int64_t m_items = ((p->m + bm - 1) / bm + cm - 1) / cm;
  const int64_t n_items = ((p->n + bn - 1) / bn + cn - 1) / cn;
  return m_items * n_items * p->batch;
}

/* k-tiles of every item: a stage holds a 128-byte row of k (Sm90Config::kBK). */
static inline int64_t sm90_k_tiles(const tg_problem *p) {
  const int64_t tile_k = TG_SM90_ROW_BYTES / (int64_t)tg_dtype_size(p->a_type);
  return (p->k + tile_k - 1) / tile_k;
}

/* A launch on up to `clusters` clusters: its items, the clusters its stream-K part is cut for
 * (all of them, or fewer for a spread single wave), and its first stream-K item. */
struct Sm90Split {
  int64_t items, clusters, first;
};
static inline Sm90Split sm90_split(const tg_problem *p, int bm, int bn, int cm, int cn,
                                   int64_t clusters, int schedule) {
  Sm90Split s;
  s.items = sm90_items(p, bm, bn, cm, cn);
  /* Kernels of wide accumulators never split items (Sm90Config::kStreamK). */
  s.first =
      sm90_wide_acc(bm, bn, schedule)
          ? s.items
          : sm90_stream_k_first(s.items, clusters, sm90_k_tiles(p), schedule, sm90_memory_bound(p));
  s.clusters =
      s.first == 0 && s.items < clusters ? sm90_spread_clusters(s.items, clusters) : clusters;
  return s;
}

/* The same on all of p's SMs (the planner's view; the launch uses the clusters that fit). */
static inline Sm90Split sm90_split_on_sms(const tg_problem *p, int bm, int bn, int cm, int cn,
                                          int schedule) {
  return sm90_split(p, bm, bn, cm, cn, p->sm_count / (cm * cn), schedule);
}

/* Bytes of partial sums a stream-K launch needs: one BM×BN fp32 tile per CTA. */
static inline size_t sm90_stream_k_bytes(int64_t ctas, int bm, int bn) {
  return (size_t)ctas * (size_t)bm * (size_t)bn * sizeof(float);
}

/* A row's workspace: partial sums for stream-K when it may apply (with as many clusters as
 * the SMs hold; the launch re-decides with the clusters that fit and falls back to whole
 * tiles if the workspace is short). */
static inline size_t sm90_workspace(const tg_problem *p, int bm, int bn, int cm, int cn,
                                    int schedule) {
  const Sm90Split s = sm90_split_on_sms(p, bm, bn, cm, cn, schedule);
  return s.first == s.items ? 0 : sm90_stream_k_bytes(s.clusters * cm * cn, bm, bn);
}

/* The planner's wave count (kernel.h's tg_waves_fn) on all of p's SMs: waves of whole items
 * (a pingpong cluster has one in flight per consumer warpgroup), a stream-K part (the last full
 * wave and a partial one, or a spread memory-bound single wave) counted at its speed. The
 * planner's memory floor (plan_cost.c) bounds what the spread can gain. */
static inline double sm90_waves(const tg_problem *p, int bm, int bn, int cm, int cn, int schedule) {
  const Sm90Split s = sm90_split_on_sms(p, bm, bn, cm, cn, schedule);
  if (s.clusters <= 0) return (double)s.items;
  const int64_t slots = s.clusters * (schedule == TG_SM90_PINGPONG ? TG_SM90_CONSUMERS : 1);
  if (s.first == s.items) return (double)((s.items + slots - 1) / slots);
  return (double)(s.first / s.clusters) +
         (double)(s.items - s.first) / (double)s.clusters / TG_SM90_STREAM_K_SPEED;
}

/* Whether p's work items and stream-K iterations can be counted in 32 bits on all of p's SMs:
 * (clusters + 1) × items × k-tiles below 2^32 bounds every product the kernel forms from them (a
 * stream-K share's start c·T/C, an iteration's owner (x + 1)·C). */
#define TG_SM90_COUNT_32_LIMIT 4294967296.0 /* 2^32 */
static inline bool sm90_count_fits_32(const tg_problem *p, int bm, int bn, int cm, int cn) {
  const double clusters = (double)(p->sm_count / (cm * cn));
  return (clusters + 1.0) * (double)sm90_items(p, bm, bn, cm, cn) * (double)sm90_k_tiles(p) <
         TG_SM90_COUNT_32_LIMIT;
}

/* Rows of a K-major operand's TMA box: sm90_layout.h's tg_sm90_box_rows. */

#endif /* TG_SM90_SPLIT_CUH */
