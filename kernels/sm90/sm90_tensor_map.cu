/* sm90_tensor_map.cu — see sm90_tensor_map.h. */
#include "sm90_tensor_map.h"

#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include "tilegemm.h"

/* CUDA version of the cuTensorMapEncodeTiled ABI requested from the driver. */
#define TG_TENSOR_MAP_ABI 12000

static PFN_cuTensorMapEncodeTiled_v12000 encode_function(void) {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr; /* idempotent: a race repeats the lookup */
  if (!fn) {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, TG_TENSOR_MAP_ABI,
                                         cudaEnableDefault, &q) == cudaSuccess &&
        q == cudaDriverEntryPointSuccess)
      fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
  }
  return fn;
}

tg_status tg_sm90_encode(CUtensorMap *map, const void *ptr, tg_dtype type, int64_t inner,
                         int64_t outer, int64_t ld, int64_t batch, int64_t batch_stride,
                         int box_inner, int box_outer, int swizzle_bytes) {
  PFN_cuTensorMapEncodeTiled_v12000 encode = encode_function();
  if (!encode) return TG_ERR_CUDA;
  const size_t es = tg_dtype_size(type);
  CUtensorMapDataType dt;
  switch (type) {
    case TG_F16: dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
    case TG_BF16: dt = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
    case TG_F32: dt = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
    default: dt = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  }
  /* A shared matrix is one batch; its (unused) batch stride only has to be valid. */
  const int64_t batches = batch_stride ? batch : 1;
  const int64_t stride = batch_stride ? batch_stride : ld * outer;
  cuuint64_t dims[3] = {(cuuint64_t)inner, (cuuint64_t)outer, (cuuint64_t)batches};
  cuuint64_t strides[2] = {(cuuint64_t)(ld * es), (cuuint64_t)(stride * es)};
  cuuint32_t box[3] = {(cuuint32_t)box_inner, (cuuint32_t)box_outer, 1};
  cuuint32_t element_strides[3] = {1, 1, 1};
  const CUtensorMapSwizzle swizzle = swizzle_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                     : swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                           : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUresult r = encode(map, dt, 3, const_cast<void *>(ptr), dims, strides, box, element_strides,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? TG_OK : TG_ERR_CUDA;
}
