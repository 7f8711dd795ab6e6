/*
 * ladder_10_wmma_double_buffer.cu — rung 10: WMMA with double-buffered shared memory.
 *
 * Rung 9 stops the tensor cores at every k-tile: load, barrier, multiply, barrier. A tensor
 * core step is so short that the wait for global memory dominates. Here, as rung 8 did for
 * the CUDA cores, the CTA keeps two stages: the next k-tile's 16-byte loads are issued into
 * registers before the current tile's mma_syncs, stored into the other stage after them, and
 * one barrier per k-tile publishes the new stage and frees the old one. The loads' latency now
 * overlaps the math of the same CTA.
 */
#include <cuda_runtime.h>

#include "ladder.h"
#include "ladder_launch.cuh"
#include "ladder_wmma.cuh"

namespace {

/* Rung 9's 128×128×32 tile over 2×4 warps, with two shared stages. */
using Cfg = WmmaConfig<TG_LADDER_WMMA_SHAPE, TG_LADDER10_STAGES>;

template <class T, class C>
__global__ void __launch_bounds__(C::kThreads)
    ladder_10_wmma_double_buffer_kernel(const tg_problem p) {
  __shared__ __align__(128) WmmaShared<T, C> sh;
  const BlockTile t = block_tile<C::kTileM, C::kTileN>();
  TG_RECORD_BASE(TG_REC_A, &sh); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, &sh);
  WmmaAccumulator<C> acc[C::kFragsM][C::kFragsN];
#pragma unroll
  for (int i = 0; i < C::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < C::kFragsN; ++j) nvcuda::wmma::fill_fragment(acc[i][j], 0.0f);
  WmmaStaged<C> s;
  thread_fetch_tile<T, C>(p, t, 0, s);
  thread_stash_tile<T, C>(s, sh.stage[0]);
  __syncthreads();
  int cur = 0;
  for (int64_t k0 = 0; k0 < p.k; k0 += C::kTileK) {
    const bool more = k0 + C::kTileK < p.k;
    if (more) thread_fetch_tile<T, C>(p, t, k0 + C::kTileK, s); /* in flight during the math */
    warp_multiply_tile<T, C>(sh.stage[cur], acc);
    if (more) thread_stash_tile<T, C>(s, sh.stage[cur ^ 1]);
    __syncthreads(); /* next stage visible; everyone is done reading stage cur */
    cur ^= 1;
  }
  warp_store_tile<T, C>(p, t, sh, acc);
}

template <class T>
struct Launch {
  static tg_status run(const tg_problem *p, cudaStream_t stream) {
    ladder_10_wmma_double_buffer_kernel<T, Cfg>
        <<<ladder_grid(p, Cfg::kTileM, Cfg::kTileN), Cfg::kThreads, 0, stream>>>(*p);
    return TG_OK;
  }
};

}  // namespace

extern "C" tg_status tg_ladder_10_wmma_double_buffer_launch(const tg_problem *p,
                                                            cudaStream_t stream) {
  return ladder_launch_by_type<Launch>(p, stream);
}
