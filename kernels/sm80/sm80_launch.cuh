/*
 * sm80_launch.cuh — from a registry row to an instantiation: picks the operand-order variant
 * of a tile config, decides the split-K factor, and runs the reduction when k was split.
 * SM80_ROW(...) defines a row's C launcher and workspace hook.
 */
#ifndef TG_SM80_LAUNCH_CUH
#define TG_SM80_LAUNCH_CUH

#include "sm80.h"
#include "sm80_gemm.cuh"
#include "splitk_reduce.h"

/* Split-K: enough (batch, split) CTAs to fill this many waves of the SMs (splitk_reduce.h). */
#define TG_SM80_SPLITK_TARGET_WAVES 2

/* Number of k splits for a split-K row with tile BM × BN × bk (1 = no split). */
static inline int sm80_splits(const tg_problem *p, int bm, int bn, int bk) {
  return tg_splitk_count(p, bm, bn, bk, TG_SM80_SPLITK_TARGET_WAVES * (int64_t)p->sm_count);
}

/* Runs config (BM, BN, warps, stages) of element class E with the orders of p. */
template <class E, int BM, int BN, int WM, int WN, int ST, int MIN_CTAS>
tg_status sm80_launch_orders(const tg_problem *p, int splits, cudaStream_t stream) {
  typedef typename E::Acc Acc;
  constexpr int kBK = TG_SM80_TILE_K_BYTES / E::kBytes;
  const int64_t k_split = splits > 1 ? tg_splitk_k(p, splits, kBK) : p->k;
  Acc *partial = splits > 1 ? (Acc *)p->workspace : (Acc *)0;
  const bool ak = p->a_order == TG_ROW_MAJOR, bk = p->b_order == TG_COL_MAJOR;
  /* For types without MN-major support, `!E::kMnMajorOk` is true, so the unreachable branches
   * below instantiate the K-major kernel again instead of an invalid one. */
  tg_status s;
  if (ak && bk) {
    s = sm80_launch_config<Sm80Gemm<E, BM, BN, WM, WN, ST, true, true, MIN_CTAS> >(
        p, splits, k_split, partial, stream);
  } else if (!E::kMnMajorOk) {
    return TG_ERR_INTERNAL; /* the registry row only accepts K-major operands */
  } else if (ak) {
    s = sm80_launch_config<Sm80Gemm<E, BM, BN, WM, WN, ST, true, !E::kMnMajorOk, MIN_CTAS> >(
        p, splits, k_split, partial, stream);
  } else if (bk) {
    s = sm80_launch_config<Sm80Gemm<E, BM, BN, WM, WN, ST, !E::kMnMajorOk, true, MIN_CTAS> >(
        p, splits, k_split, partial, stream);
  } else {
    s = sm80_launch_config<
        Sm80Gemm<E, BM, BN, WM, WN, ST, !E::kMnMajorOk, !E::kMnMajorOk, MIN_CTAS> >(
        p, splits, k_split, partial, stream);
  }
  if (s == TG_OK && splits > 1) s = tg_splitk_reduce(p, splits, partial, stream);
  return s;
}

/* Dispatch on the input class of a row that serves several (f16 and bf16). */
template <int BM, int BN, int WM, int WN, int ST, int MIN_CTAS = 1>
tg_status sm80_launch_16bit(const tg_problem *p, int splits, cudaStream_t stream) {
  if (p->input == TG_IN_F16)
    return sm80_launch_orders<Sm80F16, BM, BN, WM, WN, ST, MIN_CTAS>(p, splits, stream);
#ifndef TG_TRACE_RECORD /* the recording build (trace_record.cuh) traces f16: bf16 is the same */
  if (p->input == TG_IN_BF16)
    return sm80_launch_orders<Sm80BF16, BM, BN, WM, WN, ST, MIN_CTAS>(p, splits, stream);
#endif
  return TG_ERR_INTERNAL;
}

template <class E, int BM, int BN, int WM, int WN, int ST, int MIN_CTAS = 1>
tg_status sm80_launch_one_type(const tg_problem *p, int splits, cudaStream_t stream) {
  return sm80_launch_orders<E, BM, BN, WM, WN, ST, MIN_CTAS>(p, splits, stream);
}

/* A registry row: its launcher (split-K rows choose a split factor, others never split) and
 * its workspace hook. `launch` is sm80_launch_16bit<...> or sm80_launch_one_type<...>. */
#define SM80_ROW(name, launch, BM, BN, BK, SPLITK)                                       \
  extern "C" int tg_sm80_splits_##name(const tg_problem *p) {                            \
    return SPLITK ? sm80_splits(p, BM, BN, BK) : 1;                                      \
  }                                                                                      \
  extern "C" size_t tg_sm80_workspace_##name(const tg_problem *p) {                      \
    return tg_splitk_partial_bytes(p, tg_sm80_splits_##name(p));                         \
  }                                                                                      \
  extern "C" tg_status tg_sm80_launch_##name(const tg_problem *p, cudaStream_t stream) { \
    return launch(p, tg_sm80_splits_##name(p), stream);                                  \
  }

#endif /* TG_SM80_LAUNCH_CUH */
