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

/* ---- fp8 scales (cublas_runner.c's header says how they map; no GPU needed) ---- */

/* 0 when cuBLASLt can apply *g's fp8 scales as tilegemm does, else -1 with the reason in why:
 * scales per batch (batch > 1 and an operand not TG_BATCH_BROADCAST: cuBLASLt takes one set),
 * or TG_SCALE_BLOCK with an operand not contiguous along k (cuBLASLt's 128-element scale
 * blocks run along each operand's contiguous dimension). */
int tg_cublas_scales_supported(const tg_gemm *g, char *why, size_t why_len);

/* Floats between the rows of cuBLASLt's 128×128-block scales (BLK128x128_32F) for depth k:
 * ceil(k/128) rounded up to a multiple of TG_CUBLAS_BLOCK_SCALE_ALIGN. */
#define TG_CUBLAS_BLOCK_SCALE_ALIGN 4
int64_t tg_cublas_block_scales_ld(int64_t k);

/* Copies one set of tilegemm's 128×128-block scales of B (k×n: ceil(n/128) rows of
 * ceil(k/128)) into cuBLASLt's layout (the same rows, tg_cublas_block_scales_ld(k) apart; the
 * padding is set to 0). */
void tg_cublas_pad_block_scales(const float *src, int64_t n, int64_t k, float *dst);

#endif /* TG_CUBLAS_RUNNER_H */
