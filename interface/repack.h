/*
 * repack.h — copies a batched matrix into another order and leading dimension. The planner
 * uses it to hand a kernel K-major, 16-byte-aligned operands when the user's are not (odd
 * leading dimensions, offset pointers, MN-major tf32/int8/fp8 data).
 */
#ifndef TG_REPACK_H
#define TG_REPACK_H

#include <stdint.h>
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One operand's storage: element (b, r, c) at b*batch_stride + (row-major ? r*ld + c : c*ld + r). */
typedef struct tg_matrix_ref {
  const void *ptr;
  tg_order order;
  int64_t ld, batch_stride;
} tg_matrix_ref;

/* dst (rows × cols per batch) = src; elem_bytes is 1, 2 or 4. Enqueued on stream. */
tg_status tg_repack_launch(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols,
                           int64_t batch, int elem_bytes, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_REPACK_H */
