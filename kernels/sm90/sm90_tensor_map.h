/*
 * sm90_tensor_map.h — TMA descriptors (CUtensorMap), encoded on the host through the driver
 * entry point that the CUDA runtime hands out (no link to libcuda).
 */
#ifndef TG_SM90_TENSOR_MAP_H
#define TG_SM90_TENSOR_MAP_H

#include <cuda.h>
#include <stdint.h>
#include "problem.h"

/* A 3-D map {inner, outer, batch} of a matrix whose `inner` elements are contiguous and whose
 * `outer` lines are ld elements apart, batches batch_stride apart (0 = one matrix shared by all
 * batches), read in boxes of box_inner × box_outer, with the 128- or 64-byte swizzle
 * (swizzle_bytes; box_inner · element size must then be at most that) or unswizzled (0). */
tg_status tg_sm90_encode(CUtensorMap *map, const void *ptr, tg_dtype type, int64_t inner,
                         int64_t outer, int64_t ld, int64_t batch, int64_t batch_stride,
                         int box_inner, int box_outer, int swizzle_bytes);

#endif /* TG_SM90_TENSOR_MAP_H */
