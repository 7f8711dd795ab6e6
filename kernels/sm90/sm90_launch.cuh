/*
 * sm90_launch.cuh — from a registry row to a persistent launch: encodes the TMA maps of A and B,
 * sizes the grid to the SMs (or the tiles, when fewer), and dispatches on f16/bf16.
 */
#ifndef TG_SM90_LAUNCH_CUH
#define TG_SM90_LAUNCH_CUH

#include "sm90.h"
#include "sm90_gemm.cuh"
#include "sm90_tensor_map.h"

template <class Kernel>
tg_status sm90_launch_config(const tg_problem *p, cudaStream_t stream) {
  static bool attribute_set = false; /* idempotent: a race only repeats the call */
  if (!attribute_set) {
    if (cudaFuncSetAttribute(sm90_gemm_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             Kernel::kSmemBytes) != cudaSuccess)
      return TG_ERR_CUDA;
    attribute_set = true;
  }
  CUtensorMap map_a, map_b;
  tg_status s = tg_sm90_encode_kmajor(&map_a, p->a, p->a_type, p->k, p->m, p->lda, p->batch,
                                      p->batch_stride_a, Kernel::kBK, Kernel::kWgRows * TG_SM90_CONSUMERS);
  if (s == TG_OK)
    s = tg_sm90_encode_kmajor(&map_b, p->b, p->b_type, p->k, p->n, p->ldb, p->batch,
                              p->batch_stride_b, Kernel::kBK, Kernel::kTileBBytes / TG_SM90_TILE_K_BYTES);
  if (s != TG_OK) return s;
  const int64_t bm = Kernel::kWgRows * TG_SM90_CONSUMERS, bn = Kernel::kTileBBytes / TG_SM90_TILE_K_BYTES;
  const int64_t tiles = ((p->m + bm - 1) / bm) * ((p->n + bn - 1) / bn) * p->batch;
  const int64_t ctas = tiles < p->sm_count ? tiles : p->sm_count;
  sm90_gemm_kernel<Kernel><<<(unsigned)ctas, Kernel::kThreads, Kernel::kSmemBytes, stream>>>(*p, map_a, map_b);
  return TG_OK;
}

template <int BM, int BN, int STAGES>
tg_status sm90_launch_16bit(const tg_problem *p, cudaStream_t stream) {
  if (p->input == TG_IN_F16) return sm90_launch_config<Sm90Gemm<Sm90F16, BM, BN, STAGES> >(p, stream);
  if (p->input == TG_IN_BF16) return sm90_launch_config<Sm90Gemm<Sm90BF16, BM, BN, STAGES> >(p, stream);
  return TG_ERR_INTERNAL;
}

#endif /* TG_SM90_LAUNCH_CUH */
