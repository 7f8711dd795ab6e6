/*
 * sm90.h — launchers of the sm90 (TMA + wgmma) family, one per registry row.
 */
#ifndef TG_SM90_H
#define TG_SM90_H

#include <stddef.h>
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A row's three entry points (defined by SM90_ROW_FUNCTIONS in sm90_launch.cuh): its launcher,
 * its stream-K workspace in bytes and its wave count for the planner. */
#define TG_SM90_ROW_DECLARE(name)                                                \
  tg_status tg_sm90_launch_##name(const tg_problem *p, struct CUstream_st *stream); \
  size_t tg_sm90_workspace_##name(const tg_problem *p);                            \
  double tg_sm90_waves_##name(const tg_problem *p);

TG_SM90_ROW_DECLARE(128x256)
TG_SM90_ROW_DECLARE(128x256_c1)
TG_SM90_ROW_DECLARE(256x128)
TG_SM90_ROW_DECLARE(128x128)
TG_SM90_ROW_DECLARE(128x64)
TG_SM90_ROW_DECLARE(128x192)
TG_SM90_ROW_DECLARE(128x144)
TG_SM90_ROW_DECLARE(128x208)
TG_SM90_ROW_DECLARE(pp_128x128)

/* TMA limits beyond the row's data: strides below 2^40 bytes. */
tg_status tg_sm90_check(const tg_problem *p, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif /* TG_SM90_H */
