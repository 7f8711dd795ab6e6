/*
 * sm90_epilogue.cuh — an epilogue set as the kernel runs it: finishing a unit's tile with the
 * class and D type the request needs, among those the set holds (sm90_epilogue_sets.cuh), and the
 * set's work under a unit's k-tiles: C requested ahead, the previous unit's held group stored.
 */
#ifndef TG_SM90_EPILOGUE_CUH
#define TG_SM90_EPILOGUE_CUH

#include <stdint.h>

#include "problem.h"
#include "ptx_sm80.cuh" /* thread_smem_address */
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_epilogue_general.cuh"
#include "sm90_epilogue_sets.cuh"
#include "sm90_epilogue_tma.cuh"

template <class Cfg, class Set>
struct Sm90Epilogue : Sm90EpilogueTma<Cfg, Set> {
  typedef Sm90EpilogueTma<Cfg, Set> Tma;
  typedef Sm90EpilogueGeneral<Cfg, Set> General;
  typedef Sm90EpilogueLayout<Cfg, Set> Layout;
  typedef typename Tma::Held Held;
  static constexpr int BM = Cfg::kBM, BN = Cfg::kBN, kRowBlocks = Cfg::kRowBlocks, kAcc = Cfg::kAcc;
  static constexpr int kBiasWords = Tma::kBiasWords;
  /* CAST's D types, the two float types other than the lean one: f32 and the other 16-bit type
   * after a 16-bit lean type, f16 and bf16 after f32. */
  static constexpr bool kLeanIsF32 = Cfg::kLeanDType == TG_F32;
  static constexpr int kOther16BitType = Cfg::kLeanDType == TG_F16 ? TG_BF16 : TG_F16;
  static_assert((Set::kClasses &
                 ~(TG_SM90_CLASS_BIT(TG_SM90_EPI_PLAIN) | TG_SM90_CLASS_BIT(TG_SM90_EPI_BIAS_RELU) |
                   TG_SM90_CLASS_BIT(TG_SM90_EPI_FULL) | TG_SM90_CLASS_BIT(TG_SM90_EPI_GENERAL))) ==
                    0,
                "an epilogue set holds the classes of Sm90EpilogueClass");
  static_assert(!(Set::kClasses & TG_SM90_CLASS_BIT(TG_SM90_EPI_GENERAL)) ||
                    Set::kDTypes == TG_SM90_D_ALL,
                "the set that holds GENERAL holds the TMA classes for every D type");

  /* The unit's tile, finished: the classes of the set, each for the set's D types (by TMA), and
   * GENERAL through fp32 staging, one inline copy in a run-time loop (a fully inline general
   * epilogue made the kernel 300 KB of code). The padding CTA of a cluster at an edge has no
   * tile to finish. */
  __device__ static void finish(const tg_problem &p, const Sm90OutMaps &out,
                                float (&acc)[kRowBlocks][kAcc],
                                const uint32_t (&bias_words)[kBiasWords], int64_t bat, int64_t tm,
                                int64_t tn, int wg_rows0, int warp, int lane,
                                unsigned char *staging, unsigned char *borrowed,
                                unsigned char *tail, uint32_t &chunks, uint32_t c_bar,
                                uint32_t &c_loads, bool c_loaded, Held &held) {
    if (tm * BM >= p.m || tn * BN >= p.n) return;
    if constexpr (Cfg::Atom::kIntAcc) {
      /* Integer D. The exact int32 product (alpha 1 and nothing else: PLAIN, the LEAN set) leaves
       * by TMA through the f32 path's plain stores, which move the accumulator bits unchanged;
       * everything else through GENERAL (REST). */
      if constexpr (Set::kId == TG_SM90_EPILOGUES_LEAN)
        Tma::template epilogue_tma<TG_F32, TG_SM90_EPI_PLAIN, false>(
            p, out, acc, bias_words, bat, tm, tn, wg_rows0, warp, lane, staging, borrowed, tail,
            chunks, c_bar, c_loads, c_loaded, held);
      else General::warp_epilogue_general(p, acc, bat, tm, tn, wg_rows0, warp, lane, staging);
    } else
      finish_float(p, out, acc, bias_words, bat, tm, tn, wg_rows0, warp, lane, staging, borrowed,
                   tail, chunks, c_bar, c_loads, c_loaded, held);
  }

  /* finish's float D: the set's classes and D types. */
  __device__ __forceinline__ static void finish_float(
      const tg_problem &p, const Sm90OutMaps &out, float (&acc)[kRowBlocks][kAcc],
      const uint32_t (&bias_words)[kBiasWords], int64_t bat, int64_t tm, int64_t tn, int wg_rows0,
      int warp, int lane, unsigned char *staging, unsigned char *borrowed, unsigned char *tail,
      uint32_t &chunks, uint32_t c_bar, uint32_t &c_loads, bool c_loaded, Held &held) {
    const int cls = sm90_epilogue_class(p);
/* One class into D of type dt; the set's D types of one class; a class of the set. */
#define TG_SM90_EPILOGUE_TMA(dt, cls_)                                                             \
  Tma::template epilogue_tma<dt, cls_, Layout::kBorrowStage>(                                      \
      p, out, acc, bias_words, bat, tm, tn, wg_rows0, warp, lane, staging, borrowed, tail, chunks, \
      c_bar, c_loads, c_loaded, held)
#define TG_SM90_EPILOGUE_OTHER_TYPES(cls_)                           \
  if constexpr (kLeanIsF32) {                                        \
    if (p.d_type == TG_F16) TG_SM90_EPILOGUE_TMA(TG_F16, cls_);      \
    else TG_SM90_EPILOGUE_TMA(TG_BF16, cls_);                        \
  } else if (p.d_type == TG_F32) TG_SM90_EPILOGUE_TMA(TG_F32, cls_); \
  else TG_SM90_EPILOGUE_TMA(kOther16BitType, cls_)
#define TG_SM90_EPILOGUE_CLASS(cls_)                                                \
  {                                                                                 \
    if constexpr (Set::kDTypes == TG_SM90_D_INPUT) {                                \
      TG_SM90_EPILOGUE_TMA(Cfg::kLeanDType, cls_);                                  \
    } else if constexpr (Set::kDTypes == TG_SM90_D_OTHERS) {                        \
      TG_SM90_EPILOGUE_OTHER_TYPES(cls_);                                           \
    } else {                                                                        \
      if (p.d_type == Cfg::kLeanDType) TG_SM90_EPILOGUE_TMA(Cfg::kLeanDType, cls_); \
      else TG_SM90_EPILOGUE_OTHER_TYPES(cls_);                                      \
    }                                                                               \
  }
    constexpr unsigned kPlain = TG_SM90_CLASS_BIT(TG_SM90_EPI_PLAIN);
    constexpr unsigned kBiasRelu = TG_SM90_CLASS_BIT(TG_SM90_EPI_BIAS_RELU);
    constexpr unsigned kFull = TG_SM90_CLASS_BIT(TG_SM90_EPI_FULL);
    if constexpr (Set::kClasses == kPlain) {
      TG_SM90_EPILOGUE_CLASS(TG_SM90_EPI_PLAIN)
    } else if constexpr (Set::kClasses == kBiasRelu) {
      TG_SM90_EPILOGUE_CLASS(TG_SM90_EPI_BIAS_RELU)
    } else if constexpr (Set::kClasses == kFull) {
      TG_SM90_EPILOGUE_CLASS(TG_SM90_EPI_FULL)
    } else if constexpr (Set::kClasses == (kPlain | kBiasRelu)) {
      if (cls == TG_SM90_EPI_PLAIN) TG_SM90_EPILOGUE_CLASS(TG_SM90_EPI_PLAIN)
      else TG_SM90_EPILOGUE_CLASS(TG_SM90_EPI_BIAS_RELU)
    } else {
      static_assert(Set::kClasses == (kFull | TG_SM90_CLASS_BIT(TG_SM90_EPI_GENERAL)),
                    "a set holds one TMA class, PLAIN and BIAS_RELU, or FULL and GENERAL");
      if (cls == TG_SM90_EPI_FULL) TG_SM90_EPILOGUE_CLASS(TG_SM90_EPI_FULL)
      else General::warp_epilogue_general(p, acc, bat, tm, tn, wg_rows0, warp, lane, staging);
    }
#undef TG_SM90_EPILOGUE_CLASS
#undef TG_SM90_EPILOGUE_OTHER_TYPES
#undef TG_SM90_EPILOGUE_TMA
  }

  /* FULL with C, under the wgmma of the unit's k-tile kCAheadTiles before its end: the first group
   * of C, requested into the buffers the epilogue will compute it in (row block 0, chunks
   * 0..group-1), while they idle (the last stores read them long ago). */
  __device__ static void thread_load_c_ahead(const tg_problem &p, const Sm90OutMaps &out,
                                             uint32_t c_bar, unsigned char *staging,
                                             uint32_t chunks, int64_t bat, int64_t tm, int64_t tn,
                                             int wg_rows0, int warp) {
    thread_bulk_wait_group_read<0>();
    const int es = p.d_type == TG_F32 ? 4 : 2, group = Tma::group_chunks(es);
    const uint32_t buffer =
        (group > 1 ? 0 : chunks % Layout::kStagingBuffers) * Layout::kStagingBufferBytes;
    Tma::thread_load_c_boxes(out.c, c_bar, thread_smem_address(staging) + buffer, group,
                             Layout::kStagingBufferBytes, Layout::kStagingRowBytes / es,
                             (int)(tn * BN), (int)(tm * BM) + wg_rows0 + Layout::kWarpRows * warp,
                             p.batch_stride_c ? (int)bat : 0);
  }
};

#endif /* TG_SM90_EPILOGUE_CUH */
