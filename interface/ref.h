/*
 * ref.h — launchers of the GPU reference kernel (fp64 accumulation).
 */
#ifndef TG_REF_H
#define TG_REF_H

#include <stdint.h>
#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registered kernel `ref`: any valid problem, including k == 0 (the epilogue alone). */
tg_status tg_ref_launch(const tg_problem *p, struct CUstream_st *stream);

/* The oracle: writes the fp64 result before output rounding into ref, and the error-bound scale
 * into mag (may be NULL). Element (i, j) of batch b of the canonical problem goes to
 * [b*m*n + i*row_stride + j*col_stride]. */
tg_status tg_ref_oracle_launch(const tg_problem *p, double *ref, double *mag, int64_t row_stride,
                               int64_t col_stride, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_REF_H */
