/*
 * simt_layout.h — where each thread of the fp32 rungs (1-8) works, as host-and-device functions
 * (layout_hd.h): the shapes of the rungs, the cells of the staged tiles a thread fills, and the
 * outputs it owns. The kernels call these with their compile-time shapes; `tilegemm trace`
 * calls the same functions, so its picture of a thread is the kernel's own arithmetic.
 *
 * Frame: A (m×k) and B (k×n) row-major, D = A·B row-major (simt_operands.cuh). A cell is
 * (row, col) of the array it names: as[row][col] is A(m0 + row, k0 + col), as_t[kk][row] is
 * A(m0 + row, k0 + kk), bs[kk][col] is B(k0 + kk, n0 + col). Valid C and CUDA C++.
 */
#ifndef TG_SIMT_LAYOUT_H
#define TG_SIMT_LAYOUT_H

#include <stdint.h>

#include "layout_hd.h"

/* Floats in one 128-bit access (simt_operands.cuh's kFloatsPerVector). */
#define TG_SIMT_VECTOR 4
/* Threads of a warp. */
#define TG_SIMT_WARP 32

/* ---- rungs 1-3: a 32×32 CTA of 32×32 threads, one output each ---------------------------- */

/* The CTA is TG_SIMT_SIDE × TG_SIMT_SIDE threads over a tile of D of that side (and, in rung
 * 3, k-tiles that deep). */
#define TG_SIMT_SIDE 32

/* Rung 1: thread (tx, ty) computes D(m0 + tx, n0 + ty): consecutive lanes walk rows. */
static TG_LAYOUT_HD tg_cell64 tg_simt01_output(int m0, int n0, unsigned tx, unsigned ty) {
  tg_cell64 c;
  c.row = m0 + tx;
  c.col = n0 + ty;
  return c;
}

/* Rung 2: thread (tx, ty) computes D(m0 + ty, n0 + tx): consecutive lanes walk columns. */
static TG_LAYOUT_HD tg_cell64 tg_simt02_output(int m0, int n0, unsigned tx, unsigned ty) {
  tg_cell64 c;
  c.row = m0 + ty;
  c.col = n0 + tx;
  return c;
}

/* Rung 3: thread (tx, ty) stages as[ty][tx] = A(m0 + ty, k0 + tx) and bs[ty][tx] =
 * B(k0 + ty, n0 + tx), and computes D(m0 + ty, n0 + tx): the same cell of every tile, lanes
 * along the contiguous dimension of each operand. */
static TG_LAYOUT_HD tg_cell tg_simt03_cell(int tx, int ty) {
  tg_cell c;
  c.row = ty;
  c.col = tx;
  return c;
}

/* ---- rungs 4-6: register blocking ---------------------------------------------------------- */

/* Rung 4: 64×64×8 CTA tile, a column of 8 outputs per thread. */
#define TG_SIMT04_TILE_M 64
#define TG_SIMT04_TILE_N 64
#define TG_SIMT04_TILE_K 8
#define TG_SIMT04_THREAD_M 8
/* Rungs 5 and 6: 128×128×8 CTA tile, an 8×8 block of outputs per thread. */
#define TG_SIMT05_TILE_M 128
#define TG_SIMT05_TILE_N 128
#define TG_SIMT05_TILE_K 8
#define TG_SIMT05_THREAD_M 8
#define TG_SIMT05_THREAD_N 8

/* Element e of a tile `cols` wide, taken row by row: consecutive e are consecutive columns.
 * Rungs 4 and 5 stage their tiles this way (e = tid + l·threads, so consecutive threads read
 * consecutive addresses). */
static TG_LAYOUT_HD tg_cell tg_simt_row_major_cell(int e, int cols) {
  tg_cell c;
  c.row = e / cols;
  c.col = e % cols;
  return c;
}

/* The first row and column of thread tid's thread_m × thread_n block of outputs, threads_n
 * threads along a row of the tile (rung 4: thread_n = 1, a column of outputs; rungs 5, 6). */
static TG_LAYOUT_HD tg_cell tg_simt_block_origin(int tid, int threads_n, int thread_m,
                                                 int thread_n) {
  tg_cell c;
  c.col = (tid % threads_n) * thread_n; /* col first: the order that keeps rung 4's code */
  c.row = (tid / threads_n) * thread_m;
  return c;
}

/* Rung 6, A: thread tid stages row tid % tile_m of A's tile, its float4s loads_a ·
 * (tid / tile_m) + l along k; the cell is (row, first k of float4 l), stored transposed into
 * as_t[k .. k + 3][row]. */
static TG_LAYOUT_HD tg_cell tg_simt06_a_cell(int tid, int l, int tile_m, int loads_a) {
  tg_cell c;
  c.row = tid % tile_m;
  c.col = ((tid / tile_m) * loads_a + l) * TG_SIMT_VECTOR;
  return c;
}

/* Float4 e of a tile vec_n float4s wide, row by row: its row and first column (rung 6's B). */
static TG_LAYOUT_HD tg_cell tg_simt_vector_cell(int e, int vec_n) {
  tg_cell c;
  c.row = e / vec_n;
  c.col = (e % vec_n) * TG_SIMT_VECTOR;
  return c;
}

/* ---- rungs 7 and 8: warp tiling (simt_warptile.cuh) ----------------------------------------- */

/* The warp-tiled shape of rungs 7 and 8, in WarpTileConfig's order: CTA tile m, n, k; warps
 * along m and n; lanes along m; the sub-block's m and n. 128×128×8, 2×4 warps of 64×32, lanes
 * 8×4 with 2×2 sub-blocks of 4×4. */
#define TG_SIMT_WARPTILE_SHAPE 128, 128, 8, 2, 4, 8, 4, 4
/* Rung 8's shared buffers: k-tile kt is staged into buffer kt % TG_SIMT08_BUFFERS. */
#define TG_SIMT08_BUFFERS 2

typedef struct tg_simt_warptile {
  int tile_m, tile_n, tile_k, warps_m, warps_n, lanes_m, sub_m, sub_n;
} tg_simt_warptile;

/* The derived extents of a shape (WarpTileConfig computes the same at compile time). */
static TG_LAYOUT_HD int tg_simt_wt_threads(tg_simt_warptile s) {
  return TG_SIMT_WARP * s.warps_m * s.warps_n;
}
static TG_LAYOUT_HD int tg_simt_wt_lanes_n(tg_simt_warptile s) { return TG_SIMT_WARP / s.lanes_m; }
static TG_LAYOUT_HD int tg_simt_wt_iter_m(tg_simt_warptile s) {
  return s.tile_m / s.warps_m / (s.lanes_m * s.sub_m);
}
static TG_LAYOUT_HD int tg_simt_wt_iter_n(tg_simt_warptile s) {
  return s.tile_n / s.warps_n / (tg_simt_wt_lanes_n(s) * s.sub_n);
}
static TG_LAYOUT_HD int tg_simt_wt_loads_a(tg_simt_warptile s) {
  return s.tile_m * (s.tile_k / TG_SIMT_VECTOR) / tg_simt_wt_threads(s);
}
static TG_LAYOUT_HD int tg_simt_wt_loads_b(tg_simt_warptile s) {
  return s.tile_k * (s.tile_n / TG_SIMT_VECTOR) / tg_simt_wt_threads(s);
}

/* Output i of a thread's block of rows (j of its columns) lies row_of(i) (col_of(j)) past its
 * place: sub-blocks of sub_m rows, lanes_m · sub_m apart. */
static TG_LAYOUT_HD int tg_simt_wt_row_of(int i, int sub_m, int lanes_m) {
  return (i / sub_m) * lanes_m * sub_m + i % sub_m;
}
static TG_LAYOUT_HD int tg_simt_wt_col_of(int j, int sub_n, int lanes_n) {
  return (j / sub_n) * lanes_n * sub_n + j % sub_n;
}

/* Staging of A: consecutive threads take consecutive rows (conflict-free transposed stores),
 * each loads_a adjacent float4s along its row, from k = a_k. */
static TG_LAYOUT_HD int tg_simt_wt_a_row(unsigned tid, int tile_m) { return tid % tile_m; }
static TG_LAYOUT_HD int tg_simt_wt_a_k(unsigned tid, int tile_m, int loads_a) {
  return (tid / tile_m) * loads_a * TG_SIMT_VECTOR;
}
/* Staging of B: consecutive threads take consecutive float4s of a row (vec_n per row), from row
 * b_row, then rows threads / vec_n apart. */
static TG_LAYOUT_HD int tg_simt_wt_b_row(unsigned tid, int vec_n) { return tid / vec_n; }
static TG_LAYOUT_HD int tg_simt_wt_b_col(unsigned tid, int vec_n) {
  return (tid % vec_n) * TG_SIMT_VECTOR;
}

#endif /* TG_SIMT_LAYOUT_H */
