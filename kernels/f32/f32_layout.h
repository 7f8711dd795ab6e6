/*
 * f32_layout.h — where each thread of the f32 family (f32_gemm.cuh, f32_operands.cuh) works, as
 * host-and-device functions (layout_hd.h): the rows' configurations, how an operand's k-tile is
 * staged (K-major transposed element by element, MN-major in 16-byte chunks or floats), the
 * first element a thread stages, the grouped tile order, the warp-tiled place of a thread and
 * the epilogue's segments. The kernels call them with their compile-time shapes; `tilegemm
 * trace` calls the same functions.
 *
 * Frame: whatever the operand's order, its staged tile is kTileK rows of k, each holding the
 * tile's m (n) extent and TG_F32_SMEM_PAD floats of padding. Valid C and CUDA C++.
 */
#ifndef TG_F32_LAYOUT_H
#define TG_F32_LAYOUT_H

#include <stdint.h>

#include "layout_hd.h"

/* The configurations of the registry rows (f32_rows.c), in F32Config's order: CTA tile m, n, k;
 * warps along m and n; stages; CTAs per SM the registers must allow. */
#define TG_F32_128X128 128, 128, 16, 2, 4, 3, 2
#define TG_F32_64X64 64, 64, 16, 2, 2, 3, 4

/* Floats of padding after each k row of a staged tile, floats in a 16-byte chunk, consecutive k
 * one warp access of a K-major operand takes from each row (one 32-byte sector), and the lanes
 * of a warp: 8 along m by 4 along n, each 4 rows (one float4 of A) by 8 columns. */
#define TG_F32_SMEM_PAD 4
#define TG_F32_VECTOR 4
#define TG_F32_K_LANES 8
#define TG_F32_WARP 32
#define TG_F32_LANES_M 8
#define TG_F32_LANES_N 4
#define TG_F32_THREAD_N (2 * TG_F32_VECTOR)
/* Rows of tiles that sweep the columns together (L2 reuse of B). */
#define TG_F32_GROUP_M 8

/* How an operand's k-tile reaches shared memory (f32_operands.cuh's F32Staging): k runs along
 * memory (transposed, one float per copy); m or n does, 16-byte aligned (chunks); or not
 * aligned (floats). */
#define TG_F32_K_MAJOR 0
#define TG_F32_MN_CHUNKS 1
#define TG_F32_MN_FLOATS 2

/* The staging of an operand from its order (k_major: k runs along memory) and its alignment in
 * bytes (pointer, leading dimension and batch stride). */
static TG_LAYOUT_HD int tg_f32_staging_of(int k_major, int align) {
  return k_major                                       ? TG_F32_K_MAJOR
         : align >= TG_F32_VECTOR * (int)sizeof(float) ? TG_F32_MN_CHUNKS
                                                       : TG_F32_MN_FLOATS;
}

/* The first element thread t stages of an operand's tile, threads_per_row threads to a k row of
 * an MN-major tile: K-major, row (outer index) t / 8 and k t % 8; MN-major, k row
 * t / threads_per_row and outer index (t % threads_per_row) times 4 (chunks) or 1 (floats).
 * Returns (k row, outer index). */
static TG_LAYOUT_HD tg_cell tg_f32_stage_cell(int t, int staging, int threads_per_row) {
  tg_cell c;
  if (staging == TG_F32_K_MAJOR) {
    c.row = t % TG_F32_K_LANES;
    c.col = t / TG_F32_K_LANES;
  } else {
    c.row = t / threads_per_row;
    c.col = (t % threads_per_row) * (staging == TG_F32_MN_CHUNKS ? TG_F32_VECTOR : 1);
  }
  return c;
}

/* Lane (lm, ln) = (lane / 4, lane % 4) of a warp owns rows 4·lm + {0..3} of each 32-row
 * sub-block of its warp's tile and columns 8·ln .. 8·ln + 7: returns (4·lm, 8·ln). */
static TG_LAYOUT_HD tg_cell tg_f32_lane_cell(int lane) {
  tg_cell c;
  c.row = (lane / TG_F32_LANES_N) * TG_F32_VECTOR;
  c.col = (lane % TG_F32_LANES_N) * TG_F32_THREAD_N;
  return c;
}

#endif /* TG_F32_LAYOUT_H */
