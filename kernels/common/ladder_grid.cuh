/*
 * ladder_grid.cuh — how the ladder's kernels cover a problem with CTAs: one CTA per output
 * tile, blockIdx.x walking the column tiles of D, blockIdx.y the row tiles and blockIdx.z the
 * batches. y and z stop at the hardware's 65535, so the rows declare that limit with the
 * extra_check of ladder_limits.h (m up to 65535 row tiles, batch up to 65535) instead of
 * looping: a grid-stride loop costs registers that rungs 7-12 need for their accumulators.
 */
#ifndef TG_LADDER_GRID_CUH
#define TG_LADDER_GRID_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "ladder_limits.h"
#include "problem.h"

/* The grid of a problem tiled tile_m × tile_n per CTA (within the limits ladder_limits.h checks). */
inline dim3 ladder_grid(const tg_problem *p, int tile_m, int tile_n) {
  const int64_t n_tiles = (p->n + tile_n - 1) / tile_n;
  const int64_t m_tiles = (p->m + tile_m - 1) / tile_m;
  return dim3((unsigned)n_tiles, (unsigned)m_tiles, (unsigned)p->batch);
}

/* Where this CTA works: batch `bat`, output rows from m0, columns from n0. All three are below
 * 2^31 (the registry caps m, n and batch), so 32 bits carry them. */
struct BlockTile {
  int bat, m0, n0;
};

template <int kTileM, int kTileN>
__device__ __forceinline__ BlockTile block_tile() {
  return BlockTile{(int)blockIdx.z, (int)blockIdx.y * kTileM, (int)blockIdx.x * kTileN};
}

#endif /* TG_LADDER_GRID_CUH */
