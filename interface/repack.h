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

/* dst = the 3xTF32 layout (tf32x3.h) of the f32 matrix src (rows × cols per batch): along each
 * line of dst (a row when dst is row-major, a column otherwise), the line's extent e is written
 * three times, part lo_part as the remainders and the others as the tf32 values; dst.ld ≥ 3e and
 * the rest of a line is zeroed. Enqueued on stream. */
tg_status tg_repack_tf32x3_launch(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols,
                                  int64_t batch, int lo_part, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif /* TG_REPACK_H */
