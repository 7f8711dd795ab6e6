/*
 * tune_verify.h — tg_tune's check of a kernel: one run into a NaN-filled D, compared element
 * by element with tg_reference under the error bound of docs/testing.md, a band of rows at a time
 * so that the oracle's fp64 output stays small at any size.
 */
#ifndef TG_TUNE_VERIFY_H
#define TG_TUNE_VERIFY_H

#include <stdint.h>
#include "handle.h"
#include "validate.h"

/* Bytes of oracle output (ref and mag) a band of rows may take. */
#define TG_TUNE_VERIFY_BYTES ((size_t)256 << 20)

/* Per-element bound of docs/testing.md (measure.h's tg_request_bound, the one the tests and tools
 * use): rel, abs and the saturation range [lo, hi] of an integer D. */
void tg_tune_tolerance(const tg_gemm *g, double *rel, double *abs, double *lo, double *hi);

/* Runs *g (g->kernel names the kernel) on the caller's buffers, D filled with NaN first (C is
 * read from a copy when it is D), and compares every element with tg_reference. L is g's
 * validated layout; the handle's device is current. TG_OK with the largest error/bound in
 * *worst and the count over the bound in *failures, or the status of what failed. */
tg_status tg_tune_verify(tg_handle *h, const tg_gemm *g, const tg_layout *L, const void *A,
                         const void *B, const void *C, void *D, tg_stream stream, double *worst,
                         int64_t *failures);

#endif /* TG_TUNE_VERIFY_H */
