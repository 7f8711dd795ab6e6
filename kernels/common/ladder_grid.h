/*
 * ladder_grid.h — how the ladder's kernels cover a problem with CTAs, as host-and-device
 * functions (layout_hd.h): one CTA per output tile, blockIdx.x walking the column tiles of D,
 * blockIdx.y the row tiles and blockIdx.z the batches. The launchers (ladder_grid.cuh) and the
 * kernels use them, and so does `tilegemm trace`. Valid C and CUDA C++.
 */
#ifndef TG_LADDER_GRID_H
#define TG_LADDER_GRID_H

#include <stdint.h>

#include "layout_hd.h"
#include "problem.h"

/* The grid of a problem tiled tile_m × tile_n per CTA: x column tiles, y row tiles, z batches. */
typedef struct tg_ladder_grid_dims {
  unsigned x, y, z;
} tg_ladder_grid_dims;

static inline tg_ladder_grid_dims tg_ladder_grid(const tg_problem *p, int tile_m, int tile_n) {
  const int64_t n_tiles = (p->n + tile_n - 1) / tile_n;
  const int64_t m_tiles = (p->m + tile_m - 1) / tile_m;
  tg_ladder_grid_dims g;
  g.x = (unsigned)n_tiles;
  g.y = (unsigned)m_tiles;
  g.z = (unsigned)p->batch;
  return g;
}

/* Where CTA (bx, by, bz) works: batch `bat`, output rows from m0, columns from n0. All three are
 * below 2^31 (the registry caps m, n and batch), so 32 bits carry them. */
typedef struct tg_ladder_tile {
  int bat, m0, n0;
} tg_ladder_tile;

static TG_LAYOUT_HD tg_ladder_tile tg_ladder_block_tile(unsigned bx, unsigned by, unsigned bz,
                                                        int tile_m, int tile_n) {
  tg_ladder_tile t;
  t.bat = (int)bz;
  t.m0 = (int)by * tile_m;
  t.n0 = (int)bx * tile_n;
  return t;
}

#endif /* TG_LADDER_GRID_H */
