/*
 * sm90_launch.cuh — from a registry row to a persistent launch: encodes the TMA maps of A and B
 * for their orders, sizes the grid to the clusters that fit on the GPU (or to the work, when
 * less), and dispatches on f16/bf16 and on the operand orders.
 */
#ifndef TG_SM90_LAUNCH_CUH
#define TG_SM90_LAUNCH_CUH

#include "sm90.h"
#include "sm90_gemm.cuh"
#include "sm90_tensor_map.h"

/* Clusters of this kernel that can be resident at once (0 if the query fails). */
template <class Kernel>
int sm90_max_clusters(int sm_count) {
  static int cached = -1; /* idempotent: a race only repeats the query */
  if (cached < 0) {
    if (cudaFuncSetAttribute(sm90_gemm_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             Kernel::kSmemBytes) != cudaSuccess)
      return 0;
    int n = sm_count / Kernel::kCluster;
    if (Kernel::kCluster > 1) {
      cudaLaunchConfig_t cfg = {};
      cudaLaunchAttribute attr;
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = Kernel::kCluster;
      attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
      cfg.gridDim = dim3(Kernel::kCluster * n);
      cfg.blockDim = dim3(Kernel::kThreads);
      cfg.dynamicSmemBytes = Kernel::kSmemBytes;
      cfg.attrs = &attr;
      cfg.numAttrs = 1;
      int fit = 0;
      if (cudaOccupancyMaxActiveClusters(&fit, sm90_gemm_kernel<Kernel>, &cfg) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
      }
      if (fit < n) n = fit;
    }
    cached = n;
  }
  return cached;
}

template <class Kernel>
tg_status sm90_launch_config(const tg_problem *p, cudaStream_t stream) {
  const int bm = Kernel::kBM, bn = Kernel::kBN;
  const int clusters = sm90_max_clusters<Kernel>(p->sm_count);
  if (clusters <= 0) return TG_ERR_CUDA;
  CUtensorMap map_a, map_b;
  tg_status s;
  if (Kernel::kAKMajor)
    s = tg_sm90_encode(&map_a, p->a, p->a_type, p->k, p->m, p->lda, p->batch, p->batch_stride_a,
                       TG_SM90_BOX, bm);
  else
    s = tg_sm90_encode(&map_a, p->a, p->a_type, p->m, p->k, p->lda, p->batch, p->batch_stride_a,
                       TG_SM90_BOX, TG_SM90_BOX);
  if (s != TG_OK) return s;
  if (Kernel::kBKMajor)
    s = tg_sm90_encode(&map_b, p->b, p->b_type, p->k, p->n, p->ldb, p->batch, p->batch_stride_b,
                       TG_SM90_BOX, bn / Kernel::kCluster);
  else
    s = tg_sm90_encode(&map_b, p->b, p->b_type, p->n, p->k, p->ldb, p->batch, p->batch_stride_b,
                       TG_SM90_BOX, TG_SM90_BOX);
  if (s != TG_OK) return s;
  /* D's map, for the TMA-store epilogue: boxes of 16 rows × 128 bytes (a consumer warp's
   * staging buffer); left zero when the kernel stores D itself. */
  CUtensorMap map_d = {};
  if (sm90_tma_store_ok(*p)) {
    s = tg_sm90_encode(&map_d, p->d, p->d_type, p->n, p->m, p->ldd, p->batch, p->batch_stride_d,
                       Kernel::kStagingRowBytes / (int)tg_dtype_size(p->d_type), Kernel::kWarpRows);
    if (s != TG_OK) return s;
  }
  const int64_t m_items = ((p->m + bm - 1) / bm + Kernel::kCluster - 1) / Kernel::kCluster;
  const int64_t items = m_items * ((p->n + bn - 1) / bn) * p->batch;
  const int64_t grid = (items < clusters ? items : clusters) * Kernel::kCluster;

  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = Kernel::kCluster;
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  cfg.gridDim = dim3((unsigned)grid);
  cfg.blockDim = dim3(Kernel::kThreads);
  cfg.dynamicSmemBytes = Kernel::kSmemBytes;
  cfg.stream = stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, sm90_gemm_kernel<Kernel>, *p, map_a, map_b, map_d) == cudaSuccess
             ? TG_OK
             : TG_ERR_CUDA;
}

/* Operand orders: canonical A row-major and B column-major are K-major. */
template <class E, int BM, int BN, int STAGES, int CLUSTER, int SCHEDULE, bool MN_MAJOR_OK>
tg_status sm90_launch_orders(const tg_problem *p, cudaStream_t stream) {
  const bool ak = p->a_order == TG_ROW_MAJOR, bk = p->b_order == TG_COL_MAJOR;
  if (ak && bk) return sm90_launch_config<Sm90Gemm<E, BM, BN, STAGES, true, true, CLUSTER, SCHEDULE> >(p, stream);
  if constexpr (MN_MAJOR_OK) {
    if (ak) return sm90_launch_config<Sm90Gemm<E, BM, BN, STAGES, true, false, CLUSTER, SCHEDULE> >(p, stream);
    if (bk) return sm90_launch_config<Sm90Gemm<E, BM, BN, STAGES, false, true, CLUSTER, SCHEDULE> >(p, stream);
    return sm90_launch_config<Sm90Gemm<E, BM, BN, STAGES, false, false, CLUSTER, SCHEDULE> >(p, stream);
  }
  return TG_ERR_INTERNAL; /* the row accepts K-major operands only */
}

/* BM×BN is the tile of one consumer warpgroup in pingpong, of the CTA in cooperative. */
template <int BM, int BN, int STAGES, int CLUSTER, int SCHEDULE, bool MN_MAJOR_OK>
tg_status sm90_launch_16bit(const tg_problem *p, cudaStream_t stream) {
  if (p->input == TG_IN_F16)
    return sm90_launch_orders<Sm90F16, BM, BN, STAGES, CLUSTER, SCHEDULE, MN_MAJOR_OK>(p, stream);
  if (p->input == TG_IN_BF16)
    return sm90_launch_orders<Sm90BF16, BM, BN, STAGES, CLUSTER, SCHEDULE, MN_MAJOR_OK>(p, stream);
  return TG_ERR_INTERNAL;
}

#endif /* TG_SM90_LAUNCH_CUH */
