/*
 * device_tools.h — GPU helpers of the tests and the CLI (not of the library): random fills,
 * the comparison of a result against the fp64 oracle, and an empty kernel's launch.
 */
#ifndef TG_DEVICE_TOOLS_H
#define TG_DEVICE_TOOLS_H

#include <cuda_runtime_api.h>
#include <stdint.h>
#include "tilegemm.h"
#include "tolerance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills count elements of dtype t with tg_random_value(seed, i, t, exact). */
cudaError_t tg_fill_random_device(void *p, int64_t count, tg_dtype t, uint64_t seed, int exact,
                                  cudaStream_t stream);

typedef struct tg_verify_result {
  double worst_ratio; /* largest error/bound over all elements */
  int64_t checked;    /* elements compared */
  int64_t failures;   /* elements with ratio > 1 (NaN included) */
  int64_t nans;       /* NaN elements of D */
  int64_t first_bad;  /* index (b*m*n + i*n + j) of the first failure, -1 if none */
} tg_verify_result;

/* Compares D, laid out as *g says (d_type, c_order, ldd, batch_stride_d), with the oracle's
 * packed row-major ref and mag. Synchronizes stream. */
cudaError_t tg_verify_device(const tg_gemm *g, const void *D, const double *ref, const double *mag,
                             tg_tolerance tol, tg_verify_result *out, cudaStream_t stream);

/* The same comparison on host copies (D as laid out by *g). */
void tg_verify_host(const tg_gemm *g, const void *D, const double *ref, const double *mag,
                    tg_tolerance tol, tg_verify_result *out);

/* Launches a kernel that does nothing (one thread) on stream: what `tilegemm bench --host-time`
 * reports as the host time of a bare launch. */
cudaError_t tg_launch_empty(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_DEVICE_TOOLS_H */
