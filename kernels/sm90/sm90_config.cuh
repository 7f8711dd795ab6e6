/*
 * sm90_config.cuh — the Hopper kernel's configuration: the machine's constants, the MMA atoms (one
 * per input type), the two schedules, and Sm90Config, which derives from one configuration of
 * sm90_configs.h (tile, stages, operand orders, cluster, schedule) and an atom everything the
 * other parts size themselves by: rows per consumer, accumulators, registers, operand stages,
 * multicast shares, descriptor steps. The scheduler, the mainloop and the epilogues read these
 * numbers and nothing of the row itself; a new input type adds an atom here and its loads in
 * sm90_mainloop.cuh.
 */
#ifndef TG_SM90_CONFIG_CUH
#define TG_SM90_CONFIG_CUH

#include <stdint.h>

#include "problem.h"
#include "sm90.h"
#include "sm90_layout.h"
#include "tma_desc.h"
#include "wgmma_shapes.cuh"
#include "wgmma_shapes_fp8.cuh"
#include "wgmma_shapes_s8.cuh"
#include "wgmma_shapes_tf32.cuh"

/* Warps, warpgroups, swizzle rows, boxes, wgmma rows and each atom's k: sm90_layout.h. */
#define TG_SM90_PRODUCER_REGS 40
#define TG_SM90_CONSUMER_REGS 232
/* Consumers holding more than TG_SM90_NARROW_ACC fp32 accumulators per thread (256×160 tiles:
 * 160) take 240 registers and leave the producer 24: the pool is the launch's 168 per thread. */
#define TG_SM90_NARROW_ACC 128
/* Most fp32 accumulators a promoting consumer thread holds, both sets together. */
#define TG_SM90_PROMOTE_MAX_ACC 192
#define TG_SM90_WIDE_PRODUCER_REGS 24
#define TG_SM90_WIDE_CONSUMER_REGS 240
#define TG_SM90_REGISTER_FILE 65536         /* 32-bit registers of an SM */
#define TG_SM90_MAX_SMEM_BYTES (227 * 1024) /* dynamic shared memory of one CTA */
#define TG_SM90_MBARRIER_BYTES 8            /* an mbarrier object */
/* Named barriers (0 is __syncthreads'): */
#define TG_SM90_TURN_BARRIER 1     /* pingpong: 1 and 2 pass the mainloop turn */
#define TG_SM90_STREAM_K_BARRIER 3 /* cooperative: 3 and 4, one per consumer */
#define TG_SM90_STORE_BARRIER 5    /* cooperative: 5 and 6, a consumer's staged D */
#define TG_SM90_BORROW_BARRIER \
  7 /* cooperative: both consumers are done reading the borrowed stage */

/* ---- MMA atoms: one per input type --------------------------------------------------------- */

/* What every atom says of itself:
 *   kLeanDType     the D type of the epilogue sets that serve "D of the inputs' type" (LEAN,
 *                  BIAS, RESID, ACT: sm90_epilogue_sets.cuh): A's and B's type for 16-bit
 *                  and tf32 inputs, bf16 for fp8 ones, s32 for int8 ones (whose LEAN kernel
 *                  stores the exact int32 product)
 *   kElementBytes  the bytes of one input element; a stage holds a 128-byte row of them
 *   kK             k per wgmma
 *   kTakes         (atoms a row holds alone: Sm90AtomsSingle) the requests it takes, in words
 *   kMNMajor       wgmma reads MN-major operands of this type
 *   kPromotes      the consumers add each k-tile's wgmma sums into separate fp32 accumulators
 *                  (fp8: the tensor cores keep fewer bits), scaling them on the way (BLOCK)
 *   kScales        requests may carry fp8 scales (problem.h)
 *   kTf32Operands  A's and B's tensor maps deliver f32 elements as tf32
 *   kIntAcc        the accumulator registers hold int32 bits (the float arrays carry them
 *                  unchanged; stream-K adds and the epilogue reads them as integers) */
struct Sm90AtomDefaults {
  static constexpr bool kTf32Operands = false;
  static constexpr bool kIntAcc = false;
  static constexpr bool kMNMajor = true;
  static constexpr bool kPromotes = false;
  static constexpr bool kScales = false;
};

/* f16 or bf16 wgmma of a 64×N×16 step; TA/TB = 1 for MN-major A/B. TYPE: TG_F16 or TG_BF16. */
#define TG_SM90_16BIT_MMA(n, t)                                    \
  if constexpr (N == n) {                                          \
    warpgroup_mma_m64n##n##k16_##t<TA, TB>(d, da, db, accumulate); \
    return;                                                        \
  }
/* clang-format off: it lays this list out differently on every pass */
#define TG_SM90_16BIT_MMA_TYPE(t) \
  TG_SM90_16BIT_MMA(256, t)       \
  TG_SM90_16BIT_MMA(208, t)       \
  TG_SM90_16BIT_MMA(192, t)       \
  TG_SM90_16BIT_MMA(160, t)       \
  TG_SM90_16BIT_MMA(144, t)       \
  TG_SM90_16BIT_MMA(128, t)       \
  TG_SM90_16BIT_MMA(64, t)
/* clang-format on */
template <int TYPE>
struct Sm90Atom16 : Sm90AtomDefaults {
  static constexpr int kLeanDType = TYPE;
  static constexpr int kElementBytes = 2;
  static constexpr int kK = TG_SM90_WGMMA_K_16BIT;
  template <int N, int TA, int TB>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate) {
    static_assert(N == 64 || N == 128 || N == 144 || N == 160 || N == 192 || N == 208 || N == 256,
                  "16-bit wgmma N must be 64, 128, 144, 160, 192, 208 or 256 (the wrappers built)");
    if constexpr (TYPE == TG_F16) {
      TG_SM90_16BIT_MMA_TYPE(f16)
    } else {
      TG_SM90_16BIT_MMA_TYPE(bf16)
    }
  }
};
/* Types of their own (not aliases), so that kernels keep the names Sm90F16 and Sm90BF16. */
struct Sm90F16 : Sm90Atom16<TG_F16> {};
struct Sm90BF16 : Sm90Atom16<TG_BF16> {};

/* fp8 wgmma of a 64×N×32 step, A of type AT and B of type BT (TG_E4M3 or TG_E5M2), K-major
 * only. PROMOTE: the kernel adds every k-tile's sums into fp32 accumulators (kPromotes). */
#define TG_SM90_FP8_MMA(n, TA_, ta, TB_, tb)                \
  if constexpr (AT == TG_##TA_ && BT == TG_##TB_ && N == n) \
    warpgroup_mma_m64n##n##k32_##ta##_##tb(d, da, db, accumulate);
#define TG_SM90_FP8_MMA_N(n)                 \
  TG_SM90_FP8_MMA(n, E4M3, e4m3, E4M3, e4m3) \
  TG_SM90_FP8_MMA(n, E4M3, e4m3, E5M2, e5m2) \
  TG_SM90_FP8_MMA(n, E5M2, e5m2, E4M3, e4m3) TG_SM90_FP8_MMA(n, E5M2, e5m2, E5M2, e5m2)
template <int AT, int BT, bool PROMOTE>
struct Sm90F8 : Sm90AtomDefaults {
  static constexpr int kLeanDType = TG_BF16;
  static constexpr int kElementBytes = 1;
  static constexpr int kK = TG_SM90_WGMMA_K_FP8;
  static constexpr bool kMNMajor = false;
  static constexpr bool kPromotes = PROMOTE;
  static constexpr bool kScales = true;
  template <int N, int TA, int TB>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate) {
    static_assert(TA == 0 && TB == 0, "fp8 wgmma reads K-major operands only");
    static_assert(N == 64 || N == 128 || N == 192 || N == 256,
                  "fp8 wgmma N must be 64, 128, 192 or 256 (the wrappers built)");
    TG_SM90_FP8_MMA_N(64) TG_SM90_FP8_MMA_N(128) TG_SM90_FP8_MMA_N(192) TG_SM90_FP8_MMA_N(256)
  }
};

/* tf32 wgmma of a 64×N×8 step: fp32 words in shared memory, read K-major only, each reduced to
 * tf32 by the tensor cores (the low 13 mantissa bits dropped: truncation). D of the inputs' type
 * is f32. */
struct Sm90TF32 : Sm90AtomDefaults {
  static constexpr int kLeanDType = TG_F32;
  static constexpr int kElementBytes = 4;
  static constexpr int kK = TG_SM90_WGMMA_K_TF32;
  static constexpr const char *kTakes = "f32 inputs with tf32 compute, K-major";
  static constexpr bool kMNMajor = false;
  static constexpr bool kTf32Operands = true;
  template <int N, int TA, int TB>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate) {
    static_assert(TA == 0 && TB == 0, "tf32 wgmma reads K-major operands only");
    static_assert(N == 64 || N == 128 || N == 192,
                  "tf32 wgmma N must be 64, 128 or 192 (the wrappers built)");
    if constexpr (N == 64) warpgroup_mma_m64n64k8_tf32(d, da, db, accumulate);
    if constexpr (N == 128) warpgroup_mma_m64n128k8_tf32(d, da, db, accumulate);
    if constexpr (N == 192) warpgroup_mma_m64n192k8_tf32(d, da, db, accumulate);
  }
};

/* int8 wgmma of a 64×N×32 step into exact int32 accumulators, K-major only. The kernel's
 * accumulator arrays are float: each register carries the int32 bits as they are. */
struct Sm90S8 : Sm90AtomDefaults {
  static constexpr int kLeanDType = TG_S32;
  static constexpr int kElementBytes = 1;
  static constexpr int kK = TG_SM90_WGMMA_K_S8;
  static constexpr const char *kTakes = "s8 inputs with s32 compute, K-major";
  static constexpr bool kMNMajor = false;
  static constexpr bool kIntAcc = true;
  template <int N, int TA, int TB>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate) {
    static_assert(TA == 0 && TB == 0, "int8 wgmma reads K-major operands only");
    static_assert(N == 64 || N == 128 || N == 192,
                  "int8 wgmma N must be 64, 128 or 192 (the wrappers built)");
    uint32_t(&w)[N / 2] = reinterpret_cast<uint32_t(&)[N / 2]>(d);
    if constexpr (N == 64) warpgroup_mma_m64n64k32_s8(w, da, db, accumulate);
    if constexpr (N == 128) warpgroup_mma_m64n128k32_s8(w, da, db, accumulate);
    if constexpr (N == 192) warpgroup_mma_m64n192k32_s8(w, da, db, accumulate);
  }
};

/* ---- schedules ------------------------------------------------------------------------------ */

/* Both consumers work on one BM×BN tile, each on half of its rows, in step; the tensor cores idle
 * while they both run the epilogue. Such a CTA may split work items with other clusters
 * (stream-K), stagger its start, and work out its next tile under its last wgmma. */
struct Sm90Cooperative {
  static constexpr int kId = TG_SM90_COOPERATIVE;
  static constexpr int kConsumersPerTile = TG_SM90_CONSUMERS;
  static constexpr bool kTakesTurns = false;
  static constexpr bool kSplitsItems = true;
  static constexpr bool kStaggersStart = true;
  static constexpr bool kStashesNextTile = true;
  /* Consumer cw's first work item and its step, from the cluster's (both consumers take all). */
  __device__ static int64_t consumer_first(int64_t first, int64_t step, int cw) { return first; }
  __device__ static int64_t consumer_step(int64_t step) { return step; }
};

/* Each consumer owns a whole BM×BN tile; they take alternate tiles, so one runs its epilogue while
 * the other runs its mainloop. The mainloops take turns (a named barrier passes the turn): a
 * consumer waits on its tile's stages only once its partner has waited on all of its own, so no
 * wait is more than one barrier phase ahead (parity waits would alias). */
struct Sm90Pingpong {
  static constexpr int kId = TG_SM90_PINGPONG;
  static constexpr int kConsumersPerTile = 1;
  static constexpr bool kTakesTurns = true;
  static constexpr bool kSplitsItems = false;
  static constexpr bool kStaggersStart = false;
  static constexpr bool kStashesNextTile = false;
  __device__ static int64_t consumer_first(int64_t first, int64_t step, int cw) {
    return first + cw * step;
  }
  __device__ static int64_t consumer_step(int64_t step) { return TG_SM90_CONSUMERS * step; }
};

/* The schedule policy of a schedule number (sm90_configs.h's SCHEDULE column). */
template <int SCHEDULE>
struct Sm90ScheduleOf {
  typedef Sm90Cooperative type;
};
template <>
struct Sm90ScheduleOf<TG_SM90_PINGPONG> {
  typedef Sm90Pingpong type;
};

/* Whether a BM×BN tile gives each consumer thread more than TG_SM90_NARROW_ACC accumulators
 * (cooperative: the consumers split the rows; pingpong: each holds a whole tile). Such kernels
 * take the wide register split, count their work in 32 bits (Sm90Count) and hold the LEAN
 * epilogues only: with more, ptxas spilled, consumers and a producer of 24 registers alike. The
 * host refuses what they do not serve (sm90_row_check). */
__host__ __device__ constexpr bool sm90_wide_acc(int bm, int bn, int schedule) {
  return (schedule == TG_SM90_PINGPONG ? bm : bm / TG_SM90_CONSUMERS) / TG_SM90_WGMMA_M * (bn / 2) >
         TG_SM90_NARROW_ACC;
}
/* The integer type work items and stream-K iterations are counted in. */
template <bool NARROW>
struct Sm90Count {
  typedef int64_t type;
};
template <>
struct Sm90Count<true> {
  typedef uint32_t type;
};

/* ---- a configuration ------------------------------------------------------------------------ */

template <class E, int BM, int BN, int STAGES, bool A_KMAJOR, bool B_KMAJOR, int CLUSTER_M,
          int CLUSTER_N, class SCHEDULE>
struct Sm90Config {
  typedef E Atom;
  typedef SCHEDULE Schedule;
  static constexpr int kLeanDType = E::kLeanDType;
  static constexpr bool kPromotes = E::kPromotes;
  static constexpr int kBM = BM, kBN = BN, kStages = STAGES, kClusterM = CLUSTER_M,
                       kClusterN = CLUSTER_N;
  static constexpr int kCluster = CLUSTER_M * CLUSTER_N;
  static constexpr bool kAKMajor = A_KMAJOR, kBKMajor = B_KMAJOR;
  static constexpr bool kPingpong = SCHEDULE::kId == TG_SM90_PINGPONG;
  static constexpr int kThreads = TG_SM90_WARPGROUP * (TG_SM90_CONSUMERS + 1);
  static constexpr int kBK = TG_SM90_ROW_BYTES / E::kElementBytes; /* k per stage */
  static constexpr int kWgRows = BM / SCHEDULE::kConsumersPerTile; /* rows per consumer */
  static constexpr int kRowBlocks = kWgRows / TG_SM90_WGMMA_M;     /* wgmma per k-step */
  static constexpr int kAcc = BN / 2;                              /* fp32 per thread per block */
  static constexpr int kKSteps = kBK / E::kK;
  static constexpr bool kWideAcc = sm90_wide_acc(BM, BN, SCHEDULE::kId);
  typedef typename Sm90Count<kWideAcc>::type Count;
  /* Whether the kernel splits items between clusters (sm90_split decides it on the host alike):
   * cooperative kernels but those of wide accumulators, whose producer has no registers for the
   * stream-K work list. */
  static constexpr bool kStreamK = SCHEDULE::kSplitsItems && !kWideAcc;
  static constexpr int kProducerRegs =
      kWideAcc ? TG_SM90_WIDE_PRODUCER_REGS : TG_SM90_PRODUCER_REGS;
  static constexpr int kConsumerRegs =
      kWideAcc ? TG_SM90_WIDE_CONSUMER_REGS : TG_SM90_CONSUMER_REGS;
  /* The registers every thread starts with (__launch_bounds__ with one CTA per SM), which
   * setmaxnreg moves between the warpgroups. */
  static constexpr int kLaunchRegs = TG_SM90_REGISTER_FILE / kThreads / 8 * 8;
  static constexpr int kConsumerWarpsTotal = TG_SM90_CONSUMERS * TG_SM90_WARPS_PER_GROUP;
  static constexpr int kTileABytes = BM * TG_SM90_ROW_BYTES;
  static constexpr int kTileBBytes = BN * TG_SM90_ROW_BYTES;
  static constexpr int kStageBytes = kTileABytes + kTileBBytes;
  /* Empty-barrier arrivals per phase: lane 0 of every warp that reads the stage (both consumers
   * in step, or the one whose tile it holds in pingpong) of every CTA in the cluster (a stage is
   * refilled by multicast into all of them). */
  static constexpr int kConsumerWarps = SCHEDULE::kConsumersPerTile * TG_SM90_WARPS_PER_GROUP;
  static constexpr int kEmptyArrivals = kConsumerWarps * kCluster;
  /* Threads of a pingpong turn barrier: both consumers. */
  static constexpr int kTurnThreads = TG_SM90_CONSUMERS * TG_SM90_WARPGROUP;
  /* The part of the B tile each CTA of a cluster fetches and multicasts. */
  static constexpr int kBShareRows = BN / CLUSTER_M;
  /* ... and of the A tile. */
  static constexpr int kAShareRows = BM / CLUSTER_N;
  /* Stream-K: the partial sums of one consumer warpgroup, stored element-major so that a
   * warp's 32 lanes write 128 consecutive bytes. */
  static constexpr int kSlotFloats = kRowBlocks * kAcc * TG_SM90_WARPGROUP;
  /* Descriptor steps per k-step: its k along a K-major row (bytes), its k rows of an MN-major box. */
  static constexpr uint32_t kAStep =
      A_KMAJOR ? E::kK * E::kElementBytes : E::kK * TG_SM90_ROW_BYTES;
  static constexpr uint32_t kBStep =
      B_KMAJOR ? E::kK * E::kElementBytes : E::kK * TG_SM90_ROW_BYTES;

  static_assert(BN == 64 || BN == 128 || BN == 144 || BN == 160 || BN == 192 || BN == 208 ||
                    BN == 256,
                "wgmma N must be 64, 128, 144, 160, 192, 208 or 256 (the wrappers built)");
  static_assert(kBK * E::kElementBytes == TG_SM90_ROW_BYTES && kBK % E::kK == 0,
                "a stage holds one 128-byte swizzle row of k per operand row, whole wgmma steps");
  static_assert(E::kMNMajor || (A_KMAJOR && B_KMAJOR), "this input type is read K-major only");
  static_assert(!E::kPromotes || SCHEDULE::kId == TG_SM90_COOPERATIVE,
                "promoting consumers follow the producer's work list (cooperative only)");
  static_assert(!E::kPromotes || 2 * kRowBlocks * kAcc <= TG_SM90_PROMOTE_MAX_ACC,
                "promoting consumers hold two sets of accumulators: they must fit the registers");
  static_assert(kWgRows % TG_SM90_WGMMA_M == 0, "each consumer owns whole 64-row wgmma blocks");
  static_assert(kWideAcc == (kRowBlocks * kAcc > TG_SM90_NARROW_ACC),
                "sm90_wide_acc counts this kernel's accumulators");
  static_assert(BM <= TG_TMA_MAX_BOX && kBShareRows <= TG_TMA_MAX_BOX,
                "a TMA box spans at most 256 rows");
  static_assert(kCluster == 1 || kCluster == 2, "clusters of 1 or 2 CTAs");
  static_assert(CLUSTER_M == 1 || CLUSTER_N == 1, "a cluster lies along m or along n");
  static_assert(kAShareRows <= TG_TMA_MAX_BOX, "a TMA box spans at most 256 rows");
  static_assert((kAShareRows * TG_SM90_ROW_BYTES) % TG_SM90_SWIZZLE_ATOM == 0 &&
                    (kBShareRows * TG_SM90_ROW_BYTES) % TG_SM90_SWIZZLE_ATOM == 0,
                "each CTA's share of a multicast operand starts on a 1024-byte swizzle atom");
  static_assert(A_KMAJOR || (BM / TG_SM90_BOX) % CLUSTER_N == 0,
                "MN-major A boxes split evenly over the cluster");
  static_assert(SCHEDULE::kId == TG_SM90_COOPERATIVE || SCHEDULE::kId == TG_SM90_PINGPONG,
                "unknown schedule");
  static_assert(B_KMAJOR || (BN % TG_SM90_BOX == 0 && (BN / TG_SM90_BOX) % CLUSTER_M == 0),
                "MN-major B comes in whole 64-column boxes that split evenly over the cluster");
  static_assert(kTileABytes % TG_SM90_SWIZZLE_ATOM == 0, "stages must stay 1024-byte aligned");
  static_assert(kProducerRegs * TG_SM90_WARPGROUP +
                        kConsumerRegs * TG_SM90_WARPGROUP * TG_SM90_CONSUMERS <=
                    kLaunchRegs * kThreads,
                "setmaxnreg hands out no more registers than the CTA was launched with");
};

#endif /* TG_SM90_CONFIG_CUH */
