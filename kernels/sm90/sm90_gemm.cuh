/*
 * sm90_gemm.cuh — the Hopper kernel: TMA + wgmma, warp-specialized and persistent.
 *
 * What it adds over the sm80 family, and why:
 *   - TMA (the copy engine) moves whole 128-byte-swizzled tiles into shared memory and zero-fills
 *     past the matrix edges: no thread spends instructions on addresses or predicates.
 *   - wgmma reads both operands straight from shared memory through descriptors, 64×N×16 per
 *     instruction per warpgroup, asynchronously: no ldmatrix, no register fragments, and the
 *     tensor cores stay busy while the warpgroup waits.
 *   - Warp specialization: warpgroup 0 is the producer (one thread issues TMA, the rest idle with
 *     40 registers), warpgroups 1 and 2 are consumers (232 registers each, setmaxnreg), each
 *     owning half of the CTA tile. Full/empty mbarriers per stage hand buffers back and forth,
 *     so loads run STAGES tiles ahead of the math with no block-wide barrier in the mainloop.
 *   - Persistence: one CTA per SM walks the output tiles (grouped order for L2 reuse); the
 *     producer already fills the next tile's stages while the consumers run the epilogue.
 *   - The epilogue writes straight from the accumulators (pairs of columns) with the shared
 *     alpha/beta/bias/activation code.
 * Operands: f16 or bf16, K-major (the planner repacks other layouts and unaligned data).
 */
#ifndef TG_SM90_GEMM_CUH
#define TG_SM90_GEMM_CUH

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "epilogue.cuh"
#include "problem.h"
#include "ptx_sm80.cuh" /* thread_smem_address */
#include "ptx_sm90.cuh"
#include "wgmma_shapes.cuh"

#define TG_SM90_CONSUMERS 2          /* consumer warpgroups */
#define TG_SM90_WARPGROUP 128        /* threads per warpgroup */
#define TG_SM90_TILE_K_BYTES 128     /* one 128-byte swizzle row of k per m or n */
#define TG_SM90_WGMMA_K 16           /* k per wgmma for 16-bit inputs */
#define TG_SM90_WGMMA_M 64           /* rows per wgmma */
#define TG_SM90_PRODUCER_REGS 40
#define TG_SM90_CONSUMER_REGS 232
#define TG_SM90_SWIZZLE_ATOM 1024    /* 8 rows × 128 bytes: alignment of swizzled tiles */
#define TG_SM90_GROUP_M 8            /* rows of tiles that sweep the columns together */
#define TG_SM90_CONSUMER_BARRIER 1   /* named barrier id among the consumer warps */

struct Sm90F16 {
  static constexpr int kBytes = 2;
  template <int N>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db) {
    if constexpr (N == 256) warpgroup_mma_m64n256k16_f16<0, 0>(d, da, db);
    else if constexpr (N == 128) warpgroup_mma_m64n128k16_f16<0, 0>(d, da, db);
    else warpgroup_mma_m64n64k16_f16<0, 0>(d, da, db);
  }
};

struct Sm90BF16 {
  static constexpr int kBytes = 2;
  template <int N>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db) {
    if constexpr (N == 256) warpgroup_mma_m64n256k16_bf16<0, 0>(d, da, db);
    else if constexpr (N == 128) warpgroup_mma_m64n128k16_bf16<0, 0>(d, da, db);
    else warpgroup_mma_m64n64k16_bf16<0, 0>(d, da, db);
  }
};

template <class E, int BM, int BN, int STAGES>
struct Sm90Gemm {
  static constexpr int kThreads = TG_SM90_WARPGROUP * (TG_SM90_CONSUMERS + 1);
  static constexpr int kBK = TG_SM90_TILE_K_BYTES / E::kBytes;         /* 64 */
  static constexpr int kWgRows = BM / TG_SM90_CONSUMERS;              /* rows per consumer */
  static constexpr int kRowBlocks = kWgRows / TG_SM90_WGMMA_M;        /* wgmma per k-step */
  static constexpr int kAcc = BN / 2;                                  /* fp32 per thread per block */
  static constexpr int kKSteps = kBK / TG_SM90_WGMMA_K;
  static constexpr int kTileABytes = BM * TG_SM90_TILE_K_BYTES;
  static constexpr int kTileBBytes = BN * TG_SM90_TILE_K_BYTES;
  static constexpr int kStageBytes = kTileABytes + kTileBBytes;
  static constexpr int kBarrierBytes = 2 * STAGES * 8;
  static constexpr int kSmemBytes = TG_SM90_SWIZZLE_ATOM + STAGES * kStageBytes + kBarrierBytes;
  /* Empty-barrier arrivals per phase: lane 0 of every consumer warp. */
  static constexpr int kConsumerWarps = TG_SM90_CONSUMERS * TG_SM90_WARPGROUP / 32;

  static_assert(BN == 64 || BN == 128 || BN == 256, "wgmma N must be 64, 128 or 256");
  static_assert(kWgRows % TG_SM90_WGMMA_M == 0, "each consumer owns whole 64-row wgmma blocks");
  static_assert(BM <= 256 && BN <= 256, "a TMA box spans at most 256 rows");
  static_assert(kTileABytes % TG_SM90_SWIZZLE_ATOM == 0, "stages must stay 1024-byte aligned");
  static_assert(kSmemBytes <= 227 * 1024, "shared memory of one CTA exceeds the sm_90 limit");
  static_assert(TG_SM90_PRODUCER_REGS * TG_SM90_WARPGROUP +
                        TG_SM90_CONSUMER_REGS * TG_SM90_WARPGROUP * TG_SM90_CONSUMERS <= 65536,
                "the register file holds 64K registers");

  /* Output tile `tile` in grouped order: batch, then GROUP_M rows of tiles sweeping columns. */
  __device__ static void tile_coords(int64_t tile, int64_t m_tiles, int64_t n_tiles,
                                     int64_t *bat, int64_t *tm, int64_t *tn) {
    const int64_t per_batch = m_tiles * n_tiles;
    *bat = tile / per_batch;
    const int64_t id = tile % per_batch;
    const int64_t group = TG_SM90_GROUP_M * n_tiles;
    const int64_t first_m = (id / group) * TG_SM90_GROUP_M;
    const int64_t rows = m_tiles - first_m < TG_SM90_GROUP_M ? m_tiles - first_m : TG_SM90_GROUP_M;
    *tm = first_m + (id % group) % rows;
    *tn = (id % group) / rows;
  }

  __device__ static void run(const tg_problem &p, const CUtensorMap *map_a,
                             const CUtensorMap *map_b) {
    extern __shared__ unsigned char smem_raw[];
    const uint32_t raw = thread_smem_address(smem_raw);
    const uint32_t base = (raw + TG_SM90_SWIZZLE_ATOM - 1) & ~(uint32_t)(TG_SM90_SWIZZLE_ATOM - 1);
    const uint32_t full = base + STAGES * kStageBytes;  /* full[s]: tile s landed */
    const uint32_t empty = full + STAGES * 8;           /* empty[s]: tile s consumed */
    const int wg = threadIdx.x / TG_SM90_WARPGROUP;

    if (threadIdx.x == 0) {
      for (int s = 0; s < STAGES; ++s) {
        thread_mbarrier_init(full + 8 * s, 1);
        thread_mbarrier_init(empty + 8 * s, kConsumerWarps);
      }
      thread_fence_barrier_init();
    }
    __syncthreads();

    const int64_t m_tiles = (p.m + BM - 1) / BM, n_tiles = (p.n + BN - 1) / BN;
    const int64_t tiles = m_tiles * n_tiles * p.batch;
    const int k_tiles = (int)((p.k + kBK - 1) / kBK);

    if (wg == 0) {
      /* Producer: one thread keeps the stages full. */
      warpgroup_setmaxnreg_dec<TG_SM90_PRODUCER_REGS>();
      if (threadIdx.x == 0) {
        thread_tma_prefetch_descriptor(map_a);
        thread_tma_prefetch_descriptor(map_b);
        uint32_t it = 0;
        for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
          int64_t bat, tm, tn;
          tile_coords(tile, m_tiles, n_tiles, &bat, &tm, &tn);
          const int bat_a = p.batch_stride_a ? (int)bat : 0, bat_b = p.batch_stride_b ? (int)bat : 0;
          for (int kt = 0; kt < k_tiles; ++kt, ++it) {
            const uint32_t s = it % STAGES, phase = (it / STAGES) & 1;
            thread_mbarrier_wait(empty + 8 * s, phase ^ 1);
            thread_mbarrier_arrive_expect_tx(full + 8 * s, kStageBytes);
            const uint32_t stage = base + s * kStageBytes;
            thread_tma_load_3d(stage, map_a, full + 8 * s, kt * kBK, (int)(tm * BM), bat_a);
            thread_tma_load_3d(stage + kTileABytes, map_b, full + 8 * s, kt * kBK, (int)(tn * BN), bat_b);
          }
        }
      }
      return;
    }

    /* Consumers: warpgroup cw owns rows [cw·kWgRows, (cw+1)·kWgRows) of each tile. */
    warpgroup_setmaxnreg_inc<TG_SM90_CONSUMER_REGS>();
    const int cw = wg - 1;
    const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
    uint32_t it = 0;
    for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      int64_t bat, tm, tn;
      tile_coords(tile, m_tiles, n_tiles, &bat, &tm, &tn);
      float acc[kRowBlocks][kAcc];
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int i = 0; i < kAcc; ++i) acc[rb][i] = 0.0f;

      for (int kt = 0; kt < k_tiles; ++kt, ++it) {
        const uint32_t s = it % STAGES, phase = (it / STAGES) & 1;
        thread_mbarrier_wait(full + 8 * s, phase);
        const uint32_t stage = base + s * kStageBytes;
        warpgroup_fence();
#pragma unroll
        for (int ks = 0; ks < kKSteps; ++ks) {
          /* k advances 32 bytes inside the 128-byte swizzled rows: +2 in the address field. */
          const uint64_t db = thread_wgmma_descriptor(stage + kTileABytes, 0, TG_SM90_SWIZZLE_ATOM) + 2 * ks;
#pragma unroll
          for (int rb = 0; rb < kRowBlocks; ++rb) {
            const uint32_t a_rows = stage + (cw * kWgRows + rb * TG_SM90_WGMMA_M) * TG_SM90_TILE_K_BYTES;
            const uint64_t da = thread_wgmma_descriptor(a_rows, 0, TG_SM90_SWIZZLE_ATOM) + 2 * ks;
            E::template mma<BN>(acc[rb], da, db);
          }
        }
        warpgroup_commit();
        /* The previous k-tile's wgmma are done: hand its stage back to the producer. */
        warpgroup_wait<1>();
        if (kt > 0 && lane == 0) thread_mbarrier_arrive(empty + 8 * ((it - 1) % STAGES));
      }
      warpgroup_wait<0>();
      if (k_tiles > 0 && lane == 0) thread_mbarrier_arrive(empty + 8 * ((it - 1) % STAGES));

      /* Epilogue from the accumulators: d[4j + 2i + c] is row 16·warp + g + 8i, column
       * 8j + 2t + c of the 64-row block. Whole tiles with a plain epilogue take the compact
       * inline path; the rest call the shared epilogue out of line. */
      const int g = lane / 4, t = lane % 4;
      const int64_t row0 = tm * BM + cw * kWgRows + 16 * warp + g, col0 = tn * BN + 2 * t;
      const bool plain = tg_epilogue_is_plain(p) && (tm + 1) * BM <= p.m && (tn + 1) * BN <= p.n;
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          const int64_t row = row0 + rb * TG_SM90_WGMMA_M + 8 * i;
          const int64_t d_row = bat * p.batch_stride_d + row * p.ldd + col0;
#pragma unroll
          for (int j = 0; j < BN / 8; ++j) {
            if (plain)
              thread_store2_plain(p, d_row + 8 * j, acc[rb][4 * j + 2 * i], acc[rb][4 * j + 2 * i + 1]);
            else
              thread_epilogue_store2_call(p, bat, row, col0 + 8 * j, acc[rb][4 * j + 2 * i],
                                          acc[rb][4 * j + 2 * i + 1]);
          }
        }
    }
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::kThreads, 1)
    sm90_gemm_kernel(const tg_problem p, const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  Kernel::run(p, &map_a, &map_b);
#endif
}

#endif /* TG_SM90_GEMM_CUH */
