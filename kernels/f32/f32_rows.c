/*
 * f32_rows.c — registry rows of the f32 family: fp32 inputs with full fp32 math (TG_IN_F32) on
 * the CUDA cores, the planner's choice for such requests (only `ref` serves them besides, at a
 * fraction of the speed). Every row takes A and B in either order and at any float alignment
 * (16-byte copies where an MN-major operand allows them, 4-byte copies otherwise), any m, n and k
 * (edges predicated), any batch and batch strides, alpha/beta and the full epilogue, and writes
 * any float D. Occupancy is CTAs per SM; efficiency is a row's throughput per full wave relative
 * to the family's best row (docs/tuning.md says how to refit it).
 */
#include <stdio.h>

#include "f32.h"
#include "kernel.h"

/* Planner preference of the family: above ref (0), the only other family that serves it. */
#define F32_RANK 10
/* Bytes of one float: the only alignment the rows need of A and B (16-byte copies are a run-time
 * choice of the launcher). */
#define F32_ALIGN 4
/* Largest gridDim.x: the output tiles of one batch (batches are walked over gridDim.y). */
#define F32_MAX_GRID_X 0x7fffffffLL

/* One CTA per output tile of a batch on the grid's x dimension: at most 2^31 - 1 of them. */
static tg_status fits_grid(const tg_problem *p, int tile_m, int tile_n, char *why, size_t n) {
  const int64_t tiles = ((p->m + tile_m - 1) / tile_m) * ((p->n + tile_n - 1) / tile_n);
  if (tiles > F32_MAX_GRID_X) {
    snprintf(why, n,
             "f32 kernels launch one CTA per %dx%d output tile: they take at most %lld tiles "
             "(this request has %lld)",
             tile_m, tile_n, (long long)F32_MAX_GRID_X, (long long)tiles);
    return TG_ERR_NOT_SUPPORTED;
  }
  return TG_OK;
}
static tg_status fits_grid_128x128(const tg_problem *p, char *why, size_t n) {
  return fits_grid(p, 128, 128, why, n);
}
static tg_status fits_grid_64x64(const tg_problem *p, char *why, size_t n) {
  return fits_grid(p, 64, 64, why, n);
}

/* The pipeline's first k-tiles, which nothing overlaps within the CTA, and the epilogue, as the
 * k they equal. */
#define F32_TILE_OVERHEAD_K 16

#define F32_ROW(row_name, text, tm, tn, tk, occ, eff, fn)                                    \
  {                                                                                          \
    .name = row_name, .family = "f32", .summary = text, .sm_min = TG_SM_ANY_MIN,             \
    .sm_max = TG_SM_ANY_MAX, .auto_pick = 1, .rank = F32_RANK, .inputs = TG_MASK(TG_IN_F32), \
    .outputs = TG_FLOAT_OUTPUTS, .a_orders = TG_ORDERS_ANY, .b_orders = TG_ORDERS_ANY,       \
    .align_ab = F32_ALIGN, .align_cd = 1, .tile_m = tm, .tile_n = tn, .tile_k = tk,          \
    .occupancy = occ, .efficiency = eff, .tile_overhead_k = F32_TILE_OVERHEAD_K,             \
    .launch = tg_f32_launch_##fn, .workspace = tg_f32_workspace_##fn,                        \
    .splits = tg_f32_splits_##fn, .extra_check = fits_grid_##tm##x##tn,                      \
  }

const tg_kernel tg_rows_f32[] = {
    F32_ROW("f32_128x128x16", "fp32 FFMA, 8 warps, 3-stage cp.async, 2 CTAs/SM, any layout", 128,
            128, 16, 2, 100, 128x128),
    F32_ROW("f32_64x64x16", "fp32 FFMA, 4 warps, 3-stage cp.async, 4 CTAs/SM, any layout", 64, 64,
            16, 4, 75, 64x64),
    F32_ROW("f32_64x64x16_splitk", "fp32 FFMA 64x64 with deterministic split-K", 64, 64, 16, 4, 75,
            64x64_splitk),
};
const int tg_rows_f32_count = (int)(sizeof tg_rows_f32 / sizeof tg_rows_f32[0]);
