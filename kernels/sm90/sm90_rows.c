/*
 * sm90_rows.c — registry rows of the sm90 family (TMA + wgmma, warp-specialized, persistent).
 * sm_90a machine code runs on sm_90 only. Rows take f16/bf16 K-major operands whose pointers,
 * leading dimensions and batch strides are 16-byte aligned (TMA's rules); the planner repacks
 * anything else into such a copy first (`repack`), so no layout is refused.
 */
#include "kernel.h"
#include "sm90.h"

/* Planner preference of the family: above sm80 (10). */
#define SM90_RANK 20
/* Rung of the flagship kernel in the ladder, above the sm80 one (13). */
#define SM90_LADDER_RUNG 14
#define SM90_16BIT (TG_MASK(TG_IN_F16) | TG_MASK(TG_IN_BF16))
/* Row efficiencies: TFLOP/s at 4096³ bf16 (about 4 full waves for every row) over the best
 * row's, H100 2026-11-22: 128x256 767, 256x128 765, 128x256_c1 687, pingpong 672 (with its
 * smaller tile overhead: 86), 128x128 528, 128x64 360. 128x192 (2026-11-24): 97, from its time
 * against 128x256's in one run at 6144³, 4096×14336×4096 and 8192×8192×1024 with each row's
 * waves counted (4096³ is 5.3 waves of it, a stream-K shape). 128x144 (2026-11-25): 84 at full
 * waves (3072×1584×4096, two waves, 650 TFLOP/s against 776 for 128x256 at 3072×2816×4096), set to
 * 76: fitted to same-call choices against 128x128 and 128x192 at 1152³…1536³, 1280×1280×4096 and
 * 1536×1408×4096 (docs/sm90.md, "144-wide tiles"). 128x208 (2026-11-25): 96, its time against
 * 128x256's at two full waves each (3072×2288×4096, 743 TFLOP/s, against 3072×2816×4096, 772),
 * same call; the same calls picked it at 1792³ and 2560³ and the other rows at 1536³, 2048³,
 * 3072³ and 1664×4096×4096 (docs/sm90.md, "208-wide tiles"). 256x160 (2026-11-26): 99, 800 against
 * 807 TFLOP/s for 128x256 at 2816×7680×4096, where both run whole waves (4 and 5), same call; the
 * row holds the plain epilogue only (sm90_row_check). */
/* Tiles in flight per SM: one CTA per SM; cooperative CTAs work on one tile at a time,
 * pingpong CTAs on two (one per consumer warpgroup). */
#define COOPERATIVE_TILES 1
#define PINGPONG_TILES 2
/* Per-tile cost the math does not hide, in k units, fitted with the row efficiencies below to
 * bf16 runs on the H100 (2026-11-22): sm90_128x256x64 764 and 697 TFLOP/s at 4096³ and
 * 8192×8192×1024, sm90_pp_128x128x64 671 at 8192×8192×1024 (its overhead from an earlier pair,
 * 658 and 640). Cooperative consumers stop for the epilogue; pingpong hides it but moves more
 * shared memory per flop: it wins only at short K. */
#define COOPERATIVE_OVERHEAD_K 135
#define PINGPONG_OVERHEAD_K 39
/* What reading C (beta = 1) and GELU (bias+GELU) add to it, fitted the same way to
 * sm90_128x256x64 at 4096³ and 8192×8192×1024 (C: 460 and 390; GELU: 730 and 590) and
 * sm90_pp_128x128x64 (C: 150 and 180; GELU: 100 and 250), bf16, H100 2026-11-23. A cooperative
 * CTA's tensor cores idle through the whole epilogue; pingpong runs it under the other
 * consumer's mainloop, so at short K it wins these requests (8192×8192×1024 bias+GELU: 570
 * against 506 TFLOP/s). */
#define COOPERATIVE_C_OVERHEAD_K 420
#define COOPERATIVE_GELU_OVERHEAD_K 650
#define PINGPONG_C_OVERHEAD_K 160
#define PINGPONG_GELU_OVERHEAD_K 170
/* Cooperative tiles of 128×256 and 256×128 read C of the inputs' type into a borrowed stage while
 * the first half of a tile is worked (the RESID epilogue set, kernels/sm90/sm90_epilogue_sets.cuh): C costs
 * them far less, fitted to sm90_128x256x64 bf16 at 8192×8192×1024 and 4096³ (190 and 165, H100
 * 2026-11-26). C of another type goes through REST as before: f32 C at 8192×8192×1024 ran
 * 0.93× cuBLAS there against 1.03× on pingpong, so it keeps COOPERATIVE_C_OVERHEAD_K. */
#define COOPERATIVE_RESID_OVERHEAD_K COOPERATIVE_OVERHEAD_K
#define COOPERATIVE_RESID_C_OVERHEAD_K 175
#define COOPERATIVE_RESID_C_OTHER_OVERHEAD_K COOPERATIVE_C_OVERHEAD_K
#define COOPERATIVE_RESID_GELU_OVERHEAD_K COOPERATIVE_GELU_OVERHEAD_K
#define COOPERATIVE_C_OTHER_OVERHEAD_K 0 /* as its C of the inputs' type */
#define PINGPONG_C_OTHER_OVERHEAD_K 0

/* Cooperative rows split a mostly idle last wave between clusters (stream-K: readiness flags);
 * pingpong rows never do. */
#define SM90_ROW(row_name, text, tm, tn, cm, cn, eff, orders, fn) \
  SM90_RUNG(row_name, text, tm, tn, cm, cn, eff, orders, fn, 0, COOPERATIVE_TILES, COOPERATIVE, 1)
#define SM90_RESID_ROW(row_name, text, tm, tn, cm, cn, eff, orders, fn) \
  SM90_RUNG(row_name, text, tm, tn, cm, cn, eff, orders, fn, 0, COOPERATIVE_TILES, COOPERATIVE_RESID, 1)
#define SM90_PINGPONG_ROW(row_name, text, tm, tn, cm, cn, eff, orders, fn) \
  SM90_RUNG(row_name, text, tm, tn, cm, cn, eff, orders, fn, 0, PINGPONG_TILES, PINGPONG, 0)
/* A row that also stands as the top rung of the teaching ladder (`tilegemm ladder`); schedule
 * names its overheads (COOPERATIVE, COOPERATIVE_RESID or PINGPONG). */
#define SM90_RUNG(row_name, text, tm, tn, cm, cn, eff, orders, fn, ladder_rung, tiles_per_sm, schedule, sync) \
  {                                                                                         \
    .name = row_name, .family = "sm90", .summary = text, .rung = ladder_rung, .sm_min = 90, \
    .sm_max = 90,                                                                           \
    .auto_pick = 1, .rank = SM90_RANK, .inputs = SM90_16BIT, .outputs = TG_FLOAT_OUTPUTS,   \
    .a_orders = orders ? TG_ORDERS_ANY : TG_MASK(TG_ROW_MAJOR),                             \
    .b_orders = orders ? TG_ORDERS_ANY : TG_MASK(TG_COL_MAJOR), .align_ab = 16,             \
    .align_cd = 1, .tile_m = tm, .tile_n = tn, .tile_k = 64, .cluster_m = cm,               \
    .cluster_n = cn, .repack = 1,                                                          \
    .occupancy = tiles_per_sm,                                                              \
    .efficiency = eff, .tile_overhead_k = schedule##_OVERHEAD_K,                            \
    .c_overhead_k = schedule##_C_OVERHEAD_K, .c_other_overhead_k = schedule##_C_OTHER_OVERHEAD_K, \
    .gelu_overhead_k = schedule##_GELU_OVERHEAD_K,                                          \
    .sync_flags = sync,                                                                     \
    .launch = tg_sm90_launch_##fn,                                                          \
    .workspace = tg_sm90_workspace_##fn, .waves = tg_sm90_waves_##fn,                       \
    .extra_check = tg_sm90_check_##fn, .tma_maps = tg_sm90_maps_##fn,                       \
  }

#define ANY_ORDER 1
#define K_MAJOR_ONLY 0

const tg_kernel tg_rows_sm90[] = {
    SM90_RUNG("sm90_128x256x64", "f16/bf16 TMA+wgmma m64n256, 4 stages, 2-CTA multicast, any layout",
              128, 256, 2, 1, 100, ANY_ORDER, 128x256, SM90_LADDER_RUNG, COOPERATIVE_TILES, COOPERATIVE_RESID, 1),
    SM90_RESID_ROW("sm90_128x256x64_c1", "f16/bf16 TMA+wgmma m64n256, 4 stages, no cluster, any layout",
             128, 256, 1, 1, 90, ANY_ORDER, 128x256_c1),
    SM90_RESID_ROW("sm90_256x128x64", "f16/bf16 TMA+wgmma 2x m64n128, 4 stages, 2-CTA multicast, any layout",
             256, 128, 1, 2, 99, ANY_ORDER, 256x128),
    SM90_ROW("sm90_128x192x64", "f16/bf16 TMA+wgmma m64n192, 4 stages, 2-CTA multicast, K-major",
             128, 192, 2, 1, 97, K_MAJOR_ONLY, 128x192),
    SM90_ROW("sm90_128x208x64", "f16/bf16 TMA+wgmma m64n208, 4 stages, 2-CTA multicast, K-major",
             128, 208, 2, 1, 96, K_MAJOR_ONLY, 128x208),
    SM90_ROW("sm90_256x160x64", "f16/bf16 TMA+wgmma 2x m64n160, 4 stages, 2-CTA multicast, K-major, plain epilogue",
             256, 160, 1, 2, 99, K_MAJOR_ONLY, 256x160),
    SM90_ROW("sm90_128x144x64", "f16/bf16 TMA+wgmma m64n144, 5 stages, 2-CTA multicast, K-major",
             128, 144, 2, 1, 76, K_MAJOR_ONLY, 128x144),
    SM90_ROW("sm90_128x128x64", "f16/bf16 TMA+wgmma m64n128, 6 stages, K-major",
             128, 128, 1, 1, 69, K_MAJOR_ONLY, 128x128),
    SM90_PINGPONG_ROW("sm90_pp_128x128x64", "f16/bf16 TMA+wgmma pingpong, 128x128 per warpgroup, 6 stages, 2-CTA multicast, K-major",
                      128, 128, 2, 1, 86, K_MAJOR_ONLY, pp_128x128),
    SM90_ROW("sm90_128x64x64", "f16/bf16 TMA+wgmma m64n64, 8 stages, K-major",
             128, 64, 1, 1, 47, K_MAJOR_ONLY, 128x64),
};
const int tg_rows_sm90_count = (int)(sizeof tg_rows_sm90 / sizeof tg_rows_sm90[0]);
