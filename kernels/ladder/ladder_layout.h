/*
 * ladder_layout.h — where each thread of the 16-bit rungs (9-12) works, as host-and-device
 * functions (layout_hd.h): the rungs' shapes, which 16-byte chunks of A and B a thread stages
 * and where they land in shared memory (padded rows for WMMA, the XOR swizzle for mma.sync),
 * which rows its ldmatrix lanes address, and which outputs it holds and stores. The kernels call
 * them with their compile-time shapes; `tilegemm trace` calls the same functions.
 *
 * Frame: A (m×k) row-major, B read as its N×K view (ladder_operands.cuh), so both staged tiles
 * are [row = m or n][k]. Chunk c of a row holds k 8c .. 8c + 7. Valid C and CUDA C++.
 */
#ifndef TG_LADDER_LAYOUT_H
#define TG_LADDER_LAYOUT_H

#include "layout_hd.h"

/* Elements of one 16-byte chunk of f16 or bf16 (ladder_operands.cuh's kChunkElems). */
#define TG_LADDER_CHUNK_ELEMS 8
#define TG_LADDER_WARP 32

/* ---- rungs 9 and 10: WMMA (ladder_wmma.cuh) ----------------------------------------------- */

/* WmmaConfig's shape before its stage count: CTA tile m, n, k; warps along m and n. */
#define TG_LADDER_WMMA_SHAPE 128, 128, 32, 2, 4
/* Stages: one for rung 9, two for rung 10. */
#define TG_LADDER09_STAGES 1
#define TG_LADDER10_STAGES 2
/* The m16n16k16 fragment's side, the padding after each staged row (elements), and the row
 * pitch of the epilogue's per-warp fp32 scratch tile. */
#define TG_LADDER_WMMA_SIDE 16
#define TG_LADDER_WMMA_SKEW 8
#define TG_LADDER_WMMA_SCRATCH_PITCH (TG_LADDER_WMMA_SIDE + 4)

/* Chunk c of a tile staged row by row, chunks_per_row chunks to a row: its row and first
 * element (consecutive c: consecutive 16 bytes of a row). */
static TG_LAYOUT_HD tg_cell tg_ladder_chunk_cell(int c, int chunks_per_row) {
  tg_cell q;
  q.row = c / chunks_per_row;
  q.col = (c % chunks_per_row) * TG_LADDER_CHUNK_ELEMS;
  return q;
}

/* The first row and column of warp `warp`'s frags_m × frags_n WMMA fragments in the CTA tile;
 * warps are numbered down m first. */
static TG_LAYOUT_HD tg_cell tg_ladder_wmma_warp_origin(int warp, int warps_m, int frags_m,
                                                       int frags_n) {
  tg_cell c;
  c.row = (warp % warps_m) * frags_m * TG_LADDER_WMMA_SIDE;
  c.col = (warp / warps_m) * frags_n * TG_LADDER_WMMA_SIDE;
  TG_LAYOUT_ASSUME(c.row >= 0 && c.col >= 0);
  return c;
}

/* The epilogue's element e (of 8) of lane `lane` in a 16×16 scratch tile: consecutive lanes
 * on consecutive columns. */
static TG_LAYOUT_HD tg_cell tg_ladder_wmma_scratch_cell(int e, int lane) {
  tg_cell c;
  c.row = (e * TG_LADDER_WARP + lane) / TG_LADDER_WMMA_SIDE;
  c.col = (e * TG_LADDER_WARP + lane) % TG_LADDER_WMMA_SIDE;
  TG_LAYOUT_ASSUME(c.row >= 0 && c.col >= 0);
  return c;
}

/* ---- rungs 11 and 12: mma.sync (ladder_mma.cuh) ------------------------------------------- */

/* MmaConfig's shape before its stage count: CTA tile m, n, k; warps along m and n. */
#define TG_LADDER_MMA_SHAPE 128, 128, 32, 2, 2
#define TG_LADDER11_STAGES 1
#define TG_LADDER12_STAGES 4
/* Rung 12's epilogue: columns per lane of a row, and floats of padding after each staged row. */
#define TG_LADDER12_OUT_VEC 4
#define TG_LADDER12_EPI_PAD 8
/* The m16n8k16 mma, and the 8×8 matrices of ldmatrix. */
#define TG_LADDER_MMA_M 16
#define TG_LADDER_MMA_N 8
#define TG_LADDER_MMA_K 16
#define TG_LADDER_LDSM_ROWS 8

/* Swizzle<3,3,3> of a tile with 64-byte rows (4 chunks): chunk L = row·4 + chunk is stored at
 * L XOR ((L >> 3) & 7): within each 128-byte line (two rows) the chunks are permuted by the
 * line's index mod 8, so the 8 rows an ldmatrix matrix reads (same logical chunk) fall in 8
 * different 16-byte positions: all 32 banks, one wavefront. Returns the physical chunk index. */
static TG_LAYOUT_HD int tg_ladder_swizzled_chunk(int row, int chunk) {
  const int chunks_per_row = 4, line_bits = 3, mask = 7;
  const int linear = row * chunks_per_row + chunk;
  return linear ^ ((linear >> line_bits) & mask);
}

/* The copy of thread tid: chunk tid % chunks_per_row of rows tid / chunks_per_row + i·passes.
 * Returns (first row, chunk index). */
static TG_LAYOUT_HD tg_cell tg_ladder_copy_cell(unsigned tid, int chunks_per_row) {
  tg_cell c;
  c.row = tid / chunks_per_row;
  c.col = tid % chunks_per_row;
  return c;
}

/* The first row (of m) and column (of n) of thread tid's warp tile; warps down m first. */
static TG_LAYOUT_HD tg_cell tg_ladder_mma_warp_origin(unsigned tid, int warps_m, int warp_tile_m,
                                                      int warp_tile_n) {
  tg_cell c;
  c.row = (tid / TG_LADDER_WARP % warps_m) * warp_tile_m;
  c.col = (tid / TG_LADDER_WARP / warps_m) * warp_tile_n;
  return c;
}

/* The row of A's tile and the chunk that lane `lane` addresses for ldmatrix.x4 of m16 tile i at
 * k16 step ks (row0: the warp's first row): lane l gives row l % 16, k half l / 16. */
static TG_LAYOUT_HD tg_cell tg_ladder_ldsm_a_cell(int lane, int row0, int i, int ks) {
  const int chunks_per_k16 = TG_LADDER_MMA_K / TG_LADDER_CHUNK_ELEMS;
  tg_cell c;
  c.row = row0 + i * TG_LADDER_MMA_M + lane % TG_LADDER_MMA_M;
  c.col = ks * chunks_per_k16 + lane / TG_LADDER_MMA_M;
  return c;
}

/* The row of B's N×K tile and the chunk that lane `lane` addresses for the ldmatrix.x4 of n8
 * tiles j and j+1 at k16 step ks (col0: the warp's first column): lanes 0-7 tile j, k 0-7;
 * 8-15 tile j, k 8-15; 16-23 tile j+1, k 0-7; 24-31 tile j+1, k 8-15. */
static TG_LAYOUT_HD tg_cell tg_ladder_ldsm_b_cell(int lane, int col0, int j, int ks) {
  const int chunks_per_k16 = TG_LADDER_MMA_K / TG_LADDER_CHUNK_ELEMS, pair = 2;
  tg_cell c;
  c.row = col0 + (j + lane / (pair * TG_LADDER_LDSM_ROWS)) * TG_LADDER_MMA_N +
          lane % TG_LADDER_LDSM_ROWS;
  c.col = ks * chunks_per_k16 + (lane / TG_LADDER_LDSM_ROWS) % chunks_per_k16;
  return c;
}

/* The accumulators of an m16n8 tile: lane 4g+t holds row g, columns 2t and 2t + 1 in
 * accumulators [0..1], and row g + 8 (TG_LADDER_ACC_HALF_ROWS), the same columns, in [2..3].
 * Returns (g, 2t), the lane's first cell within the tile. */
#define TG_LADDER_ACC_HALF_ROWS (TG_LADDER_MMA_M / 2)
static TG_LAYOUT_HD tg_cell tg_ladder_acc_lane_cell(int lane) {
  const int quad = 4, pair = 2;
  tg_cell c;
  c.row = lane / quad;
  c.col = pair * (lane % quad);
  return c;
}

#endif /* TG_LADDER_LAYOUT_H */
