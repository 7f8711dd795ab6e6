/*
 * validate.h — argument checks, BLAS style: the first bad parameter wins and is named.
 * Pure C, no CUDA calls, so every case is tested on machines without a GPU.
 */
#ifndef TG_VALIDATE_H
#define TG_VALIDATE_H

#include <stdint.h>
#include "handle.h"
#include "problem.h"

/* Resolved storage of one operand: explicit ld and batch stride (0 = broadcast) and the bytes
 * spanned from its base pointer over all batches (0 when the operand is empty). */
typedef struct tg_extent {
  int64_t rows, cols; /* logical shape in the user's frame */
  tg_order order;
  int64_t ld;
  int64_t batch_stride;
  int64_t span_bytes;
  size_t elem_bytes;
} tg_extent;

typedef struct tg_layout {
  tg_input_class input;
  tg_extent a, b, c, d;
} tg_layout;

/* Checks every field of *g. On success fills *layout. fn names the public entry point in the
 * message ("tg_matmul: ..."). Returns TG_ERR_INVALID_VALUE or TG_ERR_NOT_SUPPORTED. */
tg_status tg_validate_gemm(tg_handle *h, const char *fn, const tg_gemm *g, tg_layout *layout);

/* Checks the operand pointers of a validated, non-empty request: NULL where data is needed,
 * C aliasing D with another layout, and A, B or C overlapping D. */
tg_status tg_validate_pointers(tg_handle *h, const char *fn, const tg_gemm *g,
                               const tg_layout *layout, const void *A, const void *B, const void *C,
                               const void *D);

#endif /* TG_VALIDATE_H */
