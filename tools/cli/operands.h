/*
 * operands.h — device buffers of one request, filled with random data (never zeros): what
 * `tilegemm tune` hands to tg_tune, and the fp8 scales of a request (tune and tg_bench_run).
 * (`bench` and `sweep` measure through tg_bench_run, which manages its own rotating sets.)
 */
#ifndef TG_CLI_OPERANDS_H
#define TG_CLI_OPERANDS_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

/* The fp32 scales of a request's fp8 operands in device memory, laid out as tilegemm.h's
 * tg_scale_mode says; both NULL when the request has none. */
typedef struct tg_scales {
  float *a, *b;
} tg_scales;

typedef struct tg_operands {
  void *a, *b, *c, *d, *bias; /* c is NULL when beta == 0; bias when the epilogue has one */
  tg_scales scales;           /* when g->scale_mode is not TG_SCALE_NONE */
} tg_operands;

/* Allocates and fills A, B, C (beta != 0), the bias and the fp8 scales of *g (data seeded by
 * seed); D is allocated, not filled. 0, or -1 with the CUDA error in err (nothing stays
 * allocated). */
int tg_operands_alloc(const tg_gemm *g, uint64_t seed, tg_operands *op, char *err, size_t err_len);

void tg_operands_free(tg_operands *op);

/* Allocates and fills the scales of *g (nothing when g->scale_mode is TG_SCALE_NONE) with
 * values of tg_scale_value, seeded by the data seed `seed` as tg_operands_alloc seeds the
 * operands (so bench and tune draw the same scales for one --seed). 0, or -1 with the CUDA
 * error in err (nothing stays allocated). */
int tg_scales_alloc(const tg_gemm *g, uint64_t seed, int exact, tg_scales *s, char *err,
                    size_t err_len);

void tg_scales_free(tg_scales *s);

#endif /* TG_CLI_OPERANDS_H */
