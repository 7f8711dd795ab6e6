/*
 * simt.h — launchers of the fp32 CUDA-core ladder (rungs 1-8, docs/ladder.md). Every rung takes
 * the canonical problem with A and B row-major (C = A·B) and writes any float D.
 */
#ifndef TG_SIMT_H
#define TG_SIMT_H

#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

tg_status tg_simt_01_naive_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_02_coalesced_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_03_smem_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_04_1d_blocktile_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_05_2d_blocktile_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_06_vectorized_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_07_warptile_launch(const tg_problem *p, struct CUstream_st *stream);
tg_status tg_simt_08_double_buffer_launch(const tg_problem *p, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_SIMT_H */
