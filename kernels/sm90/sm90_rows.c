/*
 * sm90_rows.c — registry rows of the sm90 family (TMA + wgmma, warp-specialized, persistent),
 * one per configuration of sm90_configs.h. sm_90a machine code runs on sm_90 only. Rows take
 * f16/bf16 (or, the fp8 rows, e4m3/e5m2; the tf32 rows, f32 with tf32 compute) K-major operands whose pointers, leading dimensions and
 * batch strides are 16-byte aligned (TMA's rules); the planner repacks anything else into such a
 * copy first (`repack`), so no layout is refused.
 */
#include "kernel.h"
#include "sm90.h"

/* Planner preference of the family: above sm80 (10). */
#define SM90_RANK 20
#define SM90_16BIT (TG_MASK(TG_IN_F16) | TG_MASK(TG_IN_BF16))
#define SM90_FP8 TG_MASK(TG_IN_FP8)
#define SM90_TF32 TG_MASK(TG_IN_TF32)
#define SM90_S8 TG_MASK(TG_IN_S8)
/* k per stage: a 128-byte row of the input elements (Sm90Config::kBK). */
#define SM90_TILE_K_16BIT 64
#define SM90_TILE_K_FP8 128
#define SM90_TILE_K_TF32 32
#define SM90_TILE_K_S8 128
/* The input classes and the k per stage of an INPUTS column value (sm90_configs.h). */
#define SM90_INPUT_MASK(in_types)                 \
  ((in_types) == TG_SM90_SIXTEEN_BIT ? SM90_16BIT \
   : (in_types) == TG_SM90_TF32      ? SM90_TF32  \
   : (in_types) == TG_SM90_S8        ? SM90_S8    \
                                     : SM90_FP8)
#define SM90_TILE_K(in_types)                            \
  ((in_types) == TG_SM90_SIXTEEN_BIT ? SM90_TILE_K_16BIT \
   : (in_types) == TG_SM90_TF32      ? SM90_TILE_K_TF32  \
   : (in_types) == TG_SM90_S8        ? SM90_TILE_K_S8    \
                                     : SM90_TILE_K_FP8)
/* Tiles in flight per SM: one CTA per SM; cooperative CTAs work on one tile at a time,
 * pingpong CTAs on two (one per consumer warpgroup). */
#define COOPERATIVE_TILES 1
#define PINGPONG_TILES 2

/* The planner's per-tile costs the math does not hide, in k units (kernel.h), by the way a
 * configuration finishes its tiles; fitted with the rows' efficiencies to bf16 runs on the H100
 * (docs/history/sm90_code_notes.md keeps the runs). Cooperative consumers stop for the epilogue,
 * their tensor cores idle through all of it; pingpong runs it under the other consumer's mainloop
 * but moves more shared memory per flop: it wins only at short K, and there also the requests
 * that read C or run GELU. */
#define COOPERATIVE_OVERHEAD_K 135
#define COOPERATIVE_C_OVERHEAD_K 420
#define COOPERATIVE_C_OTHER_OVERHEAD_K 0 /* as its C of the inputs' type */
#define COOPERATIVE_GELU_OVERHEAD_K 650
#define PINGPONG_OVERHEAD_K 39
#define PINGPONG_C_OVERHEAD_K 160
#define PINGPONG_C_OTHER_OVERHEAD_K 0
#define PINGPONG_GELU_OVERHEAD_K 170
/* Two-group tiles (sm90.h) read C of the inputs' type into a borrowed stage while the first half
 * of a tile is worked (the RESID epilogue set): C costs them far less. C of another type goes
 * through REST as before and keeps the cooperative cost. */
#define COOPERATIVE_RESID_OVERHEAD_K COOPERATIVE_OVERHEAD_K
#define COOPERATIVE_RESID_C_OVERHEAD_K 175
#define COOPERATIVE_RESID_C_OTHER_OVERHEAD_K COOPERATIVE_C_OVERHEAD_K
#define COOPERATIVE_RESID_GELU_OVERHEAD_K COOPERATIVE_GELU_OVERHEAD_K

/* A cost of a configuration: pingpong's, the two-group tiles', or the other cooperative ones'. */
#define SM90_COST(cost, bm, bn, schedule)                                          \
  (TG_SM90_##schedule == TG_SM90_PINGPONG               ? PINGPONG_##cost          \
   : TG_SM90_TWO_GROUP_TILE(bm, bn, TG_SM90_##schedule) ? COOPERATIVE_RESID_##cost \
                                                        : COOPERATIVE_##cost)

/* A row of sm90_configs.h as the registry holds it. Cooperative rows may split a mostly idle last
 * wave between clusters (stream-K: readiness flags); pingpong rows never do. */
#define SM90_REGISTRY_ROW(fn, row_name, text, bm, bn, stages, cm, cn, schedule, orders, in_types, \
                          eff, ladder_rung)                                                       \
  {                                                                                               \
      .name = row_name,                                                                           \
      .family = "sm90",                                                                           \
      .summary = text,                                                                            \
      .rung = ladder_rung,                                                                        \
      .sm_min = 90,                                                                               \
      .sm_max = 90,                                                                               \
      .auto_pick = 1,                                                                             \
      .rank = SM90_RANK,                                                                          \
      .inputs = SM90_INPUT_MASK(in_types),                                                        \
      .outputs = in_types == TG_SM90_S8 ? TG_ALL_OUTPUTS : TG_FLOAT_OUTPUTS,                      \
      .a_orders = orders ? TG_ORDERS_ANY : TG_MASK(TG_ROW_MAJOR),                                 \
      .b_orders = orders ? TG_ORDERS_ANY : TG_MASK(TG_COL_MAJOR),                                 \
      .align_ab = 16,                                                                             \
      .align_cd = 1,                                                                              \
      .tile_m = bm,                                                                               \
      .tile_n = bn,                                                                               \
      .tile_k = SM90_TILE_K(in_types),                                                            \
      .cluster_m = cm,                                                                            \
      .cluster_n = cn,                                                                            \
      .repack = 1,                                                                                \
      .occupancy = TG_SM90_##schedule == TG_SM90_PINGPONG ? PINGPONG_TILES : COOPERATIVE_TILES,   \
      .efficiency = eff,                                                                          \
      .tile_overhead_k = SM90_COST(OVERHEAD_K, bm, bn, schedule),                                 \
      .c_overhead_k = SM90_COST(C_OVERHEAD_K, bm, bn, schedule),                                  \
      .c_other_overhead_k = SM90_COST(C_OTHER_OVERHEAD_K, bm, bn, schedule),                      \
      .gelu_overhead_k = SM90_COST(GELU_OVERHEAD_K, bm, bn, schedule),                            \
      .sync_flags = TG_SM90_##schedule == TG_SM90_COOPERATIVE,                                    \
      .launch = tg_sm90_launch_##fn,                                                              \
      .workspace = tg_sm90_workspace_##fn,                                                        \
      .waves = tg_sm90_waves_##fn,                                                                \
      .extra_check = tg_sm90_check_##fn,                                                          \
      .tma_maps = tg_sm90_maps_##fn,                                                              \
      .prepare = tg_sm90_prepare_##fn,                                                            \
  },

const tg_kernel tg_rows_sm90[] = {TG_SM90_ROWS(SM90_REGISTRY_ROW)};
const int tg_rows_sm90_count = (int)(sizeof tg_rows_sm90 / sizeof tg_rows_sm90[0]);
