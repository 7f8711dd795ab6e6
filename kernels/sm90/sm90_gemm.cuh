/*
 * sm90_gemm.cuh — the Hopper kernel: TMA + wgmma, warp-specialized, persistent, clustered.
 *
 * What it adds over the sm80 family, and why:
 *   - TMA (the copy engine) moves whole 128-byte-swizzled tiles into shared memory and zero-fills
 *     past the matrix edges: no thread spends instructions on addresses or predicates.
 *   - wgmma reads both operands straight from shared memory through descriptors, 64×N×16 per
 *     instruction per warpgroup, asynchronously: no ldmatrix, no register fragments. K-major and
 *     MN-major (transposed) operands are both read natively.
 *   - Warp specialization: warpgroup 0 is the producer (one thread issues TMA; 40 registers),
 *     warpgroups 1 and 2 are consumers (232 registers each, setmaxnreg; 24 and 240 for tiles of
 *     160 accumulators per thread), each owning half of the CTA tile. Full/empty mbarriers per
 *     stage hand buffers back and forth, so loads run ahead
 *     of the math with no block-wide barrier in the mainloop.
 *   - Clusters of two CTAs share the wider operand tile: CLUSTER_M CTAs along m share B (for
 *     128×256 tiles), CLUSTER_N CTAs along n share A (for 256×128); each CTA fetches its part of
 *     the shared tile from L2 and TMA multicasts it to all, cutting L2→SM traffic.
 *   - Persistence: one CTA per SM walks the output tiles in grouped order (L2 reuse); the
 *     producer already fills the next tile's stages while the consumers run the epilogue, and
 *     (LEAN, BIAS) the consumers work out the next tile's coordinates under the last wgmma. Every
 *     other wave walks k backwards, and every other group of tile rows the columns, so each
 *     starts on the operand slabs its predecessor read last, while L2 still holds them. Clusters
 *     with one tile fewer start half a tile late, so that not every CTA stores D at once.
 *   - Stream-K for a mostly idle last wave (cooperative kernels but those of wide
 *     accumulators; sm90_launch.cuh says when it pays): the k-tiles of that wave and of the full
 *     one before it are spread evenly over all clusters; a tile cut between clusters is finished
 *     by the one that ran its first k-tiles, which adds the others' fp32 partial sums (fixed
 *     order: deterministic).
 *   - The epilogue runs on the accumulators in registers and leaves through shared memory by
 *     TMA stores (boxes of a warp's 16 rows; of a warpgroup's 64 in the plain epilogue of 128×256
 *     and 256×128 tiles, kWarpgroupStores), for f32/f16/bf16 D that TMA can address; C of D's
 *     type comes in by TMA the same way (its first part during the mainloop's last k-tiles), and
 *     bias, ReLU and GELU are applied in registers (Sm90Epilogue; a bias+ReLU tile into 16-bit D
 *     has its bias loaded under the mainloop's last wgmma). 128×256 and 256×128 tiles round the
 *     second half of a plain or bias+ReLU tile into registers and stage and store it under the
 *     next tile's first k-tile (kHoldSecondGroup); the second half of a tile with C of the
 *     inputs' type is staged in the tile's last stage, borrowed from the producer, where its C
 *     comes in at once (kBorrowStage). Each config
 *     is compiled four times (Sm90EpilogueSet): the plain epilogue into D of the inputs' type,
 *     bias+ReLU into the same, both into the other D types, and the rest, so no kernel carries
 *     another's code; 128×256 and 256×128 two more, C into D of the inputs' type and the other
 *     FULL requests into it. A config of wide
 *     accumulators (sm90_wide_acc) is compiled once, with the plain epilogue alone.
 *     The rest (integer or mixed types, misaligned D or C) takes the shared out-of-line epilogue.
 *     A tile width of 64q + 16 (144: a full wave of 1536³ in 132 tiles; 208: two waves of 2560³
 *     in 260) ends each tile row in a 16-column tail chunk with a buffer and tensor maps of its
 *     own (kTailCols). A tile width of 64q + 32 (160: 256×160 tiles, 10.9 waves of 4096×14336 where
 *     128×256 make 13.6) stages D in 64-byte rows instead, 1 KB chunks with no tail.
 * Operands: f16 or bf16 whose pointers, leading dimensions and batch strides are 16-byte aligned
 * (TMA's rule); the planner repacks anything else.
 */
#ifndef TG_SM90_GEMM_CUH
#define TG_SM90_GEMM_CUH

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "epilogue.cuh"
#include "problem.h"
#include "ptx_sm80.cuh" /* thread_smem_address */
#include "ptx_sm90.cuh"
#include "wgmma_shapes.cuh"

#define TG_SM90_CONSUMERS 2          /* consumer warpgroups */
#define TG_SM90_WARPGROUP 128        /* threads per warpgroup */
#define TG_SM90_ROW_BYTES 128        /* a 128-byte swizzle row */
#define TG_SM90_BOX 64               /* 64 16-bit elements fill a swizzle row */
#define TG_SM90_BOX_BYTES (TG_SM90_BOX * TG_SM90_ROW_BYTES) /* an MN-major 64×64 box */
#define TG_SM90_WGMMA_K 16           /* k per wgmma for 16-bit inputs */
#define TG_SM90_WGMMA_M 64           /* rows per wgmma */
#define TG_SM90_PRODUCER_REGS 40
#define TG_SM90_CONSUMER_REGS 232
/* Consumers holding more than TG_SM90_NARROW_ACC fp32 accumulators per thread (256×160 tiles:
 * 160) take 240 registers and leave the producer 24: the pool is the launch's 168 per thread. */
#define TG_SM90_NARROW_ACC 128
#define TG_SM90_WIDE_PRODUCER_REGS 24
#define TG_SM90_WIDE_CONSUMER_REGS 240
#define TG_SM90_SWIZZLE_ATOM 1024    /* 8 rows × 128 bytes: alignment of swizzled tiles */
/* Rows of D that a group of tiles sweeping the columns together spans. A wave of 132 tiles of
 * 128×256 then covers about 16 × 8 tiles (of 256×128, 8 × 16), near the smallest A panel + B
 * panel it can read (2048 rows of A and about 2048 columns of B): on the H100, groups of 16
 * tile rows of 128 against 8 ran 4096³ 0.977× vs 0.973× cuBLAS, 8192×8192×1024 0.982× vs 0.973×
 * (4 and 32 no better; 2026-11-23). */
#define TG_SM90_GROUP_ROWS 2048
#define TG_SM90_TURN_BARRIER 1       /* pingpong: named barriers 1 and 2 pass the mainloop turn */
#define TG_SM90_STREAM_K_BARRIER 3   /* cooperative: named barriers 3 and 4, one per consumer */
#define TG_SM90_STORE_BARRIER 5      /* cooperative: named barriers 5 and 6, a consumer's staged D */
#define TG_SM90_BORROW_BARRIER 7     /* cooperative: both consumers are done reading the borrowed stage */

/* TMA strides stay below 2^40 bytes. */
#define TG_SM90_MAX_TMA_STRIDE_BYTES (1LL << 40)
/* A TMA store writes whole 16-byte pieces of a line: where a line of D ends inside one, the
 * store would overwrite the padding after it (or run past the last row's end). */
#define TG_SM90_TMA_STORE_GRANULE 16

/* How the sm90 kernel finishes a tile. The first three store D by TMA (epilogue_tma), each
 * compiled per D type (f32, f16, bf16), for D 16-byte aligned with strides a tensor map can
 * describe and rows that end on a 16-byte boundary (TG_SM90_TMA_STORE_GRANULE):
 *   PLAIN      D = alpha·acc;
 *   BIAS_RELU  D = act(alpha·acc + bias), ReLU or none, bias of D's type along n
 *              (tg_epilogue_is_inline): a few instructions per pair;
 *   FULL       everything else whose C (if read) has D's type and layout rules and whose bias
 *              (if any) has D's type, along n or m: C comes in by TMA into the staging buffer
 *              that D then leaves from, GELU is computed in registers.
 * GENERAL is the rest (integer or misaligned D, C or bias of another type): the shared
 * out-of-line epilogue through fp32 staging. Host and device decide alike: the host encodes D's
 * and C's tensor maps exactly when the kernel will use them. */
enum Sm90Epilogue {
  TG_SM90_EPI_GENERAL = -1,
  TG_SM90_EPI_PLAIN = 0,
  TG_SM90_EPI_BIAS_RELU = 1,
  TG_SM90_EPI_FULL = 2,
};

__host__ __device__ __forceinline__ bool sm90_tma_strides_ok(int64_t ld, int64_t batch_stride, int64_t es) {
  return ld * es < TG_SM90_MAX_TMA_STRIDE_BYTES && batch_stride * es < TG_SM90_MAX_TMA_STRIDE_BYTES;
}

__host__ __device__ __forceinline__ int sm90_epilogue_class(const tg_problem &p) {
  const bool d_float = p.d_type == TG_F32 || p.d_type == TG_F16 || p.d_type == TG_BF16;
  if (p.exact_int || !d_float || p.align_d < 16) return TG_SM90_EPI_GENERAL;
  const int64_t es = p.d_type == TG_F32 ? 4 : 2;
  if (!sm90_tma_strides_ok(p.ldd, p.batch_stride_d, es) || p.n * es % TG_SM90_TMA_STORE_GRANULE)
    return TG_SM90_EPI_GENERAL;
  if (tg_epilogue_is_inline(p))
    return !p.has_bias && p.act == TG_ACT_NONE ? TG_SM90_EPI_PLAIN : TG_SM90_EPI_BIAS_RELU;
  if (p.read_c && (p.c_type != p.d_type || p.align_c < 16 || !sm90_tma_strides_ok(p.ldc, p.batch_stride_c, es)))
    return TG_SM90_EPI_GENERAL;
  if (p.has_bias && p.bias_type != p.d_type) return TG_SM90_EPI_GENERAL;
  return TG_SM90_EPI_FULL;
}

/* Which epilogues a kernel compiles. Every instruction of the kernel counts, executed or not:
 * holding all of them (300 KB of code) ran the plain epilogue 0.5–0.8% slower at 8192×8192×1024
 * and bias+ReLU 0.8% slower at 4096³ than holding PLAIN, BIAS_RELU and GENERAL (160 KB), and a
 * build with the plain ones alone ran 0.3–0.6% faster still (H100). So each config is built
 * four times: LEAN, the plain epilogue into D of the inputs' type (40 KB of code for 128×256);
 * BIAS, bias+ReLU into the same (59 KB); CAST, both into the other two D types (97 KB); REST for
 * the others (208 KB). Splitting the D types out of LEAN (which held all three, 129 KB), same-call
 * A/B against the two-set build on the H100, bf16 unless noted: 8192×8192×1024 1.000 → 1.004×
 * cuBLAS (f16 0.963 → 0.966×), 4096³ 0.987 → 0.988×, 2048³ 0.916 → 0.927×, bias+ReLU 0.945 →
 * 0.958× (4096³) and 0.863 → 0.876× (8192×8192×1024); f32 D, beta = 1 and bias+GELU unchanged.
 * Moving the other D types into REST instead of a set of their own cost them and FULL 0.4–0.9%.
 * Then splitting bias+ReLU out of LEAN (63 KB before) into BIAS, with the shared operand loaded
 * first (load_stage), same call: 8192×8192×1024 f16 0.970 → 0.980×, bf16 1.007 → 1.021×, 3072³
 * 0.960 → 0.970×, bias+ReLU there 0.988 → 0.993× (f16 1.020 → 1.027×); 4096³ +0.1–0.2%. Alone
 * (no BIAS set yet: bias+ReLU in CAST), the plain-only LEAN gained 0.7–0.8% at 8192×8192×1024, and
 * ptxas kept the stage's B descriptor in a uniform register instead of re-deriving the shared
 * window from SR_CgaCtaId after each full-barrier wait. Tiles that borrow a stage for their
 * epilogue (sm90_borrows_stage) have two more: RESID, FULL with C, D of the inputs' type, which
 * stages its second half of a tile in the borrowed stage, with C requested there at once
 * (compiled into REST instead, that code cost REST's other requests 0.5–1.6%); and ACT, FULL
 * without C into the same D (GELU, bias+GELU, a bias along m), REST's code for it in a kernel of
 * 5.1k instructions instead of 13.3k: 4096³ GELU 0.927 → 0.971× cuBLAS, bias+GELU 0.893 →
 * 0.947×, 8192×8192×1024 GELU on 128×256 0.866 → 0.914× (H100, two calls). */
enum Sm90EpilogueSet {
  TG_SM90_EPILOGUES_LEAN = 0,  /* PLAIN, D of the inputs' type */
  TG_SM90_EPILOGUES_CAST = 1,  /* PLAIN and BIAS_RELU, D of another type */
  TG_SM90_EPILOGUES_REST = 2,  /* FULL and GENERAL */
  TG_SM90_EPILOGUES_BIAS = 3,  /* BIAS_RELU, D of the inputs' type */
  TG_SM90_EPILOGUES_RESID = 4, /* FULL with C, D of the inputs' type (sm90_borrows_stage tiles) */
  TG_SM90_EPILOGUES_ACT = 5,   /* FULL without C (GELU, bias+GELU), D of the inputs' type (the same tiles) */
};

/* Whether a tile configuration finishes half its 16-bit D apart from the first half: held in
 * registers (the plain and bias+ReLU epilogues, Sm90Gemm::kHoldSecondGroup) or in a borrowed
 * stage (C of the inputs' type, Sm90Gemm::kBorrowStage): cooperative tiles of 128×256 or
 * 256×128, whose rows end in whole 128-byte chunks. */
__host__ __device__ constexpr bool sm90_borrows_stage(int bm, int bn, int schedule_pingpong) {
  return !schedule_pingpong && bm * bn == 128 * 256 && bn % 64 == 0;
}

/* d_is_input_type: D has A's and B's element type (f16 or bf16); split_full: the kernel has the
 * RESID and ACT sets (sm90_borrows_stage); read_c: p reads C. */
__host__ __device__ __forceinline__ int sm90_epilogue_set(int epilogue_class, bool d_is_input_type, bool split_full,
                                                          bool read_c) {
  if (epilogue_class == TG_SM90_EPI_FULL && d_is_input_type && split_full)
    return read_c ? TG_SM90_EPILOGUES_RESID : TG_SM90_EPILOGUES_ACT;
  if (epilogue_class != TG_SM90_EPI_PLAIN && epilogue_class != TG_SM90_EPI_BIAS_RELU) return TG_SM90_EPILOGUES_REST;
  if (!d_is_input_type) return TG_SM90_EPILOGUES_CAST;
  return epilogue_class == TG_SM90_EPI_PLAIN ? TG_SM90_EPILOGUES_LEAN : TG_SM90_EPILOGUES_BIAS;
}

/* Stream-K part of a launch (sm90_stream_k_first decides it on the host): work items
 * [first_item, items) have their k-tiles spread evenly over all clusters; `partials` holds one
 * slot of fp32 accumulators per consumer warpgroup of every CTA. first_item == items: none. */
struct Sm90StreamK {
  int64_t first_item;
  float *partials;
};

/* The tensor maps the TMA epilogues store D and load C through: boxes of 16 rows × 128 bytes,
 * 128-byte swizzle (rows of 64 bytes, 64-byte swizzle, where Sm90Gemm::kStagingRowBytes says
 * so), and for a tile width with a tail chunk (Sm90Gemm::kTailCols) boxes of 16
 * rows × 16 columns, unswizzled. Maps the launch leaves unused are zero. */
struct Sm90OutMaps {
  const CUtensorMap *d, *c, *d_tail, *c_tail;
};

/* f16 or bf16 wgmma of a 64×N×16 step; TA/TB = 1 for MN-major A/B. kInputType: A's and B's element type. */
struct Sm90F16 {
  static constexpr int kInputType = TG_F16;
  template <int N, int TA, int TB>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate) {
    if constexpr (N == 256) warpgroup_mma_m64n256k16_f16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 208) warpgroup_mma_m64n208k16_f16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 192) warpgroup_mma_m64n192k16_f16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 160) warpgroup_mma_m64n160k16_f16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 144) warpgroup_mma_m64n144k16_f16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 128) warpgroup_mma_m64n128k16_f16<TA, TB>(d, da, db, accumulate);
    else warpgroup_mma_m64n64k16_f16<TA, TB>(d, da, db, accumulate);
  }
};

struct Sm90BF16 {
  static constexpr int kInputType = TG_BF16;
  template <int N, int TA, int TB>
  __device__ static void mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate) {
    if constexpr (N == 256) warpgroup_mma_m64n256k16_bf16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 208) warpgroup_mma_m64n208k16_bf16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 192) warpgroup_mma_m64n192k16_bf16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 160) warpgroup_mma_m64n160k16_bf16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 144) warpgroup_mma_m64n144k16_bf16<TA, TB>(d, da, db, accumulate);
    else if constexpr (N == 128) warpgroup_mma_m64n128k16_bf16<TA, TB>(d, da, db, accumulate);
    else warpgroup_mma_m64n64k16_bf16<TA, TB>(d, da, db, accumulate);
  }
};

/* How the consumer warpgroups share the work of a CTA. */
enum Sm90Schedule {
  /* Both consumers work on one BM×BN tile, each on half of its rows, in step; the tensor cores
   * idle while they both run the epilogue. */
  TG_SM90_COOPERATIVE = 0,
  /* Each consumer owns a whole BM×BN tile; they take alternate tiles, so one runs its epilogue
   * while the other runs its mainloop. The mainloops take turns (a named barrier passes the
   * turn): a consumer waits on its tile's stages only once its partner has waited on all of
   * its own, so no wait is more than one barrier phase ahead (parity waits would alias). */
  TG_SM90_PINGPONG = 1,
};

/* Whether a BM×BN tile gives each consumer thread more than TG_SM90_NARROW_ACC accumulators
 * (cooperative: the consumers split the rows; pingpong: each holds a whole tile). Such kernels
 * take the wide register split, count their work in 32 bits (Sm90Count) and hold the LEAN
 * epilogues only: with 160 accumulators ptxas spilled in BIAS, CAST and REST (87–188
 * local-memory instructions, consumers included), and in a producer of 24 registers doing 64-bit
 * work arithmetic (38 in LEAN). The host refuses what they do not serve (sm90_row_check). */
__host__ __device__ constexpr bool sm90_wide_acc(int bm, int bn, int schedule) {
  return (schedule == TG_SM90_PINGPONG ? bm : bm / TG_SM90_CONSUMERS) / TG_SM90_WGMMA_M * (bn / 2) > TG_SM90_NARROW_ACC;
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

template <class E, int BM, int BN, int STAGES, bool A_KMAJOR, bool B_KMAJOR, int CLUSTER_M, int CLUSTER_N,
          int SCHEDULE, int EPILOGUES>
struct Sm90Gemm {
  static constexpr int kBM = BM, kBN = BN, kClusterM = CLUSTER_M, kClusterN = CLUSTER_N;
  static constexpr int kCluster = CLUSTER_M * CLUSTER_N;
  static constexpr bool kAKMajor = A_KMAJOR, kBKMajor = B_KMAJOR;
  static constexpr bool kPingpong = SCHEDULE == TG_SM90_PINGPONG;
  static constexpr int kThreads = TG_SM90_WARPGROUP * (TG_SM90_CONSUMERS + 1);
  static constexpr int kBK = TG_SM90_BOX;                              /* k per stage */
  static constexpr int kWgRows = kPingpong ? BM : BM / TG_SM90_CONSUMERS; /* rows per consumer */
  static constexpr int kRowBlocks = kWgRows / TG_SM90_WGMMA_M;        /* wgmma per k-step */
  static constexpr int kAcc = BN / 2;                                  /* fp32 per thread per block */
  static constexpr int kKSteps = kBK / TG_SM90_WGMMA_K;
  static constexpr bool kWideAcc = sm90_wide_acc(BM, BN, SCHEDULE);
  typedef typename Sm90Count<kWideAcc>::type Count;
  /* Whether the kernel splits items between clusters (sm90_split decides it on the host alike):
   * cooperative kernels but those of wide accumulators, whose producer has no registers for the
   * stream-K work list. */
  static constexpr bool kStreamK = !kPingpong && !kWideAcc;
  static constexpr int kProducerRegs = kWideAcc ? TG_SM90_WIDE_PRODUCER_REGS : TG_SM90_PRODUCER_REGS;
  static constexpr int kConsumerRegs = kWideAcc ? TG_SM90_WIDE_CONSUMER_REGS : TG_SM90_CONSUMER_REGS;
  /* The registers every thread starts with (__launch_bounds__ with one CTA per SM), which
   * setmaxnreg moves between the warpgroups. */
  static constexpr int kLaunchRegs = 65536 / kThreads / 8 * 8;
  static constexpr int kConsumerWarpsTotal = TG_SM90_CONSUMERS * TG_SM90_WARPGROUP / 32;
  static constexpr int kTileABytes = BM * TG_SM90_ROW_BYTES;
  static constexpr int kTileBBytes = BN * TG_SM90_ROW_BYTES;
  static constexpr int kStageBytes = kTileABytes + kTileBBytes;
  /* full and empty per stage, and one per consumer warp for the C it loads by TMA. */
  static constexpr int kBarrierBytes = (2 * STAGES + kConsumerWarpsTotal) * 8;
  /* Epilogue staging: each consumer warp owns two buffers of 16 rows × 128 bytes (one 128-byte
   * swizzle atom pair): it fills both and hands them to the copy engine together (one fence for
   * two chunks), or, with an odd number of chunks per tile row, fills one while the copy engine
   * stores the other. A tile width that is an odd multiple of 32 columns (160) stages rows of 64
   * bytes instead (64-byte swizzle), 32 columns of 16-bit D or 16 of f32: its rows then end in
   * no tail chunk, and the 16 KB of buffers fit beside four stages of 52 KB. */
  static constexpr int kWarpRows = 16;
  static constexpr int kNarrowStagingCols = 32;
  static constexpr int kStagingRowBytes =
      BN % TG_SM90_BOX == kNarrowStagingCols ? TG_SM90_ROW_BYTES / 2 : TG_SM90_ROW_BYTES;
  static constexpr int kStagingBufferBytes = kWarpRows * kStagingRowBytes;
  static constexpr int kStagingBuffers = 2;
  static constexpr int kWarpStagingBytes = kStagingBuffers * kStagingBufferBytes;
  /* Stores by warpgroup (the plain epilogue of 128×256 and 256×128 tiles). The four warps of a
   * consumer warpgroup stage their 16 rows of a chunk side by side (buffer b of warp w at
   * b · 8 KB + w · 2 KB of the warpgroup's staging), and one thread stores the warpgroup's 64
   * rows as one box: a quarter of the TMA stores, each four times the size, for two warpgroup
   * barriers per pair of chunks. D's stores compete with the operand loads (docs/sm90.md, "L2
   * traffic is the limit"), and fewer, larger ones compete less. H100, same calls against boxes
   * per warp: 8192×8192×1024 0.979–0.987 → 0.987–0.992× cuBLAS f16, 1.013–1.025 → 1.021–1.030×
   * bf16, 4096³ +0.2–0.3%, 256×128 forced +0.6–1.2%; smaller boxes went the other way (1 KB
   * chunks of 64-byte rows, cuBLAS's form: 0.984 → 0.960× f16). Where it does not pay, boxes stay
   * per warp: bias+ReLU (8192×8192×1024 −1.35%, 4096³ −0.3%), f32 D (±0.2%), 128×128 tiles (one
   * or two waves of them: −0.1 to −0.65%), REST (its C comes in through the same buffers, a warp
   * at a time), pingpong, and tile rows of an odd chunk count (128×192: −0.1 to −1%). A single
   * wave of 128×256 tiles, all CTAs storing at once at the end, loses 0.2–1.0% (2048³ 0.93 →
   * 0.92×, 2048×2048×8192 −0.2 to −0.3%). */
  static constexpr int kWarpgroupStoreTileArea = 128 * 256; /* 128×256 and 256×128 */
  static constexpr bool kWarpgroupStores =
      !kPingpong && EPILOGUES == TG_SM90_EPILOGUES_LEAN && BM * BN == kWarpgroupStoreTileArea;
  static constexpr int kWarpsPerGroup = TG_SM90_WARPGROUP / 32;
  static constexpr int kStoreRows = kWarpgroupStores ? kWarpsPerGroup * kWarpRows : kWarpRows; /* D's box */
  static constexpr int kBufferStride = kWarpgroupStores ? kWarpsPerGroup * kStagingBufferBytes : kStagingBufferBytes;
  /* RESID stages a tile's second group of chunks in its last stage, borrowed. With only its own
   * buffers, a consumer's second group waited for the copy engine to read the first out while
   * both consumers held the tensor cores idle, and then for its C. The last k-tile's stage is free
   * once both consumers' last wgmma are done, and the producer would refill it with the next
   * tile's fourth k-tile, needed three k-tiles later. So the second group's C is requested into it
   * as soon as it is free, and lands while the first group is worked; each warp releases the stage
   * once the next unit's first wgmma are issued and the copy engine has read its stores out of
   * it. H100, against the tree before: C (beta = 1) 4096³ +3.9%, 8192×8192×1024 on 128×256 +8%,
   * 4096×14336×4096 +1.9%. (LEAN borrowed it too, for +0.3–0.5% at 8192×8192×1024; holding the
   * group in registers, below, gains more.) */
  static constexpr bool kBorrowStage = sm90_borrows_stage(BM, BN, kPingpong) && EPILOGUES == TG_SM90_EPILOGUES_RESID;
  /* LEAN of the same tiles holds a tile's second group of chunks in registers: rounded to D's type
   * at the epilogue (16 words a chunk and thread, 32 for the group), it is staged and stored
   * while the next unit's first k-tile runs on the tensor cores (warpgroup_store_held, inside the
   * mainloop's own control flow: from the epilogue, every form of such a head start made ptxas
   * serialize the kernel's wgmma). The tensor cores idle through half the staging and stores they
   * idled through before, and the tile's last stage goes back to the producer at once. Same call
   * against the borrowed stage, H200, two repeats: 8192×8192×1024 +2.8% f16 and +2.9% bf16,
   * 8192×8192×2048 +1.75%, 256×128 at 8192×4096×1024 +1.6%, 4096³ +0.4%, 8192³ +0.3%, 2048³ (one
   * tile per CTA) −0.2%. Holding both groups (64 words) spilled and gained nothing (−0.3 to −10%).
   * BIAS (bias+ReLU into the same D, stored by warp) holds its second group the same way, bias
   * added and ReLU folded into the rounding: H100, same call, 8192×8192×1024 bias+ReLU +2.1% bf16
   * and +1.9% f16, 256×128 ReLU +2.5%, 4096³ +0.6–0.7%, stream-K shapes +0.1 to +1.2% (once the
   * held words are declared dead after their store, run()). C (RESID) held lost 1.3–5.2% (spills),
   * and the last chunk of 128×192 and 128×208 rows held gained nothing (docs/sm90.md). */
  static constexpr bool kHoldSecondGroup =
      sm90_borrows_stage(BM, BN, kPingpong) &&
      (EPILOGUES == TG_SM90_EPILOGUES_LEAN || EPILOGUES == TG_SM90_EPILOGUES_BIAS);
  static constexpr int kHeldWordsPerChunk = TG_SM90_ROW_BYTES / 2 / 8 * 2; /* 64 columns: 8 blocks of 2 words */
  static constexpr int kHeldWords = kHoldSecondGroup ? kStagingBuffers * kHeldWordsPerChunk : 1;
  struct Held {
    uint32_t w[kHeldWords]; /* the group's chunks as warp_stage_chunk_16bit hands them to stmatrix */
    int row0, col0, bat;    /* where its boxes go: this warp's first row, the first column */
    bool pending;
  };
  /* A tile width that is not a whole number of 128-byte chunks in every D type (144 = 2 × 64 +
   * 16 columns of 16-bit D, 4 × 32 + 16 of f32; 208 = 3 × 64 + 16, 6 × 32 + 16) ends in a tail
   * chunk of 16 columns. It leaves through a buffer of its own per warp, unswizzled (rows of 32
   * or 64 bytes), by a second pair of tensor maps whose boxes are 16 columns wide (map_d_tail,
   * map_c_tail). */
  static constexpr int kTailChunkCols = 16;
  static constexpr int kTailCols = BN % (kStagingRowBytes / 2);
  static constexpr int kTailBufferBytes = kTailCols ? kWarpRows * kTailCols * (int)sizeof(float) : 0;
  static constexpr int kStagingBytes = kConsumerWarpsTotal * (kWarpStagingBytes + kTailBufferBytes);
  /* Per consumer warp, the tile of its next unit (batch, tile row, tile column), worked out
   * under the last wgmma of the current one (warp_stash_next_tile): cooperative LEAN and BIAS
   * kernels only. Pingpong already runs a consumer's tile arithmetic under its partner's
   * mainloop; with it, REST ran 0.4% slower (4096³ beta = 1) and CAST 0.3–0.7% (8192×8192×1024
   * into f32 D), where LEAN (then plain and bias+ReLU) gained 0.3–0.8% (H100, same calls;
   * docs/sm90.md, "The next tile ahead"). */
  static constexpr bool kStashNextTile =
      !kPingpong && (EPILOGUES == TG_SM90_EPILOGUES_LEAN || EPILOGUES == TG_SM90_EPILOGUES_BIAS);
  static constexpr int kNextTileWords = 3;
  static constexpr int kNextTileBytes =
      kStashNextTile ? kConsumerWarpsTotal * kNextTileWords * (int)sizeof(int64_t) : 0;
  /* BIAS kernels hide the stage-0 descriptors' low words from ptxas behind an empty asm, so that
   * it keeps them in registers: otherwise it re-derives them in every k-tile, through a read of
   * SR_CgaCtaId and a chain of five dependent instructions before the first wgmma after the
   * stage's full-barrier wait (six S2UR in 128×256 BIAS, two with the asm, which run once). Same
   * calls on two H100s: bias+ReLU at 8192×8192×1024 0.992–0.995 → 0.997–1.002× cuBLAS bf16,
   * 1.026–1.029 → 1.034–1.037× f16, 4096³ +0.2%. In LEAN, whose mainloop ptxas already keeps
   * clean, the same asm cost 0.1–0.3% (the descriptors were then added up after the wait), in
   * CAST 0.2%. */
  static constexpr bool kOpaqueDescriptors = EPILOGUES == TG_SM90_EPILOGUES_BIAS;
  static constexpr int kSmemBytes =
      TG_SM90_SWIZZLE_ATOM + STAGES * kStageBytes + kStagingBytes + kBarrierBytes + kNextTileBytes;
  /* Empty-barrier arrivals per phase: lane 0 of every warp that reads the stage (both consumers
   * in step, or the one whose tile it holds in pingpong) of every CTA in the cluster (a stage is
   * refilled by multicast into all of them). */
  static constexpr int kConsumerWarps = (kPingpong ? 1 : TG_SM90_CONSUMERS) * TG_SM90_WARPGROUP / 32;
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
  /* Descriptor steps per k16: 32 bytes along a K-major row, 16 rows of an MN-major box. */
  static constexpr uint32_t kAStep = A_KMAJOR ? 32 : 16 * TG_SM90_ROW_BYTES;
  static constexpr uint32_t kBStep = B_KMAJOR ? 32 : 16 * TG_SM90_ROW_BYTES;

  static_assert(BN == 64 || BN == 128 || BN == 144 || BN == 160 || BN == 192 || BN == 208 || BN == 256,
                "wgmma N must be 64, 128, 144, 160, 192, 208 or 256 (the wrappers built)");
  static_assert(kTailCols == 0 || kTailCols == kTailChunkCols,
                "a tile row ends in whole 128-byte staging chunks, then at most one tail chunk of 16 columns");
  static_assert(kTailCols == 0 || (B_KMAJOR && SCHEDULE == TG_SM90_COOPERATIVE),
                "a tile width with a tail chunk is built K-major and cooperative only");
  static_assert(kWgRows % TG_SM90_WGMMA_M == 0, "each consumer owns whole 64-row wgmma blocks");
  static_assert(kWideAcc == (kRowBlocks * kAcc > TG_SM90_NARROW_ACC),
                "sm90_wide_acc counts this kernel's accumulators");
  static_assert(!kWideAcc || EPILOGUES == TG_SM90_EPILOGUES_LEAN,
                "a kernel of over 128 accumulators per thread holds the LEAN epilogues only (it spills in the others)");
  static_assert(BM <= 256 && kBShareRows <= 256, "a TMA box spans at most 256 rows");
  static_assert(kCluster == 1 || kCluster == 2, "clusters of 1 or 2 CTAs");
  static_assert(CLUSTER_M == 1 || CLUSTER_N == 1, "a cluster lies along m or along n");
  static_assert(kAShareRows <= 256, "a TMA box spans at most 256 rows");
  static_assert((kAShareRows * TG_SM90_ROW_BYTES) % TG_SM90_SWIZZLE_ATOM == 0 &&
                    (kBShareRows * TG_SM90_ROW_BYTES) % TG_SM90_SWIZZLE_ATOM == 0,
                "each CTA's share of a multicast operand starts on a 1024-byte swizzle atom");
  static_assert(A_KMAJOR || (BM / TG_SM90_BOX) % CLUSTER_N == 0, "MN-major A boxes split evenly over the cluster");
  static_assert(SCHEDULE == TG_SM90_COOPERATIVE || SCHEDULE == TG_SM90_PINGPONG, "unknown schedule");
  static_assert(EPILOGUES == TG_SM90_EPILOGUES_LEAN || EPILOGUES == TG_SM90_EPILOGUES_CAST ||
                    EPILOGUES == TG_SM90_EPILOGUES_REST || EPILOGUES == TG_SM90_EPILOGUES_BIAS ||
                    EPILOGUES == TG_SM90_EPILOGUES_RESID || EPILOGUES == TG_SM90_EPILOGUES_ACT,
                "unknown epilogue set");
  static_assert(EPILOGUES != TG_SM90_EPILOGUES_RESID || kBorrowStage, "RESID is built for tiles that borrow a stage");
  static_assert(B_KMAJOR || (BN % TG_SM90_BOX == 0 && (BN / TG_SM90_BOX) % CLUSTER_M == 0),
                "MN-major B comes in whole 64-column boxes that split evenly over the cluster");
  static_assert(kTileABytes % TG_SM90_SWIZZLE_ATOM == 0, "stages must stay 1024-byte aligned");
  static_assert(kStagingBufferBytes % TG_SM90_SWIZZLE_ATOM == 0, "staging buffers must stay 1024-byte aligned (TMA swizzle)");
  static_assert(kSmemBytes <= 227 * 1024, "shared memory of one CTA exceeds the sm_90 limit");
  static_assert(!kBorrowStage || !kWarpgroupStores, "a borrowed stage is staged in by warp");
  static_assert(!kBorrowStage || kConsumerWarpsTotal * kWarpStagingBytes <= kStageBytes,
                "a borrowed stage holds both consumers' second group of staged chunks");
  static_assert(TG_SM90_CONSUMERS <= TG_SYNC_FLAGS_PER_SM, "stream-K needs a readiness flag per consumer warpgroup of each SM's CTA");
  static_assert(kProducerRegs * TG_SM90_WARPGROUP + kConsumerRegs * TG_SM90_WARPGROUP * TG_SM90_CONSUMERS <=
                    kLaunchRegs * kThreads,
                "setmaxnreg hands out no more registers than the CTA was launched with");

  /* Work item `item` in grouped order: batch, then TG_SM90_GROUP_ROWS rows of tiles sweeping the
   * columns, left to right in even groups and right to left in odd ones, so that a group starts
   * on the columns of B its predecessor read last (still in L2). A cluster's item is CLUSTER_M
   * adjacent tile rows (or CLUSTER_N adjacent tile columns); this CTA takes row (column) `rank` of
   * them; n_items counts the items along n. In 32-bit arithmetic when the item count allows
   * (`narrow`): every thread runs this once per tile, and a 64-bit division is a long call. */
  __device__ static void tile_coords(int64_t item, int64_t m_items, int64_t n_items, bool narrow,
                                     int rank, int64_t *bat, int64_t *tm, int64_t *tn) {
    if (narrow) tile_coords_in<uint32_t>((uint32_t)item, (uint32_t)m_items, (uint32_t)n_items, rank, bat, tm, tn);
    else tile_coords_in<uint64_t>((uint64_t)item, (uint64_t)m_items, (uint64_t)n_items, rank, bat, tm, tn);
  }

  template <typename U>
  __device__ static void tile_coords_in(U item, U m_items, U n_items, int rank, int64_t *bat,
                                        int64_t *tm, int64_t *tn) {
    const U per_batch = m_items * n_items;
    *bat = (int64_t)(item / per_batch);
    const U id = item % per_batch;
    constexpr int kGroupItems = TG_SM90_GROUP_ROWS / BM / CLUSTER_M;
    const U group_rows = kGroupItems > 0 ? kGroupItems : 1;
    const U group = group_rows * n_items;
    const U first_m = (id / group) * group_rows;
    const U rows = m_items - first_m < group_rows ? m_items - first_m : group_rows;
    const U in_group = id % group;
    *tm = (int64_t)(first_m + in_group % rows) * CLUSTER_M + (CLUSTER_M > 1 ? rank : 0);
    const U col = in_group / rows, group_index = id / group;
    *tn = (int64_t)(group_index % 2 ? n_items - 1 - col : col) * CLUSTER_N + (CLUSTER_N > 1 ? rank : 0);
  }

  /* k-tiles [kt_begin, kt_end) of work item `item`. */
  struct Unit {
    Count item;
    int kt_begin, kt_end;
  };

  /* The units a CTA runs (a pingpong consumer: its every other one), in order: first its even
   * share of the stream-K iterations [first_item·k_tiles, items·k_tiles) (iteration
   * item·k_tiles + kt), one unit per item the share touches, so only its first unit may start
   * inside an item and only its last stream-K unit may end inside one; then whole items dp,
   * dp + dp_step, ... below first_item. Producer and consumers walk the same list. */
  struct WorkList {
    Count iter, iter_end, dp, dp_step, dp_end;
    int k_tiles;
    __device__ bool next(Unit &u) {
      if (kStreamK && iter < iter_end) {
        u.item = iter / (Count)k_tiles;
        const Count item_begin = u.item * (Count)k_tiles;
        const Count stop = item_begin + k_tiles < iter_end ? item_begin + k_tiles : iter_end;
        u.kt_begin = (int)(iter - item_begin);
        u.kt_end = (int)(stop - item_begin);
        iter = stop;
        return true;
      }
      if (dp < dp_end) {
        u.item = dp;
        u.kt_begin = 0;
        u.kt_end = k_tiles;
        dp += dp_step;
        return true;
      }
      return false;
    }
    /* Whether the unit next() returns next is a whole item (no stream-K units left), and which. */
    __device__ bool next_is_whole(int64_t *item) const {
      *item = dp;
      return iter >= iter_end && dp < dp_end;
    }
  };

  /* Whether the producer loads unit u's k-tiles from last to first: every other whole item a CTA
   * runs (`nth` counts its units), so that one wave starts on the operand slabs the previous wave
   * read last, while they are still in L2; the wave's CTAs walk k in step either way. Together
   * with the alternating column sweep above (same-binary A/B, H100, two repeats): 4096³ 0.978 →
   * 0.982× cuBLAS bf16, 0.981 → 0.984× f16, 4096×14336×4096 0.970–0.973 → 0.978×,
   * 8192×8192×1024 f16 0.945 → 0.946–0.949×. The consumers need not know: a tile's sum is the
   * same set of k-tiles in another order, and each launch of a problem takes the same orders, so
   * results stay deterministic. Parts of a split item (stream-K) keep the ascending order. */
  __device__ static bool loads_k_backwards(uint32_t nth, const Unit &u, int k_tiles) {
    return (nth & 1) && u.kt_begin == 0 && u.kt_end == k_tiles;
  }

  /* Staggered start (producer thread, before its first load): where the items do not divide
   * evenly among the clusters, the clusters with one item fewer (c >= items mod clusters) start
   * about half a tile late. They would idle that long at the end anyway; meanwhile the two
   * groups of clusters run their epilogues, whose stores compete with every CTA's next operand
   * loads, half a tile apart instead of all at once. A delay of a whole tile brings them back in
   * step and gains nothing (diagnostic build). Same-call A/B on the H100, two repeats:
   * 8192×8192×1024 f16 0.963–0.965 → 0.972× cuBLAS, bf16 1.003 → 1.010–1.011×, 4096³ bf16
   * 0.988–0.989 → 0.995×, f16 0.989–0.991 → 0.997–0.998×; on a second H100, 4096³ +0.3% both
   * types, 8192×8192×1024 bf16 −0.5%, f16 unchanged (docs/sm90.md). The delay counts cycles: half a
   * tile's k-tiles at kStaggerCyclesPerKTile each, scaled to the tile's area (a k-tile's math
   * is). Multi-wave cooperative launches without stream-K only (stream-K evens the shares out);
   * the results do not depend on it. */
  static constexpr long long kStaggerCyclesPerKTile = 1500; /* a k-tile of kStaggerTileArea, with its share of the epilogue, H100 */
  static constexpr long long kStaggerTileArea = 128 * 256;
  static constexpr long long kStaggerHalfTileCyclesPerKTile = kStaggerCyclesPerKTile * BM * BN / kStaggerTileArea / 2;
  __device__ static void thread_stagger_start(const Sm90StreamK &sk, int64_t items, int64_t first, int64_t clusters,
                                              int k_tiles) {
    const int64_t rem = (int64_t)((Count)items % (Count)clusters);
    if (kPingpong || sk.first_item < items || items < 2 * clusters || rem == 0 || first < rem) return;
    const long long delay = kStaggerHalfTileCyclesPerKTile * k_tiles, t0 = clock64();
    while (clock64() - t0 < delay) {
    }
  }

  /* Cluster c's share of the stream-K iterations: [c·T/C, (c+1)·T/C) of T, relative to the
   * first stream-K iteration; sk_owner(x) is the cluster whose share holds iteration x. */
  template <typename U>
  __device__ static U sk_share_begin(U c, U clusters, U sk_iters) {
    return c * sk_iters / clusters;
  }
  template <typename U>
  __device__ static U sk_owner(U x, U clusters, U sk_iters) {
    return ((x + 1) * clusters - 1) / sk_iters;
  }

  /* The stream-K iterations: the first one and how many. */
  __device__ static int64_t sk_base(const Sm90StreamK &sk, int k_tiles) { return sk.first_item * k_tiles; }
  __device__ static int64_t sk_count(const Sm90StreamK &sk, int64_t items, int k_tiles) {
    return (items - sk.first_item) * k_tiles;
  }
  /* Partial-sum slot (and readiness flag) of consumer warpgroup cw of CTA `cta`. */
  __device__ static int64_t sk_slot(int64_t cta, int cw) { return cta * TG_SM90_CONSUMERS + cw; }

  __device__ static WorkList work_list(const Sm90StreamK &sk, int64_t items, int k_tiles,
                                       int64_t cluster, int64_t clusters, int64_t dp, int64_t dp_step) {
    WorkList w;
    const Count base = (Count)sk_base(sk, k_tiles), sk_iters = kStreamK ? (Count)sk_count(sk, items, k_tiles) : 0;
    w.iter = sk_iters ? base + sk_share_begin<Count>((Count)cluster, (Count)clusters, sk_iters) : 0;
    w.iter_end = sk_iters ? base + sk_share_begin<Count>((Count)cluster + 1, (Count)clusters, sk_iters) : 0;
    w.dp = (Count)dp;
    w.dp_step = (Count)dp_step;
    w.dp_end = (Count)sk.first_item;
    w.k_tiles = k_tiles;
    return w;
  }

  /* A unit that starts inside its item (kt_begin > 0) hands its sums to the item's finisher:
   * into this warpgroup's slot, then the slot's flag. A CTA has at most one such unit (its
   * first), so one slot per warpgroup suffices. */
  __device__ static void warpgroup_stream_k_publish(const tg_problem &p, const Sm90StreamK &sk,
                                          const float (&acc)[kRowBlocks][kAcc], int cw) {
    const int64_t slot = sk_slot(blockIdx.x, cw);
    const int tid = threadIdx.x % TG_SM90_WARPGROUP;
    float *dst = sk.partials + slot * kSlotFloats + tid;
#pragma unroll
    for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
      for (int i = 0; i < kAcc; ++i) __stcg(dst + (rb * kAcc + i) * TG_SM90_WARPGROUP, acc[rb][i]);
    block_named_barrier(TG_SM90_STREAM_K_BARRIER + cw, TG_SM90_WARPGROUP);
    if (tid == 0) thread_flag_publish(p.sync_flags + slot, TG_SYNC_FLAG_READY);
  }

  /* The finisher of a split item (the unit holding its first k-tile, the last stream-K unit of
   * its cluster) adds the sums of the clusters that ran the rest, in cluster order. They ran those
   * parts as their first units, before any wait of theirs, so every wait ends. */
  __device__ static void warpgroup_stream_k_collect(const tg_problem &p, const Sm90StreamK &sk,
                                          float (&acc)[kRowBlocks][kAcc], int64_t item,
                                          int64_t items, int k_tiles, int64_t cluster,
                                          int64_t clusters, int rank, int cw) {
    const int64_t base = sk_base(sk, k_tiles), sk_iters = sk_count(sk, items, k_tiles);
    const int64_t last = sk_owner((item + 1) * k_tiles - 1 - base, clusters, sk_iters);
    const int tid = threadIdx.x % TG_SM90_WARPGROUP;
    for (int64_t c = cluster + 1; c <= last; ++c) {
      const int64_t slot = sk_slot(c * kCluster + rank, cw);
      if (tid == 0) thread_flag_take(p.sync_flags + slot, TG_SYNC_FLAG_READY);
      block_named_barrier(TG_SM90_STREAM_K_BARRIER + cw, TG_SM90_WARPGROUP);
      const float *src = sk.partials + slot * kSlotFloats + tid;
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int i = 0; i < kAcc; ++i) acc[rb][i] += __ldcg(src + (rb * kAcc + i) * TG_SM90_WARPGROUP);
    }
  }

  /* Producer: fills stage s with k-tile kt of output tile (tm, tn) of batch bat. The part of
   * the operand the cluster shares goes first: the partner CTA's full barrier waits for it, and
   * it has the longer way (multicast into both CTAs). Same call against A first, H100:
   * 8192×8192×1024 bf16 1.014 → 1.018×, f16 0.978 → 0.980×, 4096³ +0.2% (a first try on
   * 2026-11-25: bf16 0.999–1.000 → 1.003–1.005× there, nothing elsewhere). */
  __device__ static void load_stage(const tg_problem &p, const CUtensorMap *map_a,
                                    const CUtensorMap *map_b, uint32_t stage, uint32_t full,
                                    int kt, int64_t tm, int64_t tn, int64_t bat, int rank) {
    const int bat_a = p.batch_stride_a ? (int)bat : 0, bat_b = p.batch_stride_b ? (int)bat : 0;
    const int k0 = kt * kBK, m0 = (int)(tm * BM), n0 = (int)(tn * BN);
    if constexpr (CLUSTER_M > 1)
      load_operand<B_KMAJOR, true, kBShareRows>(stage + kTileABytes, map_b, full, k0, n0, bat_b, rank);
    load_operand<A_KMAJOR, (CLUSTER_N > 1), kAShareRows>(stage, map_a, full, k0, m0, bat_a,
                                                          CLUSTER_N > 1 ? rank : 0);
    if constexpr (CLUSTER_M == 1)
      load_operand<B_KMAJOR, false, kBShareRows>(stage + kTileABytes, map_b, full, k0, n0, bat_b, 0);
  }

  /* One operand's part of a stage, the `share`-th ROWS rows of its tile (all of it when not
   * SHARED): K-major, one box at smem + share·ROWS rows; MN-major, its 64×64 boxes. A SHARED
   * part is multicast to every CTA of the cluster. */
  template <bool KMAJOR, bool SHARED, int ROWS>
  __device__ static void load_operand(uint32_t smem, const CUtensorMap *map, uint32_t full, int k0,
                                      int outer0, int bat, int share) {
    constexpr uint16_t kAll = (1 << kCluster) - 1;
    if constexpr (KMAJOR) {
      const uint32_t dst = smem + share * ROWS * TG_SM90_ROW_BYTES;
      if constexpr (SHARED) thread_tma_load_3d_multicast(dst, map, full, k0, outer0 + share * ROWS, bat, kAll);
      else thread_tma_load_3d(dst, map, full, k0, outer0, bat);
    } else {
      constexpr int kBoxes = ROWS / TG_SM90_BOX;
#pragma unroll
      for (int j = share * kBoxes; j < (share + 1) * kBoxes; ++j) {
        if constexpr (SHARED)
          thread_tma_load_3d_multicast(smem + j * TG_SM90_BOX_BYTES, map, full, outer0 + j * TG_SM90_BOX, k0, bat, kAll);
        else
          thread_tma_load_3d(smem + j * TG_SM90_BOX_BYTES, map, full, outer0 + j * TG_SM90_BOX, k0, bat);
      }
    }
  }

  /* stage_bytes: what a stage's loads deliver to this CTA, kStageBytes unless an operand's box
   * is cut short (sm90_box_rows). */
  __device__ static void run(const tg_problem &p, const Sm90StreamK &sk, uint32_t stage_bytes, const CUtensorMap *map_a,
                             const CUtensorMap *map_b, const Sm90OutMaps &out) {
    extern __shared__ unsigned char smem_raw[];
    const uint32_t raw = thread_smem_address(smem_raw);
    const uint32_t base = (raw + TG_SM90_SWIZZLE_ATOM - 1) & ~(uint32_t)(TG_SM90_SWIZZLE_ATOM - 1);
    const uint32_t full = base + STAGES * kStageBytes + kStagingBytes; /* full[s]: tile s landed */
    const uint32_t empty = full + STAGES * 8;           /* empty[s]: tile s consumed */
    const uint32_t c_landed = empty + STAGES * 8;       /* [w]: consumer warp w's C landed */
    const uint32_t next_tiles = c_landed + kConsumerWarpsTotal * 8; /* [w]: warp w's next tile */
    const int wg = threadIdx.x / TG_SM90_WARPGROUP;
    const int rank = kCluster > 1 ? (int)thread_cluster_rank() : 0;

    if (threadIdx.x == 0) {
      for (int s = 0; s < STAGES; ++s) {
        thread_mbarrier_init(full + 8 * s, 1);
        thread_mbarrier_init(empty + 8 * s, kEmptyArrivals);
      }
      for (int w = 0; w < kConsumerWarpsTotal; ++w) thread_mbarrier_init(c_landed + 8 * w, 1);
      thread_fence_barrier_init();
    }
    if constexpr (kCluster > 1) block_cluster_sync(); /* partners' barriers exist */
    else __syncthreads();

    const int64_t m_tiles = (p.m + BM - 1) / BM, n_tiles = (p.n + BN - 1) / BN;
    const int64_t m_items = (m_tiles + CLUSTER_M - 1) / CLUSTER_M;
    const int64_t n_items = (n_tiles + CLUSTER_N - 1) / CLUSTER_N;
    const int64_t items = m_items * n_items * p.batch;
    const int64_t first = blockIdx.x / kCluster, step = gridDim.x / kCluster;
    const int k_tiles = (int)((p.k + kBK - 1) / kBK);
    const bool narrow = kWideAcc || items <= (int64_t)UINT32_MAX; /* 32-bit tile arithmetic suffices */

    if (wg == 0) {
      /* Producer: one thread keeps the stages full. */
      warpgroup_setmaxnreg_dec<kProducerRegs>();
      if (threadIdx.x == 0) {
        thread_tma_prefetch_descriptor(map_a);
        thread_tma_prefetch_descriptor(map_b);
        thread_stagger_start(sk, items, first, step, k_tiles);
        uint32_t it = 0, nth = 0;
        WorkList work = work_list(sk, items, k_tiles, first, step, first, step);
        for (Unit u; work.next(u); ++nth) {
          int64_t bat, tm, tn;
          tile_coords(u.item, m_items, n_items, narrow, rank, &bat, &tm, &tn);
          const bool backwards = loads_k_backwards(nth, u, k_tiles);
          for (int kt = u.kt_begin; kt < u.kt_end; ++kt, ++it) {
            const uint32_t s = it % STAGES, phase = (it / STAGES) & 1;
            thread_mbarrier_wait(empty + 8 * s, phase ^ 1);
            thread_mbarrier_arrive_expect_tx(full + 8 * s, stage_bytes);
            load_stage(p, map_a, map_b, base + s * kStageBytes, full + 8 * s, backwards ? k_tiles - 1 - kt : kt, tm,
                       tn, bat, rank);
          }
        }
      }
    } else {
      /* Consumers. Cooperative: warpgroup cw owns rows [cw·kWgRows, (cw+1)·kWgRows) of every
       * tile. Pingpong: warpgroup cw owns every other tile, starting with the cw-th, and skips
       * the stages of its partner's tiles. */
      warpgroup_setmaxnreg_inc<kConsumerRegs>();
      const int cw = wg - 1;
      const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
      const int wg_rows0 = kPingpong ? 0 : cw * kWgRows;
      const int64_t wg_first = kPingpong ? first + cw * step : first;
      const int64_t wg_step = kPingpong ? TG_SM90_CONSUMERS * step : step;
      uint32_t it = kPingpong ? cw * k_tiles : 0;
      uint32_t chunks = 0;  /* staging chunks this warp has stored: picks the buffer */
      uint32_t c_loads = 0; /* C loads this warp has waited for: the barrier's parity */
      const int warp_index = cw * (TG_SM90_WARPGROUP / 32) + warp; /* among the consumer warps */
      const uint32_t c_bar = c_landed + 8 * warp_index;
      int64_t *const next_tile =
          (int64_t *)(smem_raw + (next_tiles - raw) + warp_index * kNextTileWords * sizeof(int64_t));
      unsigned char *staging = smem_raw + (base - raw) + STAGES * kStageBytes +
                               (kWarpgroupStores ? cw * kWarpsPerGroup * kWarpStagingBytes + warp * kStagingBufferBytes
                                                 : warp_index * kWarpStagingBytes);
      unsigned char *tail = smem_raw + (base - raw) + STAGES * kStageBytes + kConsumerWarpsTotal * kWarpStagingBytes +
                            warp_index * kTailBufferBytes; /* the tail chunk's buffer, if any */
      WorkList work = work_list(sk, items, k_tiles, first, step, wg_first, wg_step);
      /* Descriptors of this warpgroup's A rows and of B in stage 0, split into the high word
       * (the same for both) and the low words, to which stage and k steps add (ptx_sm90.cuh). */
      const uint64_t desc_a = thread_wgmma_descriptor(base + wg_rows0 * TG_SM90_ROW_BYTES, TG_SM90_BOX_BYTES,
                                                      TG_SM90_SWIZZLE_ATOM);
      const uint64_t desc_b = thread_wgmma_descriptor(base + kTileABytes, TG_SM90_BOX_BYTES, TG_SM90_SWIZZLE_ATOM);
      const uint64_t desc_hi = desc_a & TG_WGMMA_DESC_HIGH_MASK;
      uint32_t desc_a_lo = (uint32_t)desc_a, desc_b_lo = (uint32_t)desc_b;
      if constexpr (kOpaqueDescriptors) asm("" : "+r"(desc_a_lo), "+r"(desc_b_lo));
      /* FULL with C: each warp's first group of C is loaded during the mainloop's last k-tiles. */
      const bool c_ahead = (EPILOGUES == TG_SM90_EPILOGUES_REST || EPILOGUES == TG_SM90_EPILOGUES_RESID) &&
                           sm90_epilogue_class(p) == TG_SM90_EPI_FULL && p.read_c;
      const bool tile_bias = tile_bias_wanted(p);
      Held held;
      held.pending = false;
      bool stashed = false; /* the unit's tile waits in next_tile */
      bool owed = false;    /* kBorrowStage: the last unit's stage still owes its storing threads' release */
      for (Unit u; work.next(u);) {
        int64_t bat, tm, tn;
        if (kStashNextTile && stashed) warp_read_next_tile(next_tile, &bat, &tm, &tn);
        else tile_coords(u.item, m_items, n_items, narrow, rank, &bat, &tm, &tn);
        const bool c_loaded = c_ahead && u.kt_begin == 0 && tm * BM < p.m && tn * BN < p.n;
        const int c_ahead_kt = c_loaded ? (u.kt_end - kCAheadTiles > 0 ? u.kt_end - kCAheadTiles : 0) : -1;
        /* No zeroing: the unit's first wgmma overwrites the accumulators (accumulate = 0). */
        float acc[kRowBlocks][kAcc];

        if constexpr (kPingpong)
          if (u.item > first) block_named_barrier(TG_SM90_TURN_BARRIER + cw, kTurnThreads);

        for (int kt = u.kt_begin; kt < u.kt_end; ++kt, ++it) {
          const uint32_t s = it % STAGES, phase = (it / STAGES) & 1;
          /* The stage's descriptors before the wait, so that the first wgmma issues as soon as
           * the stage lands; only their low words (the address field) move. 81 instructions per
           * k-tile instead of 93 (128×256, bf16); same-binary A/B on the H100: 3072³ 0.955 →
           * 0.960× cuBLAS, 1536³ 0.788 → 0.791×, the issue's shapes unchanged within noise. */
          const uint32_t stage_step = s * (kStageBytes >> TG_WGMMA_DESC_UNIT_SHIFT);
          const uint32_t da0 = desc_a_lo + stage_step, db0 = desc_b_lo + stage_step;
          thread_mbarrier_wait(full + 8 * s, phase);
          warpgroup_fence();
#pragma unroll
          for (int ks = 0; ks < kKSteps; ++ks) {
#pragma unroll
            for (int rb = 0; rb < kRowBlocks; ++rb) {
              /* K-major A: the block's 64 rows; MN-major A: its 64-column box. */
              const uint32_t da =
                  da0 + ((rb * TG_SM90_WGMMA_M * TG_SM90_ROW_BYTES + ks * kAStep) >> TG_WGMMA_DESC_UNIT_SHIFT);
              const uint32_t db = db0 + ((ks * kBStep) >> TG_WGMMA_DESC_UNIT_SHIFT);
              E::template mma<BN, A_KMAJOR ? 0 : 1, B_KMAJOR ? 0 : 1>(acc[rb], desc_hi | da, desc_hi | db,
                                                                   ks > 0 || kt > u.kt_begin);
            }
          }
          warpgroup_commit();
          if constexpr (EPILOGUES == TG_SM90_EPILOGUES_REST || EPILOGUES == TG_SM90_EPILOGUES_RESID)
            if (kt == c_ahead_kt && lane == 0) {
              /* The first group of C, into the buffers the epilogue will compute it in (row
               * block 0, chunks 0..group-1), while they idle; the last stores read them long ago. */
              thread_bulk_wait_group_read<0>();
              const int es = p.d_type == TG_F32 ? 4 : 2, group = group_chunks(es);
              const uint32_t buffer = (group > 1 ? 0 : chunks % kStagingBuffers) * kStagingBufferBytes;
              thread_load_c_boxes(out.c, c_bar, thread_smem_address(staging) + buffer, group, kStagingBufferBytes,
                                  kStagingRowBytes / es,
                                  (int)(tn * BN), (int)(tm * BM) + wg_rows0 + kWarpRows * warp,
                                  p.batch_stride_c ? (int)bat : 0);
            }
          /* The previous unit's held group, staged and stored while this k-tile's wgmma run (its
           * first: every unit has one). */
          if constexpr (kHoldSecondGroup)
            if (held.pending) warpgroup_store_held(out, held, staging, cw, warp, lane);
          /* The previous k-tile's wgmma are done: hand its stage back to every producer that
           * writes into it (all CTAs of the cluster, through multicast). */
          warpgroup_wait<1>();
          if (lane == 0 && (kt > u.kt_begin || (kBorrowStage && owed && (!kWarpgroupStores || warp == 0)))) {
            /* The first k-tile: the previous unit's stage, once its stores have been read out of it. */
            if (kBorrowStage && kt == u.kt_begin) thread_bulk_wait_group_read<0>();
            release(empty + 8 * ((it - 1) % STAGES));
          }
          owed = false;
        }
        /* Pass the turn to the partner, if it has a next tile. */
        if constexpr (kPingpong)
          if (u.item + step < items)
            block_named_barrier_arrive(TG_SM90_TURN_BARRIER + (TG_SM90_CONSUMERS - 1 - cw), kTurnThreads);
        uint32_t bias_words[kBiasWords];
        if (tile_bias && u.kt_begin == 0) thread_load_tile_bias(p, tn, lane, bias_words);
        /* After the bias loads are issued, so that they, too, run under the last wgmma. */
        if constexpr (kStashNextTile)
          stashed = warp_stash_next_tile(work, m_items, n_items, narrow, rank, next_tile, lane);
        warpgroup_wait<0>();
        /* BIAS: the last group held went out in this unit's first k-tile (every unit has one), so
         * its words are dead; saying so frees their registers for what follows. Beside them and the
         * tile's bias words, ptxas kept 8 of a stream-K collect's 128 loads in flight instead of
         * 40 (1024×3072×520×3 bias+ReLU ran 15% slower). LEAN's collect has the room, and the
         * same lines cost its mainloop 0.9% at 8192×8192×1024. */
        if constexpr (kHoldSecondGroup && EPILOGUES == TG_SM90_EPILOGUES_BIAS)
#pragma unroll
          for (int i = 0; i < kHeldWords; ++i) held.w[i] = 0;
        /* The unit ends in the epilogue, and the problem has at least as many k-tiles as stages
         * (with fewer, 8192×8192×64 and 2000×6000×130 ran 0.5–0.8% slower when the stage waited
         * for the stores). The choice must stay the same for both consumer warpgroups of the
         * CTA: both meet at TG_SM90_BORROW_BARRIER exactly when the stage is borrowed. */
        const bool borrow = kBorrowStage && u.kt_begin == 0 && k_tiles >= STAGES;
        /* The threads that store from a borrowed stage release it later (every warp's lane 0: a
         * borrowing kernel stores by warp, static_assert above, so the warp-0 term here and at
         * the first k-tile's release is always true; written out, ptxas schedules RESID as
         * measured, and shortened it did not: left as it is). */
        if (lane == 0 && !(borrow && (!kWarpgroupStores || warp == 0))) release(empty + 8 * ((it - 1) % STAGES));
        owed = borrow;
        unsigned char *borrowed = nullptr; /* this warp's part of the stage, if borrowed */
        if (borrow) borrowed = smem_raw + (base - raw) + (it - 1) % STAGES * kStageBytes + warp_index * kWarpStagingBytes;
        if constexpr (kPingpong) {
          it += (TG_SM90_CONSUMERS - 1) * k_tiles;
        } else if constexpr (kStreamK) {
          if (u.kt_begin > 0) { /* a later part of a split item: its finisher adds it */
            warpgroup_stream_k_publish(p, sk, acc, cw);
            continue;
          }
          if (u.kt_end < k_tiles) warpgroup_stream_k_collect(p, sk, acc, u.item, items, k_tiles, first, step, rank, cw);
        }
        epilogue(p, out, acc, bias_words, bat, tm, tn, wg_rows0, warp, lane, staging, borrowed, tail, chunks, c_bar,
                 c_loads, c_loaded, held);
      }
      if constexpr (kHoldSecondGroup) /* the last unit's */
        if (held.pending) warpgroup_store_held(out, held, staging, cw, warp, lane);
      /* The copy engine has finished the last stores before the CTA's shared memory goes. */
      if (lane == 0) thread_bulk_wait_group<0>();
    }
    /* No CTA leaves while a partner may still multicast into it or arrive on its barriers. */
    if constexpr (kCluster > 1) block_cluster_sync();
  }

  /* A consumer warp works out the tile of its next unit while the current unit's last wgmma
   * run, and keeps it in shared memory across the epilogue (in registers, beside a REST or CAST
   * epilogue, it spilled): the divisions of tile_coords, a chain of three dependent ones, then
   * no longer stand between a tile's epilogue and the next tile's first wgmma, where both
   * consumers, in step, hold the tensor cores idle. Whole items in 32-bit arithmetic only (a
   * stream-K unit, or 64-bit tile arithmetic, would add calls of the 64-bit division helper):
   * otherwise it returns false and the unit's tile is worked out at its start, as before. */
  __device__ static bool warp_stash_next_tile(const WorkList &work, int64_t m_items, int64_t n_items, bool narrow,
                                              int rank, int64_t *next_tile, int lane) {
    int64_t item;
    if (!narrow || !work.next_is_whole(&item)) return false;
    int64_t bat, tm, tn;
    tile_coords(item, m_items, n_items, true, rank, &bat, &tm, &tn);
    if (lane == 0) {
      next_tile[0] = bat;
      next_tile[1] = tm;
      next_tile[2] = tn;
    }
    return true;
  }
  /* The tile warp_stash_next_tile kept for the unit that follows. */
  __device__ static void warp_read_next_tile(const int64_t *next_tile, int64_t *bat, int64_t *tm, int64_t *tn) {
    __syncwarp(); /* lane 0's stash is visible */
    *bat = next_tile[0];
    *tm = next_tile[1];
    *tn = next_tile[2];
    __syncwarp(); /* read by all before lane 0 stashes the next one */
  }

  __device__ static void release(uint32_t bar) {
    if constexpr (kCluster == 1) {
      thread_mbarrier_arrive(bar);
    } else {
#pragma unroll
      for (int c = 0; c < kCluster; ++c) thread_mbarrier_arrive_cluster(bar, c);
    }
  }

  /* BIAS_RELU into 16-bit D: the tile's bias along n, loaded at the end of the mainloop, under
   * its last wgmma, instead of a chunk's worth at a time in the epilogue, where each chunk waited
   * for its own loads (H100, bias+ReLU, with ReLU folded into the rounding: 8192×8192×1024 bf16
   * 0.878 → 0.984× cuBLAS, f16 0.907 → 1.018×; 4096³ bf16 0.960 → 0.992×). Word j holds the
   * thread's columns 8j + 2t and 8j + 2t + 1 of the tile (t = lane mod 4) as they are in memory;
   * zero without a bias (BIAS_RELU with ReLU alone). Aligned pairs inside the matrix load a word
   * at a time; elsewhere (edge tiles, whose stores the copy engine clips, or a bias off its
   * pairs' alignment) each element alone, columns past n reading element n - 1. f32 D and REST
   * (FULL) keep their per-chunk loads: there the tile's bias, held across the drain, spills
   * (ptxas: 1.2k local-memory instructions in 128×256 CAST with f32 words, 0.5k in REST with
   * 16-bit ones). */
  static constexpr int kBiasWords = BN / 8;
  /* LEAN and REST never run BIAS_RELU; saying so at compile time keeps the loader out of their code. */
  __device__ static bool tile_bias_wanted(const tg_problem &p) {
    return (EPILOGUES == TG_SM90_EPILOGUES_BIAS || EPILOGUES == TG_SM90_EPILOGUES_CAST) &&
           p.d_type != TG_F32 && sm90_epilogue_class(p) == TG_SM90_EPI_BIAS_RELU;
  }
  __device__ static void thread_load_tile_bias(const tg_problem &p, int64_t tn, int lane,
                                               uint32_t (&word)[kBiasWords]) {
    if (!p.has_bias) {
#pragma unroll
      for (int j = 0; j < kBiasWords; ++j) word[j] = 0;
      return;
    }
    const int64_t col0 = tn * BN + 2 * (lane % 4), last = p.n - 1;
    const uint16_t *bias = (const uint16_t *)p.bias;
    /* Two branch-free runs of loads: with the choice made per word, ptxas waited for each load
     * before the next branch (8192×8192×1024 bf16 bias+ReLU 0.921× cuBLAS instead of 0.984×). */
    if ((tn + 1) * BN <= p.n && p.align_bias >= 4) {
#pragma unroll
      for (int j = 0; j < kBiasWords; ++j) word[j] = __ldg((const uint32_t *)(bias + col0 + 8 * j));
      return;
    }
#pragma unroll
    for (int j = 0; j < kBiasWords; ++j) {
      const int64_t x = col0 + 8 * j;
      const uint32_t lo = __ldg(bias + (x < last ? x : last)), hi = __ldg(bias + (x + 1 < last ? x + 1 : last));
      word[j] = lo | hi << 16;
    }
  }

  /* d[4j + 2i + c] is row 16·warp + g + 8i, column 8j + 2t + c of a 64-row block. The
   * Sm90Epilogue classes this kernel's EPILOGUES set holds: PLAIN, BIAS_RELU and FULL are
   * finished in registers and stored by TMA (epilogue_tma); GENERAL is staged through shared
   * memory and calls the shared epilogue per 8 outputs (epilogue_staged_general), one inline
   * copy in a run-time loop (a fully inline general epilogue made the kernel 300 KB of code). */
  __device__ static void epilogue(const tg_problem &p, const Sm90OutMaps &out, float (&acc)[kRowBlocks][kAcc],
                                  const uint32_t (&bias_words)[kBiasWords], int64_t bat, int64_t tm,
                                  int64_t tn, int wg_rows0, int warp, int lane, unsigned char *staging,
                                  unsigned char *borrowed, unsigned char *tail, uint32_t &chunks, uint32_t c_bar,
                                  uint32_t &c_loads, bool c_loaded, Held &held) {
    if (tm * BM >= p.m || tn * BN >= p.n) return; /* the padding CTA of a cluster at an edge */
    const int cls = sm90_epilogue_class(p);
/* borrow_: the borrowed-stage path compiled in (RESID, kBorrowStage). */
#define TG_SM90_EPILOGUE_TMA_(dt, cls_, borrow_) \
  epilogue_tma<dt, cls_, borrow_>(p, out, acc, bias_words, bat, tm, tn, wg_rows0, warp, lane, staging, borrowed, \
                                  tail, chunks, c_bar, c_loads, c_loaded, held)
#define TG_SM90_EPILOGUE_TMA(dt, cls_) TG_SM90_EPILOGUE_TMA_(dt, cls_, false)
/* The D types other than the inputs' (CAST's), and all three (REST's). */
#define TG_SM90_EPILOGUE_OTHER_TYPES(cls_)                                                  \
  if (p.d_type == TG_F32) TG_SM90_EPILOGUE_TMA(TG_F32, cls_);                               \
  else TG_SM90_EPILOGUE_TMA(E::kInputType == TG_F16 ? TG_BF16 : TG_F16, cls_)
#define TG_SM90_EPILOGUE_TYPES(cls_)                                                        \
  if (p.d_type == E::kInputType) TG_SM90_EPILOGUE_TMA(E::kInputType, cls_);                 \
  else TG_SM90_EPILOGUE_OTHER_TYPES(cls_)
    if constexpr (EPILOGUES == TG_SM90_EPILOGUES_LEAN) {
      TG_SM90_EPILOGUE_TMA(E::kInputType, TG_SM90_EPI_PLAIN);
    } else if constexpr (EPILOGUES == TG_SM90_EPILOGUES_BIAS) {
      TG_SM90_EPILOGUE_TMA(E::kInputType, TG_SM90_EPI_BIAS_RELU);
    } else if constexpr (EPILOGUES == TG_SM90_EPILOGUES_RESID) {
      TG_SM90_EPILOGUE_TMA_(E::kInputType, TG_SM90_EPI_FULL, kBorrowStage);
    } else if constexpr (EPILOGUES == TG_SM90_EPILOGUES_ACT) {
      TG_SM90_EPILOGUE_TMA(E::kInputType, TG_SM90_EPI_FULL);
    } else if constexpr (EPILOGUES == TG_SM90_EPILOGUES_CAST) {
      if (cls == TG_SM90_EPI_PLAIN) TG_SM90_EPILOGUE_OTHER_TYPES(TG_SM90_EPI_PLAIN);
      else TG_SM90_EPILOGUE_OTHER_TYPES(TG_SM90_EPI_BIAS_RELU);
    } else {
      if (cls == TG_SM90_EPI_FULL) TG_SM90_EPILOGUE_TYPES(TG_SM90_EPI_FULL);
      else epilogue_staged_general(p, acc, bat, tm, tn, wg_rows0, warp, lane, staging);
    }
#undef TG_SM90_EPILOGUE_TYPES
#undef TG_SM90_EPILOGUE_OTHER_TYPES
#undef TG_SM90_EPILOGUE_TMA
#undef TG_SM90_EPILOGUE_TMA_
  }

  /* The general epilogue (C, GELU, any types, edge tiles) through the warp's staging buffer, 32
   * fp32 columns at a time: each thread then takes 8 consecutive columns of one row and runs the
   * shared epilogue on them, with 16-byte loads of C and stores of D. The chunks are a run-time
   * loop: only the write pass, which must name accumulator registers, is unrolled (one short
   * guarded block per chunk), so the one inline copy of the shared epilogue stays in the
   * instruction cache for the whole tile (unrolled, or called out of line, it cost 2× here).
   * Bank conflicts: unit u of row r sits at u ^ 2(r mod 4) (u ^ 2(r mod 2) in 64-byte rows),
   * which spreads a write pass's four rows (per half warp, 8-byte stores) over all banks; the two
   * rows of a quarter warp in a read
   * pass load their two units in opposite order (the odd unit first on odd rows). */
  __device__ static void epilogue_staged_general(const tg_problem &p, float (&acc)[kRowBlocks][kAcc],
                                                 int64_t bat, int64_t tm, int64_t tn, int wg_rows0,
                                                 int warp, int lane, unsigned char *staging) {
    constexpr int kUnit = 16;                                        /* bytes of a vector */
    constexpr int kChunkCols = kStagingRowBytes / sizeof(float);     /* 32 (16 in 64-byte rows) */
    constexpr int kSwizzlePairs = kStagingRowBytes / kUnit / 2;      /* unit pairs per row: 4 (2) */
    constexpr int kChunksPerRow = (BN + kChunkCols - 1) / kChunkCols; /* the last one part filled with a tail */
    constexpr int kSegmentsPerRow = kChunkCols / TG_EPILOGUE_VECTOR; /* 4 threads per row */
    constexpr int kRowsPerPass = 32 / kSegmentsPerRow;               /* 8 */
    static_assert(BN % TG_EPILOGUE_VECTOR == 0, "a tile row holds whole 8-column segments");
    const int g = lane / 4, t = lane % 4, seg = lane % kSegmentsPerRow;
#pragma unroll 1
    for (int chunk = 0; chunk < kRowBlocks * kChunksPerRow; ++chunk) {
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int c = 0; c < kChunksPerRow; ++c) {
          if (chunk != rb * kChunksPerRow + c) continue;
#pragma unroll
          for (int jj = 0; jj < kChunkCols / 8; ++jj) {
            const int j = c * (kChunkCols / 8) + jj;
            if (j >= BN / 8) break; /* past the tail */
#pragma unroll
            for (int i = 0; i < 2; ++i) {
              const int r = g + 8 * i, unit = (2 * jj + t / 2) ^ (2 * (r % kSwizzlePairs));
              *(float2 *)(staging + r * kStagingRowBytes + unit * kUnit + (t % 2) * sizeof(float2)) =
                  make_float2(acc[rb][4 * j + 2 * i], acc[rb][4 * j + 2 * i + 1]);
            }
          }
        }
      __syncwarp();
      const int rb = chunk / kChunksPerRow, c = chunk % kChunksPerRow;
      const int64_t row0 = tm * BM + wg_rows0 + rb * TG_SM90_WGMMA_M + kWarpRows * warp;
      const int64_t col = tn * BN + c * kChunkCols + seg * TG_EPILOGUE_VECTOR;
      const bool in_tile = BN % kChunkCols == 0 || c * kChunkCols + seg * TG_EPILOGUE_VECTOR < BN; /* not past a tail */
#pragma unroll 1
      for (int q = 0; q < kWarpRows / kRowsPerPass && in_tile; ++q) {
        const int r = q * kRowsPerPass + lane / kSegmentsPerRow, odd = r & 1;
        const unsigned char *src = staging + r * kStagingRowBytes;
        const float4 x = *(const float4 *)(src + ((2 * seg + odd) ^ (2 * (r % kSwizzlePairs))) * kUnit);
        const float4 y = *(const float4 *)(src + ((2 * seg + 1 - odd) ^ (2 * (r % kSwizzlePairs))) * kUnit);
        const float4 lo = odd ? y : x, hi = odd ? x : y;
        const float v[TG_EPILOGUE_VECTOR] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        thread_epilogue_store8(p, bat, row0 + r, col, v);
      }
      __syncwarp();
    }
  }

  /* Chunks per fence and bulk group for D of es bytes per element: all the buffers when a tile
   * row fills them evenly. */
  __host__ __device__ static constexpr int group_chunks(int es) {
    return (BN / (kStagingRowBytes / es)) % kStagingBuffers == 0 ? kStagingBuffers : 1;
  }
  /* k-tiles before a unit's end at which the first group of its C is requested. */
  static constexpr int kCAheadTiles = 2;

  /* FULL: the copy engine loads `boxes` boxes of C through map_c (box_bytes each: columns col0 +
   * q·box_cols, rows row0..row0 + 15) into consecutive buffers from `buffer_smem` on; the warp
   * then waits on c_bar (warp_wait_c). The buffers must be free (their stores' reads done). */
  __device__ static void thread_load_c_boxes(const CUtensorMap *map_c, uint32_t c_bar, uint32_t buffer_smem, int boxes,
                                             uint32_t box_bytes, int box_cols, int col0, int row0, int bat_c) {
    thread_mbarrier_arrive_expect_tx(c_bar, boxes * box_bytes);
    for (int q = 0; q < boxes; ++q)
      thread_tma_load_3d(buffer_smem + q * box_bytes, map_c, c_bar, col0 + q * box_cols, row0, bat_c);
  }
  /* The wait for this warp's C load on c_bar; `loads` counts them (the barrier's parity). */
  __device__ static void warp_wait_c(uint32_t c_bar, uint32_t &loads) {
    thread_mbarrier_wait(c_bar, loads & 1);
    ++loads;
  }
  /* Staged boxes of D leave by the copy engine, as one bulk group: `boxes` buffers from
   * first_smem, box_bytes apart, to columns col0 + q·box_cols, rows from row0. BY_WARPGROUP
   * (kWarpgroupStores): the warpgroup's boxes of 64 rows (first_smem and row0: warp 0's), stored
   * by warp 0's lane 0 once every warp's writes are visible to the copy engine; otherwise the
   * warp's own boxes of 16 rows, by its lane 0. */
  template <bool BY_WARPGROUP>
  __device__ static void store_d_boxes(const CUtensorMap *map_d, uint32_t first_smem, int boxes, uint32_t box_bytes,
                                       int box_cols, int col0, int row0, int bat, int cw, int warp, int lane) {
    thread_fence_proxy_async_shared();
    if constexpr (BY_WARPGROUP) block_named_barrier(TG_SM90_STORE_BARRIER + cw, TG_SM90_WARPGROUP);
    else __syncwarp();
    if (lane == 0 && (!BY_WARPGROUP || warp == 0)) {
#pragma unroll
      for (int q = 0; q < boxes; ++q)
        thread_tma_store_3d(map_d, first_smem + q * box_bytes, col0 + q * box_cols, row0, bat);
      thread_bulk_commit_group();
    }
  }

  /* Staging buffers hold 16 rows of 128 bytes in the 128-byte swizzle: 16-byte unit u of row r
   * sits at u ^ (r mod 8), which keeps the accesses below free of bank conflicts. Rows of 64 bytes
   * take the 64-byte swizzle, u ^ (r/2 mod 4) (the XOR takes the offset's 128-byte line): the
   * eight rows of an stmatrix block still land on eight different 16-byte bank groups (two rows
   * per 128-byte line, four unit orders). A tail buffer
   * (TAIL) holds 16 rows of one 16-column chunk, kTailChunkCols · ES bytes each, unswizzled: its
   * 16-bit rows of 32 bytes cost stmatrix a two-way bank conflict, once per tile and row block. */
  static constexpr int kUnit = 16;                                   /* bytes of a swizzle unit */
  static constexpr int kUnitsPerRow = kStagingRowBytes / kUnit;      /* 8 (4 in 64-byte rows) */
  template <bool TAIL, int ES>
  __device__ static uint32_t staging_offset(int row, int byte) {
    if constexpr (TAIL) {
      return row * (kTailChunkCols * ES) + byte;
    } else {
      const int swizzle = row * kStagingRowBytes / TG_SM90_ROW_BYTES % kUnitsPerRow;
      return row * kStagingRowBytes + (((byte / kUnit) ^ swizzle) * kUnit) + byte % kUnit;
    }
  }
  /* 16-bit D: the byte offset this lane gives stmatrix (or ldmatrix) for the x4 covering the
   * 8-column blocks jj and jj + 1 of a chunk: lanes 8m..8m+7 address the rows of block m
   * (m = 2·(jj odd) + i, i the 8-row half). */
  template <bool TAIL>
  __device__ static uint32_t stmatrix_offset(int lane, int jj) {
    const int row = lane % 8 + 8 * ((lane / 8) % 2), unit = jj + lane / 16;
    return staging_offset<TAIL, 2>(row, unit * kUnit);
  }
  /* f32 D: the byte offset of this lane's pair (row g + 8i, columns 8jj + 2t, +1) of a chunk. */
  template <bool TAIL>
  __device__ static uint32_t f32_pair_offset(int lane, int jj, int i) {
    return staging_offset<TAIL, 4>(lane / 4 + 8 * i, (8 * jj + 2 * (lane % 4)) * 4);
  }

  /* The FULL epilogue's work on the BLOCKS 8-column blocks j0, j0 + 1, ... of a row block's
   * accumulators v (already scaled by alpha), in place, before they are rounded and staged: +
   * beta·C (C's chunk waits in the staging buffer at `buffer`, or the tail buffer (TAIL), where
   * D's will go), + bias (along n: the chunk's pairs `bias`; along m: the thread's two rows'
   * `row_bias`), then the activation, in the order and arithmetic of thread_epilogue_store8.
   * Each step is one uniform branch around an unrolled pass, so the code holds each step once per
   * chunk, not every combination per pair. */
  template <int DT, int BLOCKS, bool TAIL>
  __device__ static void chunk_full(const tg_problem &p, float (&v)[kAcc], int j0, bool read_c, bool bias_m,
                                    const float (&row_bias)[2], const float (&bias)[BLOCKS][2],
                                    const unsigned char *buffer, uint32_t buffer_smem, int lane) {
    if (read_c) {
      if constexpr (DT == TG_F32) {
#pragma unroll
        for (int jj = 0; jj < BLOCKS; ++jj)
#pragma unroll
          for (int i = 0; i < 2; ++i) {
            const float2 cc = *(const float2 *)(buffer + f32_pair_offset<TAIL>(lane, jj, i));
            const int e = 4 * (j0 + jj) + 2 * i;
            v[e] = fmaf(p.beta_f, cc.x, v[e]);
            v[e + 1] = fmaf(p.beta_f, cc.y, v[e + 1]);
          }
      } else {
        static_assert(BLOCKS % 2 == 0, "ldmatrix x4 reads two 8-column blocks of 16 rows");
#pragma unroll
        for (int jj = 0; jj < BLOCKS; jj += 2) {
          uint32_t cx[4];
          warp_ldmatrix_x4(cx, buffer_smem + stmatrix_offset<TAIL>(lane, jj));
#pragma unroll
          for (int m = 0; m < 4; ++m) {
            float cv[2];
            thread_unpack2_16bit<DT>(cx[m], cv);
            const int e = 4 * (j0 + jj + m / 2) + 2 * (m % 2);
            v[e] = fmaf(p.beta_f, cv[0], v[e]);
            v[e + 1] = fmaf(p.beta_f, cv[1], v[e + 1]);
          }
        }
      }
    }
    if (p.has_bias) {
      if (bias_m) {
#pragma unroll
        for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] += row_bias[(e / 2) % 2];
      } else {
#pragma unroll
        for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] += bias[e / 4][e % 2];
      }
    }
    if (p.act == TG_ACT_GELU) {
#pragma unroll
      for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] = thread_gelu_f32(v[4 * j0 + e]);
    } else if (p.act == TG_ACT_RELU) {
#pragma unroll
      for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] = thread_relu_f32(v[4 * j0 + e]);
    }
  }

  /* 16-bit D: blocks j0.. j0 + BLOCKS - 1 of a row block's accumulators v, plus their bias pairs
   * (BIAS) and through ReLU (RELU, folded into the rounding), into the staging buffer (or the
   * tail buffer, TAIL) at buffer_smem. */
  template <int DT, int BLOCKS, bool TAIL, bool BIAS, bool RELU>
  __device__ static void warp_stage_chunk_16bit(const float (&v)[kAcc], int j0, const float (&bias)[BLOCKS][2],
                                                uint32_t buffer_smem, int lane) {
    static_assert(BLOCKS % 2 == 0, "stmatrix x4 writes two 8-column blocks of 16 rows");
#pragma unroll
    for (int jj = 0; jj < BLOCKS; jj += 2) {
      uint32_t x[4];
      thread_pack_blocks_16bit<DT, BLOCKS, BIAS, RELU>(v, j0, jj, bias, x);
      warp_stmatrix_x4(buffer_smem + stmatrix_offset<TAIL>(lane, jj), x);
    }
  }
  /* The words stmatrix x4 takes for 8-column blocks j0 + jj and j0 + jj + 1 of a row block's
   * accumulators v (word m: block m / 2, 8-row half m mod 2), plus their bias pairs (BIAS; bias
   * holds those of blocks j0..), through ReLU (RELU). */
  template <int DT, int BLOCKS, bool BIAS, bool RELU>
  __device__ static void thread_pack_blocks_16bit(const float (&v)[kAcc], int j0, int jj,
                                                  const float (&bias)[BLOCKS][2], uint32_t (&x)[4]) {
#pragma unroll
    for (int m = 0; m < 4; ++m) {
      const int j = j0 + jj + m / 2, i = m % 2;
      float v0 = v[4 * j + 2 * i], v1 = v[4 * j + 2 * i + 1];
      if constexpr (BIAS) {
        v0 += bias[jj + m / 2][0];
        v1 += bias[jj + m / 2][1];
      }
      x[m] = RELU ? thread_pack2_16bit_relu<DT>(v0, v1) : thread_pack2_16bit<DT>(v0, v1);
    }
  }

  /* kHoldSecondGroup: chunk q (of the group) of a row block's accumulators v, from block j0, into
   * the held words, as warp_stage_chunk_16bit would hand them to stmatrix. */
  template <int DT, int BLOCKS, bool BIAS, bool RELU>
  __device__ static void thread_hold_chunk(const float (&v)[kAcc], int j0, int q, const float (&bias)[BLOCKS][2],
                                           Held &held) {
    static_assert(BLOCKS * 2 == kHeldWordsPerChunk, "a held chunk is two words per 8-column block");
#pragma unroll
    for (int jj = 0; jj < BLOCKS; jj += 2) {
      uint32_t x[4];
      thread_pack_blocks_16bit<DT, BLOCKS, BIAS, RELU>(v, j0, jj, bias, x);
#pragma unroll
      for (int m = 0; m < 4; ++m) held.w[q * kHeldWordsPerChunk + 2 * jj + m] = x[m];
    }
  }
  /* kHoldSecondGroup: the held group into the warpgroup's staging buffers (once the copy engine has
   * read the stores that last left them) and out by TMA, as the epilogue stores a group. */
  __device__ static void warpgroup_store_held(const Sm90OutMaps &out, Held &held, unsigned char *staging, int cw,
                                              int warp, int lane) {
    constexpr int kChunkCols = kStagingRowBytes / 2;
    const uint32_t own_smem = thread_smem_address(staging);
    if constexpr (kWarpgroupStores) {
      if (warp == 0 && lane == 0) thread_bulk_wait_group_read<0>();
      block_named_barrier(TG_SM90_STORE_BARRIER + cw, TG_SM90_WARPGROUP);
    } else {
      if (lane == 0) thread_bulk_wait_group_read<0>();
      __syncwarp();
    }
#pragma unroll
    for (int q = 0; q < kStagingBuffers; ++q)
#pragma unroll
      for (int jj = 0; jj < kHeldWordsPerChunk / 2; jj += 2) {
        const uint32_t *w = held.w + q * kHeldWordsPerChunk + 2 * jj;
        const uint32_t x[4] = {w[0], w[1], w[2], w[3]};
        warp_stmatrix_x4(own_smem + q * kBufferStride + stmatrix_offset<false>(lane, jj), x);
      }
    store_d_boxes<kWarpgroupStores>(out.d, own_smem, kStagingBuffers, kBufferStride, kChunkCols, held.col0, held.row0,
                                    held.bat, cw, warp, lane);
    held.pending = false;
  }

  /* One chunk of EPI's work on BLOCKS 8-column blocks from j0 of the accumulators v, written to
   * the staging buffer (or the tail buffer, TAIL) at buffer / buffer_smem in D's type DT; C (FULL)
   * waits there already. bias: the chunk's pairs along n. */
  template <int DT, int EPI, int BLOCKS, bool TAIL>
  __device__ static void warp_stage_chunk(const tg_problem &p, float (&v)[kAcc], int j0, bool read_c, bool bias_m,
                                          const float (&row_bias)[2], const float (&bias)[BLOCKS][2],
                                          unsigned char *buffer, uint32_t buffer_smem, int lane) {
    constexpr bool PLAIN = EPI == TG_SM90_EPI_PLAIN, FULL = EPI == TG_SM90_EPI_FULL;
    if constexpr (FULL)
      chunk_full<DT, BLOCKS, TAIL>(p, v, j0, read_c, bias_m, row_bias, bias, buffer, buffer_smem, lane);
    if constexpr (DT != TG_F32 && EPI == TG_SM90_EPI_BIAS_RELU) {
      if (p.act == TG_ACT_RELU) warp_stage_chunk_16bit<DT, BLOCKS, TAIL, true, true>(v, j0, bias, buffer_smem, lane);
      else warp_stage_chunk_16bit<DT, BLOCKS, TAIL, true, false>(v, j0, bias, buffer_smem, lane);
    } else if constexpr (DT != TG_F32) {
      warp_stage_chunk_16bit<DT, BLOCKS, TAIL, false, false>(v, j0, bias, buffer_smem, lane);
    } else {
#pragma unroll
      for (int jj = 0; jj < BLOCKS; ++jj) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          float v0 = v[4 * (j0 + jj) + 2 * i], v1 = v[4 * (j0 + jj) + 2 * i + 1];
          if constexpr (!FULL) thread_epilogue_pair_finish<PLAIN>(p, bias[jj], v0, v1);
          *(float2 *)(buffer + f32_pair_offset<TAIL>(lane, jj, i)) = make_float2(v0, v1);
        }
      }
    }
  }

  /* The bias pairs of BLOCKS 8-column blocks from j0 (column col0 + 2t of the first): those of
   * BIAS_RELU into 16-bit D came with the mainloop (bias_words); the others are loaded here. */
  template <int DT, int EPI, int BLOCKS>
  __device__ static void thread_chunk_bias(const tg_problem &p, const uint32_t (&bias_words)[kBiasWords], int j0,
                                           int64_t col0, float (&bias)[BLOCKS][2]) {
    if constexpr (DT != TG_F32 && EPI == TG_SM90_EPI_BIAS_RELU) {
#pragma unroll
      for (int jj = 0; jj < BLOCKS; ++jj) thread_unpack2_16bit<DT>(bias_words[j0 + jj], bias[jj]);
    } else {
      thread_load_bias_pairs<DT, EPI == TG_SM90_EPI_PLAIN>(p, col0, bias);
    }
  }

  /* Inline epilogue with TMA stores, one 128-byte column chunk (16 rows) per staging buffer:
   * the warp rounds its accumulators to D's type DT into the buffers (swizzled as above), and
   * one lane hands them to the copy engine. Where a tile row holds an even number of chunks, the warp
   * fills both buffers before one fence and one bulk group of two stores (H100, 8192×8192×1024:
   * 0.988 → 0.998× cuBLAS bf16, 0.949 → 0.957× f16; 4096³ and 4096×14336×4096 unchanged),
   * and waits for both to be read before it refills them; otherwise it fills one buffer while
   * the copy engine reads the other. The warp goes on to the next tile's mainloop while the
   * stores drain. The copy engine clips the box at the matrix edges, so edge tiles take this
   * path too. A tile width with a tail (kTailCols) stores its last 16 columns after each row
   * block's chunks, through the warp's tail buffer, as a bulk group of its own.
   * EPI (Sm90Epilogue) says what is computed. FULL reads C through the same buffers: before a
   * group of chunks is computed, one lane has the copy engine load C's boxes (D's boxes, from
   * C's tensor map) into them, and the warp waits on its barrier; each thread then reads its
   * pairs of C where it will write its pairs of D (ldmatrix, the inverse of stmatrix, for 16
   * bits), so C and D cost no extra shared memory and C == D in place is safe (a chunk's C is
   * read before its D is stored). The first group's C is requested kCAheadTiles k-tiles before
   * the mainloop ends (c_loaded), when the buffers idle anyway: H100, bf16, beta = 1,
   * 8192×8192×1024 0.935 → 0.982× cuBLAS, 4096³ 0.954 → 0.961×; requested at the epilogue
   * instead, both groups' latencies stood between the mainloop and the stores.
   * This code runs once per tile and is fetched afresh each time, so its length is its cost
   * (H100, 8192×8192×1024 bf16: a branchy per-pair write pass held the kernel at 518 TFLOP/s,
   * the branch-free one below runs 641). Hence: alpha is applied in one pass only when it is
   * not 1, D's type and the epilogue class are compile-time, and 16-bit D leaves the registers
   * by stmatrix, four 8×8 blocks per instruction. */
  template <int DT, int EPI, bool BORROW>
  __device__ static void epilogue_tma(const tg_problem &p, const Sm90OutMaps &out, float (&acc)[kRowBlocks][kAcc],
                                      const uint32_t (&bias_words)[kBiasWords], int64_t bat, int64_t tm,
                                      int64_t tn, int wg_rows0, int warp, int lane, unsigned char *staging,
                                      unsigned char *borrowed, unsigned char *tail, uint32_t &chunks, uint32_t c_bar,
                                      uint32_t &c_loads, bool c_loaded, Held &held) {
    constexpr bool FULL = EPI == TG_SM90_EPI_FULL;
    constexpr int ES = DT == TG_F32 ? 4 : 2;               /* bytes per element of D */
    constexpr int kChunkCols = kStagingRowBytes / ES;      /* D columns per chunk */
    constexpr int kBlocksPerChunk = kChunkCols / 8;        /* 8-column accumulator blocks j */
    constexpr int kChunks = BN / kChunkCols;               /* whole chunks per tile row */
    constexpr int kTailBlocks = kTailCols / 8;
    static_assert(BN == kChunks * kChunkCols + kTailCols, "a tile row holds whole staging chunks and its tail");
    static_assert(EPI == TG_SM90_EPI_PLAIN || EPI == TG_SM90_EPI_BIAS_RELU || EPI == TG_SM90_EPI_FULL,
                  "epilogue_tma serves the PLAIN, BIAS_RELU and FULL classes");
    constexpr int kGroup = group_chunks(ES);
    static_assert(!kWarpgroupStores || kGroup == kStagingBuffers, "a warpgroup fills and stores both its buffers at once");
    /* 16-bit D: two groups of chunks, the first in the staging buffers, the second held in
     * registers (kHoldSecondGroup: LEAN, BIAS) or in the borrowed stage, if any (BORROW: RESID). */
    constexpr bool kTwoGroups = kRowBlocks * kChunks == 2 * kGroup;
    static_assert(!kBorrowStage || ES == 4 || kTwoGroups, "a tile's 16-bit chunks make two groups");
    if (p.alpha_f != 1.0f) {
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int i = 0; i < kAcc; ++i) acc[rb][i] *= p.alpha_f;
    }
    const bool read_c = FULL && p.read_c;
    const bool bias_m = FULL && p.has_bias && p.bias_along_m; /* one bias value per row */
    const int bat_c = p.batch_stride_c ? (int)bat : 0;      /* a shared C is one batch */
    const int g = lane / 4, t = lane % 4;
    const int cw = wg_rows0 / kWgRows; /* the consumer warpgroup (cooperative) */
    const uint32_t own_smem = thread_smem_address(staging);
    /* With C and a borrowed stage, the second group's C is requested at once, into the stage, and
     * comes in while the first group is worked; that group's C, loaded during the mainloop (or
     * now), is waited for first, so that the two loads take the warp's barrier in turn. */
    const bool borrow_c = BORROW && kTwoGroups && read_c && borrowed != nullptr;
    if (borrow_c) {
      constexpr int kRb1 = kGroup / kChunks, kC1 = kGroup % kChunks; /* the second group's first chunk */
      const int row0 = (int)(tm * BM) + wg_rows0 + kWarpRows * warp;
      if (lane == 0 && !c_loaded) {
        thread_bulk_wait_group_read<0>();
        thread_load_c_boxes(out.c, c_bar, own_smem, kGroup, kStagingBufferBytes, kChunkCols, (int)(tn * BN), row0, bat_c);
      }
      warp_wait_c(c_bar, c_loads);
      block_named_barrier(TG_SM90_BORROW_BARRIER, TG_SM90_CONSUMERS * TG_SM90_WARPGROUP);
      if (lane == 0)
        thread_load_c_boxes(out.c, c_bar, thread_smem_address(borrowed), kGroup, kStagingBufferBytes, kChunkCols,
                            (int)(tn * BN) + kC1 * kChunkCols, row0 + kRb1 * TG_SM90_WGMMA_M, bat_c);
    }
#pragma unroll
    for (int rb = 0; rb < kRowBlocks; ++rb) {
      const int row0 = (int)(tm * BM) + wg_rows0 + rb * TG_SM90_WGMMA_M + kWarpRows * warp;
      float row_bias[2] = {0.0f, 0.0f}; /* bias along m of rows row0 + g and row0 + g + 8 */
      if (bias_m) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          const int64_t r = row0 + g + 8 * i;
          row_bias[i] = thread_load_float_type(p.bias, r < p.m ? r : p.m - 1, (tg_dtype)DT);
        }
      }
#pragma unroll
      for (int c = 0; c < kChunks; ++c, ++chunks) {
        const int col0 = (int)(tn * BN) + c * kChunkCols;
        const uint32_t buffer = (kGroup > 1 ? c % kGroup : chunks % kStagingBuffers) * kBufferStride;
        if constexpr (kHoldSecondGroup && DT != TG_F32) {
          static_assert(kTwoGroups && (EPI == TG_SM90_EPI_PLAIN || EPI == TG_SM90_EPI_BIAS_RELU),
                        "the held group is the plain or bias+ReLU epilogue's second");
          if ((rb * kChunks + c) / kGroup == 1) {
            /* Rounded into registers; staged and stored under the next unit's first k-tile. */
            float bias[kBlocksPerChunk][2]; /* (unread in the plain epilogue) */
            if constexpr (EPI == TG_SM90_EPI_BIAS_RELU) {
              thread_chunk_bias<DT, EPI>(p, bias_words, c * kBlocksPerChunk, col0 + 2 * t, bias);
              if (p.act == TG_ACT_RELU)
                thread_hold_chunk<DT, kBlocksPerChunk, true, true>(acc[rb], c * kBlocksPerChunk, c % kGroup, bias, held);
              else
                thread_hold_chunk<DT, kBlocksPerChunk, true, false>(acc[rb], c * kBlocksPerChunk, c % kGroup, bias,
                                                                    held);
            } else {
              thread_hold_chunk<DT, kBlocksPerChunk, false, false>(acc[rb], c * kBlocksPerChunk, c % kGroup, bias, held);
            }
            if (c % kGroup == kGroup - 1) {
              held.row0 = row0;
              held.col0 = col0 - (kGroup - 1) * kChunkCols;
              held.bat = (int)bat;
              held.pending = true;
            }
            continue;
          }
        }
        /* The second group goes to the borrowed stage, if any. */
        const bool to_borrowed = BORROW && kTwoGroups && (rb * kChunks + c) / kGroup == 1 && borrowed != nullptr;
        unsigned char *const staging_here = to_borrowed ? borrowed : staging;
        const uint32_t staging_smem = to_borrowed ? thread_smem_address(borrowed) : own_smem;
        /* The chunk's bias pairs, before the wait below, to overlap it. */
        float bias[kBlocksPerChunk][2];
        thread_chunk_bias<DT, EPI>(p, bias_words, c * kBlocksPerChunk, col0 + 2 * t, bias);
        if (c % kGroup == 0) {
          /* The stores that last read the group's buffers are done with them (by warpgroup: the
           * storing thread waits, the others at the barrier). The borrowed stage is free once
           * the other consumer's last wgmma, which read it too, are done. */
          if (to_borrowed) {
            /* (RESID always reads C, so borrow_c saw to the stage above; this barrier stands for a
             * borrowing set without C, of which there is none now.) */
            if (!borrow_c) block_named_barrier(TG_SM90_BORROW_BARRIER, TG_SM90_CONSUMERS * TG_SM90_WARPGROUP);
          } else if (!borrow_c) { /* (with borrow_c, the first group's buffers were seen to above) */
            if constexpr (kWarpgroupStores) {
              if (warp == 0 && lane == 0) thread_bulk_wait_group_read<0>();
              block_named_barrier(TG_SM90_STORE_BARRIER + cw, TG_SM90_WARPGROUP);
            } else if (lane == 0) {
              thread_bulk_wait_group_read<(kGroup > 1 ? 0 : kStagingBuffers - 1)>();
            }
          }
          if (read_c && (to_borrowed || !borrow_c)) {
            /* Requested now unless it came during the mainloop (the first group) or above (borrow_c). */
            if (lane == 0 && !(c_loaded && rb == 0 && c == 0) && !borrow_c)
              thread_load_c_boxes(out.c, c_bar, staging_smem + buffer, kGroup, kStagingBufferBytes, kChunkCols, col0,
                                  row0, bat_c);
            warp_wait_c(c_bar, c_loads);
          }
          __syncwarp();
        }
        warp_stage_chunk<DT, EPI, kBlocksPerChunk, false>(p, acc[rb], c * kBlocksPerChunk, read_c, bias_m, row_bias,
                                                          bias, staging_here + buffer, staging_smem + buffer, lane);
        if (c % kGroup != kGroup - 1) continue; /* the group's next chunk, into the next buffer */
        /* The group's first chunk, c - (kGroup - 1), sits in buffer 0 (just `buffer` when kGroup is 1). */
        store_d_boxes<kWarpgroupStores>(out.d, staging_smem + buffer - (kGroup - 1) * kBufferStride, kGroup,
                                        kBufferStride, kChunkCols, col0 - (kGroup - 1) * kChunkCols, row0, (int)bat,
                                        cw, warp, lane);
      }
      if constexpr (kTailCols > 0) {
        /* The tail: its own buffer, whose last store (at most the last-but-one bulk group: the
         * chunks above committed at least one since) must have been read. */
        constexpr uint32_t kTailBoxBytes = kWarpRows * kTailCols * ES;
        const int col0 = (int)(tn * BN) + kChunks * kChunkCols;
        const uint32_t tail_smem = thread_smem_address(tail);
        float bias[kTailBlocks][2];
        thread_chunk_bias<DT, EPI>(p, bias_words, kChunks * kBlocksPerChunk, col0 + 2 * t, bias);
        if (lane == 0) thread_bulk_wait_group_read<1>();
        if (read_c) {
          if (lane == 0) thread_load_c_boxes(out.c_tail, c_bar, tail_smem, 1, kTailBoxBytes, kTailCols, col0, row0, bat_c);
          warp_wait_c(c_bar, c_loads);
        }
        __syncwarp();
        warp_stage_chunk<DT, EPI, kTailBlocks, true>(p, acc[rb], kChunks * kBlocksPerChunk, read_c, bias_m, row_bias,
                                                     bias, tail, tail_smem, lane);
        store_d_boxes<false>(out.d_tail, tail_smem, 1, kTailBoxBytes, kTailCols, col0, row0, (int)bat, cw, warp, lane);
      }
    }
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::kThreads, 1)
    sm90_gemm_kernel(const tg_problem p, const Sm90StreamK sk, const uint32_t stage_bytes,
                     const __grid_constant__ CUtensorMap map_a,
                     const __grid_constant__ CUtensorMap map_b,
                     const __grid_constant__ CUtensorMap map_d,
                     const __grid_constant__ CUtensorMap map_c,
                     const __grid_constant__ CUtensorMap map_d_tail,
                     const __grid_constant__ CUtensorMap map_c_tail) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  const Sm90OutMaps out = {&map_d, &map_c, &map_d_tail, &map_c_tail};
  Kernel::run(p, sk, stage_bytes, &map_a, &map_b, out);
#endif
}

#endif /* TG_SM90_GEMM_CUH */
