/*
 * sm90_kernel.cuh — the Hopper kernel's entry: one configuration (Sm90Config) and one epilogue set
 * composed into a persistent, warp-specialized, clustered TMA + wgmma kernel. What it adds over
 * the sm80 family, and where each part lives:
 *   - TMA moves whole 128-byte-swizzled tiles into shared memory and zero-fills past the matrix
 *     edges; wgmma reads both operands straight from shared memory through descriptors, K-major
 *     and MN-major alike (the atoms: sm90_config.cuh; the loads: sm90_mainloop.cuh).
 *   - Warp specialization: warpgroup 0 is the producer (one thread issues TMA; few registers),
 *     warpgroups 1 and 2 the consumers (the rest, setmaxnreg), each owning half of the CTA tile
 *     (cooperative) or every other tile (pingpong); full and empty mbarriers per stage hand the
 *     buffers back and forth (sm90_mainloop.cuh).
 *   - Clusters of two CTAs share the wider operand tile: each fetches its part from L2 and TMA
 *     multicasts it to both.
 *   - Persistence: one CTA per SM walks the tiles in grouped order with alternating sweeps and k
 *     directions, starts staggered where the waves are uneven, and spreads a mostly idle last
 *     wave over all clusters (stream-K) (sm90_scheduler.cuh, sm90_stream_k.cuh); the producer
 *     fills the next tile's stages while the consumers run the epilogue.
 *   - The epilogue works on the accumulators in registers and leaves through shared memory by TMA
 *     stores; each configuration is compiled once per epilogue set, so that no kernel carries
 *     another's code (sm90_epilogue_sets.cuh, sm90_epilogue.cuh and the files it includes).
 * This file lays out the shared memory and runs the roles. The consumers' unit loop stays in
 * run() with its k-tiles written out: the parts it calls are those the kernel has always called,
 * so that the split compiles to the same machine code (scripts/sass_compare.py).
 * Operands: f16 or bf16 whose pointers, leading dimensions and batch strides are 16-byte aligned
 * (TMA's rule); the planner repacks anything else.
 */
#ifndef TG_SM90_KERNEL_CUH
#define TG_SM90_KERNEL_CUH

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "problem.h"
#include "ptx_sm80.cuh" /* thread_smem_address */
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_epilogue.cuh"
#include "sm90_epilogue_sets.cuh"
#include "sm90_mainloop.cuh"
#include "sm90_scaling.cuh"
#include "sm90_scheduler.cuh"
#include "sm90_stream_k.cuh"

template <class CONFIG, class EPILOGUES>
struct Sm90Kernel {
  typedef CONFIG Config;
  typedef EPILOGUES Epilogues;
  typedef Sm90EpilogueLayout<Config, Epilogues> Layout;
  typedef Sm90Scheduler<Config> Scheduler;
  typedef Sm90Mainloop<Config> Mainloop;
  typedef Sm90StreamKSums<Config> StreamK;
  typedef Sm90Epilogue<Config, Epilogues> Epilogue;
  typedef Sm90Scaling<Config> Scaling;
  typedef typename Scheduler::Unit Unit;
  typedef typename Scheduler::WorkList WorkList;
  typedef typename Scheduler::Grid Grid;
  typedef typename Epilogue::Held Held;
  static constexpr int BM = Config::kBM, BN = Config::kBN, STAGES = Config::kStages;
  static constexpr int kRowBlocks = Config::kRowBlocks, kAcc = Config::kAcc,
                       kStageBytes = Config::kStageBytes;
  static constexpr int kThreads = Config::kThreads;

  /* Shared memory, from a 1024-byte aligned base: the operand stages, the epilogue's staging
   * buffers, the full and empty barrier of every stage, one barrier per consumer warp for the C
   * it loads by TMA, and the consumer warps' next tiles (kStashNextTile). */
  static constexpr int kBarrierBytes =
      (2 * STAGES + Config::kConsumerWarpsTotal) * TG_SM90_MBARRIER_BYTES;
  static constexpr int kSmemBytes = TG_SM90_SWIZZLE_ATOM + STAGES * kStageBytes +
                                    Layout::kStagingBytes + kBarrierBytes + Layout::kNextTileBytes;
  static_assert(kSmemBytes <= TG_SM90_MAX_SMEM_BYTES,
                "shared memory of one CTA exceeds the sm_90 limit");

  /* stage_bytes: what a stage's loads deliver to this CTA, kStageBytes unless an operand's box
   * is cut short (tg_sm90_box_rows). */
  __device__ static void run(const tg_problem &p, const Sm90StreamK &sk, uint32_t stage_bytes,
                             const CUtensorMap *map_a, const CUtensorMap *map_b,
                             const Sm90OutMaps &out) {
    extern __shared__ unsigned char smem_raw[];
    const uint32_t raw = thread_smem_address(smem_raw);
    const uint32_t base = (raw + TG_SM90_SWIZZLE_ATOM - 1) & ~(uint32_t)(TG_SM90_SWIZZLE_ATOM - 1);
    const uint32_t full =
        base + STAGES * kStageBytes + Layout::kStagingBytes;       /* full[s]: tile s landed */
    const uint32_t empty = full + STAGES * TG_SM90_MBARRIER_BYTES; /* empty[s]: tile s consumed */
    const uint32_t c_landed =
        empty + STAGES * TG_SM90_MBARRIER_BYTES; /* [w]: consumer warp w's C landed */
    const uint32_t next_tiles = c_landed + Config::kConsumerWarpsTotal *
                                               TG_SM90_MBARRIER_BYTES; /* [w]: warp w's next tile */
    const int wg = threadIdx.x / TG_SM90_WARPGROUP;
    const int rank = Config::kCluster > 1 ? (int)thread_cluster_rank() : 0;

    if (threadIdx.x == 0) {
      for (int s = 0; s < STAGES; ++s) {
        thread_mbarrier_init(full + TG_SM90_MBARRIER_BYTES * s, 1);
        thread_mbarrier_init(empty + TG_SM90_MBARRIER_BYTES * s, Config::kEmptyArrivals);
      }
      for (int w = 0; w < Config::kConsumerWarpsTotal; ++w)
        thread_mbarrier_init(c_landed + TG_SM90_MBARRIER_BYTES * w, 1);
      thread_fence_barrier_init();
    }
    if constexpr (Config::kCluster > 1) block_cluster_sync(); /* partners' barriers exist */
    else __syncthreads();

    const Grid g = Scheduler::grid(p);
    if (wg == 0) {
      /* Producer: one thread keeps the stages full. */
      warpgroup_setmaxnreg_dec<Config::kProducerRegs>();
      if (threadIdx.x == 0)
        Mainloop::thread_produce(p, sk, stage_bytes, map_a, map_b, base, full, empty, g, rank);
    } else {
      /* Consumers. Cooperative: warpgroup cw owns rows [cw·kWgRows, (cw+1)·kWgRows) of every tile.
       * Pingpong: warpgroup cw owns every other tile, starting with the cw-th, and skips the
       * stages of its partner's tiles. Per unit: its k-tiles (the mainloop, the epilogue's work
       * under them), then a split item's partial sums handed on or collected (stream-K), then the
       * epilogue. */
      warpgroup_setmaxnreg_inc<Config::kConsumerRegs>();
      const int cw = wg - 1;
      const int warp = (threadIdx.x / TG_WARP_THREADS) % TG_SM90_WARPS_PER_GROUP,
                lane = threadIdx.x % TG_WARP_THREADS;
      const int wg_rows0 = Config::kPingpong ? 0 : cw * Config::kWgRows;
      const int64_t wg_first = Config::Schedule::consumer_first(g.first, g.step, cw);
      const int64_t wg_step = Config::Schedule::consumer_step(g.step);
      uint32_t it =
          Config::kPingpong ? cw * g.k_tiles : 0; /* stages waited on: the stage and its phase */
      uint32_t chunks = 0;  /* staging chunks this warp has stored: picks the buffer */
      uint32_t c_loads = 0; /* C loads this warp has waited for: the barrier's parity */
      const int warp_index = cw * TG_SM90_WARPS_PER_GROUP + warp; /* among the consumer warps */
      const uint32_t c_bar = c_landed + TG_SM90_MBARRIER_BYTES * warp_index;
      int64_t *const next_tile = (int64_t *)(smem_raw + (next_tiles - raw) +
                                             warp_index * Layout::kNextTileWords * sizeof(int64_t));
      unsigned char *staging =
          smem_raw + (base - raw) + STAGES * kStageBytes +
          (Layout::kWarpgroupStores ? cw * Layout::kWarpsPerGroup * Layout::kWarpStagingBytes +
                                          warp * Layout::kStagingBufferBytes
                                    : warp_index * Layout::kWarpStagingBytes);
      unsigned char *tail =
          smem_raw + (base - raw) + STAGES * kStageBytes +
          Config::kConsumerWarpsTotal * Layout::kWarpStagingBytes +
          warp_index * Layout::kTailBufferBytes; /* the tail chunk's buffer, if any */
      WorkList work =
          Scheduler::work_list(sk, g.items, g.k_tiles, g.first, g.step, wg_first, wg_step);
      /* Descriptors of this warpgroup's A rows and of B in stage 0, split into the high word (the
       * same for both) and the low words, to which stage and k steps add (ptx_sm90.cuh). */
      const uint64_t desc_a = thread_wgmma_descriptor(base + wg_rows0 * TG_SM90_ROW_BYTES,
                                                      TG_SM90_BOX_BYTES, TG_SM90_SWIZZLE_ATOM);
      const uint64_t desc_b = thread_wgmma_descriptor(base + Config::kTileABytes, TG_SM90_BOX_BYTES,
                                                      TG_SM90_SWIZZLE_ATOM);
      const uint64_t desc_hi = desc_a & TG_WGMMA_DESC_HIGH_MASK;
      uint32_t desc_a_lo = (uint32_t)desc_a, desc_b_lo = (uint32_t)desc_b;
      if constexpr (Epilogues::kOpaqueDescriptors) asm("" : "+r"(desc_a_lo), "+r"(desc_b_lo));
      /* FULL with C: each warp's first group of C is loaded during the mainloop's last k-tiles. */
      const bool c_ahead =
          Epilogues::kLoadsCAhead && sm90_epilogue_class(p) == TG_SM90_EPI_FULL && p.read_c;
      const bool tile_bias = Epilogue::tile_bias_wanted(p);
      Held held;
      held.pending = false;
      const bool block_scales = Config::kPromotes && p.scale_mode == TG_SCALE_BLOCK;
      const bool a_blocks = block_scales && p.scale_a_blocks; /* the transposed BLOCK frame */
      uint32_t nth = 0;     /* units taken: k runs backwards in the same units as the producer's */
      bool issued = false;  /* promoting: this warpgroup has issued a k-tile's wgmma */
      bool stashed = false; /* the unit's tile waits in next_tile */
      bool owed =
          false; /* the last unit's borrowed stage still owes its storing threads' release */
      for (Unit u; work.next(u);) {
        int64_t bat, tm, tn;
        if (Layout::kStashNextTile && stashed)
          Scheduler::warp_read_next_tile(next_tile, &bat, &tm, &tn);
        else Scheduler::tile_coords(u.item, g.m_items, g.n_items, g.narrow, rank, &bat, &tm, &tn);
        const bool c_loaded = c_ahead && u.kt_begin == 0 && tm * BM < p.m && tn * BN < p.n;
        const int c_ahead_kt =
            c_loaded
                ? (u.kt_end - Epilogue::kCAheadTiles > 0 ? u.kt_end - Epilogue::kCAheadTiles : 0)
                : -1;
        float acc[kRowBlocks][kAcc];
        /* Promoting atoms: each k-tile's sums, before they are added into acc. */
        float part[kRowBlocks][Config::kPromotes ? kAcc : 1];
        const bool k_backwards = Scheduler::loads_k_backwards(nth++, u, g.k_tiles);
        if constexpr (Config::kPromotes)
#pragma unroll
          for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
            for (int r = 0; r < kAcc; ++r) acc[rb][r] = 0.0f;

        Mainloop::warpgroup_wait_turn(u.item, g.first, cw);
        for (int kt = u.kt_begin; kt < u.kt_end; ++kt, ++it) {
          const uint32_t s = it % STAGES, phase = (it / STAGES) & 1;
          /* The stage's descriptors before the wait, so that the first wgmma issues as soon as
           * the stage lands; only their low words (the address field) move. */
          const uint32_t stage_step = s * (kStageBytes >> TG_WGMMA_DESC_UNIT_SHIFT);
          const uint32_t da0 = desc_a_lo + stage_step, db0 = desc_b_lo + stage_step;
          typename Scaling::KScales k_scales;
          if constexpr (Config::kPromotes)
            if (block_scales)
              Scaling::thread_load_k_scales(p, a_blocks, bat, tm, tn,
                                            k_backwards ? g.k_tiles - 1 - kt : kt, wg_rows0, warp,
                                            lane, k_scales);
          thread_mbarrier_wait(full + TG_SM90_MBARRIER_BYTES * s, phase);
          if constexpr (Config::kPromotes) Scaling::warpgroup_wait_issue_turn(cw, issued);
          warpgroup_fence();
#pragma unroll
          for (int ks = 0; ks < Config::kKSteps; ++ks) {
#pragma unroll
            for (int rb = 0; rb < kRowBlocks; ++rb) {
              /* K-major A: the block's 64 rows; MN-major A: its 64-column box. */
              const uint32_t da =
                  da0 + ((rb * TG_SM90_WGMMA_M * TG_SM90_ROW_BYTES + ks * Config::kAStep) >>
                         TG_WGMMA_DESC_UNIT_SHIFT);
              const uint32_t db = db0 + ((ks * Config::kBStep) >> TG_WGMMA_DESC_UNIT_SHIFT);
              if constexpr (Config::kPromotes)
                Config::Atom::template mma<BN, 0, 0>(part[rb], desc_hi | da, desc_hi | db, ks > 0);
              else
                Config::Atom::template mma<BN, Config::kAKMajor ? 0 : 1, Config::kBKMajor ? 0 : 1>(
                    acc[rb], desc_hi | da, desc_hi | db, ks > 0 || kt > u.kt_begin);
            }
          }
          warpgroup_commit();
          if constexpr (Config::kPromotes) {
            Scaling::warpgroup_pass_issue_turn(cw);
            issued = true;
          }
          if constexpr (Epilogues::kLoadsCAhead)
            if (kt == c_ahead_kt && lane == 0)
              Epilogue::thread_load_c_ahead(p, out, c_bar, staging, chunks, bat, tm, tn, wg_rows0,
                                            warp);
          /* The previous unit's held group, staged and stored while this k-tile's wgmma run (its
           * first: every unit has one). */
          if constexpr (Layout::kHoldSecondGroup)
            if (held.pending) Epilogue::warpgroup_store_held(out, held, staging, cw, warp, lane);
          /* The previous k-tile's wgmma are done: hand its stage back (at the first k-tile, the
           * previous unit's stage if its epilogue borrowed it, once the copy engine has read the
           * stores staged there). The threads that store from a borrowed stage release it:
           * every warp's lane 0 (a borrowing kernel stores by warp, so the warp-0 term here and
           * below is always true; written out, ptxas schedules RESID as measured, and shortened
           * it did not: left as it is). */
          /* Promoting: this k-tile's sums are needed now, and its stage goes back at once. */
          warpgroup_wait<Config::kPromotes ? 0 : 1>();
          if (Config::kPromotes && lane == 0) Mainloop::release(empty + TG_SM90_MBARRIER_BYTES * s);
          if (!Config::kPromotes && lane == 0 &&
              (kt > u.kt_begin ||
               (Layout::kBorrowStage && owed && (!Layout::kWarpgroupStores || warp == 0)))) {
            if (Layout::kBorrowStage && kt == u.kt_begin) thread_bulk_wait_group_read<0>();
            Mainloop::release(empty + TG_SM90_MBARRIER_BYTES * ((it - 1) % STAGES));
          }
          owed = false;
          if constexpr (Config::kPromotes)
            Scaling::warpgroup_promote(acc, part, k_scales, block_scales, a_blocks);
        }
        Mainloop::warpgroup_pass_turn(u.item, g.step, g.items, cw);
        uint32_t bias_words[Epilogue::kBiasWords];
        if (tile_bias && u.kt_begin == 0) Epilogue::thread_load_tile_bias(p, tn, lane, bias_words);
        /* After the bias loads are issued, so that they, too, run under the last wgmma. */
        if constexpr (Layout::kStashNextTile)
          stashed = Scheduler::warp_stash_next_tile(work, g.m_items, g.n_items, g.narrow, rank,
                                                    next_tile, lane);
        warpgroup_wait<0>();
        /* The last group held went out in this unit's first k-tile (every unit has one), so its
         * words are dead; saying so frees their registers for what follows (kClearsHeldWords). */
        if constexpr (Layout::kHoldSecondGroup && Epilogues::kClearsHeldWords)
#pragma unroll
          for (int i = 0; i < Layout::kHeldWords; ++i) held.w[i] = 0;
        if constexpr (Config::Atom::kScales)
          if (p.scale_mode != TG_SCALE_NONE && p.scale_mode != TG_SCALE_BLOCK)
            Scaling::warpgroup_scale_tile(p, acc, bat, tm, tn, wg_rows0, warp, lane);
        /* A stage is borrowed when the unit ends in the epilogue and the problem has at least as
         * many k-tiles as stages (with fewer, the stage waiting for the stores cost more than it
         * saved). The choice must stay the same for both consumer warpgroups of the CTA: both meet
         * at TG_SM90_BORROW_BARRIER exactly when the stage is borrowed. */
        const bool borrow = Layout::kBorrowStage && u.kt_begin == 0 && g.k_tiles >= STAGES;
        if (!Config::kPromotes && lane == 0 &&
            !(borrow && (!Layout::kWarpgroupStores || warp == 0)))
          Mainloop::release(empty + TG_SM90_MBARRIER_BYTES * ((it - 1) % STAGES));
        owed = borrow;
        unsigned char *borrowed = nullptr; /* this warp's part of the stage, if borrowed */
        if (borrow)
          borrowed = smem_raw + (base - raw) + (it - 1) % STAGES * kStageBytes +
                     warp_index * Layout::kWarpStagingBytes;
        if constexpr (Config::kPingpong) {
          it += (TG_SM90_CONSUMERS - 1) * g.k_tiles;
        } else if constexpr (Config::kStreamK) {
          if (u.kt_begin > 0) { /* a later part of a split item: its finisher adds it */
            StreamK::warpgroup_stream_k_publish(p, sk, acc, cw);
            continue;
          }
          if (u.kt_end < g.k_tiles)
            StreamK::warpgroup_stream_k_collect(p, sk, acc, u.item, g.items, g.k_tiles, g.first,
                                                g.step, rank, cw);
        }
        Epilogue::finish(p, out, acc, bias_words, bat, tm, tn, wg_rows0, warp, lane, staging,
                         borrowed, tail, chunks, c_bar, c_loads, c_loaded, held);
      }
      if constexpr (Layout::kHoldSecondGroup) /* the last unit's */
        if (held.pending) Epilogue::warpgroup_store_held(out, held, staging, cw, warp, lane);
      if constexpr (Config::kPromotes) Scaling::warpgroup_end_issue_turns(cw, issued);
      /* The copy engine has finished the last stores before the CTA's shared memory goes. */
      if (lane == 0) thread_bulk_wait_group<0>();
    }
    /* No CTA leaves while a partner may still multicast into it or arrive on its barriers. */
    if constexpr (Config::kCluster > 1) block_cluster_sync();
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::kThreads, 1)
    sm90_gemm_kernel(const tg_problem p, const Sm90StreamK sk, const uint32_t stage_bytes,
                     const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b,
                     const __grid_constant__ CUtensorMap map_d,
                     const __grid_constant__ CUtensorMap map_c,
                     const __grid_constant__ CUtensorMap map_d_tail,
                     const __grid_constant__ CUtensorMap map_c_tail) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  const Sm90OutMaps out = {&map_d, &map_c, &map_d_tail, &map_c_tail};
  Kernel::run(p, sk, stage_bytes, &map_a, &map_b, out);
#endif
}

#endif /* TG_SM90_KERNEL_CUH */
