/*
 * simt_07_warptile.cu — rung 7: warp tiling.
 *
 * Rung 6 gives each thread a contiguous 8×8 block, so at one k step the 16 threads along a
 * row of the CTA read float4s 32 bytes apart: two of every 8 land on the same banks (a 2-way
 * conflict on every B load). Here the CTA tile is first split among warps (2×4 warp tiles of
 * 64×32) and a warp's lanes (8×4) each own 2×2 sub-blocks of 4×4, interleaved with the other
 * lanes'. At each k step a warp reads 8 adjacent float4s of A and 4 of B: conflict-free,
 * broadcast to the lanes that share them. The warp tile is also the unit a tensor-core kernel
 * will hand to one mma instruction later on the ladder. The lanes' interleaving also keeps
 * the thread's addresses few and regular, so the kernel fits in 128 registers and two CTAs
 * share an SM (__launch_bounds__(256, 2)): one computes while the other waits at a barrier.
 */
#include <cuda_runtime.h>

#include "simt.h"
#include "simt_warptile.cuh"

namespace {

/* 128×128×8 CTA tile, 2×4 warps of 64×32, lanes 8×4 with 2×2 sub-blocks of 4×4 each. */
using Cfg = WarpTileConfig<TG_SIMT_WARPTILE_SHAPE>;
constexpr int kCtasPerSm = 2; /* at most 128 registers per thread */

template <class C>
__global__ void __launch_bounds__(C::kThreads, kCtasPerSm)
    simt_07_warptile_kernel(const tg_problem p) {
  __shared__ __align__(16) SharedTile<C> sh;
  const ThreadPlace at = thread_place<C>();
  const BlockTile t = block_tile<C::kTileM, C::kTileN>();
  TG_RECORD_BASE(TG_REC_A, &sh); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, &sh);
  float acc[C::kThreadM][C::kThreadN] = {};
  ThreadLoader<C> ld = thread_loader<C>(p, t);
  for (int64_t k0 = 0; k0 < p.k; k0 += C::kTileK) {
    StagedTile<C> s;
    thread_fetch_tile<C>(p, ld, s);
    thread_advance_loader<C>(p, ld);
    thread_stash_tile<C>(s, sh);
    __syncthreads();
    thread_multiply_tile<C>(sh, at, acc);
    __syncthreads();
  }
  thread_store_block<C>(p, t, at, acc);
}

}  // namespace

extern "C" tg_status tg_simt_07_warptile_launch(const tg_problem *p, cudaStream_t stream) {
  simt_07_warptile_kernel<Cfg>
      <<<ladder_grid(p, Cfg::kTileM, Cfg::kTileN), Cfg::kThreads, 0, stream>>>(*p);
  return TG_OK;
}
