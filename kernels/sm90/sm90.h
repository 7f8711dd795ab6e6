/*
 * sm90.h — the sm90 (TMA + wgmma) family as C sees it: the entry points of every configuration
 * (sm90_configs.h), the schedules and epilogue sets by number, and the facts the registry rows
 * and the grid sizing share with the device code. Valid C and CUDA C++.
 */
#ifndef TG_SM90_H
#define TG_SM90_H

#include <stddef.h>
#include <stdint.h>
#include "kernel.h"
#include "problem.h"
#include "sm90_configs.h"
#include "tma_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the consumer warpgroups share the work of a CTA (sm90_config.cuh's Sm90Cooperative and
 * Sm90Pingpong say what each means). */
enum { TG_SM90_COOPERATIVE = 0, TG_SM90_PINGPONG = 1 };

/* The epilogue sets, by number: each compiled kernel holds one (sm90_epilogue_sets.cuh says what
 * each holds; the policy types there carry these numbers). */
enum {
  TG_SM90_EPILOGUES_LEAN = 0,  /* PLAIN, D of the inputs' type */
  TG_SM90_EPILOGUES_CAST = 1,  /* PLAIN and BIAS_RELU, D of another type */
  TG_SM90_EPILOGUES_REST = 2,  /* FULL and GENERAL */
  TG_SM90_EPILOGUES_BIAS = 3,  /* BIAS_RELU, D of the inputs' type */
  TG_SM90_EPILOGUES_RESID = 4, /* FULL with C, D of the inputs' type (two-group tiles) */
  TG_SM90_EPILOGUES_ACT = 5,   /* FULL without C, D of the inputs' type (two-group tiles) */
  TG_SM90_EPILOGUE_SETS = 6
};
#define TG_SM90_SET_BIT(set) (1u << (unsigned)(set))

/* Two-group tiles: cooperative tiles of 128×256 or 256×128, whose rows end in whole 128-byte
 * chunks, finish half their 16-bit D apart from the first half (held in registers, or staged in a
 * borrowed operand stage), and have the RESID and ACT sets besides the four every kernel has. The
 * planner charges their C by the RESID overheads (sm90_rows.c). */
#define TG_SM90_TWO_GROUP_TILE_AREA (128 * 256)
#define TG_SM90_CHUNK_COLS_16BIT 64 /* columns of 16-bit D in a 128-byte chunk */
#define TG_SM90_TWO_GROUP_TILE(bm, bn, schedule)                                      \
  ((schedule) == TG_SM90_COOPERATIVE && (bm) * (bn) == TG_SM90_TWO_GROUP_TILE_AREA && \
   (bn) % TG_SM90_CHUNK_COLS_16BIT == 0)

/* What a configuration's compiled code says of itself (tg_sm90_describe_<fn>), read from the
 * C++ templates, for the test that the registry rows and the kernels agree. */
typedef struct tg_sm90_row_info {
  int tile_m, tile_n, tile_k, stages, cluster_m, cluster_n, schedule;
  int mn_major;           /* 1: MN-major operands compiled */
  unsigned epilogue_sets; /* TG_SM90_SET_BIT of every set compiled */
  int wide_acc;           /* more than 128 accumulators per consumer thread */
  int stream_k;           /* may split work items between clusters */
  int smem_bytes_lean;    /* dynamic shared memory of its LEAN kernels */
  int inputs;             /* the INPUTS column its atoms compile (sm90_configs.h) */
} tg_sm90_row_info;

/* A configuration's entry points (defined by SM90_ROW_FUNCTIONS in sm90_launch.cuh): its
 * launcher, its launch prepared once for a plan's runs (kernel.h's prepare), its stream-K
 * workspace in bytes, its wave count for the planner, its check (kernel.h's
 * extra_check: the TMA maps within the driver's limits, and what a row of wide accumulators does
 * not serve), the TMA maps its launch encodes (kernel.h's tma_maps), and its description. */
#define TG_SM90_ROW_DECLARE(fn, ...)                                              \
  tg_status tg_sm90_launch_##fn(const tg_problem *p, struct CUstream_st *stream); \
  tg_status tg_sm90_prepare_##fn(const tg_problem *p, tg_prepared *prep);         \
  size_t tg_sm90_workspace_##fn(const tg_problem *p);                             \
  double tg_sm90_waves_##fn(const tg_problem *p);                                 \
  tg_status tg_sm90_check_##fn(const tg_problem *p, char *why, size_t why_len);   \
  int tg_sm90_maps_##fn(const tg_problem *p, tg_tma_desc *out, int max);          \
  void tg_sm90_describe_##fn(tg_sm90_row_info *out);

TG_SM90_ROWS(TG_SM90_ROW_DECLARE)

/* A cooperative launch of whole work items on up to `clusters` clusters runs them in rounds,
 * ceil(items / clusters). Where only a few clusters (at most 1 / TG_SM90_BALANCE_LIGHT_DIVISOR
 * of them) would run one item fewer than the others, it takes instead the fewest clusters that
 * finish in the same rounds: every cluster then runs the same number of items and the spare SMs
 * idle from the start. With more light clusters, the clusters that start half a tile late
 * (sm90_scheduler.cuh, thread_stagger_start) are worth more. Pingpong launches (two items in
 * flight per cluster) keep every cluster. */
#define TG_SM90_BALANCE_LIGHT_DIVISOR 3
static inline int64_t tg_sm90_whole_item_clusters(int64_t items, int64_t clusters) {
  if (clusters <= 0 || items <= clusters) return items < clusters ? items : clusters;
  const int64_t light = (clusters - items % clusters) % clusters;
  if (light == 0 || light * TG_SM90_BALANCE_LIGHT_DIVISOR > clusters) return clusters;
  const int64_t rounds = (items + clusters - 1) / clusters;
  return (items + rounds - 1) / rounds;
}

#ifdef __cplusplus
}
#endif

#endif /* TG_SM90_H */
