/*
 * sm80_layout.h — where each thread of the sm80 family (sm80_gemm.cuh) works, as host-and-device
 * functions (layout_hd.h): the configurations of the registry rows, the grouped tile order, the
 * swizzled 16-byte chunks a thread's cp.async fill, the rows its ldmatrix lanes address (K- or
 * MN-major tiles), the accumulator cell of a lane and the epilogue's segments. The kernels call
 * them with their compile-time shapes; `tilegemm trace` calls the same functions.
 *
 * Frame: a K-major tile is [rows = m or n][128 bytes of k], an MN-major one [rows = k][the m or
 * n extent]; both are rows of 16-byte chunks, chunk c of row r stored at c XOR (r mod 8).
 * Valid C and CUDA C++.
 */
#ifndef TG_SM80_LAYOUT_H
#define TG_SM80_LAYOUT_H

#include <stdint.h>

#include "layout_hd.h"

#define TG_CHUNK_BYTES 16
#define TG_SWIZZLE_ROWS 8
/* Bytes of k staged per tile: one 128-byte swizzled row per m or n of a K-major operand. */
#define TG_SM80_TILE_K_BYTES 128
/* Bytes of k one mma consumes per row: two 16-byte chunks, for every type. */
#define TG_SM80_MMA_K_BYTES 32
/* Rows of tiles that sweep the columns together (L2 reuse of B). */
#define TG_SM80_GROUP_M 8
/* fp32 words of padding per staging row: keeps the 8 rows a warp writes apart in banks. */
#define TG_SM80_STAGE_PAD 4
/* Rows of an ldmatrix 8×8 matrix, and of an mma tile along m. */
#define TG_SM80_LDSM_ROWS 8
#define TG_SM80_MMA_M 16
#define TG_SM80_MMA_N 8
#define TG_SM80_WARP 32

/* The configurations of the registry rows (sm80_rows.c), in the order of Sm80Gemm's template:
 * CTA tile m and n, warps along m and n, stages, and the CTAs per SM the registers must allow
 * (1 unless given). A row's tile k is TG_SM80_TILE_K_BYTES of its element type. */
#define TG_SM80_H_128X256 128, 256, 2, 4, 4
#define TG_SM80_H_256X128 256, 128, 4, 2, 4
#define TG_SM80_H_128X128 128, 128, 2, 2, 3, 2
#define TG_SM80_H_64X128 64, 128, 2, 2, 4
#define TG_SM80_H_64X64 64, 64, 2, 2, 4
#define TG_SM80_TF32_256X128 256, 128, 4, 2, 3
#define TG_SM80_TF32_128X128 128, 128, 2, 2, 3, 2
#define TG_SM80_TF32_64X64 64, 64, 2, 2, 4
#define TG_SM80_S8_128X256 128, 256, 2, 4, 3
#define TG_SM80_S8_128X128 128, 128, 2, 2, 4
#define TG_SM80_S8_64X64 64, 64, 2, 2, 4

/* Byte offset of logical chunk `chunk` of row `row` in a tile of row_chunks chunks per row. */
static TG_LAYOUT_HD uint32_t tg_sm80_swizzled_offset(int row, int chunk, int row_chunks) {
  return (uint32_t)((row * row_chunks + (chunk ^ (row & (TG_SWIZZLE_ROWS - 1)))) * TG_CHUNK_BYTES);
}

/* The first chunk a thread copies into a tile of row_chunks chunks per row: chunk tid %
 * row_chunks of row tid / row_chunks (its other rows follow threads / row_chunks apart).
 * Returns (row, chunk). */
static TG_LAYOUT_HD tg_cell tg_sm80_copy_cell(unsigned tid, int row_chunks) {
  tg_cell c;
  c.col = tid % row_chunks;
  c.row = tid / row_chunks;
  return c;
}

/* The warp `warp` of a CTA of warps_n warps along n: (its index along m, along n). */
static TG_LAYOUT_HD tg_cell tg_sm80_warp_cell(int warp, int warps_n) {
  tg_cell c;
  c.row = warp / warps_n;
  c.col = warp % warps_n;
  TG_LAYOUT_ASSUME(c.row >= 0 && c.col >= 0);
  return c;
}

/* The row and chunk lane `lane` addresses for ldmatrix.x4 of A's first m16 tile at k-step 0, K-
 * major tile: matrices rows 0-7 / 8-15 (lane bit 3) × k chunks 0 / 1 (lane bit 4). */
static TG_LAYOUT_HD tg_cell tg_sm80_ldsm_a_kmajor(int lane, int warp_m, int warp_tile_m) {
  tg_cell c;
  c.row = warp_m * warp_tile_m + (lane & 7) + 8 * ((lane >> 3) & 1);
  c.col = lane >> 4;
  return c;
}

/* The same for B's first pair of n8 tiles: matrices k chunks 0 / 1 (lane bit 3) × n rows 0-7 /
 * 8-15 (lane bit 4). */
static TG_LAYOUT_HD tg_cell tg_sm80_ldsm_b_kmajor(int lane, int warp_n, int warp_tile_n) {
  tg_cell c;
  c.row = warp_n * warp_tile_n + (lane & 7) + 8 * (lane >> 4);
  c.col = (lane >> 3) & 1;
  return c;
}

/* MN-major tiles ([k][m or n]), read with ldmatrix.trans: the k row and the chunk (of 8 m or n)
 * lane `lane` addresses for the m16 (n16) tile starting at column `first`, k-step ks. A's
 * matrices: m chunks (lane bit 3) × k rows 0-7 / 8-15 (bit 4); B's: k rows (bit 3) × n chunks
 * (bit 4). */
static TG_LAYOUT_HD tg_cell tg_sm80_ldsm_a_mn(int lane, int ks, int first) {
  const int mat = lane >> 3;
  tg_cell c;
  c.row = ks * 16 + (lane & 7) + 8 * (mat >> 1);
  c.col = first / 8 + (mat & 1);
  return c;
}
static TG_LAYOUT_HD tg_cell tg_sm80_ldsm_b_mn(int lane, int ks, int first) {
  const int mat = lane >> 3;
  tg_cell c;
  c.row = ks * 16 + (lane & 7) + 8 * (mat & 1);
  c.col = first / 8 + (mat >> 1);
  return c;
}

/* A fragment address at k-step ks, from the lane's address at k-step 0 in a K-major tile: the
 * k-step flips only the swizzled chunk bits (chunk 2·ks + h becomes (2·ks) XOR h XOR row % 8). */
static TG_LAYOUT_HD uint32_t tg_sm80_kstep_offset(uint32_t offset, int ks) {
  return offset ^ (uint32_t)(ks * TG_SM80_MMA_K_BYTES);
}

/* MN-major tiles whose warp spans 64 of their columns: the m16 (n16) tile i of a warp lies two
 * chunks past its first, which only flips bits of the swizzled chunk. */
static TG_LAYOUT_HD uint32_t tg_sm80_mn_tile_offset(uint32_t offset, int i) {
  return offset ^ (uint32_t)(i * 2 * TG_CHUNK_BYTES);
}

/* The accumulators of an m16n8 tile: lane 4g+t holds row g, columns 2t and 2t + 1 in
 * accumulators [0..1], and row g + 8, the same columns, in [2..3]. Returns (g, 2t). */
static TG_LAYOUT_HD tg_cell tg_sm80_acc_lane_cell(int lane) {
  tg_cell c;
  c.row = lane >> 2;
  c.col = 2 * (lane & 3);
  return c;
}

#endif /* TG_SM80_LAYOUT_H */
