/* sm90_tensor_map.cu — see sm90_tensor_map.h. */
#include "sm90_tensor_map.h"

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "tilegemm.h"

/* CUDA version of the tensor-map functions' ABI requested from the driver. */
#define TG_TENSOR_MAP_ABI 12000

/* The driver's function `name` at TG_TENSOR_MAP_ABI, looked up once into *slot; NULL when the
 * driver has none. Lookups are idempotent: threads racing through the first one repeat it. */
static void *driver_function(void **slot, const char *name) {
  void *fn = __atomic_load_n(slot, __ATOMIC_RELAXED);
  if (!fn) {
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(name, &fn, TG_TENSOR_MAP_ABI, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      return nullptr;
    __atomic_store_n(slot, fn, __ATOMIC_RELAXED);
  }
  return fn;
}

static void *g_encode = nullptr;  /* cuTensorMapEncodeTiled */
static void *g_replace = nullptr; /* cuTensorMapReplaceAddress */

tg_status tg_sm90_encode(CUtensorMap *map, const tg_tma_desc *d) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode =
      (PFN_cuTensorMapEncodeTiled_v12000)driver_function(&g_encode, "cuTensorMapEncodeTiled");
  if (!encode) return TG_ERR_CUDA;
  CUtensorMapDataType dt;
  switch (d->type) {
    case TG_F16: dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
    case TG_BF16: dt = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
    case TG_F32:
      dt = d->tf32 ? CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
      break;
    case TG_S32: dt = CU_TENSOR_MAP_DATA_TYPE_INT32; break;
    default: dt = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  }
  cuuint64_t dims[TG_TMA_RANK], strides[TG_TMA_RANK - 1];
  cuuint32_t box[TG_TMA_RANK], element_strides[TG_TMA_RANK];
  for (int i = 0; i < TG_TMA_RANK; ++i) {
    dims[i] = (cuuint64_t)d->dims[i];
    box[i] = (cuuint32_t)d->box[i];
    element_strides[i] = 1;
  }
  for (int i = 0; i < TG_TMA_RANK - 1; ++i) strides[i] = (cuuint64_t)d->strides[i];
  const CUtensorMapSwizzle swizzle = d->swizzle_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                     : d->swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                              : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUresult r = encode(map, dt, TG_TMA_RANK, const_cast<void *>(d->base), dims, strides, box,
                      element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? TG_OK : TG_ERR_CUDA;
}

tg_status tg_sm90_rebase(CUtensorMap *map, const void *address) {
  const PFN_cuTensorMapReplaceAddress_v12000 replace =
      (PFN_cuTensorMapReplaceAddress_v12000)driver_function(&g_replace,
                                                            "cuTensorMapReplaceAddress");
  if (!replace) return TG_ERR_CUDA;
  return replace(map, const_cast<void *>(address)) == CUDA_SUCCESS ? TG_OK : TG_ERR_CUDA;
}
