/*
 * sm90_tensor_map.h — TMA descriptors (CUtensorMap), encoded on the host through the driver
 * entry points that the CUDA runtime hands out (no link to libcuda).
 */
#ifndef TG_SM90_TENSOR_MAP_H
#define TG_SM90_TENSOR_MAP_H

#include <cuda.h>
#include <stdint.h>
#include "tma_desc.h"

/* Encodes the map *desc describes (tma_desc.h); TG_ERR_CUDA when the driver refuses it, which
 * a desc that passes tg_tma_desc_valid never is. */
tg_status tg_sm90_encode(CUtensorMap *map, const tg_tma_desc *desc);

/* Points an encoded map at another address, keeping everything else it describes (the driver's
 * cuTensorMapReplaceAddress); the address must be aligned as the encoded one was. TG_ERR_CUDA
 * when the driver refuses. */
tg_status tg_sm90_rebase(CUtensorMap *map, const void *address);

#endif /* TG_SM90_TENSOR_MAP_H */
