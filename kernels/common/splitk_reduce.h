/*
 * splitk_reduce.h — the reduction of split-K partial sums, shared by the families that split k
 * (kernels/common/splitk_reduce.cu).
 */
#ifndef TG_SPLITK_REDUCE_H
#define TG_SPLITK_REDUCE_H

#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sums `splits` partial planes ([split][batch][m][n], packed; int32 for s8 inputs, fp32
 * otherwise) in split order and applies the epilogue of p. */
tg_status tg_splitk_reduce(const tg_problem *p, int splits, const void *partial,
                           struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_SPLITK_REDUCE_H */
