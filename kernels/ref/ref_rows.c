/* ref_rows.c — registry row of the GPU reference kernel. */
#include "kernel.h"
#include "ref.h"

const tg_kernel tg_rows_ref[] = {
    {
        .name = "ref",
        .family = "ref",
        .summary = "GPU reference: fp64 accumulation, every dtype/layout/epilogue; the fallback",
        .sm_min = TG_SM_ANY_MIN,
        .sm_max = TG_SM_ANY_MAX,
        .auto_pick = 1,
        .rank = 0,
        .inputs = TG_ALL_INPUTS,
        .outputs = TG_ALL_OUTPUTS,
        .a_orders = TG_ORDERS_ANY,
        .b_orders = TG_ORDERS_ANY,
        .align_ab = 1,
        .align_cd = 1,
        .tile_m = 64,
        .tile_n = 64,
        .tile_k = 16,
        .launch = tg_ref_launch,
    },
};
const int tg_rows_ref_count = (int)(sizeof tg_rows_ref / sizeof tg_rows_ref[0]);
