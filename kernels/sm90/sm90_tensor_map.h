/*
 * sm90_tensor_map.h — TMA descriptors (CUtensorMap) for K-major operands, encoded on the host
 * through the driver entry point that the CUDA runtime hands out (no link to libcuda).
 */
#ifndef TG_SM90_TENSOR_MAP_H
#define TG_SM90_TENSOR_MAP_H

#include <cuda.h>
#include <stdint.h>
#include "problem.h"

/* A 3-D map {k, rows, batch} of a K-major matrix (rows × k, stride ld elements, batch stride
 * `batch_stride`, 0 = shared), read in boxes of box_k × box_rows with the 128-byte swizzle. */
tg_status tg_sm90_encode_kmajor(CUtensorMap *map, const void *ptr, tg_dtype type, int64_t k,
                                int64_t rows, int64_t ld, int64_t batch, int64_t batch_stride,
                                int box_k, int box_rows);

#endif /* TG_SM90_TENSOR_MAP_H */
