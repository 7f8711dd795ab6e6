/*
 * sm90_epilogue_tma.cuh — the epilogue classes that store D by TMA (PLAIN, BIAS_RELU, FULL): a
 * consumer warp rounds its accumulators to D's type into its staging buffers and one lane hands
 * them to the copy engine, which clips the boxes at the matrix edges, so edge tiles take this path
 * too; the warp goes on to the next tile's mainloop while the stores drain. FULL reads C through
 * the same buffers (loaded by TMA from C's tensor map), so C and D cost no extra shared memory and
 * C == D in place is safe. This code runs once per tile and is fetched afresh each time, so its
 * length is its cost: alpha is applied in one pass only when it is not 1, D's type and the class
 * are compile-time, and 16-bit D leaves the registers by stmatrix.
 */
#ifndef TG_SM90_EPILOGUE_TMA_CUH
#define TG_SM90_EPILOGUE_TMA_CUH

#include <cuda.h>
#include <stdint.h>

#include "epilogue.cuh"
#include "problem.h"
#include "ptx_sm80.cuh" /* thread_smem_address */
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_epilogue_sets.cuh"
#include "sm90_epilogue_staging.cuh"

/* The tensor maps the TMA epilogues store D and load C through: boxes of 16 rows × 128 bytes,
 * 128-byte swizzle (rows of 64 bytes, 64-byte swizzle, where the layout's kStagingRowBytes says
 * so), and for a tile width with a tail chunk (kTailCols) boxes of 16 rows × 16 columns,
 * unswizzled. Maps the launch leaves unused are zero. */
struct Sm90OutMaps {
  const CUtensorMap *d, *c, *d_tail, *c_tail;
};

template <class Cfg, class Set>
struct Sm90EpilogueTma {
  typedef Sm90EpilogueLayout<Cfg, Set> Layout;
  typedef Sm90Staging<Cfg, Set> Staging;
  typedef typename Staging::Held Held;
  static constexpr int BM = Cfg::kBM, BN = Cfg::kBN, kRowBlocks = Cfg::kRowBlocks, kAcc = Cfg::kAcc;
  static constexpr int kStagingRowBytes = Layout::kStagingRowBytes,
                       kStagingBuffers = Layout::kStagingBuffers;
  static constexpr int kStagingBufferBytes = Layout::kStagingBufferBytes,
                       kBufferStride = Layout::kBufferStride;
  static constexpr int kWarpRows = Layout::kWarpRows, kTailCols = Layout::kTailCols;
  static constexpr bool kWarpgroupStores = Layout::kWarpgroupStores,
                        kHoldSecondGroup = Layout::kHoldSecondGroup;
  static constexpr bool kBorrowStage = Layout::kBorrowStage;

  /* BIAS_RELU into 16-bit D: the tile's bias along n, loaded at the end of the mainloop, under
   * its last wgmma, instead of a chunk's worth at a time in the epilogue, where each chunk waited
   * for its own loads. Word j holds the thread's columns 8j + 2t and 8j + 2t + 1 of the tile
   * (t = lane mod 4) as they are in memory; zero without a bias (BIAS_RELU with ReLU alone).
   * Aligned pairs inside the matrix load a word at a time; elsewhere (edge tiles, whose stores the
   * copy engine clips, or a bias off its pairs' alignment) each element alone, columns past n
   * reading element n - 1. f32 D and FULL keep their per-chunk loads: there the tile's bias, held
   * across the drain, spills. */
  static constexpr int kBiasWords = BN / 8;
  /* Only the sets that run BIAS_RELU into 16-bit D load it; saying so at compile time keeps the
   * loader out of the others' code. */
  __device__ static bool tile_bias_wanted(const tg_problem &p) {
    return Set::kLoadsTileBias && p.d_type != TG_F32 &&
           sm90_epilogue_class(p) == TG_SM90_EPI_BIAS_RELU;
  }
  __device__ static void thread_load_tile_bias(const tg_problem &p, int64_t tn, int lane,
                                               uint32_t (&word)[kBiasWords]) {
    if (!p.has_bias) {
#pragma unroll
      for (int j = 0; j < kBiasWords; ++j) word[j] = 0;
      return;
    }
    const int64_t col0 = tn * BN + 2 * (lane % 4), last = p.n - 1;
    const uint16_t *bias = (const uint16_t *)p.bias;
    /* Two branch-free runs of loads: with the choice made per word, ptxas waited for each load
     * before the next branch. */
    if ((tn + 1) * BN <= p.n && p.align_bias >= 4) {
#pragma unroll
      for (int j = 0; j < kBiasWords; ++j) word[j] = __ldg((const uint32_t *)(bias + col0 + 8 * j));
      return;
    }
#pragma unroll
    for (int j = 0; j < kBiasWords; ++j) {
      const int64_t x = col0 + 8 * j;
      const uint32_t lo = __ldg(bias + (x < last ? x : last)),
                     hi = __ldg(bias + (x + 1 < last ? x + 1 : last));
      word[j] = lo | hi << 16;
    }
  }

  /* Chunks per fence and bulk group for D of es bytes per element: all the buffers when a tile
   * row fills them evenly. */
  __host__ __device__ static constexpr int group_chunks(int es) {
    return (BN / (kStagingRowBytes / es)) % kStagingBuffers == 0 ? kStagingBuffers : 1;
  }
  /* k-tiles before a unit's end at which the first group of its C is requested. */
  static constexpr int kCAheadTiles = 2;

  /* FULL: the copy engine loads `boxes` boxes of C through map_c (box_bytes each: columns col0 +
   * q·box_cols, rows row0..row0 + 15) into consecutive buffers from `buffer_smem` on; the warp
   * then waits on c_bar (warp_wait_c). The buffers must be free (their stores' reads done). */
  __device__ static void thread_load_c_boxes(const CUtensorMap *map_c, uint32_t c_bar,
                                             uint32_t buffer_smem, int boxes, uint32_t box_bytes,
                                             int box_cols, int col0, int row0, int bat_c) {
    thread_mbarrier_arrive_expect_tx(c_bar, boxes * box_bytes);
    for (int q = 0; q < boxes; ++q)
      thread_tma_load_3d(buffer_smem + q * box_bytes, map_c, c_bar, col0 + q * box_cols, row0,
                         bat_c);
  }
  /* The wait for this warp's C load on c_bar; `loads` counts them (the barrier's parity). */
  __device__ static void warp_wait_c(uint32_t c_bar, uint32_t &loads) {
    thread_mbarrier_wait(c_bar, loads & 1);
    ++loads;
  }
  /* Staged boxes of D leave by the copy engine, as one bulk group: `boxes` buffers from
   * first_smem, box_bytes apart, to columns col0 + q·box_cols, rows from row0. BY_WARPGROUP
   * (kWarpgroupStores): the warpgroup's boxes of 64 rows (first_smem and row0: warp 0's), stored
   * by warp 0's lane 0 once every warp's writes are visible to the copy engine; otherwise the
   * warp's own boxes of 16 rows, by its lane 0. */
  template <bool BY_WARPGROUP>
  __device__ static void store_d_boxes(const CUtensorMap *map_d, uint32_t first_smem, int boxes,
                                       uint32_t box_bytes, int box_cols, int col0, int row0,
                                       int bat, int cw, int warp, int lane) {
    thread_fence_proxy_async_shared();
    if constexpr (BY_WARPGROUP) block_named_barrier(TG_SM90_STORE_BARRIER + cw, TG_SM90_WARPGROUP);
    else __syncwarp();
    if (lane == 0 && (!BY_WARPGROUP || warp == 0)) {
#pragma unroll
      for (int q = 0; q < boxes; ++q)
        thread_tma_store_3d(map_d, first_smem + q * box_bytes, col0 + q * box_cols, row0, bat);
      thread_bulk_commit_group();
    }
  }

  /* The held group into the warpgroup's staging buffers (once the copy engine has read the stores
   * that last left them) and out by TMA, as the epilogue stores a group. It runs inside the next
   * unit's first k-tile, in the mainloop's own control flow: from the epilogue, every form of such
   * a head start made ptxas serialize the kernel's wgmma. */
  __device__ static void warpgroup_store_held(const Sm90OutMaps &out, Held &held,
                                              unsigned char *staging, int cw, int warp, int lane) {
    constexpr int kChunkCols = kStagingRowBytes / 2;
    const uint32_t own_smem = thread_smem_address(staging);
    if constexpr (kWarpgroupStores) {
      if (warp == 0 && lane == 0) thread_bulk_wait_group_read<0>();
      block_named_barrier(TG_SM90_STORE_BARRIER + cw, TG_SM90_WARPGROUP);
    } else {
      if (lane == 0) thread_bulk_wait_group_read<0>();
      __syncwarp();
    }
#pragma unroll
    for (int q = 0; q < kStagingBuffers; ++q)
#pragma unroll
      for (int jj = 0; jj < Layout::kHeldWordsPerChunk / 2; jj += 2) {
        const uint32_t *w = held.w + q * Layout::kHeldWordsPerChunk + 2 * jj;
        const uint32_t x[4] = {w[0], w[1], w[2], w[3]};
        warp_stmatrix_x4(
            own_smem + q * kBufferStride + Staging::template stmatrix_offset<false>(lane, jj), x);
      }
    store_d_boxes<kWarpgroupStores>(out.d, own_smem, kStagingBuffers, kBufferStride, kChunkCols,
                                    held.col0, held.row0, held.bat, cw, warp, lane);
    held.pending = false;
  }

  /* The bias pairs of BLOCKS 8-column blocks from j0 (column col0 + 2t of the first): those of
   * BIAS_RELU into 16-bit D came with the mainloop (bias_words); the others are loaded here. */
  template <int DT, int EPI, int BLOCKS>
  __device__ static void thread_chunk_bias(const tg_problem &p,
                                           const uint32_t (&bias_words)[kBiasWords], int j0,
                                           int64_t col0, float (&bias)[BLOCKS][2]) {
    if constexpr (DT != TG_F32 && EPI == TG_SM90_EPI_BIAS_RELU) {
#pragma unroll
      for (int jj = 0; jj < BLOCKS; ++jj) thread_unpack2_16bit<DT>(bias_words[j0 + jj], bias[jj]);
    } else {
      thread_load_bias_pairs<DT, EPI == TG_SM90_EPI_PLAIN>(p, col0, bias);
    }
  }

  /* One unit's tile, class EPI into D of type DT, one 128-byte column chunk (16 rows) per staging
   * buffer, swizzled (Sm90Staging). Where a tile row holds an even number of chunks, the warp
   * fills both buffers before one fence and one bulk group of two stores, and waits for both to be
   * read before it refills them; otherwise it fills one buffer while the copy engine reads the
   * other. A tile width with a tail (kTailCols) stores its last 16 columns after each row block's
   * chunks, through the warp's tail buffer, as a bulk group of its own. FULL: before a group of
   * chunks is computed, one lane has the copy engine load C's boxes (D's boxes, from C's tensor
   * map) into its buffers and the warp waits on its barrier; each thread then reads its pairs of C
   * where it will write its pairs of D (ldmatrix, the inverse of stmatrix, for 16 bits), a chunk's
   * C read before its D is stored. The first group's C is requested kCAheadTiles k-tiles before
   * the mainloop ends (c_loaded), when the buffers idle anyway; requested at the epilogue, both
   * groups' latencies stood between the mainloop and the stores. Two-group tiles finish their
   * second group apart: held in registers (kHoldSecondGroup), or staged in the borrowed stage
   * (BORROW: `borrowed`, this warp's part of it, when the unit borrowed one). */
  template <int DT, int EPI, bool BORROW>
  __device__ static void epilogue_tma(const tg_problem &p, const Sm90OutMaps &out,
                                      float (&acc)[kRowBlocks][kAcc],
                                      const uint32_t (&bias_words)[kBiasWords], int64_t bat,
                                      int64_t tm, int64_t tn, int wg_rows0, int warp, int lane,
                                      unsigned char *staging, unsigned char *borrowed,
                                      unsigned char *tail, uint32_t &chunks, uint32_t c_bar,
                                      uint32_t &c_loads, bool c_loaded, Held &held) {
    constexpr bool FULL = EPI == TG_SM90_EPI_FULL;
    constexpr int ES = DT == TG_F32 ? 4 : 2;          /* bytes per element of D */
    constexpr int kChunkCols = kStagingRowBytes / ES; /* D columns per chunk */
    constexpr int kBlocksPerChunk = kChunkCols / 8;   /* 8-column accumulator blocks j */
    constexpr int kChunks = BN / kChunkCols;          /* whole chunks per tile row */
    constexpr int kTailBlocks = kTailCols / 8;
    static_assert(BN == kChunks * kChunkCols + kTailCols,
                  "a tile row holds whole staging chunks and its tail");
    static_assert(
        EPI == TG_SM90_EPI_PLAIN || EPI == TG_SM90_EPI_BIAS_RELU || EPI == TG_SM90_EPI_FULL,
        "epilogue_tma serves the PLAIN, BIAS_RELU and FULL classes");
    constexpr int kGroup = group_chunks(ES);
    static_assert(!kWarpgroupStores || kGroup == kStagingBuffers,
                  "a warpgroup fills and stores both its buffers at once");
    /* 16-bit D: two groups of chunks, the first in the staging buffers, the second held in
     * registers (kHoldSecondGroup: LEAN, BIAS) or in the borrowed stage, if any (BORROW: RESID). */
    constexpr bool kTwoGroups = kRowBlocks * kChunks == 2 * kGroup;
    static_assert(!kBorrowStage || ES == 4 || kTwoGroups, "a tile's 16-bit chunks make two groups");
    if (p.alpha_f != 1.0f) {
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int i = 0; i < kAcc; ++i) acc[rb][i] *= p.alpha_f;
    }
    const bool read_c = FULL && p.read_c;
    const bool bias_m = FULL && p.has_bias && p.bias_along_m; /* one bias value per row */
    const int bat_c = p.batch_stride_c ? (int)bat : 0;        /* a shared C is one batch */
    const int g = lane / 4, t = lane % 4;
    const int cw = wg_rows0 / Cfg::kWgRows; /* the consumer warpgroup (cooperative) */
    const uint32_t own_smem = thread_smem_address(staging);
    /* With C and a borrowed stage, the second group's C is requested at once, into the stage, and
     * comes in while the first group is worked; that group's C, loaded during the mainloop (or
     * now), is waited for first, so that the two loads take the warp's barrier in turn. */
    const bool borrow_c = BORROW && kTwoGroups && read_c && borrowed != nullptr;
    if (borrow_c) {
      constexpr int kRb1 = kGroup / kChunks,
                    kC1 = kGroup % kChunks; /* the second group's first chunk */
      const int row0 = (int)(tm * BM) + wg_rows0 + kWarpRows * warp;
      if (lane == 0 && !c_loaded) {
        thread_bulk_wait_group_read<0>();
        thread_load_c_boxes(out.c, c_bar, own_smem, kGroup, kStagingBufferBytes, kChunkCols,
                            (int)(tn * BN), row0, bat_c);
      }
      warp_wait_c(c_bar, c_loads);
      block_named_barrier(TG_SM90_BORROW_BARRIER, TG_SM90_CONSUMERS * TG_SM90_WARPGROUP);
      if (lane == 0)
        thread_load_c_boxes(out.c, c_bar, thread_smem_address(borrowed), kGroup,
                            kStagingBufferBytes, kChunkCols, (int)(tn * BN) + kC1 * kChunkCols,
                            row0 + kRb1 * TG_SM90_WGMMA_M, bat_c);
    }
#pragma unroll
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      const int row0 = (int)(tm * BM) + wg_rows0 + rb * TG_SM90_WGMMA_M + kWarpRows * warp;
      float row_bias[2] = {0.0f, 0.0f}; /* bias along m of rows row0 + g and row0 + g + 8 */
      if (bias_m) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          const int64_t r = row0 + g + 8 * i;
          row_bias[i] = thread_load_float_type(p.bias, r < p.m ? r : p.m - 1, (tg_dtype)DT);
        }
      }
#pragma unroll
      for (int c = 0; c < kChunks; ++c, ++chunks) {
        const int col0 = (int)(tn * BN) + c * kChunkCols;
        const uint32_t buffer =
            (kGroup > 1 ? c % kGroup : chunks % kStagingBuffers) * kBufferStride;
        if constexpr (kHoldSecondGroup && DT != TG_F32) {
          static_assert(kTwoGroups && (EPI == TG_SM90_EPI_PLAIN || EPI == TG_SM90_EPI_BIAS_RELU),
                        "the held group is the plain or bias+ReLU epilogue's second");
          if ((rb * kChunks + c) / kGroup == 1) {
            /* Rounded into registers; staged and stored under the next unit's first k-tile. */
            float bias[kBlocksPerChunk][2]; /* (unread in the plain epilogue) */
            if constexpr (EPI == TG_SM90_EPI_BIAS_RELU) {
              thread_chunk_bias<DT, EPI>(p, bias_words, c * kBlocksPerChunk, col0 + 2 * t, bias);
              if (p.act == TG_ACT_RELU)
                Staging::template thread_hold_chunk<DT, kBlocksPerChunk, true, true>(
                    acc[rb], c * kBlocksPerChunk, c % kGroup, bias, held);
              else
                Staging::template thread_hold_chunk<DT, kBlocksPerChunk, true, false>(
                    acc[rb], c * kBlocksPerChunk, c % kGroup, bias, held);
            } else {
              Staging::template thread_hold_chunk<DT, kBlocksPerChunk, false, false>(
                  acc[rb], c * kBlocksPerChunk, c % kGroup, bias, held);
            }
            if (c % kGroup == kGroup - 1) {
              held.row0 = row0;
              held.col0 = col0 - (kGroup - 1) * kChunkCols;
              held.bat = (int)bat;
              held.pending = true;
            }
            continue;
          }
        }
        /* The second group goes to the borrowed stage, if any. */
        const bool to_borrowed =
            BORROW && kTwoGroups && (rb * kChunks + c) / kGroup == 1 && borrowed != nullptr;
        unsigned char *const staging_here = to_borrowed ? borrowed : staging;
        const uint32_t staging_smem = to_borrowed ? thread_smem_address(borrowed) : own_smem;
        /* The chunk's bias pairs, before the wait below, to overlap it. */
        float bias[kBlocksPerChunk][2];
        thread_chunk_bias<DT, EPI>(p, bias_words, c * kBlocksPerChunk, col0 + 2 * t, bias);
        if (c % kGroup == 0) {
          /* The stores that last read the group's buffers are done with them (by warpgroup: the
           * storing thread waits, the others at the barrier). The borrowed stage is free once
           * the other consumer's last wgmma, which read it too, are done. */
          if (to_borrowed) {
            /* (RESID always reads C, so borrow_c saw to the stage above; this barrier stands for a
             * borrowing set without C, of which there is none now.) */
            if (!borrow_c)
              block_named_barrier(TG_SM90_BORROW_BARRIER, TG_SM90_CONSUMERS * TG_SM90_WARPGROUP);
          } else if (
              !borrow_c) { /* (with borrow_c, the first group's buffers were seen to above) */
            if constexpr (kWarpgroupStores) {
              if (warp == 0 && lane == 0) thread_bulk_wait_group_read<0>();
              block_named_barrier(TG_SM90_STORE_BARRIER + cw, TG_SM90_WARPGROUP);
            } else if (lane == 0) {
              thread_bulk_wait_group_read<(kGroup > 1 ? 0 : kStagingBuffers - 1)>();
            }
          }
          if (read_c && (to_borrowed || !borrow_c)) {
            /* Requested now unless it came during the mainloop (the first group) or above (borrow_c). */
            if (lane == 0 && !(c_loaded && rb == 0 && c == 0) && !borrow_c)
              thread_load_c_boxes(out.c, c_bar, staging_smem + buffer, kGroup, kStagingBufferBytes,
                                  kChunkCols, col0, row0, bat_c);
            warp_wait_c(c_bar, c_loads);
          }
          __syncwarp();
        }
        Staging::template warp_stage_chunk<DT, EPI, kBlocksPerChunk, false>(
            p, acc[rb], c * kBlocksPerChunk, read_c, bias_m, row_bias, bias, staging_here + buffer,
            staging_smem + buffer, lane);
        if (c % kGroup != kGroup - 1) continue; /* the group's next chunk, into the next buffer */
        /* The group's first chunk, c - (kGroup - 1), sits in buffer 0 (just `buffer` when kGroup is 1). */
        store_d_boxes<kWarpgroupStores>(
            out.d, staging_smem + buffer - (kGroup - 1) * kBufferStride, kGroup, kBufferStride,
            kChunkCols, col0 - (kGroup - 1) * kChunkCols, row0, (int)bat, cw, warp, lane);
      }
      if constexpr (kTailCols > 0) {
        /* The tail: its own buffer, whose last store (at most the last-but-one bulk group: the
         * chunks above committed at least one since) must have been read. */
        constexpr uint32_t kTailBoxBytes = kWarpRows * kTailCols * ES;
        const int col0 = (int)(tn * BN) + kChunks * kChunkCols;
        const uint32_t tail_smem = thread_smem_address(tail);
        float bias[kTailBlocks][2];
        thread_chunk_bias<DT, EPI>(p, bias_words, kChunks * kBlocksPerChunk, col0 + 2 * t, bias);
        if (lane == 0) thread_bulk_wait_group_read<1>();
        if (read_c) {
          if (lane == 0)
            thread_load_c_boxes(out.c_tail, c_bar, tail_smem, 1, kTailBoxBytes, kTailCols, col0,
                                row0, bat_c);
          warp_wait_c(c_bar, c_loads);
        }
        __syncwarp();
        Staging::template warp_stage_chunk<DT, EPI, kTailBlocks, true>(
            p, acc[rb], kChunks * kBlocksPerChunk, read_c, bias_m, row_bias, bias, tail, tail_smem,
            lane);
        store_d_boxes<false>(out.d_tail, tail_smem, 1, kTailBoxBytes, kTailCols, col0, row0,
                             (int)bat, cw, warp, lane);
      }
    }
  }
};

#endif /* TG_SM90_EPILOGUE_TMA_CUH */
