/*
 * cublas_runner.h — the same request through cuBLASLt, on the same buffers, for side-by-side
 * timing and a third opinion on the result. Only the CLI links cuBLAS; the library never does.
 */
#ifndef TG_CUBLAS_RUNNER_H
#define TG_CUBLAS_RUNNER_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include "tilegemm.h"

typedef struct tg_cublas_runner tg_cublas_runner;

/* Prepares cuBLASLt for *g (its heuristic's first algorithm). Returns NULL and the reason in
 * why when cuBLASLt cannot express or run it. */
tg_cublas_runner *tg_cublas_create(const tg_gemm *g, char *why, size_t why_len);

/* Enqueues one product; returns 0, or -1 with the cuBLAS status text in why. */
int tg_cublas_run(tg_cublas_runner *r, const void *A, const void *B, const void *C, void *D,
                  cudaStream_t stream, char *why, size_t why_len);

void tg_cublas_destroy(tg_cublas_runner *r);

#endif /* TG_CUBLAS_RUNNER_H */
