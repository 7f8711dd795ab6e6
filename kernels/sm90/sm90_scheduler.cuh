/*
 * sm90_scheduler.cuh — which tiles a persistent CTA works on, in which order, and from which
 * k-tile to which: the grouped tile order with its alternating sweeps, the k direction of each
 * unit, the staggered start, the stream-K share of each cluster, and the next tile worked out
 * ahead. The producer and the consumers walk the same list (Sm90Scheduler::WorkList), so they
 * agree on every stage without talking. Knows the configuration, not the mainloop or the
 * epilogue.
 */
#ifndef TG_SM90_SCHEDULER_CUH
#define TG_SM90_SCHEDULER_CUH

#include <stdint.h>

#include "problem.h"
#include "sm90_config.cuh"
#include "sm90_layout.h"

/* Stream-K part of a launch (sm90_stream_k_first decides it on the host): work items
 * [first_item, items) have their k-tiles spread evenly over all clusters; `partials` holds one
 * slot of fp32 accumulators per consumer warpgroup of every CTA. first_item == items: none. */
struct Sm90StreamK {
  int64_t first_item;
  float *partials;
};

template <class Cfg>
struct Sm90Scheduler {
  static constexpr int BM = Cfg::kBM, BN = Cfg::kBN, CLUSTER_M = Cfg::kClusterM,
                       CLUSTER_N = Cfg::kClusterN;
  typedef typename Cfg::Count Count;

  /* The launch's work: items (a cluster's tiles) along m and n and in all, this cluster's first
   * item and the clusters' step, the k-tiles of an item, and whether 32-bit tile arithmetic
   * suffices (`narrow`). */
  struct Grid {
    int64_t m_items, n_items, items, first, step;
    int k_tiles;
    bool narrow;
  };
  __device__ static Grid grid(const tg_problem &p) {
    Grid g;
    const int64_t m_tiles = (p.m + BM - 1) / BM, n_tiles = (p.n + BN - 1) / BN;
    g.m_items = (m_tiles + CLUSTER_M - 1) / CLUSTER_M;
    g.n_items = (n_tiles + CLUSTER_N - 1) / CLUSTER_N;
    g.items = g.m_items * g.n_items * p.batch;
    g.first = blockIdx.x / Cfg::kCluster, g.step = gridDim.x / Cfg::kCluster;
    g.k_tiles = (int)((p.k + Cfg::kBK - 1) / Cfg::kBK);
    g.narrow = Cfg::kWideAcc || g.items <= (int64_t)UINT32_MAX;
    return g;
  }

  /* Work item `item` in grouped order (sm90_layout.h's tg_sm90_tile_coords_*: batch, then
   * groups of TG_SM90_GROUP_ROWS rows of tiles sweeping the columns, alternately left to right
   * and right to left); this CTA takes row (column) `rank` of its cluster's item. In 32-bit
   * arithmetic when the item count allows (`narrow`): every thread runs this once per tile, and
   * a 64-bit division is a long call. */
  __device__ static void tile_coords(int64_t item, int64_t m_items, int64_t n_items, bool narrow,
                                     int rank, int64_t *bat, int64_t *tm, int64_t *tn) {
    if (narrow)
      tg_sm90_tile_coords_32((uint32_t)item, (uint32_t)m_items, (uint32_t)n_items, BM, CLUSTER_M,
                             CLUSTER_N, rank, bat, tm, tn);
    else
      tg_sm90_tile_coords_64((uint64_t)item, (uint64_t)m_items, (uint64_t)n_items, BM, CLUSTER_M,
                             CLUSTER_N, rank, bat, tm, tn);
  }

  /* k-tiles [kt_begin, kt_end) of work item `item`. */
  struct Unit {
    Count item;
    int kt_begin, kt_end;
  };

  /* The units a CTA runs (a pingpong consumer: its every other one), in order: first its even
   * share of the stream-K iterations [first_item·k_tiles, items·k_tiles) (iteration
   * item·k_tiles + kt), one unit per item the share touches, so only its first unit may start
   * inside an item and only its last stream-K unit may end inside one; then whole items dp,
   * dp + dp_step, ... below first_item. Producer and consumers walk the same list. */
  struct WorkList {
    Count iter, iter_end, dp, dp_step, dp_end;
    int k_tiles;
    __device__ bool next(Unit &u) {
      if (Cfg::kStreamK && iter < iter_end) {
        u.item = iter / (Count)k_tiles;
        const Count item_begin = u.item * (Count)k_tiles;
        const Count stop = item_begin + k_tiles < iter_end ? item_begin + k_tiles : iter_end;
        u.kt_begin = (int)(iter - item_begin);
        u.kt_end = (int)(stop - item_begin);
        iter = stop;
        return true;
      }
      if (dp < dp_end) {
        u.item = dp;
        u.kt_begin = 0;
        u.kt_end = k_tiles;
        dp += dp_step;
        return true;
      }
      return false;
    }
    /* Whether the unit next() returns next is a whole item (no stream-K units left), and which. */
    __device__ bool next_is_whole(int64_t *item) const {
      *item = dp;
      return iter >= iter_end && dp < dp_end;
    }
  };

  /* Whether the producer loads unit u's k-tiles from last to first: every other whole item a CTA
   * runs (`nth` counts its units), so that one wave starts on the operand slabs the previous wave
   * read last, while they are still in L2; the wave's CTAs walk k in step either way. The
   * consumers need not know: a tile's sum is the same set of k-tiles in another order, and each
   * launch of a problem takes the same orders, so results stay deterministic. Parts of a split
   * item (stream-K) keep the ascending order. */
  __device__ static bool loads_k_backwards(uint32_t nth, const Unit &u, int k_tiles) {
    return tg_sm90_loads_k_backwards(nth, u.kt_begin, u.kt_end, k_tiles);
  }

  /* Staggered start (producer thread, before its first load): where the items do not divide
   * evenly among the clusters, the clusters with one item fewer (c >= items mod clusters) start
   * about half a tile late. They would idle that long at the end anyway; meanwhile the two
   * groups of clusters run their epilogues, whose stores compete with every CTA's next operand
   * loads, half a tile apart instead of all at once. A delay of a whole tile brings them back in
   * step and gains nothing. The delay counts cycles: half a tile's k-tiles at
   * kStaggerCyclesPerKTile each, scaled to the tile's area (a k-tile's math is). Multi-wave
   * cooperative launches without stream-K only (stream-K evens the shares out); the results do
   * not depend on it. */
  static constexpr long long kStaggerCyclesPerKTile =
      1500; /* a k-tile of kStaggerTileArea, with its share of the epilogue, H100 */
  static constexpr long long kStaggerTileArea = 128 * 256;
  static constexpr long long kStaggerHalfTileCyclesPerKTile =
      kStaggerCyclesPerKTile * BM * BN / kStaggerTileArea / 2;
  __device__ static void thread_stagger_start(const Sm90StreamK &sk, int64_t items, int64_t first,
                                              int64_t clusters, int k_tiles) {
    const int64_t rem = (int64_t)((Count)items % (Count)clusters);
    if (!Cfg::Schedule::kStaggersStart || sk.first_item < items || items < 2 * clusters ||
        rem == 0 || first < rem)
      return;
    const long long delay = kStaggerHalfTileCyclesPerKTile * k_tiles, t0 = clock64();
    while (clock64() - t0 < delay) {
    }
  }

  /* Cluster c's share of the stream-K iterations: [c·T/C, (c+1)·T/C) of T, relative to the
   * first stream-K iteration; sk_owner(x) is the cluster whose share holds iteration x. */
  template <typename U>
  __device__ static U sk_share_begin(U c, U clusters, U sk_iters) {
    return c * sk_iters / clusters;
  }
  template <typename U>
  __device__ static U sk_owner(U x, U clusters, U sk_iters) {
    return ((x + 1) * clusters - 1) / sk_iters;
  }

  /* The stream-K iterations: the first one and how many. */
  __device__ static int64_t sk_base(const Sm90StreamK &sk, int k_tiles) {
    return sk.first_item * k_tiles;
  }
  __device__ static int64_t sk_count(const Sm90StreamK &sk, int64_t items, int k_tiles) {
    return (items - sk.first_item) * k_tiles;
  }

  __device__ static WorkList work_list(const Sm90StreamK &sk, int64_t items, int k_tiles,
                                       int64_t cluster, int64_t clusters, int64_t dp,
                                       int64_t dp_step) {
    WorkList w;
    const Count base = (Count)sk_base(sk, k_tiles),
                sk_iters = Cfg::kStreamK ? (Count)sk_count(sk, items, k_tiles) : 0;
    w.iter = sk_iters ? base + sk_share_begin<Count>((Count)cluster, (Count)clusters, sk_iters) : 0;
    w.iter_end =
        sk_iters ? base + sk_share_begin<Count>((Count)cluster + 1, (Count)clusters, sk_iters) : 0;
    w.dp = (Count)dp;
    w.dp_step = (Count)dp_step;
    w.dp_end = (Count)sk.first_item;
    w.k_tiles = k_tiles;
    return w;
  }

  /* A consumer warp works out the tile of its next unit while the current unit's last wgmma
   * run, and keeps it in shared memory across the epilogue (in registers, beside a REST or CAST
   * epilogue, it spilled): the divisions of tile_coords, a chain of three dependent ones, then
   * no longer stand between a tile's epilogue and the next tile's first wgmma, where both
   * consumers, in step, hold the tensor cores idle. Whole items in 32-bit arithmetic only (a
   * stream-K unit, or 64-bit tile arithmetic, would add calls of the 64-bit division helper):
   * otherwise it returns false and the unit's tile is worked out at its start. */
  __device__ static bool warp_stash_next_tile(const WorkList &work, int64_t m_items,
                                              int64_t n_items, bool narrow, int rank,
                                              int64_t *next_tile, int lane) {
    int64_t item;
    if (!narrow || !work.next_is_whole(&item)) return false;
    int64_t bat, tm, tn;
    tile_coords(item, m_items, n_items, true, rank, &bat, &tm, &tn);
    if (lane == 0) {
      next_tile[0] = bat;
      next_tile[1] = tm;
      next_tile[2] = tn;
    }
    return true;
  }
  /* The tile warp_stash_next_tile kept for the unit that follows. */
  __device__ static void warp_read_next_tile(const int64_t *next_tile, int64_t *bat, int64_t *tm,
                                             int64_t *tn) {
    __syncwarp(); /* lane 0's stash is visible */
    *bat = next_tile[0];
    *tm = next_tile[1];
    *tn = next_tile[2];
    __syncwarp(); /* read by all before lane 0 stashes the next one */
  }
};

#endif /* TG_SM90_SCHEDULER_CUH */
