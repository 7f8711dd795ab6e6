/*
 * sm80.h — launchers and workspace hooks of the sm80 (mma.sync) family, one per registry row.
 */
#ifndef TG_SM80_H
#define TG_SM80_H

#include <stddef.h>
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TG_SM80_ROW_FUNCTIONS(name)                                                 \
  tg_status tg_sm80_launch_##name(const tg_problem *p, struct CUstream_st *stream); \
  size_t tg_sm80_workspace_##name(const tg_problem *p);                             \
  int tg_sm80_splits_##name(const tg_problem *p);

/* f16 and bf16: any operand orders. */
TG_SM80_ROW_FUNCTIONS(h_128x256)
TG_SM80_ROW_FUNCTIONS(h_256x128)
TG_SM80_ROW_FUNCTIONS(h_128x128)
TG_SM80_ROW_FUNCTIONS(h_64x128)
TG_SM80_ROW_FUNCTIONS(h_64x64)
TG_SM80_ROW_FUNCTIONS(h_128x128_splitk)
TG_SM80_ROW_FUNCTIONS(h_64x64_splitk)
/* tf32: K-major operands. */
TG_SM80_ROW_FUNCTIONS(tf32_256x128)
TG_SM80_ROW_FUNCTIONS(tf32_128x128)
TG_SM80_ROW_FUNCTIONS(tf32_64x64)
TG_SM80_ROW_FUNCTIONS(tf32_64x64_splitk)
/* int8: K-major operands. */
TG_SM80_ROW_FUNCTIONS(s8_128x256)
TG_SM80_ROW_FUNCTIONS(s8_128x128)
TG_SM80_ROW_FUNCTIONS(s8_64x64)
TG_SM80_ROW_FUNCTIONS(s8_64x64_splitk)

#ifdef __cplusplus
}
#endif

#endif /* TG_SM80_H */
