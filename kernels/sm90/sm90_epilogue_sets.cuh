/*
 * sm90_epilogue_sets.cuh — the epilogue vocabulary of the sm90 family, from the request to the
 * compiled code, in one place:
 *
 *   tg_epilogue (public: none, bias, relu, gelu, bias+relu, bias+gelu)
 *     → tg_problem's has_bias and act (problem.h: tg_epilogue_has_bias, tg_epilogue_activation)
 *     → an epilogue class (Sm90EpilogueClass): how the kernel finishes a tile for that request,
 *       given also C, D's type and alignment: PLAIN, BIAS_RELU, FULL or GENERAL
 *     → an epilogue set (a policy type below): which classes, for which D types, one compiled
 *       kernel holds. Every instruction of a kernel costs, executed or not, so each configuration
 *       is compiled once per set and a request runs the kernel of its set (sm90_epilogue_set).
 *
 * A set owns what it changes about the kernel: the staging layout of its shared memory (the
 * layout below reads the set's traits), its static_asserts, and the work it does during the
 * mainloop (loading C ahead, storing a held group, prefetching the tile's bias).
 */
#ifndef TG_SM90_EPILOGUE_SETS_CUH
#define TG_SM90_EPILOGUE_SETS_CUH

#include <stdint.h>

#include "epilogue.cuh"
#include "problem.h"
#include "sm90_config.cuh"
#include "tma_desc.h"

/* How the sm90 kernel finishes a tile. The first three store D by TMA (sm90_epilogue_tma.cuh),
 * each compiled per D type (f32, f16, bf16), for D 16-byte aligned with strides a tensor map can
 * describe and rows that end on a whole piece of a TMA store (TG_TMA_STORE_GRANULE: the copy
 * engine writes no less, so a row ending inside a piece would have the padding after it
 * overwritten):
 *   PLAIN      D = alpha·acc;
 *   BIAS_RELU  D = act(alpha·acc + bias), ReLU or none, bias of D's type along n
 *              (tg_epilogue_is_inline): a few instructions per pair;
 *   FULL       everything else whose C (if read) has D's type and layout rules and whose bias
 *              (if any) has D's type, along n or m: C comes in by TMA into the staging buffer
 *              that D then leaves from, GELU is computed in registers.
 * GENERAL is the rest (integer or misaligned D, C or bias of another type): the shared
 * out-of-line epilogue through fp32 staging (sm90_epilogue_general.cuh). Host and device decide
 * alike: the host encodes D's and C's tensor maps exactly when the kernel will use them. */
enum Sm90EpilogueClass {
  TG_SM90_EPI_GENERAL = -1,
  TG_SM90_EPI_PLAIN = 0,
  TG_SM90_EPI_BIAS_RELU = 1,
  TG_SM90_EPI_FULL = 2,
};
#define TG_SM90_CLASS_BIT(cls) (1u << (unsigned)((cls) + 1))

__host__ __device__ __forceinline__ bool sm90_tma_strides_ok(int64_t ld, int64_t batch_stride,
                                                             int64_t es) {
  return ld * es < TG_TMA_MAX_STRIDE_BYTES && batch_stride * es < TG_TMA_MAX_STRIDE_BYTES;
}

__host__ __device__ __forceinline__ int sm90_epilogue_class(const tg_problem &p) {
  const bool d_float = p.d_type == TG_F32 || p.d_type == TG_F16 || p.d_type == TG_BF16;
  if (p.exact_int || !d_float || p.align_d < 16) return TG_SM90_EPI_GENERAL;
  const int64_t es = p.d_type == TG_F32 ? 4 : 2;
  if (!sm90_tma_strides_ok(p.ldd, p.batch_stride_d, es) || p.n * es % TG_TMA_STORE_GRANULE)
    return TG_SM90_EPI_GENERAL;
  if (tg_epilogue_is_inline(p))
    return !p.has_bias && p.act == TG_ACT_NONE ? TG_SM90_EPI_PLAIN : TG_SM90_EPI_BIAS_RELU;
  if (p.read_c &&
      (p.c_type != p.d_type || p.align_c < 16 || !sm90_tma_strides_ok(p.ldc, p.batch_stride_c, es)))
    return TG_SM90_EPI_GENERAL;
  if (p.has_bias && p.bias_type != p.d_type) return TG_SM90_EPI_GENERAL;
  return TG_SM90_EPI_FULL;
}

/* The class a request's kernel is chosen by (host) and its maps encoded for: sm90_epilogue_class,
 * and PLAIN for the exact int32 product of int8 inputs (problem.h's exact_int: alpha 1 and nothing
 * else) into an s32 D that TMA can store, whose bits the int8 rows' LEAN kernel stores as they
 * are. That kernel does not ask for its class; the float rows never see exact_int, so on the
 * device sm90_epilogue_class is the whole story. */
__host__ __device__ __forceinline__ int sm90_dispatch_class(const tg_problem &p) {
  constexpr int64_t kInt32Bytes = 4;
  if (p.exact_int && p.align_d >= 16 && sm90_tma_strides_ok(p.ldd, p.batch_stride_d, kInt32Bytes) &&
      p.n * kInt32Bytes % TG_TMA_STORE_GRANULE == 0)
    return TG_SM90_EPI_PLAIN;
  return sm90_epilogue_class(p);
}

/* Whether a configuration is a two-group tile (sm90.h): it finishes half its 16-bit D apart from
 * the first half, held in registers (LEAN, BIAS) or in a borrowed stage (RESID), and has the RESID
 * and ACT sets. */
__host__ __device__ constexpr bool sm90_borrows_stage(int bm, int bn, int schedule_pingpong) {
  return TG_SM90_TWO_GROUP_TILE(bm, bn, schedule_pingpong ? TG_SM90_PINGPONG : TG_SM90_COOPERATIVE);
}

/* The set a request runs. d_is_input_type: D has A's and B's element type (f16 or bf16);
 * split_full: the kernel has the RESID and ACT sets (sm90_borrows_stage); read_c: p reads C. */
__host__ __device__ __forceinline__ int sm90_epilogue_set(int epilogue_class, bool d_is_input_type,
                                                          bool split_full, bool read_c) {
  if (epilogue_class == TG_SM90_EPI_FULL && d_is_input_type && split_full)
    return read_c ? TG_SM90_EPILOGUES_RESID : TG_SM90_EPILOGUES_ACT;
  if (epilogue_class != TG_SM90_EPI_PLAIN && epilogue_class != TG_SM90_EPI_BIAS_RELU)
    return TG_SM90_EPILOGUES_REST;
  if (!d_is_input_type) return TG_SM90_EPILOGUES_CAST;
  return epilogue_class == TG_SM90_EPI_PLAIN ? TG_SM90_EPILOGUES_LEAN : TG_SM90_EPILOGUES_BIAS;
}

/* The sets a configuration compiles: LEAN always; BIAS, CAST and REST unless its accumulators are
 * wide (they spill there); RESID and ACT on two-group tiles. */
__host__ __device__ constexpr unsigned sm90_compiled_sets(int bm, int bn, int schedule) {
  return TG_SM90_SET_BIT(TG_SM90_EPILOGUES_LEAN) |
         (sm90_wide_acc(bm, bn, schedule)
              ? 0u
              : TG_SM90_SET_BIT(TG_SM90_EPILOGUES_BIAS) | TG_SM90_SET_BIT(TG_SM90_EPILOGUES_CAST) |
                    TG_SM90_SET_BIT(TG_SM90_EPILOGUES_REST) |
                    (sm90_borrows_stage(bm, bn, schedule == TG_SM90_PINGPONG)
                         ? TG_SM90_SET_BIT(TG_SM90_EPILOGUES_RESID) |
                               TG_SM90_SET_BIT(TG_SM90_EPILOGUES_ACT)
                         : 0u));
}

/* ---- the sets ------------------------------------------------------------------------------- */

/* The D types a set compiles its TMA classes for: the inputs' own type, the two others, or all. */
enum Sm90EpilogueDTypes { TG_SM90_D_INPUT = 0, TG_SM90_D_OTHERS = 1, TG_SM90_D_ALL = 2 };

/* What every set says of itself (the defaults); each set below overrides what it changes.
 *   kClasses           TG_SM90_CLASS_BIT of the classes it holds
 *   kDTypes            Sm90EpilogueDTypes of its TMA classes
 *   kTwoGroupTilesOnly it exists for two-group tiles only
 *   kServesWideAcc     a kernel of wide accumulators may hold it
 *   kHoldsSecondGroup  on a two-group tile, the second group of chunks is rounded into registers
 *                      and stored under the next unit's first k-tile
 *   kBorrowsStage      on a two-group tile, the second group is staged in the unit's last operand
 *                      stage, borrowed, where its C is requested at once
 *   kStoresByWarpgroup on a cooperative 128×256 or 256×128 tile, one thread stores the warpgroup's
 *                      64 rows as one box (fewer, larger stores compete less with the operand loads)
 *   kStashesNextTile   cooperative consumers work out the next tile under the last wgmma
 *   kOpaqueDescriptors the stage-0 descriptors are hidden from ptxas behind an empty asm, so that
 *                      it keeps them in registers instead of re-deriving them in every k-tile
 *   kLoadsCAhead       the first group of C is requested during the mainloop's last k-tiles
 *   kLoadsTileBias     the tile's bias along n (BIAS_RELU into 16-bit D) comes in under the last
 *                      wgmma instead of a chunk at a time
 *   kClearsHeldWords   the held words are declared dead after the mainloop, which frees their
 *                      registers for a stream-K collect */
struct Sm90EpilogueSetDefaults {
  static constexpr bool kTwoGroupTilesOnly = false;
  static constexpr bool kServesWideAcc = false;
  static constexpr bool kHoldsSecondGroup = false;
  static constexpr bool kBorrowsStage = false;
  static constexpr bool kStoresByWarpgroup = false;
  static constexpr bool kStashesNextTile = false;
  static constexpr bool kOpaqueDescriptors = false;
  static constexpr bool kLoadsCAhead = false;
  static constexpr bool kLoadsTileBias = false;
  static constexpr bool kClearsHeldWords = false;
};

/* The plain epilogue into D of the inputs' type: the leanest kernel, the one the large plain
 * GEMMs run. */
struct Sm90EpilogueLean : Sm90EpilogueSetDefaults {
  static constexpr int kId = TG_SM90_EPILOGUES_LEAN;
  static constexpr unsigned kClasses = TG_SM90_CLASS_BIT(TG_SM90_EPI_PLAIN);
  static constexpr int kDTypes = TG_SM90_D_INPUT;
  static constexpr bool kServesWideAcc = true;
  static constexpr bool kHoldsSecondGroup = true;
  static constexpr bool kStoresByWarpgroup = true;
  static constexpr bool kStashesNextTile = true;
};

/* Bias (along n, of D's type) and ReLU or none into D of the inputs' type. */
struct Sm90EpilogueBias : Sm90EpilogueSetDefaults {
  static constexpr int kId = TG_SM90_EPILOGUES_BIAS;
  static constexpr unsigned kClasses = TG_SM90_CLASS_BIT(TG_SM90_EPI_BIAS_RELU);
  static constexpr int kDTypes = TG_SM90_D_INPUT;
  static constexpr bool kHoldsSecondGroup = true;
  static constexpr bool kStashesNextTile = true;
  static constexpr bool kOpaqueDescriptors = true;
  static constexpr bool kLoadsTileBias = true;
  static constexpr bool kClearsHeldWords = true;
};

/* PLAIN and BIAS_RELU into the two D types other than the inputs'. */
struct Sm90EpilogueCast : Sm90EpilogueSetDefaults {
  static constexpr int kId = TG_SM90_EPILOGUES_CAST;
  static constexpr unsigned kClasses =
      TG_SM90_CLASS_BIT(TG_SM90_EPI_PLAIN) | TG_SM90_CLASS_BIT(TG_SM90_EPI_BIAS_RELU);
  static constexpr int kDTypes = TG_SM90_D_OTHERS;
  static constexpr bool kLoadsTileBias = true;
};

/* FULL into any float D, and GENERAL: everything the other sets leave. */
struct Sm90EpilogueRest : Sm90EpilogueSetDefaults {
  static constexpr int kId = TG_SM90_EPILOGUES_REST;
  static constexpr unsigned kClasses =
      TG_SM90_CLASS_BIT(TG_SM90_EPI_FULL) | TG_SM90_CLASS_BIT(TG_SM90_EPI_GENERAL);
  static constexpr int kDTypes = TG_SM90_D_ALL;
  static constexpr bool kLoadsCAhead = true;
};

/* FULL with C into D of the inputs' type, on two-group tiles: the second group is staged in the
 * borrowed stage, its C requested there at once. */
struct Sm90EpilogueResid : Sm90EpilogueSetDefaults {
  static constexpr int kId = TG_SM90_EPILOGUES_RESID;
  static constexpr unsigned kClasses = TG_SM90_CLASS_BIT(TG_SM90_EPI_FULL);
  static constexpr int kDTypes = TG_SM90_D_INPUT;
  static constexpr bool kTwoGroupTilesOnly = true;
  static constexpr bool kBorrowsStage = true;
  static constexpr bool kLoadsCAhead = true;
};

/* FULL without C (GELU, bias+GELU, a bias along m) into D of the inputs' type, on two-group
 * tiles: REST's code for these requests in a kernel of its own, a fraction of REST's size. */
struct Sm90EpilogueAct : Sm90EpilogueSetDefaults {
  static constexpr int kId = TG_SM90_EPILOGUES_ACT;
  static constexpr unsigned kClasses = TG_SM90_CLASS_BIT(TG_SM90_EPI_FULL);
  static constexpr int kDTypes = TG_SM90_D_INPUT;
  static constexpr bool kTwoGroupTilesOnly = true;
};

/* ---- a set's shared-memory layout on a configuration ------------------------------------------ */

/* Epilogue staging: each consumer warp owns two buffers of 16 rows × 128 bytes (one 128-byte
 * swizzle atom pair): it fills both and hands them to the copy engine together (one fence for two
 * chunks), or, with an odd number of chunks per tile row, fills one while the copy engine stores
 * the other. A tile width that is an odd multiple of 32 columns (160) stages rows of 64 bytes
 * instead (64-byte swizzle), 32 columns of 16-bit D or 16 of f32: its rows then end in no tail
 * chunk, and the 16 KB of buffers fit beside four stages of 52 KB. A tile width that is not a
 * whole number of 128-byte chunks in every D type (144 = 2 × 64 + 16 columns of 16-bit D,
 * 4 × 32 + 16 of f32; 208 = 3 × 64 + 16, 6 × 32 + 16) ends in a tail chunk of 16 columns, which
 * leaves through a buffer of its own per warp, unswizzled (rows of 32 or 64 bytes), by a second
 * pair of tensor maps whose boxes are 16 columns wide. */
template <class Cfg, class Set>
struct Sm90EpilogueLayout {
  static constexpr int kBN = Cfg::kBN;
  static constexpr int kWarpRows = 16;
  static constexpr int kNarrowStagingCols = 32;
  static constexpr int kStagingRowBytes =
      kBN % TG_SM90_BOX == kNarrowStagingCols ? TG_SM90_ROW_BYTES / 2 : TG_SM90_ROW_BYTES;
  static constexpr int kStagingBufferBytes = kWarpRows * kStagingRowBytes;
  static constexpr int kStagingBuffers = 2;
  static constexpr int kWarpStagingBytes = kStagingBuffers * kStagingBufferBytes;
  /* Stores by warpgroup: the four warps of a consumer warpgroup stage their 16 rows of a chunk
   * side by side (buffer b of warp w at b · 8 KB + w · 2 KB of the warpgroup's staging), and one
   * thread stores the warpgroup's 64 rows as one box: a quarter of the TMA stores, each four times
   * the size, for two warpgroup barriers per pair of chunks. */
  static constexpr int kWarpgroupStoreTileArea =
      TG_SM90_TWO_GROUP_TILE_AREA; /* 128×256 and 256×128 */
  static constexpr bool kWarpgroupStores =
      !Cfg::kPingpong && Set::kStoresByWarpgroup && Cfg::kBM * kBN == kWarpgroupStoreTileArea;
  static constexpr int kWarpsPerGroup = TG_SM90_WARPS_PER_GROUP;
  static constexpr int kStoreRows =
      kWarpgroupStores ? kWarpsPerGroup * kWarpRows : kWarpRows; /* D's box */
  static constexpr int kBufferStride =
      kWarpgroupStores ? kWarpsPerGroup * kStagingBufferBytes : kStagingBufferBytes;
  static constexpr bool kTwoGroupTile = sm90_borrows_stage(Cfg::kBM, kBN, Cfg::kPingpong);
  static constexpr bool kBorrowStage = kTwoGroupTile && Set::kBorrowsStage;
  static constexpr bool kHoldSecondGroup = kTwoGroupTile && Set::kHoldsSecondGroup;
  static constexpr int kHeldWordsPerChunk =
      TG_SM90_ROW_BYTES / 2 / 8 * 2; /* 64 columns: 8 blocks of 2 words */
  static constexpr int kHeldWords = kHoldSecondGroup ? kStagingBuffers * kHeldWordsPerChunk : 1;
  static constexpr int kTailChunkCols = 16;
  static constexpr int kTailCols = kBN % (kStagingRowBytes / 2);
  static constexpr int kTailBufferBytes =
      kTailCols ? kWarpRows * kTailCols * (int)sizeof(float) : 0;
  static constexpr int kStagingBytes =
      Cfg::kConsumerWarpsTotal * (kWarpStagingBytes + kTailBufferBytes);
  /* Per consumer warp, the tile of its next unit (batch, tile row, tile column), kept across the
   * epilogue (sm90_scheduler.cuh, warp_stash_next_tile). */
  static constexpr bool kStashNextTile = Cfg::Schedule::kStashesNextTile && Set::kStashesNextTile;
  static constexpr int kNextTileWords = 3;
  static constexpr int kNextTileBytes =
      kStashNextTile ? Cfg::kConsumerWarpsTotal * kNextTileWords * (int)sizeof(int64_t) : 0;

  static_assert(kTailCols == 0 || kTailCols == kTailChunkCols,
                "a tile row ends in whole 128-byte staging chunks, then at most one tail chunk of "
                "16 columns");
  static_assert(kTailCols == 0 || (Cfg::kBKMajor && !Cfg::kPingpong),
                "a tile width with a tail chunk is built K-major and cooperative only");
  static_assert(!Cfg::kWideAcc || Set::kServesWideAcc,
                "a kernel of over 128 accumulators per thread holds the LEAN epilogues only (it "
                "spills in the others)");
  static_assert(!Set::kTwoGroupTilesOnly || kTwoGroupTile,
                "RESID and ACT are built for two-group tiles");
  static_assert(!Set::kBorrowsStage || kBorrowStage,
                "RESID is built for tiles that borrow a stage");
  static_assert(kStagingBufferBytes % TG_SM90_SWIZZLE_ATOM == 0,
                "staging buffers must stay 1024-byte aligned (TMA swizzle)");
  static_assert(!kBorrowStage || !kWarpgroupStores, "a borrowed stage is staged in by warp");
  static_assert(!kBorrowStage || Cfg::kConsumerWarpsTotal * kWarpStagingBytes <= Cfg::kStageBytes,
                "a borrowed stage holds both consumers' second group of staged chunks");
};

#endif /* TG_SM90_EPILOGUE_SETS_CUH */
