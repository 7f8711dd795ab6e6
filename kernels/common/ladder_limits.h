/*
 * ladder_limits.h — the one constraint every ladder kernel shares, as a registry extra_check:
 * one CTA per output tile, with row tiles on gridDim.y and batches on gridDim.z, both at most
 * 65535 (ladder_grid.cuh). Valid C and CUDA C++.
 */
#ifndef TG_LADDER_LIMITS_H
#define TG_LADDER_LIMITS_H

#include <stdio.h>

#include "problem.h"

/* Largest gridDim.y and gridDim.z. */
#define TG_LADDER_MAX_GRID_YZ 65535

static inline tg_status tg_ladder_check_grid(const tg_problem *p, int tile_m, char *why,
                                             size_t why_len) {
  const int64_t m_tiles = (p->m + tile_m - 1) / tile_m;
  if (m_tiles > TG_LADDER_MAX_GRID_YZ || p->batch > TG_LADDER_MAX_GRID_YZ) {
    snprintf(why, why_len,
             "ladder kernels launch one CTA per %d-row tile and per batch: they take m up to "
             "%lld and batch up to %d",
             tile_m, (long long)tile_m * TG_LADDER_MAX_GRID_YZ, TG_LADDER_MAX_GRID_YZ);
    return TG_ERR_NOT_SUPPORTED;
  }
  return TG_OK;
}

#endif /* TG_LADDER_LIMITS_H */
