/*
 * f32.h — launchers, split-K factors and workspace hooks of the f32 family (full fp32 math on
 * the CUDA cores, f32_gemm.cuh), one set per registry row.
 */
#ifndef TG_F32_H
#define TG_F32_H

#include <stddef.h>
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TG_F32_ROW_FUNCTIONS(name)                                                 \
  tg_status tg_f32_launch_##name(const tg_problem *p, struct CUstream_st *stream); \
  size_t tg_f32_workspace_##name(const tg_problem *p);                             \
  int tg_f32_splits_##name(const tg_problem *p);

TG_F32_ROW_FUNCTIONS(128x128)
TG_F32_ROW_FUNCTIONS(64x64)
TG_F32_ROW_FUNCTIONS(64x64_splitk)

#ifdef __cplusplus
}
#endif

#endif /* TG_F32_H */
