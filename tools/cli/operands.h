/*
 * operands.h — device buffers of one request, filled with random data (never zeros): what
 * `tilegemm tune` hands to tg_tune. (`bench` and `sweep` measure through tg_bench_run, which
 * manages its own rotating sets.)
 */
#ifndef TG_CLI_OPERANDS_H
#define TG_CLI_OPERANDS_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

typedef struct tg_operands {
  void *a, *b, *c, *d, *bias; /* c is NULL when beta == 0; bias when the epilogue has one */
} tg_operands;

/* Allocates and fills A, B, C (beta != 0) and the bias of *g (data seeded by seed); D is
 * allocated, not filled. 0, or -1 with the CUDA error in err (nothing stays allocated). */
int tg_operands_alloc(const tg_gemm *g, uint64_t seed, tg_operands *op, char *err, size_t err_len);

void tg_operands_free(tg_operands *op);

#endif /* TG_CLI_OPERANDS_H */
