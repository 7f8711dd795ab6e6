/*
 * sm90_layout.h — the sm90 family's index arithmetic that the host needs too, as constants and
 * host-and-device functions (layout_hd.h): the machine's and the stages' sizes, the grouped tile
 * order of the persistent scheduler, the k direction of a unit's loads, the rows of a K-major
 * operand's TMA box, and the 128-byte swizzle and wgmma accumulator layouts that the copy engine
 * and the tensor cores apply (the kernels name no per-element address: TMA and wgmma place the
 * elements; these functions say where, for `tilegemm trace` and its tests). sm90_config.cuh,
 * sm90_scheduler.cuh and the launcher take their numbers and functions from here, and
 * `tilegemm trace` (tools/trace/trace_sm90.c) calls the same functions.
 * Valid C and CUDA C++.
 */
#ifndef TG_SM90_LAYOUT_H
#define TG_SM90_LAYOUT_H

#include <stdint.h>

#include "layout_hd.h"

#define TG_WARP_THREADS 32    /* threads per warp */
#define TG_SM90_CONSUMERS 2   /* consumer warpgroups */
#define TG_SM90_WARPGROUP 128 /* threads per warpgroup */
#define TG_SM90_WARPS_PER_GROUP (TG_SM90_WARPGROUP / TG_WARP_THREADS)
#define TG_SM90_ROW_BYTES 128 /* a 128-byte swizzle row */
#define TG_SM90_BOX 64        /* 64 16-bit elements fill a swizzle row (an MN-major box side) */
#define TG_SM90_BOX_BYTES (TG_SM90_BOX * TG_SM90_ROW_BYTES) /* an MN-major 64×64 box */
#define TG_SM90_WGMMA_M 64                                  /* rows per wgmma */
#define TG_SM90_SWIZZLE_ATOM 1024 /* 8 rows × 128 bytes: alignment of swizzled tiles */
/* k per wgmma of each input type (sm90_config.cuh's atoms): 16-bit, fp8, tf32, int8. */
#define TG_SM90_WGMMA_K_16BIT 16
#define TG_SM90_WGMMA_K_FP8 32
#define TG_SM90_WGMMA_K_TF32 8
#define TG_SM90_WGMMA_K_S8 32

/* Rows of D that a group of tiles sweeping the columns together spans: a wave of 132 tiles of
 * 128×256 then covers about 16 × 8 tiles (of 256×128, 8 × 16), near the smallest A panel + B
 * panel it can read (2048 rows of A and about 2048 columns of B). */
#define TG_SM90_GROUP_ROWS 2048

/* Accumulator layout of a wgmma (wgmma_shapes.cuh): register r of a 64-row block holds row
 * 16·warp + lane/4 + 8·((r/2)%2) and column 8·(r/4) + 2·(lane%4) + r%2 of the block. */
#define TG_SM90_ACC_WARP_ROWS 16
#define TG_SM90_ACC_HALF_ROWS 8
#define TG_SM90_ACC_GROUP_COLS 8
#define TG_SM90_ACC_QUADS 4 /* lanes per accumulator row */

/* The 128-byte swizzle (TMA's SWIZZLE_128B, wgmma's descriptor mode 1): in a tile of 128-byte
 * rows starting on a TG_SM90_SWIZZLE_ATOM boundary, byte `byte` of row `row` is stored in 16-byte
 * chunk (byte / 16) XOR (row % 8) of that row. Returns its offset from the tile's start. */
#define TG_SM90_SWIZZLE_CHUNK 16
#define TG_SM90_SWIZZLE_ROWS 8
static TG_LAYOUT_HD int64_t tg_sm90_swizzle_128b(int64_t row, int byte) {
  const int chunk = (byte / TG_SM90_SWIZZLE_CHUNK) ^ (int)(row % TG_SM90_SWIZZLE_ROWS);
  return row * TG_SM90_ROW_BYTES + chunk * TG_SM90_SWIZZLE_CHUNK + byte % TG_SM90_SWIZZLE_CHUNK;
}

/* The cell of a 64-row wgmma block that accumulator register r of lane `lane` of warp `warp`
 * (of the warpgroup) holds (the layout above). */
static TG_LAYOUT_HD tg_cell tg_sm90_acc_cell(int warp, int lane, int r) {
  tg_cell c;
  c.row = warp * TG_SM90_ACC_WARP_ROWS + lane / TG_SM90_ACC_QUADS +
          TG_SM90_ACC_HALF_ROWS * ((r / 2) % 2);
  c.col = TG_SM90_ACC_GROUP_COLS * (r / 4) + 2 * (lane % TG_SM90_ACC_QUADS) + r % 2;
  return c;
}

/* Work item `item` in grouped order: batch, then TG_SM90_GROUP_ROWS rows of tiles sweeping the
 * columns, left to right in even groups and right to left in odd ones, so that a group starts
 * on the columns of B its predecessor read last (still in L2). A cluster's item is cluster_m
 * adjacent tile rows (or cluster_n adjacent tile columns) of tiles of bm rows; this CTA takes row
 * (column) `rank` of them; n_items counts the items along n. Written once per integer width: the
 * kernel uses 32-bit arithmetic when the item count allows (every thread runs this once per
 * tile, and a 64-bit division is a long call); the host, 64-bit. */
#define TG_SM90_TILE_COORDS(name, U)                                                               \
  static TG_LAYOUT_HD void name(U item, U m_items, U n_items, int bm, int cluster_m,               \
                                int cluster_n, int rank, int64_t *bat, int64_t *tm, int64_t *tn) { \
    const U per_batch = m_items * n_items;                                                         \
    *bat = (int64_t)(item / per_batch);                                                            \
    const U id = item % per_batch;                                                                 \
    const int group_items = TG_SM90_GROUP_ROWS / bm / cluster_m;                                   \
    const U group_rows = group_items > 0 ? group_items : 1;                                        \
    const U group = group_rows * n_items;                                                          \
    const U first_m = (id / group) * group_rows;                                                   \
    const U rows = m_items - first_m < group_rows ? m_items - first_m : group_rows;                \
    const U in_group = id % group;                                                                 \
    *tm = (int64_t)(first_m + in_group % rows) * cluster_m + (cluster_m > 1 ? rank : 0);           \
    const U col = in_group / rows, group_index = id / group;                                       \
    *tn = (int64_t)(group_index % 2 ? n_items - 1 - col : col) * cluster_n +                       \
          (cluster_n > 1 ? rank : 0);                                                              \
  }
TG_SM90_TILE_COORDS(tg_sm90_tile_coords_32, uint32_t)
TG_SM90_TILE_COORDS(tg_sm90_tile_coords_64, uint64_t)

/* Whether the producer loads a unit's k-tiles [kt_begin, kt_end) from last to first: every
 * other whole item a CTA runs (`nth` counts its units), so that one wave starts on the operand
 * slabs the previous wave read last, while they are still in L2. Parts of a split item
 * (stream-K) keep the ascending order. */
static TG_LAYOUT_HD int tg_sm90_loads_k_backwards(uint32_t nth, int kt_begin, int kt_end,
                                                  int k_tiles) {
  return (nth & 1) && kt_begin == 0 && kt_end == k_tiles;
}

/* Rows of a K-major operand's TMA box: its share of the tile, or, when the operand is not
 * shared and the matrix ends inside the first tile (M below BM for A, N below BN for B), only
 * the rows that exist, rounded up to a swizzle atom. Rows past the matrix would be zero-filled
 * by the copy engine, slowly. The tile rows left stale in shared memory are multiplied too, but
 * only into output rows that are never stored. extent < tile_rows means a single tile along
 * that dimension, so every tile of the launch takes the same box (and every stage the same byte
 * count). */
#define TG_SM90_BOX_ROW_ALIGN 8
static TG_LAYOUT_HD int tg_sm90_box_rows(int kmajor, int sharing, int tile_rows, int64_t extent) {
  const int share = tile_rows / sharing;
  if (!kmajor || sharing > 1 || extent >= tile_rows) return share;
  return (int)((extent + TG_SM90_BOX_ROW_ALIGN - 1) / TG_SM90_BOX_ROW_ALIGN *
               TG_SM90_BOX_ROW_ALIGN);
}

#endif /* TG_SM90_LAYOUT_H */
