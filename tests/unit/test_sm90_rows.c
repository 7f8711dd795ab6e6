/*
 * test_sm90_rows.c — the sm90 registry rows and the compiled sm90 kernels agree with the one
 * table they come from (kernels/sm90/sm90_configs.h), with no GPU:
 *   - every configuration of the table has its registry row, in the table's order, and the
 *     registry has no other sm90 row; each row's data is the table's (name, summary, tile,
 *     cluster, orders, efficiency, rung) and its entry points are the configuration's;
 *   - what the compiled C++ templates say of each configuration (tg_sm90_describe_<fn>: tile,
 *     stages, cluster, schedule, operand orders, epilogue sets) is what the row says, and the
 *     planner's overheads follow from it (two-group tiles, which compile RESID, charge C of the
 *     inputs' type apart).
 * With --instances it prints instead the kernel instances the configurations compile, one per
 * line, in the key format of scripts/sass_compare.py; scripts/sass_rows.py holds the objects'
 * machine code to that list (CTest `sass_rows`).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kernel.h"
#include "registry.h"
#include "sm90.h"

typedef struct table_row {
  const char *fn, *name, *summary;
  int bm, bn, stages, cm, cn, schedule, any_order, inputs, efficiency, rung;
  tg_launch_fn launch;
  tg_workspace_fn workspace;
  tg_waves_fn waves;
  tg_extra_check_fn check;
  tg_tma_maps_fn maps;
  void (*describe)(tg_sm90_row_info *);
} table_row;

#define TABLE_ROW(fn, name, summary, bm, bn, stages, cm, cn, schedule, orders, inputs, eff, rung) \
  {#fn,                                                                                           \
   name,                                                                                          \
   summary,                                                                                       \
   bm,                                                                                            \
   bn,                                                                                            \
   stages,                                                                                        \
   cm,                                                                                            \
   cn,                                                                                            \
   TG_SM90_##schedule,                                                                            \
   orders == TG_SM90_ANY_ORDER,                                                                   \
   inputs,                                                                                        \
   eff,                                                                                           \
   rung,                                                                                          \
   tg_sm90_launch_##fn,                                                                           \
   tg_sm90_workspace_##fn,                                                                        \
   tg_sm90_waves_##fn,                                                                            \
   tg_sm90_check_##fn,                                                                            \
   tg_sm90_maps_##fn,                                                                             \
   tg_sm90_describe_##fn},
static const table_row k_table[] = {TG_SM90_ROWS(TABLE_ROW)};
#define TABLE_ROWS ((int)(sizeof k_table / sizeof k_table[0]))

static const char *const k_set_names[TG_SM90_EPILOGUE_SETS] = {"LEAN", "CAST",  "REST",
                                                               "BIAS", "RESID", "ACT"};

/* The kernel instances of every configuration: input types × epilogue sets × operand orders. */
static int print_instances(void) {
  static const char *const sixteen_bit[] = {"f16", "bf16"};
  static const char *const fp8[] = {"e4m3/e4m3", "e4m3/e5m2", "e5m2/e4m3", "e5m2/e5m2"};
  static const char *const tf32[] = {"tf32"};
  static const char *const s8[] = {"s8"};
  static const char *const orders[] = {"K/K", "K/MN", "MN/K", "MN/MN"};
  for (int r = 0; r < TABLE_ROWS; ++r) {
    tg_sm90_row_info info;
    k_table[r].describe(&info);
    const char *const *types = sixteen_bit;
    int type_count = 2;
    if (info.inputs == TG_SM90_TF32) types = tf32, type_count = 1;
    else if (info.inputs == TG_SM90_S8) types = s8, type_count = 1;
    else if (info.inputs != TG_SM90_SIXTEEN_BIT) types = fp8, type_count = 4;
    for (int t = 0; t < type_count; ++t)
      for (int set = 0; set < TG_SM90_EPILOGUE_SETS; ++set) {
        if (!(info.epilogue_sets & TG_SM90_SET_BIT(set))) continue;
        for (int o = 0; o < (info.mn_major ? 4 : 1); ++o)
          printf("%s %dx%d %d stages, A/B %s-major, cluster %dx%d, %s, %s\n", types[t], info.tile_m,
                 info.tile_n, info.stages, orders[o], info.cluster_m, info.cluster_n,
                 info.schedule == TG_SM90_PINGPONG ? "pingpong" : "cooperative", k_set_names[set]);
      }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--instances") == 0) return print_instances();
  const unsigned k_major_a = TG_MASK(TG_ROW_MAJOR), k_major_b = TG_MASK(TG_COL_MAJOR);
  /* The registry's sm90 rows, in order. */
  const tg_kernel *rows[64];
  int count = 0;
  for (int i = 0; i < tg_registry_count(); ++i) {
    const tg_kernel *k = tg_registry_at(i);
    if (strcmp(k->family, "sm90") == 0 && count < 64) rows[count++] = k;
  }
  CHECK_MSG(count == TABLE_ROWS, "the registry has %d sm90 rows, the table %d", count, TABLE_ROWS);
  for (int r = 0; r < TABLE_ROWS && r < count; ++r) {
    const table_row *t = &k_table[r];
    const tg_kernel *k = rows[r];
    CHECK_MSG(strcmp(k->name, t->name) == 0, "sm90 row %d is %s, the table's %s", r, k->name,
              t->name);
    CHECK_MSG(tg_registry_find(t->name) == k, "%s: found by its name", t->name);
    CHECK_MSG(strcmp(k->summary, t->summary) == 0, "%s: summary", t->name);
    CHECK_MSG(k->tile_m == t->bm && k->tile_n == t->bn, "%s: tile %dx%d, the table's %dx%d",
              t->name, k->tile_m, k->tile_n, t->bm, t->bn);
    CHECK_MSG(k->cluster_m == t->cm && k->cluster_n == t->cn, "%s: cluster", t->name);
    CHECK_MSG(k->efficiency == t->efficiency && k->rung == t->rung, "%s: efficiency and rung",
              t->name);
    CHECK_MSG(k->a_orders == (t->any_order ? TG_ORDERS_ANY : k_major_a) &&
                  k->b_orders == (t->any_order ? TG_ORDERS_ANY : k_major_b),
              "%s: operand orders", t->name);
    CHECK_MSG(k->launch == t->launch && k->workspace == t->workspace && k->waves == t->waves &&
                  k->extra_check == t->check && k->tma_maps == t->maps,
              "%s: the configuration's entry points", t->name);
    CHECK_MSG(k->occupancy == (t->schedule == TG_SM90_PINGPONG ? 2 : 1),
              "%s: tiles in flight per SM", t->name);

    /* The compiled templates. */
    tg_sm90_row_info info;
    memset(&info, 0xff, sizeof info);
    t->describe(&info);
    CHECK_MSG(info.tile_m == k->tile_m && info.tile_n == k->tile_n && info.tile_k == k->tile_k,
              "%s: compiled tile %dx%dx%d, row %dx%dx%d", t->name, info.tile_m, info.tile_n,
              info.tile_k, k->tile_m, k->tile_n, k->tile_k);
    CHECK_MSG(info.stages == t->stages, "%s: compiled with %d stages, the table says %d", t->name,
              info.stages, t->stages);
    CHECK_MSG(info.cluster_m == k->cluster_m && info.cluster_n == k->cluster_n,
              "%s: compiled cluster", t->name);
    CHECK_MSG(info.schedule == t->schedule, "%s: compiled schedule", t->name);
    CHECK_MSG(info.inputs == t->inputs, "%s: compiled the atoms of its INPUTS column", t->name);
    const unsigned classes = t->inputs == TG_SM90_SIXTEEN_BIT
                                 ? (TG_MASK(TG_IN_F16) | TG_MASK(TG_IN_BF16))
                             : t->inputs == TG_SM90_TF32 ? TG_MASK(TG_IN_TF32)
                             : t->inputs == TG_SM90_S8   ? TG_MASK(TG_IN_S8)
                                                         : TG_MASK(TG_IN_FP8);
    CHECK_MSG(k->inputs == classes, "%s: the registry's input classes follow its INPUTS column",
              t->name);
    CHECK_MSG(info.mn_major == (k->a_orders == TG_ORDERS_ANY),
              "%s: MN-major kernels compiled exactly when the row "
              "takes any layout",
              t->name);
    const unsigned lean = TG_SM90_SET_BIT(TG_SM90_EPILOGUES_LEAN);
    const unsigned four = lean | TG_SM90_SET_BIT(TG_SM90_EPILOGUES_BIAS) |
                          TG_SM90_SET_BIT(TG_SM90_EPILOGUES_CAST) |
                          TG_SM90_SET_BIT(TG_SM90_EPILOGUES_REST);
    const unsigned six =
        four | TG_SM90_SET_BIT(TG_SM90_EPILOGUES_RESID) | TG_SM90_SET_BIT(TG_SM90_EPILOGUES_ACT);
    /* int8 rows: the exact int32 product by TMA (LEAN), the rest through GENERAL (REST). */
    const unsigned lean_rest = lean | TG_SM90_SET_BIT(TG_SM90_EPILOGUES_REST);
    const int is_s8 = t->inputs == TG_SM90_S8;
    CHECK_MSG(info.epilogue_sets == (is_s8                               ? lean_rest
                                     : info.wide_acc                     ? lean
                                     : (info.epilogue_sets & six) == six ? six
                                                                         : four),
              "%s: epilogue sets 0x%x", t->name, info.epilogue_sets);
    const int resid = (info.epilogue_sets & TG_SM90_SET_BIT(TG_SM90_EPILOGUES_RESID)) != 0;
    CHECK_MSG(resid == (!is_s8 && TG_SM90_TWO_GROUP_TILE(t->bm, t->bn, t->schedule)),
              "%s: RESID compiled for two-group tiles", t->name);
    /* Two-group tiles charge C of the inputs' type apart from C of another type; the others do not. */
    CHECK_MSG(resid == (k->c_other_overhead_k != 0 && k->c_other_overhead_k != k->c_overhead_k),
              "%s: the planner's C overheads follow its epilogue sets", t->name);
    CHECK_MSG(!info.stream_k || k->sync_flags,
              "%s: a stream-K kernel's row asks for readiness flags", t->name);
    CHECK_MSG(!info.wide_acc || !info.stream_k, "%s: wide accumulators never split items", t->name);
    CHECK_MSG(info.smem_bytes_lean > 0, "%s: shared memory", t->name);
  }
  return tg_test_finish("test_sm90_rows");
}
