/* tma_desc.c — see interface/tma_desc.h. */
#include "tma_desc.h"

#include <stdio.h>

tg_tma_desc tg_tma_desc_make(const void *ptr, tg_dtype type, int64_t inner, int64_t outer,
                             int64_t ld, int64_t batch, int64_t batch_stride, int box_inner,
                             int box_outer, int swizzle_bytes) {
  const int64_t es = (int64_t)tg_dtype_size(type);
  const int single = batch_stride == 0 || batch <= 1;
  tg_tma_desc d;
  d.base = ptr;
  d.type = type;
  d.dims[0] = inner;
  d.dims[1] = outer;
  d.dims[2] = single ? 1 : batch;
  d.strides[0] = ld * es;
  d.strides[1] = (single ? ld * outer : batch_stride) * es;
  d.box[0] = box_inner;
  d.box[1] = box_outer;
  d.box[2] = 1;
  d.swizzle_bytes = swizzle_bytes;
  d.store = 0;
  d.tf32 = 0;
  return d;
}

static int invalid(char *why, size_t why_len, const char *fmt, long long value) {
  if (why_len > 0) snprintf(why, why_len, fmt, value);
  return 0;
}

int tg_tma_desc_valid(const tg_tma_desc *d, char *why, size_t why_len) {
  const int64_t es = (int64_t)tg_dtype_size(d->type);
  if (es == 0)
    return invalid(why, why_len, "TMA: element type %lld has no size", (long long)d->type);
  if ((uintptr_t)d->base % TG_TMA_ADDRESS_ALIGN)
    return invalid(why, why_len,
                   "TMA: the base address must be a multiple of 16 bytes (it is %#llx)",
                   (long long)(uintptr_t)d->base);
  for (int i = 0; i < TG_TMA_RANK; ++i)
    if (d->dims[i] <= 0 || d->dims[i] > TG_TMA_MAX_DIM)
      return invalid(why, why_len, "TMA: a dimension must be in 1..2^32 (one is %lld)",
                     (long long)d->dims[i]);
  for (int i = 0; i < TG_TMA_RANK - 1; ++i) {
    if (d->strides[i] % TG_TMA_STRIDE_ALIGN)
      return invalid(why, why_len, "TMA: strides must be multiples of 16 bytes (one is %lld bytes)",
                     (long long)d->strides[i]);
    if (d->strides[i] <= 0 || d->strides[i] >= TG_TMA_MAX_STRIDE_BYTES)
      return invalid(why, why_len,
                     "TMA: strides must be positive and below 2^40 bytes (one is %lld bytes)",
                     (long long)d->strides[i]);
  }
  if (d->strides[0] < d->dims[0] * es)
    return invalid(why, why_len, "TMA: a line of %lld elements is longer than its stride",
                   (long long)d->dims[0]);
  for (int i = 0; i < TG_TMA_RANK; ++i)
    if (d->box[i] <= 0 || d->box[i] > TG_TMA_MAX_BOX)
      return invalid(why, why_len, "TMA: a box side must be in 1..256 (one is %lld)",
                     (long long)d->box[i]);
  if (d->box[0] * es % TG_TMA_BOX_INNER_ALIGN)
    return invalid(why, why_len,
                   "TMA: the box's inner side must be a multiple of 16 bytes (it is %lld bytes)",
                   (long long)(d->box[0] * es));
  if (d->swizzle_bytes != 0 && d->swizzle_bytes != 64 && d->swizzle_bytes != 128)
    return invalid(why, why_len, "TMA: swizzle span %lld is not 0, 64 or 128 bytes",
                   (long long)d->swizzle_bytes);
  if (d->swizzle_bytes && d->box[0] * es > d->swizzle_bytes)
    return invalid(why, why_len, "TMA: the box's inner side (%lld bytes) exceeds the swizzle span",
                   (long long)(d->box[0] * es));
  if (d->store && d->dims[0] * es % TG_TMA_STORE_GRANULE)
    return invalid(why, why_len,
                   "TMA: a stored line of %lld bytes does not end on a 16-byte boundary",
                   (long long)(d->dims[0] * es));
  return 1;
}
