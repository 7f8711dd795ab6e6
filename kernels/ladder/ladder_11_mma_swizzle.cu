/*
 * ladder_11_mma_swizzle.cu — rung 11: seed 000's three-level GEMM in CUDA C, without CuTe:
 * mma.sync m16n8k16, cp.async, an XOR-swizzled shared tile and ldmatrix.
 *
 * WMMA (rungs 9-10) hides the fragment layouts, so it needs padded shared rows, generic
 * fragment loads and an epilogue through shared memory. Here every layer is explicit:
 *  - copy: cp.async moves 16-byte chunks global → shared without passing through registers
 *    (LDGSTS), and its src-size operand zero-fills the chunks at the m, n and k edges;
 *  - smem: rows are not padded but swizzled (Swizzle<3,3,3>, ladder_mma.cuh): the chunk of row r
 *    is stored at position chunk XOR (r/2 mod 8) of its 128-byte line, so both the cp.async
 *    stores and the ldmatrix reads hit 32 different banks;
 *  - registers: ldmatrix.x4 hands each lane exactly the A and B elements that mma.sync's
 *    fragment layout assigns to it (LDSM), 4 matrices per instruction;
 *  - math: 4 warps in 2×2, each a 64×64 tile = 4 × 8 mma.sync.m16n8k16 per k16 step (HMMA),
 *    128 fp32 accumulators per thread, stored straight from registers in the epilogue.
 * Like the seed it runs one k-tile at a time (copy, wait, barrier, math, barrier): the
 * tensor cores still idle while each tile loads. Rung 12 fixes that.
 */
#include <cuda_runtime.h>

#include "ladder.h"
#include "ladder_launch.cuh"
#include "ladder_mma.cuh"

namespace {

/* 128×128×32 CTA tile, 2×2 warps of 64×64, one stage. */
using Cfg = MmaConfig<TG_LADDER_MMA_SHAPE, TG_LADDER11_STAGES>;

/* The epilogue straight from the accumulators: lane 4g+t owns rows g and g+8, columns 2t and
 * 2t+1 of each m16n8 tile. */
template <class C>
__device__ __forceinline__ void thread_store_accumulators(const tg_problem &p, const BlockTile &t,
                                                          const WarpAccumulators<C> &w) {
  const tg_cell q = tg_ladder_acc_lane_cell(threadIdx.x % kWarpSize);
  constexpr int kHalfRows = TG_LADDER_ACC_HALF_ROWS;
#pragma unroll
  for (int i = 0; i < C::kTilesM; ++i)
#pragma unroll
    for (int half = 0; half < kPair; ++half) {
      const int64_t grow = (int64_t)t.m0 + warp_row0<C>() + i * kMmaM + q.row + half * kHalfRows;
      if (grow >= p.m) continue;
#pragma unroll
      for (int j = 0; j < C::kTilesN; ++j)
#pragma unroll
        for (int e = 0; e < kPair; ++e) {
          const int64_t gcol = (int64_t)t.n0 + warp_col0<C>() + j * kMmaN + q.col + e;
          if (gcol < p.n)
            thread_epilogue_store(p, t.bat, grow, gcol, w.acc[i][j][kPair * half + e]);
        }
    }
}

template <class T, class C>
__global__ void __launch_bounds__(C::kThreads) ladder_11_mma_swizzle_kernel(const tg_problem p) {
  __shared__ __align__(128) unsigned char smem[C::kStageBytes];
  const uint32_t stage = thread_smem_address(smem);
  const BlockTile t = block_tile<C::kTileM, C::kTileN>();
  TG_RECORD_BASE(TG_REC_A, smem); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, smem);
  WarpAccumulators<C> w;
  thread_zero<C>(w);
  MmaLoader ld = thread_loader<T, C>(p, t);
  for (int64_t k0 = 0; k0 < p.k; k0 += C::kTileK) {
    thread_copy_tile_async<C>(p, ld, stage);
    thread_cp_async_commit();
    thread_advance_loader<C>(ld);
    thread_cp_async_wait<0>(); /* this thread's copies have landed … */
    __syncthreads();           /* … and everyone else's */
    warp_multiply_tile<T, C>(stage, w);
    __syncthreads(); /* the stage is free for the next copy */
  }
  thread_store_accumulators<C>(p, t, w);
}

template <class T>
struct Launch {
  static tg_status run(const tg_problem *p, cudaStream_t stream) {
    ladder_11_mma_swizzle_kernel<T, Cfg>
        <<<ladder_grid(p, Cfg::kTileM, Cfg::kTileN), Cfg::kThreads, 0, stream>>>(*p);
    return TG_OK;
  }
};

}  // namespace

extern "C" tg_status tg_ladder_11_mma_swizzle_launch(const tg_problem *p, cudaStream_t stream) {
  return ladder_launch_by_type<Launch>(p, stream);
}
