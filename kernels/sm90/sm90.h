/*
 * sm90.h — launchers of the sm90 (TMA + wgmma) family, one per registry row.
 */
#ifndef TG_SM90_H
#define TG_SM90_H

#include <stddef.h>
#include <stdint.h>
#include "problem.h"
#include "tma_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A row's five entry points (defined by SM90_ROW_FUNCTIONS in sm90_launch.cuh): its launcher,
 * its stream-K workspace in bytes, its wave count for the planner, its check (kernel.h's
 * extra_check: the TMA maps within the driver's limits, and what a row of wide accumulators
 * does not serve) and the TMA maps its launch encodes (kernel.h's tma_maps). */
#define TG_SM90_ROW_DECLARE(name)                                                \
  tg_status tg_sm90_launch_##name(const tg_problem *p, struct CUstream_st *stream); \
  size_t tg_sm90_workspace_##name(const tg_problem *p);                            \
  double tg_sm90_waves_##name(const tg_problem *p);                                \
  tg_status tg_sm90_check_##name(const tg_problem *p, char *why, size_t why_len);  \
  int tg_sm90_maps_##name(const tg_problem *p, tg_tma_desc *out, int max);

TG_SM90_ROW_DECLARE(128x256)
TG_SM90_ROW_DECLARE(128x256_c1)
TG_SM90_ROW_DECLARE(256x128)
TG_SM90_ROW_DECLARE(128x128)
TG_SM90_ROW_DECLARE(128x64)
TG_SM90_ROW_DECLARE(128x192)
TG_SM90_ROW_DECLARE(128x144)
TG_SM90_ROW_DECLARE(128x208)
TG_SM90_ROW_DECLARE(256x160)
TG_SM90_ROW_DECLARE(pp_128x128)

/* A cooperative launch of whole work items on up to `clusters` clusters runs them in rounds,
 * ceil(items / clusters). Where only a few clusters (at most 1 / TG_SM90_BALANCE_LIGHT_DIVISOR
 * of them) would run one item fewer than the others, it takes instead the fewest clusters that
 * finish in the same rounds: every cluster then runs the same number of items and the spare SMs
 * idle from the start. Pingpong launches (two items in flight per cluster) keep every cluster.
 * H100, bf16 unless noted, a build that balanced every launch against all 66 clusters in the
 * same call, three repeats (docs/sm90.md, "A grid of equal shares"): 4096³ (256 items: 8 light
 * clusters; 64 instead) 0.999 → 1.003×, f16 1.002 → 1.007×; 4096×4096×8192 0.995 → 1.001×;
 * 4096×8192×4096 (16 light) 1.000 → 1.006×; 8192×4096×4096 f16 0.999 → 1.014×; 6144³ f16 (18
 * light) +1.5–4%. With 28 or 32 light clusters (4096×14336×4096, 8192×8192×1024) the clusters
 * that start half a tile late (sm90_gemm.cuh, thread_stagger_start) were worth more: 0.4–1.1%
 * lower balanced. */
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
