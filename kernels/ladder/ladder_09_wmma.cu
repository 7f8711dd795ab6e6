/*
 * ladder_09_wmma.cu — rung 9: the tensor cores, through WMMA (f16/bf16 in, fp32 accumulate).
 *
 * Rungs 1-8 multiply with one fp32 FMA per thread per instruction. From here on the inputs are
 * 16-bit and the multiplication moves to the tensor cores: one warp-wide wmma::mma_sync does a
 * 16×16×16 product (4096 multiply-adds) in fp32 accumulators, roughly 15× the FMA rate of the
 * CUDA cores on an H100. The kernel around it is rung 7's, re-cut for 16-bit data: a 128×128
 * CTA tile over 8 warps (2×4, each 64×32 = 4×2 fragments), a 32-deep k-tile staged through
 * registers into shared memory in 16-byte chunks (rows padded by 8 elements against bank
 * conflicts), one k-tile at a time. Both operands are K-major (A row-major, B column-major),
 * the layout the tensor cores read natively. The epilogue passes each accumulator fragment
 * through a per-warp scratch tile, because WMMA does not say which lane holds which element.
 */
#include <cuda_runtime.h>

#include "ladder.h"
#include "ladder_launch.cuh"
#include "ladder_wmma.cuh"

namespace {

/* 128×128×32 CTA tile, 2×4 warps, one shared stage. */
using Cfg = WmmaConfig<TG_LADDER_WMMA_SHAPE, TG_LADDER09_STAGES>;

template <class T, class C>
__global__ void __launch_bounds__(C::kThreads) ladder_09_wmma_kernel(const tg_problem p) {
  __shared__ __align__(128) WmmaShared<T, C> sh;
  const BlockTile t = block_tile<C::kTileM, C::kTileN>();
  TG_RECORD_BASE(TG_REC_A, &sh); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, &sh);
  WmmaAccumulator<C> acc[C::kFragsM][C::kFragsN];
#pragma unroll
  for (int i = 0; i < C::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < C::kFragsN; ++j) nvcuda::wmma::fill_fragment(acc[i][j], 0.0f);
  for (int64_t k0 = 0; k0 < p.k; k0 += C::kTileK) {
    WmmaStaged<C> s;
    thread_fetch_tile<T, C>(p, t, k0, s);
    thread_stash_tile<T, C>(s, sh.stage[0]);
    __syncthreads();
    warp_multiply_tile<T, C>(sh.stage[0], acc);
    __syncthreads(); /* also frees the stage for the epilogue's scratch */
  }
  warp_store_tile<T, C>(p, t, sh, acc);
}

template <class T>
struct Launch {
  static tg_status run(const tg_problem *p, cudaStream_t stream) {
    ladder_09_wmma_kernel<T, Cfg>
        <<<ladder_grid(p, Cfg::kTileM, Cfg::kTileN), Cfg::kThreads, 0, stream>>>(*p);
    return TG_OK;
  }
};

}  // namespace

extern "C" tg_status tg_ladder_09_wmma_launch(const tg_problem *p, cudaStream_t stream) {
  return ladder_launch_by_type<Launch>(p, stream);
}
