/*
 * ladder_grid.cuh — how the ladder's kernels cover a problem with CTAs: one CTA per output
 * tile, blockIdx.x walking the column tiles of D, blockIdx.y the row tiles and blockIdx.z the
 * batches (the arithmetic is ladder_grid.h's, shared with `tilegemm trace`). y and z stop at
 * the hardware's 65535, so the rows declare that limit with the extra_check of ladder_limits.h
 * (m up to 65535 row tiles, batch up to 65535) instead of looping: a grid-stride loop costs
 * registers that rungs 7-12 need for their accumulators.
 */
#ifndef TG_LADDER_GRID_CUH
#define TG_LADDER_GRID_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "ladder_grid.h"
#include "ladder_limits.h"
#include "problem.h"

/* The grid of a problem tiled tile_m × tile_n per CTA (within the limits ladder_limits.h checks). */
inline dim3 ladder_grid(const tg_problem *p, int tile_m, int tile_n) {
  const tg_ladder_grid_dims g = tg_ladder_grid(p, tile_m, tile_n);
  return dim3(g.x, g.y, g.z);
}

/* Where this CTA works: batch `bat`, output rows from m0, columns from n0. */
typedef tg_ladder_tile BlockTile;

template <int kTileM, int kTileN>
__device__ __forceinline__ BlockTile block_tile() {
  return tg_ladder_block_tile(blockIdx.x, blockIdx.y, blockIdx.z, kTileM, kTileN);
}

#endif /* TG_LADDER_GRID_CUH */
