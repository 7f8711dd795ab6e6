/*
 * layout_hd.h — what the layout headers of the kernel families share: TG_LAYOUT_HD, which makes
 * their index functions host-and-device inline functions, and the small position types they
 * return.
 *
 * A layout header holds the index arithmetic of a kernel: which elements a thread stages, where
 * they land in shared memory, which fragment elements and outputs it owns, as functions of the
 * thread index and the kernel's compile-time shape. The kernels call them with constants, so
 * the compiler folds them into the instructions the arithmetic written inline would give, and
 * `tilegemm trace` (tools/trace) calls the same functions on the host: the trace it prints is
 * the kernel's own arithmetic and cannot drift from it. Each function keeps the argument types
 * of the expression it replaced (a thread index that was threadIdx.x stays unsigned), so the
 * arithmetic is the same on both sides. Valid C and CUDA C++, like interface/problem.h.
 */
#ifndef TG_LAYOUT_HD_H
#define TG_LAYOUT_HD_H

#include <stdint.h>

#ifdef __CUDACC__
#define TG_LAYOUT_HD __host__ __device__ __forceinline__
#else
#define TG_LAYOUT_HD inline
#endif

/* States a fact about a layout function's result that the device compiler knew when the same
 * arithmetic stood inline in the kernel (an index is not negative, say): without it, the
 * function boundary can hide the fact from the optimizer and change the machine code. No code
 * on the host. */
#ifdef __CUDA_ARCH__
#define TG_LAYOUT_ASSUME(cond) __builtin_assume(cond)
#else
#define TG_LAYOUT_ASSUME(cond) ((void)0)
#endif

/* A position in a tile or an array: row and column, both small. */
typedef struct tg_cell {
  int row, col;
} tg_cell;

/* A position in a matrix (row and column may reach the problem's extents). */
typedef struct tg_cell64 {
  int64_t row, col;
} tg_cell64;

/* Vector v of a row-major tile staged as per_row vectors of `vec` columns to a row (epilogue
 * segments: consecutive v on consecutive columns): its row and first column. */
static TG_LAYOUT_HD tg_cell tg_row_vector_cell(int v, int per_row, int vec) {
  tg_cell c;
  c.row = v / per_row;
  c.col = (v % per_row) * vec;
  return c;
}

/* Where thread tid of a warp-tiled CTA works: the first row and column of its first sub-block.
 * Warps (warp_threads lanes) are numbered down m first, warps_m of them, each owning a
 * warp_tile_m × warp_tile_n tile; inside a warp the lanes are lane-major along n, lanes_n to a
 * row, each sub_m rows and sub_n columns apart from its neighbours. */
static TG_LAYOUT_HD tg_cell tg_warp_tile_place(unsigned tid, int warp_threads, int warps_m,
                                               int warp_tile_m, int warp_tile_n, int lanes_n,
                                               int sub_m, int sub_n) {
  const int warp = tid / warp_threads, lane = tid % warp_threads;
  const int warp_m = warp % warps_m, warp_n = warp / warps_m;
  tg_cell c;
  c.row = warp_m * warp_tile_m + (lane / lanes_n) * sub_m;
  c.col = warp_n * warp_tile_n + (lane % lanes_n) * sub_n;
  return c;
}

/* A CTA's output tile: its row and column among the tiles. */
typedef struct tg_tile_coord {
  int64_t tm, tn;
} tg_tile_coord;

/* The tile of CTA `id` in a grid of m_tiles × n_tiles, in grouped order: groups of group_m rows
 * of tiles, each group walked column by column, so that the CTAs running together share a few
 * tiles' worth of B's columns (which stay in L2) and A's rows. */
static TG_LAYOUT_HD tg_tile_coord tg_grouped_tile_of(int64_t id, int64_t m_tiles, int64_t n_tiles,
                                                     int64_t group_m) {
  const int64_t group = group_m * n_tiles;
  const int64_t first_m = (id / group) * group_m;
  const int64_t rows = m_tiles - first_m < group_m ? m_tiles - first_m : group_m;
  tg_tile_coord t;
  t.tm = first_m + (id % group) % rows;
  t.tn = (id % group) / rows;
  return t;
}

#endif /* TG_LAYOUT_HD_H */
