/*
 * ladder_rows.c — registry rows of the 16-bit tensor-core ladder, rungs 9-12 (docs/ladder.md).
 *
 * Teaching kernels: the planner never picks them (auto_pick = 0); force one with
 * tg_gemm.kernel or run them all with `tilegemm ladder --dtype bf16` (or f16). Each takes f16
 * or bf16 A and B with fp32 accumulation, both operands K-major as computed (A row-major, B
 * column-major: C = A·Bᵀ of an N×K B, as in seed 000), any m, n and k (edges predicated and
 * zero-filled), any batch, alpha/beta and epilogue, and writes f32, f16 or bf16 D. Every rung
 * moves A and B in 16-byte chunks where they are 16-byte aligned (pointer, leading dimension,
 * batch stride) and element by element where they are not, and rung 12 picks its vector
 * stores of D the same way, so no rung needs more than element alignment. One CTA per
 * 128×128 output tile limits m to 65535 row tiles and batch to 65535.
 */
#include "kernel.h"
#include "ladder.h"
#include "ladder_limits.h"

#define LADDER_TILE_M 128
#define LADDER_TILE_N 128
#define LADDER_TILE_K 32
/* Bytes of one f16/bf16 element: the alignment every rung needs (chunks are chosen at run time). */
#define LADDER_ALIGN_AB 2

static tg_status fits_grid(const tg_problem *p, char *why, size_t n) {
  return tg_ladder_check_grid(p, LADDER_TILE_M, why, n);
}

#define LADDER_ROW(name_, summary_, rung_, launch_)                                               \
  {                                                                                               \
    .name = (name_), .family = "ladder", .summary = (summary_), .rung = (rung_),                  \
    .sm_min = TG_SM_ANY_MIN, .sm_max = TG_SM_ANY_MAX, .auto_pick = 0, .rank = 0,                  \
    .inputs = TG_MASK(TG_IN_F16) | TG_MASK(TG_IN_BF16), .outputs = TG_FLOAT_OUTPUTS,              \
    .a_orders = TG_MASK(TG_ROW_MAJOR), .b_orders = TG_MASK(TG_COL_MAJOR),                         \
    .align_ab = LADDER_ALIGN_AB, .align_cd = 1, .tile_m = LADDER_TILE_M, .tile_n = LADDER_TILE_N, \
    .tile_k = LADDER_TILE_K, .launch = (launch_), .extra_check = fits_grid,                       \
  }

const tg_kernel tg_rows_ladder[] = {
    LADDER_ROW("ladder_09_wmma", "ladder 9: f16/bf16 tensor cores via WMMA, 8 warps, one stage", 9,
               tg_ladder_09_wmma_launch),
    LADDER_ROW("ladder_10_wmma_double_buffer", "ladder 10: WMMA with double-buffered smem", 10,
               tg_ladder_10_wmma_double_buffer_launch),
    LADDER_ROW("ladder_11_mma_swizzle",
               "ladder 11: mma.sync m16n8k16, cp.async, swizzled smem, ldmatrix (seed 000)", 11,
               tg_ladder_11_mma_swizzle_launch),
    LADDER_ROW("ladder_12_mma_multistage",
               "ladder 12: rung 11 + 4-stage cp.async pipeline, smem-staged epilogue", 12,
               tg_ladder_12_mma_multistage_launch),
};
const int tg_rows_ladder_count = (int)(sizeof tg_rows_ladder / sizeof tg_rows_ladder[0]);
