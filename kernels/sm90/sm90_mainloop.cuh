/*
 * sm90_mainloop.cuh — the producer/consumer pipeline of the Hopper kernel, its producer side and
 * the hand-offs. One producer thread keeps the operand stages full through TMA, the part of a
 * tile the cluster shares multicast to every CTA of it; the consumer warpgroups (their k-tile
 * loop is the kernel entry's, sm90_kernel.cuh) wait for a stage, issue its wgmma through the
 * configuration's atom, and hand the stage back here once those wgmma are done. Full and empty
 * mbarriers per stage carry the hand-offs, so loads run ahead of the math with no block-wide
 * barrier; pingpong consumers also pass the mainloop turn. A new input type changes its loads
 * here (box shapes, bytes per stage) and its atom in sm90_config.cuh; nothing of the epilogues.
 */
#ifndef TG_SM90_MAINLOOP_CUH
#define TG_SM90_MAINLOOP_CUH

#include <cuda.h>
#include <stdint.h>

#include "problem.h"
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_scheduler.cuh"

template <class Cfg>
struct Sm90Mainloop {
  static constexpr int BM = Cfg::kBM, BN = Cfg::kBN, STAGES = Cfg::kStages;
  static constexpr int CLUSTER_M = Cfg::kClusterM, CLUSTER_N = Cfg::kClusterN;
  static constexpr bool A_KMAJOR = Cfg::kAKMajor, B_KMAJOR = Cfg::kBKMajor;
  static constexpr int kStageBytes = Cfg::kStageBytes;
  typedef Sm90Scheduler<Cfg> Scheduler;
  typedef typename Scheduler::Unit Unit;
  typedef typename Scheduler::WorkList WorkList;
  typedef typename Scheduler::Grid Grid;

  /* ---- producer ---------------------------------------------------------------------------- */

  /* One operand's part of a stage, the `share`-th ROWS rows of its tile (all of it when not
   * SHARED): K-major, one box at smem + share·ROWS rows; MN-major, its 64×64 boxes. A SHARED
   * part is multicast to every CTA of the cluster. */
  template <bool KMAJOR, bool SHARED, int ROWS>
  __device__ static void load_operand(uint32_t smem, const CUtensorMap *map, uint32_t full, int k0,
                                      int outer0, int bat, int share) {
    constexpr uint16_t kAll = (1 << Cfg::kCluster) - 1;
    if constexpr (KMAJOR) {
      const uint32_t dst = smem + share * ROWS * TG_SM90_ROW_BYTES;
      if constexpr (SHARED)
        thread_tma_load_3d_multicast(dst, map, full, k0, outer0 + share * ROWS, bat, kAll);
      else thread_tma_load_3d(dst, map, full, k0, outer0, bat);
    } else {
      constexpr int kBoxes = ROWS / TG_SM90_BOX;
#pragma unroll
      for (int j = share * kBoxes; j < (share + 1) * kBoxes; ++j) {
        if constexpr (SHARED)
          thread_tma_load_3d_multicast(smem + j * TG_SM90_BOX_BYTES, map, full,
                                       outer0 + j * TG_SM90_BOX, k0, bat, kAll);
        else
          thread_tma_load_3d(smem + j * TG_SM90_BOX_BYTES, map, full, outer0 + j * TG_SM90_BOX, k0,
                             bat);
      }
    }
  }

  /* Fills stage `stage` with k-tile kt of output tile (tm, tn) of batch bat. The part of the
   * operand the cluster shares goes first: the partner CTA's full barrier waits for it, and it
   * has the longer way (multicast into both CTAs). */
  __device__ static void load_stage(const tg_problem &p, const CUtensorMap *map_a,
                                    const CUtensorMap *map_b, uint32_t stage, uint32_t full, int kt,
                                    int64_t tm, int64_t tn, int64_t bat, int rank) {
    const int bat_a = p.batch_stride_a ? (int)bat : 0, bat_b = p.batch_stride_b ? (int)bat : 0;
    const int k0 = kt * Cfg::kBK, m0 = (int)(tm * BM), n0 = (int)(tn * BN);
    if constexpr (CLUSTER_M > 1)
      load_operand<B_KMAJOR, true, Cfg::kBShareRows>(stage + Cfg::kTileABytes, map_b, full, k0, n0,
                                                     bat_b, rank);
    load_operand<A_KMAJOR, (CLUSTER_N > 1), Cfg::kAShareRows>(stage, map_a, full, k0, m0, bat_a,
                                                              CLUSTER_N > 1 ? rank : 0);
    if constexpr (CLUSTER_M == 1)
      load_operand<B_KMAJOR, false, Cfg::kBShareRows>(stage + Cfg::kTileABytes, map_b, full, k0, n0,
                                                      bat_b, 0);
  }

  /* The producer thread: walks the cluster's work list and fills stage after stage, each once
   * every reader of it (in every CTA of the cluster) has handed it back. stage_bytes: what a
   * stage's loads deliver to this CTA (tg_sm90_box_rows may cut a box short). */
  __device__ static void thread_produce(const tg_problem &p, const Sm90StreamK &sk,
                                        uint32_t stage_bytes, const CUtensorMap *map_a,
                                        const CUtensorMap *map_b, uint32_t base, uint32_t full,
                                        uint32_t empty, const Grid &g, int rank) {
    thread_tma_prefetch_descriptor(map_a);
    thread_tma_prefetch_descriptor(map_b);
    Scheduler::thread_stagger_start(sk, g.items, g.first, g.step, g.k_tiles);
    uint32_t it = 0, nth = 0;
    WorkList work = Scheduler::work_list(sk, g.items, g.k_tiles, g.first, g.step, g.first, g.step);
    for (Unit u; work.next(u); ++nth) {
      int64_t bat, tm, tn;
      Scheduler::tile_coords(u.item, g.m_items, g.n_items, g.narrow, rank, &bat, &tm, &tn);
      const bool backwards = Scheduler::loads_k_backwards(nth, u, g.k_tiles);
      for (int kt = u.kt_begin; kt < u.kt_end; ++kt, ++it) {
        const uint32_t s = it % STAGES, phase = (it / STAGES) & 1;
        thread_mbarrier_wait(empty + TG_SM90_MBARRIER_BYTES * s, phase ^ 1);
        thread_mbarrier_arrive_expect_tx(full + TG_SM90_MBARRIER_BYTES * s, stage_bytes);
        load_stage(p, map_a, map_b, base + s * kStageBytes, full + TG_SM90_MBARRIER_BYTES * s,
                   backwards ? g.k_tiles - 1 - kt : kt, tm, tn, bat, rank);
      }
    }
  }

  /* ---- the hand-offs back ------------------------------------------------------------------ */

  /* Hands stage barrier `bar` back to every producer that writes into it (all CTAs of the
   * cluster, through multicast). */
  __device__ static void release(uint32_t bar) {
    if constexpr (Cfg::kCluster == 1) {
      thread_mbarrier_arrive(bar);
    } else {
#pragma unroll
      for (int c = 0; c < Cfg::kCluster; ++c) thread_mbarrier_arrive_cluster(bar, c);
    }
  }

  /* Pingpong: a consumer waits for its turn before its unit's first stage wait (but for its very
   * first unit), and passes the turn on after its last one, if its partner has a next tile. */
  __device__ static void warpgroup_wait_turn(int64_t item, int64_t first, int cw) {
    if constexpr (Cfg::Schedule::kTakesTurns)
      if (item > first) block_named_barrier(TG_SM90_TURN_BARRIER + cw, Cfg::kTurnThreads);
  }
  __device__ static void warpgroup_pass_turn(int64_t item, int64_t step, int64_t items, int cw) {
    if constexpr (Cfg::Schedule::kTakesTurns)
      if (item + step < items)
        block_named_barrier_arrive(TG_SM90_TURN_BARRIER + (TG_SM90_CONSUMERS - 1 - cw),
                                   Cfg::kTurnThreads);
  }
};

#endif /* TG_SM90_MAINLOOP_CUH */
