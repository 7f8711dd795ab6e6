/*
 * sm90_tensor_map.h — TMA descriptors (CUtensorMap), encoded on the host through the driver
 * entry point that the CUDA runtime hands out (no link to libcuda).
 */
#ifndef TG_SM90_TENSOR_MAP_H
#define TG_SM90_TENSOR_MAP_H

#include <cuda.h>
#include <stdint.h>
#include "tma_desc.h"

/* Encodes the map *desc describes (tma_desc.h); TG_ERR_CUDA when the driver refuses it, which
 * a desc that passes tg_tma_desc_valid never is. */
tg_status tg_sm90_encode(CUtensorMap *map, const tg_tma_desc *desc);

#endif /* TG_SM90_TENSOR_MAP_H */
