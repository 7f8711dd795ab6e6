/*
 * simt_08_double_buffer.cu — rung 8: double-buffered shared memory.
 *
 * In rung 7 a CTA alternates between loading a k-tile and computing on it, with a barrier in
 * between: while its warps wait for global memory the FMA units idle, unless another CTA on
 * the SM happens to be computing. Here the CTA keeps two shared buffers. While it computes on
 * buffer `cur`, the next k-tile's global loads are already in flight into registers (issued
 * before the math, consumed after it); they are then stored into buffer `cur ^ 1`, and a
 * single barrier per k-tile both publishes the new tile and frees the old one. Memory latency
 * now hides behind the 8 k steps of math of the same CTA, not only behind the other CTA.
 */
#include <cuda_runtime.h>

#include "simt.h"
#include "simt_warptile.cuh"

namespace {

/* The tile of rung 7: 128×128×8, 2×4 warps of 64×32, lanes 8×4 with 2×2 sub-blocks of 4×4. */
using Cfg = WarpTileConfig<TG_SIMT_WARPTILE_SHAPE>;
constexpr int kBuffers = TG_SIMT08_BUFFERS;
constexpr int kCtasPerSm = 2; /* at most 128 registers per thread */

template <class C>
__global__ void __launch_bounds__(C::kThreads, kCtasPerSm)
    simt_08_double_buffer_kernel(const tg_problem p) {
  __shared__ __align__(16) SharedTile<C> sh[kBuffers];
  const ThreadPlace at = thread_place<C>();
  const BlockTile t = block_tile<C::kTileM, C::kTileN>();
  TG_RECORD_BASE(TG_REC_A, sh); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, sh);
  float acc[C::kThreadM][C::kThreadN] = {};
  ThreadLoader<C> ld = thread_loader<C>(p, t);
  StagedTile<C> s;
  thread_fetch_tile<C>(p, ld, s);
  thread_stash_tile<C>(s, sh[0]);
  __syncthreads();
  int cur = 0;
  for (int64_t k0 = 0; k0 < p.k; k0 += C::kTileK) {
    const bool more = k0 + C::kTileK < p.k;
    if (more) { /* the next k-tile's loads are in flight during the math */
      thread_advance_loader<C>(p, ld);
      thread_fetch_tile<C>(p, ld, s);
    }
    thread_multiply_tile<C>(sh[cur], at, acc);
    if (more) thread_stash_tile<C>(s, sh[cur ^ 1]);
    __syncthreads(); /* next tile visible; everyone is done reading sh[cur] */
    cur ^= 1;
  }
  thread_store_block<C>(p, t, at, acc);
}

}  // namespace

extern "C" tg_status tg_simt_08_double_buffer_launch(const tg_problem *p, cudaStream_t stream) {
  simt_08_double_buffer_kernel<Cfg>
      <<<ladder_grid(p, Cfg::kTileM, Cfg::kTileN), Cfg::kThreads, 0, stream>>>(*p);
  return TG_OK;
}
