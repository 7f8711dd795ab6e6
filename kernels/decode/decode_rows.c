/*
 * decode_rows.c — registry rows of the decode family (decode_configs.h): skinny products whose
 * tokens side (m or n) is small, on sm_80 and later. Every row may repack A/B (MN-major or
 * unaligned operands) into K-major, 16-byte aligned copies. Its launches are costed by their
 * own CTA count (the waves hook), which follows whichever side holds the tokens.
 */
#include "decode.h"
#include "decode_shape.h"
#include "kernel.h"

/* Planner preference of the family: above sm80 (10), below sm90 (20). */
#define DECODE_RANK 15

#define DECODE_ROW_DATA(fn, row_name, text, RT, TT, AHEAD, CTAS) \
  {.name = row_name,                                             \
   .family = "decode",                                           \
   .summary = text,                                              \
   .sm_min = 80,                                                 \
   .sm_max = TG_SM_ANY_MAX,                                      \
   .auto_pick = 1,                                               \
   .rank = DECODE_RANK,                                          \
   .inputs = TG_MASK(TG_IN_F16) | TG_MASK(TG_IN_BF16),           \
   .outputs = TG_FLOAT_OUTPUTS,                                  \
   .a_orders = TG_MASK(TG_ROW_MAJOR),                            \
   .b_orders = TG_MASK(TG_COL_MAJOR),                            \
   .align_ab = 16,                                               \
   .align_cd = 1,                                                \
   .tile_m = 8 * (TT),                                           \
   .tile_n = 16 * (RT),                                          \
   .tile_k = TG_DECODE_CTA_K,                                    \
   .repack = 1,                                                  \
   .occupancy = CTAS,                                            \
   .memory_waves = 1,                                            \
   .launch = tg_decode_launch_##fn,                              \
   .workspace = tg_decode_workspace_##fn,                        \
   .splits = tg_decode_splits_##fn,                              \
   .waves = tg_decode_waves_##fn,                                \
   .extra_check = tg_decode_check_##fn},

const tg_kernel tg_rows_decode[] = {TG_DECODE_ROWS(DECODE_ROW_DATA)};
const int tg_rows_decode_count = (int)(sizeof tg_rows_decode / sizeof tg_rows_decode[0]);
