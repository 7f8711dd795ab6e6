/*
 * sm80_rows.c — registry rows of the sm80 family (mma.sync + ldmatrix + cp.async multistage).
 * Runs on sm_80 and later. Occupancy is CTAs per SM from shared memory; efficiency is the
 * planner's relative throughput per wave, measured at 4096³ (docs/tuning.md): the 16-bit rows
 * run equal within the noise, so the large tiles, which load fewer bytes per flop, stay first at
 * 100; tf32 and int8 rows are scaled against their own best row. bench/fit_heuristic.py refits
 * them from `tilegemm tune` output.
 * Every row may repack A/B (odd leading dimensions, offset pointers, MN-major tf32/int8) into
 * K-major, 16-byte-aligned copies, so no request is refused for its layout or alignment.
 */
#include "kernel.h"
#include "sm80.h"

/* Planner preference of the family: above ref (0), below sm90 (20). */
#define SM80_RANK 10
/* Rung of the production mma.sync kernel in the ladder, after the 12 teaching rungs. */
#define SM80_LADDER_RUNG 13
#define SM80_16BIT (TG_MASK(TG_IN_F16) | TG_MASK(TG_IN_BF16))

#define SM80_ROW_DATA(row_name, text, inputs_mask, a_mask, b_mask, tm, tn, tk, occ, eff, fn) \
  SM80_RUNG_DATA(row_name, text, inputs_mask, a_mask, b_mask, tm, tn, tk, occ, eff, fn, 0)
/* A row that also stands as a top rung of the teaching ladder (`tilegemm ladder`). */
#define SM80_RUNG_DATA(row_name, text, inputs_mask, a_mask, b_mask, tm, tn, tk, occ, eff, fn, \
                       ladder_rung)                                                           \
  {                                                                                           \
    .name = row_name, .family = "sm80", .summary = text, .rung = ladder_rung, .sm_min = 80,   \
    .sm_max = TG_SM_ANY_MAX, .auto_pick = 1, .rank = SM80_RANK, .inputs = inputs_mask,        \
    .outputs = TG_ALL_OUTPUTS, .a_orders = a_mask, .b_orders = b_mask, .align_ab = 16,        \
    .align_cd = 1, .tile_m = tm, .tile_n = tn, .tile_k = tk, .repack = 1, .occupancy = occ,   \
    .efficiency = eff, .launch = tg_sm80_launch_##fn, .workspace = tg_sm80_workspace_##fn,    \
    .splits = tg_sm80_splits_##fn,                                                            \
  }

#define K_MAJOR_A TG_MASK(TG_ROW_MAJOR)
#define K_MAJOR_B TG_MASK(TG_COL_MAJOR)

const tg_kernel tg_rows_sm80[] = {
    SM80_RUNG_DATA("sm80_128x256x64", "f16/bf16 mma.sync, 8 warps, 4-stage cp.async, any layout",
                   SM80_16BIT, TG_ORDERS_ANY, TG_ORDERS_ANY, 128, 256, 64, 1, 100, h_128x256,
                   SM80_LADDER_RUNG),
    SM80_ROW_DATA("sm80_256x128x64", "f16/bf16 mma.sync, 8 warps, 4-stage cp.async, any layout",
                  SM80_16BIT, TG_ORDERS_ANY, TG_ORDERS_ANY, 256, 128, 64, 1, 100, h_256x128),
    SM80_ROW_DATA("sm80_128x128x64", "f16/bf16 mma.sync, 4 warps, 3 stages, 2 CTAs/SM, any layout",
                  SM80_16BIT, TG_ORDERS_ANY, TG_ORDERS_ANY, 128, 128, 64, 2, 99, h_128x128),
    SM80_ROW_DATA("sm80_64x128x64", "f16/bf16 mma.sync, 4 warps, 4-stage cp.async, any layout",
                  SM80_16BIT, TG_ORDERS_ANY, TG_ORDERS_ANY, 64, 128, 64, 2, 78, h_64x128),
    SM80_ROW_DATA("sm80_64x64x64", "f16/bf16 mma.sync, 4 warps, 4-stage cp.async, any layout",
                  SM80_16BIT, TG_ORDERS_ANY, TG_ORDERS_ANY, 64, 64, 64, 3, 60, h_64x64),
    SM80_ROW_DATA("sm80_128x128x64_splitk", "f16/bf16 128x128 with deterministic split-K",
                  SM80_16BIT, TG_ORDERS_ANY, TG_ORDERS_ANY, 128, 128, 64, 2, 99, h_128x128_splitk),
    SM80_ROW_DATA("sm80_64x64x64_splitk", "f16/bf16 64x64 with deterministic split-K", SM80_16BIT,
                  TG_ORDERS_ANY, TG_ORDERS_ANY, 64, 64, 64, 3, 60, h_64x64_splitk),
    SM80_ROW_DATA("sm80_tf32_256x128x32",
                  "tf32 mma.sync (inputs rounded to nearest), 8 warps, 3 stages, K-major",
                  TG_MASK(TG_IN_TF32), K_MAJOR_A, K_MAJOR_B, 256, 128, 32, 1, 100, tf32_256x128),
    SM80_ROW_DATA(
        "sm80_tf32_128x128x32",
        "tf32 mma.sync (inputs rounded to nearest), 4 warps, 3 stages, 2 CTAs/SM, K-major",
        TG_MASK(TG_IN_TF32), K_MAJOR_A, K_MAJOR_B, 128, 128, 32, 2, 95, tf32_128x128),
    SM80_ROW_DATA("sm80_tf32_64x64x32",
                  "tf32 mma.sync (inputs rounded to nearest), 4 warps, 4 stages, K-major",
                  TG_MASK(TG_IN_TF32), K_MAJOR_A, K_MAJOR_B, 64, 64, 32, 3, 60, tf32_64x64),
    SM80_ROW_DATA("sm80_tf32_64x64x32_splitk", "tf32 64x64 with deterministic split-K",
                  TG_MASK(TG_IN_TF32), K_MAJOR_A, K_MAJOR_B, 64, 64, 32, 3, 60, tf32_64x64_splitk),
    SM80_ROW_DATA("sm80_s8_128x256x128", "int8 mma.sync, exact int32, 8 warps, 3 stages, K-major",
                  TG_MASK(TG_IN_S8), K_MAJOR_A, K_MAJOR_B, 128, 256, 128, 1, 86, s8_128x256),
    SM80_ROW_DATA("sm80_s8_128x128x128", "int8 mma.sync, exact int32, 4 warps, 4 stages, K-major",
                  TG_MASK(TG_IN_S8), K_MAJOR_A, K_MAJOR_B, 128, 128, 128, 1, 100, s8_128x128),
    SM80_ROW_DATA("sm80_s8_64x64x128", "int8 mma.sync, exact int32, 4 warps, 4 stages, K-major",
                  TG_MASK(TG_IN_S8), K_MAJOR_A, K_MAJOR_B, 64, 64, 128, 3, 60, s8_64x64),
    SM80_ROW_DATA("sm80_s8_64x64x128_splitk", "int8 64x64 with deterministic split-K",
                  TG_MASK(TG_IN_S8), K_MAJOR_A, K_MAJOR_B, 64, 64, 128, 3, 60, s8_64x64_splitk),
};
const int tg_rows_sm80_count = (int)(sizeof tg_rows_sm80 / sizeof tg_rows_sm80[0]);
