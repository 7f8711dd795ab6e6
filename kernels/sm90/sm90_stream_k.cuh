/*
 * sm90_stream_k.cuh — the consumers' side of stream-K: a work item cut between clusters is
 * finished by the cluster that ran its first k-tiles, which adds the others' partial sums (fp32,
 * or int32 for integer atoms) in cluster order (deterministic). The cut itself is the scheduler's (sm90_scheduler.cuh); here the
 * sums travel, through one slot per consumer warpgroup of each CTA and problem.h's readiness
 * flags.
 */
#ifndef TG_SM90_STREAM_K_CUH
#define TG_SM90_STREAM_K_CUH

#include <stdint.h>

#include "problem.h"
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_scheduler.cuh"

template <class Cfg>
struct Sm90StreamKSums {
  typedef Sm90Scheduler<Cfg> Scheduler;
  static constexpr int kRowBlocks = Cfg::kRowBlocks, kAcc = Cfg::kAcc;
  static_assert(TG_SM90_CONSUMERS <= TG_SYNC_FLAGS_PER_SM,
                "stream-K needs a readiness flag per consumer warpgroup of each SM's CTA");

  /* Partial-sum slot (and readiness flag) of consumer warpgroup cw of CTA `cta`. */
  __device__ static int64_t sk_slot(int64_t cta, int cw) { return cta * TG_SM90_CONSUMERS + cw; }

  /* A unit that starts inside its item (kt_begin > 0) hands its sums to the item's finisher:
   * into this warpgroup's slot, then the slot's flag. A CTA has at most one such unit (its
   * first), so one slot per warpgroup suffices. */
  __device__ static void warpgroup_stream_k_publish(const tg_problem &p, const Sm90StreamK &sk,
                                                    const float (&acc)[kRowBlocks][kAcc], int cw) {
    const int64_t slot = sk_slot(blockIdx.x, cw);
    const int tid = threadIdx.x % TG_SM90_WARPGROUP;
    float *dst = sk.partials + slot * Cfg::kSlotFloats + tid;
#pragma unroll
    for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
      for (int i = 0; i < kAcc; ++i) __stcg(dst + (rb * kAcc + i) * TG_SM90_WARPGROUP, acc[rb][i]);
    block_named_barrier(TG_SM90_STREAM_K_BARRIER + cw, TG_SM90_WARPGROUP);
    if (tid == 0) thread_flag_publish(p.sync_flags + slot, TG_SYNC_FLAG_READY);
  }

  /* The finisher of a split item (the unit holding its first k-tile, the last stream-K unit of
   * its cluster) adds the sums of the clusters that ran the rest, in cluster order. They ran those
   * parts as their first units, before any wait of theirs, so every wait ends. */
  __device__ static void warpgroup_stream_k_collect(const tg_problem &p, const Sm90StreamK &sk,
                                                    float (&acc)[kRowBlocks][kAcc], int64_t item,
                                                    int64_t items, int k_tiles, int64_t cluster,
                                                    int64_t clusters, int rank, int cw) {
    const int64_t base = Scheduler::sk_base(sk, k_tiles),
                  sk_iters = Scheduler::sk_count(sk, items, k_tiles);
    const int64_t last = Scheduler::sk_owner((item + 1) * k_tiles - 1 - base, clusters, sk_iters);
    const int tid = threadIdx.x % TG_SM90_WARPGROUP;
    for (int64_t c = cluster + 1; c <= last; ++c) {
      const int64_t slot = sk_slot(c * Cfg::kCluster + rank, cw);
      if (tid == 0) thread_flag_take(p.sync_flags + slot, TG_SYNC_FLAG_READY);
      block_named_barrier(TG_SM90_STREAM_K_BARRIER + cw, TG_SM90_WARPGROUP);
      const float *src = sk.partials + slot * Cfg::kSlotFloats + tid;
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int i = 0; i < kAcc; ++i) {
          const float part = __ldcg(src + (rb * kAcc + i) * TG_SM90_WARPGROUP);
          if constexpr (Cfg::Atom::kIntAcc) /* int32 bits: wrapping integer sums */
            acc[rb][i] = __int_as_float(
                (int)((uint32_t)__float_as_int(acc[rb][i]) + (uint32_t)__float_as_int(part)));
          else acc[rb][i] += part;
        }
    }
  }
};

#endif /* TG_SM90_STREAM_K_CUH */
