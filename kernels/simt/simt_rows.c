/*
 * simt_rows.c — registry rows of the fp32 CUDA-core ladder, rungs 1-8 (docs/ladder.md).
 *
 * Teaching kernels: the planner never picks them (auto_pick = 0); force one with
 * tg_gemm.kernel or run them all with `tilegemm ladder --dtype f32`. Each takes fp32 inputs
 * with full fp32 math, A and B row-major as computed (C = A·B with D row-major), any m, n and
 * k (edges predicated), any batch, alpha/beta and epilogue, and writes any float D; one CTA
 * per output tile limits m to 65535 row tiles and batch to 65535. Rungs 6-8 load 128-bit
 * vectors where A and B are 16-byte aligned (pointer, leading dimension, batch stride) and
 * fall back to 32-bit loads where they are not, so every rung needs only float alignment.
 */
#include "kernel.h"
#include "ladder_limits.h"
#include "simt.h"

/* One CTA per output tile: m up to 65535 row tiles, batch up to 65535 (ladder_limits.h). */
static tg_status fits_grid_32(const tg_problem *p, char *why, size_t n) {
  return tg_ladder_check_grid(p, 32, why, n);
}
static tg_status fits_grid_64(const tg_problem *p, char *why, size_t n) {
  return tg_ladder_check_grid(p, 64, why, n);
}
static tg_status fits_grid_128(const tg_problem *p, char *why, size_t n) {
  return tg_ladder_check_grid(p, 128, why, n);
}

#define SIMT_ROW(name_, summary_, rung_, align_, tm_, tn_, tk_, launch_)                          \
  {                                                                                               \
    .name = (name_), .family = "simt", .summary = (summary_), .rung = (rung_),                    \
    .sm_min = TG_SM_ANY_MIN, .sm_max = TG_SM_ANY_MAX, .auto_pick = 0, .rank = 0,                  \
    .inputs = TG_MASK(TG_IN_F32), .outputs = TG_FLOAT_OUTPUTS, .a_orders = TG_MASK(TG_ROW_MAJOR), \
    .b_orders = TG_MASK(TG_ROW_MAJOR), .align_ab = (align_), .align_cd = 1, .tile_m = (tm_),      \
    .tile_n = (tn_), .tile_k = (tk_), .launch = (launch_), .extra_check = fits_grid_##tm_,        \
  }

/* Bytes of one float: the alignment every rung needs (rungs 6-8 pick 128-bit loads at run time). */
#define SIMT_ALIGN 4

const tg_kernel tg_rows_simt[] = {
    SIMT_ROW("simt_01_naive",
             "ladder 1: fp32, one thread per output, lanes walk rows (uncoalesced)", 1, SIMT_ALIGN,
             32, 32, 1, tg_simt_01_naive_launch),
    SIMT_ROW("simt_02_coalesced", "ladder 2: fp32, one thread per output, lanes walk columns", 2,
             SIMT_ALIGN, 32, 32, 1, tg_simt_02_coalesced_launch),
    SIMT_ROW("simt_03_smem", "ladder 3: fp32, 32x32 tiles staged in shared memory", 3, SIMT_ALIGN,
             32, 32, 32, tg_simt_03_smem_launch),
    SIMT_ROW("simt_04_1d_blocktile", "ladder 4: fp32, each thread computes a column of 8 outputs",
             4, SIMT_ALIGN, 64, 64, 8, tg_simt_04_1d_blocktile_launch),
    SIMT_ROW("simt_05_2d_blocktile", "ladder 5: fp32, each thread computes an 8x8 block", 5,
             SIMT_ALIGN, 128, 128, 8, tg_simt_05_2d_blocktile_launch),
    SIMT_ROW("simt_06_vectorized", "ladder 6: fp32, 128-bit loads, A tile transposed in smem", 6,
             SIMT_ALIGN, 128, 128, 8, tg_simt_06_vectorized_launch),
    SIMT_ROW("simt_07_warptile", "ladder 7: fp32, warp tiling (conflict-free smem reads)", 7,
             SIMT_ALIGN, 128, 128, 8, tg_simt_07_warptile_launch),
    SIMT_ROW("simt_08_double_buffer", "ladder 8: fp32, warp tiling + double-buffered smem", 8,
             SIMT_ALIGN, 128, 128, 8, tg_simt_08_double_buffer_launch),
};
const int tg_rows_simt_count = (int)(sizeof tg_rows_simt / sizeof tg_rows_simt[0]);
