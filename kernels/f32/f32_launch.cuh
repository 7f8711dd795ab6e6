/*
 * f32_launch.cuh — from a registry row to an instantiation of f32_gemm.cuh: picks the variant
 * of the operands' orders, decides the split-K factor, launches, and runs the shared reduction
 * (kernels/common/splitk_reduce.cu) when k was split. F32_ROW(...) defines a row's C launcher,
 * split-K factor and workspace hook.
 */
#ifndef TG_F32_LAUNCH_CUH
#define TG_F32_LAUNCH_CUH

#include "device_memo.cuh"
#include "f32.h"
#include "f32_gemm.cuh"
#include "splitk_reduce.h"

/* Split-K: enough (batch, split) CTAs to fill every SM once at the row's occupancy
 * (splitk_reduce.h). */
template <class C>
int f32_splits(const tg_problem *p) {
  return tg_splitk_count(p, C::kTileM, C::kTileN, C::kTileK, (int64_t)p->sm_count * C::kMinCtas);
}

/* Launches one instantiation: grid x = output tiles of a batch, y = batch × splits (strided
 * when larger than the grid allows). */
template <class K>
tg_status f32_launch_kernel(const tg_problem *p, int splits, int64_t k_split, float *partial,
                            cudaStream_t stream) {
  typedef typename K::Config C;
  static tg_device_memo smem_raised; /* per device (device_memo.cuh) */
  if (tg_raise_smem_limit(&smem_raised, tg_device_memo_slot(), (const void *)f32_gemm_kernel<K>,
                          K::kSmemBytes) != cudaSuccess)
    return TG_ERR_CUDA;
  const int64_t tiles = ((p->m + C::kTileM - 1) / C::kTileM) * ((p->n + C::kTileN - 1) / C::kTileN);
  const int64_t zs = p->batch * splits;
  const dim3 grid((unsigned)tiles, (unsigned)(zs < kF32MaxGridY ? zs : kF32MaxGridY));
  f32_gemm_kernel<K><<<grid, C::kThreads, K::kSmemBytes, stream>>>(*p, splits, k_split, partial);
  return TG_OK;
}

/* Runs configuration C with A staged the kA way on p, B's staging picked from p. */
template <class C, F32Staging kA>
tg_status f32_launch_b(const tg_problem *p, int splits, int64_t k_split, float *partial,
                       cudaStream_t stream) {
  switch (tg_f32_staging(p->b_order == TG_COL_MAJOR, p->align_b)) {
    case kF32KMajor:
      return f32_launch_kernel<F32Gemm<C, kA, kF32KMajor>>(p, splits, k_split, partial, stream);
    case kF32MnChunks:
      return f32_launch_kernel<F32Gemm<C, kA, kF32MnChunks>>(p, splits, k_split, partial, stream);
    default:
      return f32_launch_kernel<F32Gemm<C, kA, kF32MnFloats>>(p, splits, k_split, partial, stream);
  }
}

/* Runs configuration C on p (any orders and alignments) with `splits` k splits. */
template <class C>
tg_status f32_launch(const tg_problem *p, int splits, cudaStream_t stream) {
  const int64_t k_split = splits > 1 ? tg_splitk_k(p, splits, C::kTileK) : p->k;
  float *partial = splits > 1 ? static_cast<float *>(p->workspace) : nullptr;
  tg_status s;
  switch (tg_f32_staging(p->a_order == TG_ROW_MAJOR, p->align_a)) {
    case kF32KMajor: s = f32_launch_b<C, kF32KMajor>(p, splits, k_split, partial, stream); break;
    case kF32MnChunks:
      s = f32_launch_b<C, kF32MnChunks>(p, splits, k_split, partial, stream);
      break;
    default: s = f32_launch_b<C, kF32MnFloats>(p, splits, k_split, partial, stream); break;
  }
  if (s == TG_OK && splits > 1) s = tg_splitk_reduce(p, splits, partial, stream);
  return s;
}

/* A registry row of configuration C: its launcher, its split-K factor (SPLITK: chosen per
 * problem; otherwise never splits) and its workspace hook. */
#define F32_ROW(name, C, SPLITK)                                                        \
  extern "C" int tg_f32_splits_##name(const tg_problem *p) {                            \
    return SPLITK ? f32_splits<C>(p) : 1;                                               \
  }                                                                                     \
  extern "C" size_t tg_f32_workspace_##name(const tg_problem *p) {                      \
    return tg_splitk_partial_bytes(p, tg_f32_splits_##name(p));                         \
  }                                                                                     \
  extern "C" tg_status tg_f32_launch_##name(const tg_problem *p, cudaStream_t stream) { \
    return f32_launch<C>(p, tg_f32_splits_##name(p), stream);                           \
  }

#endif /* TG_F32_LAUNCH_CUH */
