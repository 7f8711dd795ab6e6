/*
 * tma_desc.h — the parameters of one TMA tensor map (what cuTensorMapEncodeTiled takes) and the
 * limits the driver holds them to. Built and checked in plain C, so that a row's check, the
 * launch that encodes the map, and the CPU tests all see the same numbers; a request whose maps
 * pass tg_tma_desc_valid encodes without error. Valid C and CUDA C++.
 */
#ifndef TG_TMA_DESC_H
#define TG_TMA_DESC_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of cuTensorMapEncodeTiled (CUDA driver API, tiled maps without interleave). */
#define TG_TMA_ADDRESS_ALIGN 16             /* bytes the base address must be a multiple of */
#define TG_TMA_STRIDE_ALIGN 16              /* bytes every stride must be a multiple of */
#define TG_TMA_MAX_STRIDE_BYTES (1LL << 40) /* every stride stays below this */
#define TG_TMA_MAX_DIM (1LL << 32)          /* every dimension is at most this */
#define TG_TMA_MAX_BOX 256                  /* every box side is at most this */
#define TG_TMA_BOX_INNER_ALIGN 16           /* bytes the box's inner side must be a multiple of */
#define TG_TMA_RANK 3                       /* the maps here: {inner, outer, batch} */
#define TG_TMA_STORE_GRANULE 16             /* a store writes lines in pieces of this many bytes */

/* A 3-D map {inner, outer, batch} of a matrix: `inner` contiguous elements per line, lines
 * strides[0] bytes apart, batches strides[1] bytes apart, read in boxes of box[0..2] elements,
 * swizzled over swizzle_bytes (128, 64) or not (0). */
typedef struct tg_tma_desc {
  const void *base;
  tg_dtype type;
  int64_t dims[TG_TMA_RANK];
  int64_t strides[TG_TMA_RANK - 1];
  int box[TG_TMA_RANK];
  int swizzle_bytes;
  int store; /* 1: the map is stored through, so its lines must end on a store granule */
  int tf32;  /* 1: f32 elements delivered as tf32 (the tf32 kernels' operands) */
} tg_tma_desc;

/* The map of a matrix whose `outer` lines of `inner` elements lie ld elements apart, `batch`
 * matrices batch_stride elements apart (0: one matrix for every batch), read in boxes of
 * box_inner × box_outer elements. A single matrix (batch_stride 0, or batch 1) is one batch,
 * and its batch stride, never followed, is set to the matrix's own packed size: a stride the
 * request gives for batches it does not have must not matter. */
tg_tma_desc tg_tma_desc_make(const void *ptr, tg_dtype type, int64_t inner, int64_t outer,
                             int64_t ld, int64_t batch, int64_t batch_stride, int box_inner,
                             int box_outer, int swizzle_bytes);

/* 1 when every field of *d is within the driver's limits, and a map stored through has lines of
 * whole TG_TMA_STORE_GRANULE pieces (the copy engine writes no less, so a shorter last piece
 * would overwrite what follows the line); otherwise 0 and, when why_len > 0, the first field out
 * of them in why. */
int tg_tma_desc_valid(const tg_tma_desc *d, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif /* TG_TMA_DESC_H */
