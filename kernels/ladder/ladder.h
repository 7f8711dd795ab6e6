/*
 * ladder.h — launchers of the 16-bit tensor-core ladder (rungs 9-12, docs/ladder.md). Every
 * rung takes f16 or bf16 A and B, both K-major as computed (A row-major, B column-major: the
 * C = A·Bᵀ layout of an N×K B), fp32 accumulation, and writes f32, f16 or bf16 D.
 */
#ifndef TG_LADDER_H
#define TG_LADDER_H

#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

tg_status tg_ladder_09_wmma_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_ladder_10_wmma_double_buffer_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_ladder_11_mma_swizzle_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_ladder_12_mma_multistage_launch(const tg_problem *p, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_LADDER_H */
