/*
 * sm90_launch.cuh — from a configuration of sm90_configs.h to a persistent launch: the kernel
 * for the request (input type, epilogue set, operand orders), the TMA maps of A and B for their
 * orders (and C's and D's for the TMA epilogues), the grid sized to the clusters that fit on the
 * GPU (or to the work, when less), and a row's C entry points (SM90_ROW_FUNCTIONS).
 */
#ifndef TG_SM90_LAUNCH_CUH
#define TG_SM90_LAUNCH_CUH

#include <stdio.h>
#include <string.h>

#include "device_memo.cuh"
#include "sm90.h"
#include "sm90_config.cuh"
#include "sm90_epilogue_sets.cuh"
#include "sm90_kernel.cuh"
#include "sm90_split.cuh"
#include "sm90_tensor_map.h"
#include "tma_desc.h"

/* Clusters of this kernel that can be resident at once on the current device (0 if the query
 * fails), after raising its shared-memory limit there. Both are per device (device_memo.cuh);
 * the answer's memo also records that the limit was raised, so it is raised once per device. */
template <class Kernel>
int sm90_max_clusters(int sm_count) {
  typedef typename Kernel::Config Cfg;
  static tg_device_memo fit_plus_one; /* per device; fit + 1 once queried */
  const int slot = tg_device_memo_slot();
  const int known = tg_device_memo_get(&fit_plus_one, slot);
  if (known) return known - 1;
  if (cudaFuncSetAttribute(sm90_gemm_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           Kernel::kSmemBytes) != cudaSuccess)
    return 0; /* the launcher fails; the library reports CUDA's error */
  int n = sm_count / Cfg::kCluster;
  if (Cfg::kCluster > 1) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = Cfg::kCluster;
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(Cfg::kCluster * n);
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
  tg_device_memo_set(&fit_plus_one, slot, n + 1);
  return n;
}

/* What a kernel of wide accumulators (sm90_wide_acc) holds: the plain epilogue into D of the
 * inputs' type that TMA can store (the LEAN set), work that counts in 32 bits. */
template <int BM, int BN, int CM, int CN, int SCHEDULE>
tg_status sm90_row_check_wide(const tg_problem *p, const char *row, char *why, size_t why_len) {
  if (!sm90_wide_acc(BM, BN, SCHEDULE)) return TG_OK;
  if (sm90_epilogue_set(sm90_dispatch_class(*p), p->d_type == p->a_type, false, p->read_c) !=
      TG_SM90_EPILOGUES_LEAN) {
    snprintf(
        why, why_len,
        "%s holds only the plain epilogue (alpha; beta = 0, no bias or activation) into a 16-byte "
        "aligned D of the inputs' type",
        row);
    return TG_ERR_NOT_SUPPORTED;
  }
  if (!sm90_count_fits_32(p, BM, BN, CM, CN)) {
    snprintf(why, why_len,
             "%s counts its work in 32 bits: (clusters + 1) x tiles x k-tiles must stay below 2^32",
             row);
    return TG_ERR_NOT_SUPPORTED;
  }
  return TG_OK;
}

/* The TMA maps of a kernel's launch for p (tma_desc.h), in the order the kernel takes them:
 * A and B always; D, for the TMA-store epilogues, boxes of 16 rows × 128 (or 64) bytes (a
 * consumer warp's staging buffer; D's of 64 rows where a warpgroup stores, kStoreRows),
 * swizzled alike, and C's where the FULL epilogue reads it; for a tile width with a tail, a
 * second pair whose boxes are the tail's 16 columns, unswizzled. A map the kernel does not use
 * is left out (`used` 0) and passed zeroed. */
enum {
  SM90_MAP_A,
  SM90_MAP_B,
  SM90_MAP_D,
  SM90_MAP_C,
  SM90_MAP_D_TAIL,
  SM90_MAP_C_TAIL,
  SM90_MAPS
};
struct Sm90Maps {
  tg_tma_desc desc[SM90_MAPS];
  bool used[SM90_MAPS];
  uint32_t stage_bytes; /* bytes each stage receives, every CTA's share of the cluster's boxes */
};

/* The address map i of a launch for p reads: what sm90_kernel_maps encodes, and what a
 * prepared launch points the map at for each run. */
static inline const void *sm90_map_address(const tg_problem *p, int i) {
  switch (i) {
    case SM90_MAP_A: return p->a;
    case SM90_MAP_B: return p->b;
    case SM90_MAP_D:
    case SM90_MAP_D_TAIL: return p->d;
    default: return p->c;
  }
}

/* The map of an operand whose tile side runs along `outer` (m for A, n for B): K-major, boxes of
 * a k-tile (a 128-byte row) by `box_rows` lines; MN-major (16-bit types), 64×64 boxes along
 * outer. */
static inline tg_tma_desc sm90_operand_desc(bool kmajor, const void *ptr, tg_dtype type, int64_t k,
                                            int64_t outer, int64_t ld, int64_t batch,
                                            int64_t batch_stride, int box_rows) {
  const int k_box = TG_SM90_ROW_BYTES / (int)tg_dtype_size(type);
  return kmajor ? tg_tma_desc_make(ptr, type, k, outer, ld, batch, batch_stride, k_box, box_rows,
                                   TG_SM90_ROW_BYTES)
                : tg_tma_desc_make(ptr, type, outer, k, ld, batch, batch_stride, TG_SM90_BOX,
                                   TG_SM90_BOX, TG_SM90_ROW_BYTES);
}

template <class Kernel>
Sm90Maps sm90_kernel_maps(const tg_problem *p) {
  typedef typename Kernel::Config Cfg;
  typedef typename Kernel::Layout Layout;
  Sm90Maps maps = {};
  const int a_rows = tg_sm90_box_rows(Cfg::kAKMajor, Cfg::kClusterN, Cfg::kBM, p->m);
  const int b_rows = tg_sm90_box_rows(Cfg::kBKMajor, Cfg::kClusterM, Cfg::kBN, p->n);
  /* Each CTA of the sharing cluster delivers its box to every partner; MN-major operands load
   * whole tiles (their share of rows times the sharing is the tile's). */
  maps.stage_bytes =
      (uint32_t)(a_rows * Cfg::kClusterN + b_rows * Cfg::kClusterM) * TG_SM90_ROW_BYTES;
  maps.desc[SM90_MAP_A] =
      sm90_operand_desc(Cfg::kAKMajor, sm90_map_address(p, SM90_MAP_A), p->a_type, p->k, p->m,
                        p->lda, p->batch, p->batch_stride_a, a_rows);
  maps.desc[SM90_MAP_B] =
      sm90_operand_desc(Cfg::kBKMajor, sm90_map_address(p, SM90_MAP_B), p->b_type, p->k, p->n,
                        p->ldb, p->batch, p->batch_stride_b, b_rows);
  maps.used[SM90_MAP_A] = maps.used[SM90_MAP_B] = true;
  maps.desc[SM90_MAP_A].tf32 = maps.desc[SM90_MAP_B].tf32 = Cfg::Atom::kTf32Operands;
  const int epilogue = sm90_dispatch_class(*p);
  if (epilogue != TG_SM90_EPI_GENERAL) {
    const bool read_c = epilogue == TG_SM90_EPI_FULL && p->read_c;
    const int box_cols = Layout::kStagingRowBytes / (int)tg_dtype_size(p->d_type);
    maps.desc[SM90_MAP_D] =
        tg_tma_desc_make(sm90_map_address(p, SM90_MAP_D), p->d_type, p->n, p->m, p->ldd, p->batch,
                         p->batch_stride_d, box_cols, Layout::kStoreRows, Layout::kStagingRowBytes);
    maps.desc[SM90_MAP_D].store = 1;
    maps.used[SM90_MAP_D] = true;
    if (read_c) {
      maps.desc[SM90_MAP_C] = tg_tma_desc_make(sm90_map_address(p, SM90_MAP_C), p->c_type, p->n,
                                               p->m, p->ldc, p->batch, p->batch_stride_c, box_cols,
                                               Layout::kWarpRows, Layout::kStagingRowBytes);
      maps.used[SM90_MAP_C] = true;
    }
    if (Layout::kTailCols > 0) {
      maps.desc[SM90_MAP_D_TAIL] =
          tg_tma_desc_make(sm90_map_address(p, SM90_MAP_D_TAIL), p->d_type, p->n, p->m, p->ldd,
                           p->batch, p->batch_stride_d, Layout::kTailCols, Layout::kWarpRows, 0);
      maps.desc[SM90_MAP_D_TAIL].store = 1;
      maps.used[SM90_MAP_D_TAIL] = true;
      if (read_c) {
        maps.desc[SM90_MAP_C_TAIL] =
            tg_tma_desc_make(sm90_map_address(p, SM90_MAP_C_TAIL), p->c_type, p->n, p->m, p->ldc,
                             p->batch, p->batch_stride_c, Layout::kTailCols, Layout::kWarpRows, 0);
        maps.used[SM90_MAP_C_TAIL] = true;
      }
    }
  }
  return maps;
}

/* Everything a launch of Kernel for p holds besides p: the TMA maps, encoded (and the address
 * each holds), the stream-K part, the grid. tg_matmul works it out at every call; a plan once,
 * kept as its prepared launch (kernel.h's tg_prepared), and its runs only point the maps at
 * their operands. */
struct Sm90Launch {
  CUtensorMap map[SM90_MAPS];   /* zeroed where unused (the kernel takes every slot) */
  const void *bound[SM90_MAPS]; /* the address each used map holds */
  bool used[SM90_MAPS];
  int64_t first_item; /* the stream-K part's first item (Sm90StreamK) */
  uint32_t stage_bytes;
  unsigned grid; /* CTAs */
};

/* Works out a launch of Kernel for p on the current device (its clusters that fit): encodes
 * the maps, decides stream-K against p's workspace and flags, sizes the grid. */
template <class Kernel>
tg_status sm90_launch_prepare(const tg_problem *p, Sm90Launch *out) {
  typedef typename Kernel::Config Cfg;
  const int bm = Cfg::kBM, bn = Cfg::kBN;
  if (Cfg::kWideAcc && !sm90_count_fits_32(p, bm, bn, Cfg::kClusterM, Cfg::kClusterN))
    return TG_ERR_INTERNAL; /* sm90_row_check refuses these */
  const int clusters = sm90_max_clusters<Kernel>(p->sm_count);
  if (clusters <= 0) return TG_ERR_CUDA;
  const Sm90Maps maps = sm90_kernel_maps<Kernel>(p);
  memset(out, 0, sizeof *out);
  for (int i = 0; i < SM90_MAPS; ++i) {
    if (!maps.used[i]) continue;
    if (!tg_tma_desc_valid(&maps.desc[i], NULL, 0))
      return TG_ERR_INTERNAL; /* sm90_row_check refuses these */
    const tg_status s = tg_sm90_encode(&out->map[i], &maps.desc[i]);
    if (s != TG_OK) return s;
    out->used[i] = true;
    out->bound[i] = maps.desc[i].base;
  }
  out->stage_bytes = maps.stage_bytes;
  const Sm90Split split =
      sm90_split(p, bm, bn, Cfg::kClusterM, Cfg::kClusterN, clusters, Cfg::Schedule::kId);
  out->first_item = split.first;
  const int64_t ctas = split.clusters * Cfg::kCluster;
  if (out->first_item < split.items &&
      (p->workspace_bytes < sm90_stream_k_bytes(ctas, bm, bn) || !p->sync_flags))
    out->first_item = split.items; /* whole tiles only */
  /* Stream-K: the clusters its shares are cut for (the kernel cuts them by its grid); whole
   * items only: a cluster per item, up to the clusters that fit, and a cooperative launch on
   * no more clusters than its rounds need (tg_sm90_whole_item_clusters). */
  const int64_t whole_item_clusters = Cfg::kPingpong
                                          ? (split.items < clusters ? split.items : clusters)
                                          : tg_sm90_whole_item_clusters(split.items, clusters);
  out->grid = (unsigned)((out->first_item < split.items ? split.clusters : whole_item_clusters) *
                         Cfg::kCluster);
  return TG_OK;
}

/* Launches a prepared launch of Kernel for p on `stream`; the stream-K partial sums go to p's
 * workspace. */
template <class Kernel>
tg_status sm90_launch_prepared(const Sm90Launch *L, const tg_problem *p, cudaStream_t stream) {
  typedef typename Kernel::Config Cfg;
  const Sm90StreamK sk = {L->first_item, (float *)p->workspace};
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = Cfg::kCluster;
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  cfg.gridDim = dim3(L->grid);
  cfg.blockDim = dim3(Kernel::kThreads);
  cfg.dynamicSmemBytes = Kernel::kSmemBytes;
  cfg.stream = stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, sm90_gemm_kernel<Kernel>, *p, sk, L->stage_bytes,
                            L->map[SM90_MAP_A], L->map[SM90_MAP_B], L->map[SM90_MAP_D],
                            L->map[SM90_MAP_C], L->map[SM90_MAP_D_TAIL],
                            L->map[SM90_MAP_C_TAIL]) == cudaSuccess
             ? TG_OK
             : TG_ERR_CUDA;
}

template <class Kernel>
tg_status sm90_launch_config(const tg_problem *p, cudaStream_t stream) {
  Sm90Launch launch;
  const tg_status s = sm90_launch_prepare<Kernel>(p, &launch);
  return s == TG_OK ? sm90_launch_prepared<Kernel>(&launch, p, stream) : s;
}

/* A plan's run (kernel.h's tg_prepared_run_fn) of a launch prepared for Kernel: each map whose
 * operand moved is pointed at it (cuTensorMapReplaceAddress keeps everything else), then the
 * launch. */
static_assert(sizeof(Sm90Launch) <= TG_PREPARED_STATE_BYTES &&
                  alignof(Sm90Launch) <= TG_PREPARED_ALIGN,
              "an sm90 launch does not fit a prepared launch's state");
template <class Kernel>
tg_status sm90_run_prepared(tg_prepared *prep, const tg_problem *p, cudaStream_t stream) {
  Sm90Launch *L = reinterpret_cast<Sm90Launch *>(prep->state);
  for (int i = 0; i < SM90_MAPS; ++i) {
    const void *address = sm90_map_address(p, i);
    if (!L->used[i] || address == L->bound[i]) continue;
    const tg_status s = tg_sm90_rebase(&L->map[i], address);
    if (s != TG_OK) return s;
    L->bound[i] = address;
  }
  return sm90_launch_prepared<Kernel>(L, p, stream);
}

/* What a row's dispatch (below) does with the kernel it arrives at for p: launch it on a
 * stream, prepare its launch for a plan's runs, or describe the TMA maps its launch would
 * encode. */
struct Sm90LaunchOp {
  cudaStream_t stream;
  template <class Kernel>
  tg_status run(const tg_problem *p) const {
    return sm90_launch_config<Kernel>(p, stream);
  }
};
struct Sm90PrepareOp {
  tg_prepared *prep;
  template <class Kernel>
  tg_status run(const tg_problem *p) const {
    const tg_status s = sm90_launch_prepare<Kernel>(p, reinterpret_cast<Sm90Launch *>(prep->state));
    if (s == TG_OK) prep->run = sm90_run_prepared<Kernel>;
    return s;
  }
};
struct Sm90MapsOp {
  Sm90Maps *maps;
  template <class Kernel>
  tg_status run(const tg_problem *p) const {
    *maps = sm90_kernel_maps<Kernel>(p);
    return TG_OK;
  }
};

/* One configuration of sm90_configs.h as the C++ side takes it: BM×BN is the tile of one consumer
 * warpgroup in pingpong, of the CTA in cooperative; clusters of CM CTAs along m (sharing B) or CN
 * along n (sharing A); MN_MAJOR_OK: MN-major operands compiled too. */
template <int BM, int BN, int STAGES, int CM, int CN, int SCHEDULE, bool MN_MAJOR_OK, class ATOMS>
struct Sm90Row {
  typedef typename Sm90ScheduleOf<SCHEDULE>::type Schedule;
  typedef ATOMS Atoms;
  template <class E, bool A_KMAJOR, bool B_KMAJOR>
  using Config = Sm90Config<E, BM, BN, STAGES, A_KMAJOR, B_KMAJOR, CM, CN, Schedule>;
  static constexpr bool kMNMajor = MN_MAJOR_OK;
  static constexpr unsigned kSets = sm90_compiled_sets(BM, BN, SCHEDULE) & ATOMS::kSets;
  static constexpr bool kTwoGroupTile = sm90_borrows_stage(BM, BN, SCHEDULE == TG_SM90_PINGPONG);
};

/* Operand orders: canonical A row-major and B column-major are K-major. */
template <class Row, class E, class Set, class Op>
tg_status sm90_dispatch_orders(const tg_problem *p, const Op &op) {
  const bool ak = p->a_order == TG_ROW_MAJOR, bk = p->b_order == TG_COL_MAJOR;
#define TG_SM90_KERNEL(a_kmajor, b_kmajor) \
  Sm90Kernel<typename Row::template Config<E, a_kmajor, b_kmajor>, Set>
  if (ak && bk) return op.template run<TG_SM90_KERNEL(true, true)>(p);
  if constexpr (Row::kMNMajor) {
    if (ak) return op.template run<TG_SM90_KERNEL(true, false)>(p);
    if (bk) return op.template run<TG_SM90_KERNEL(false, true)>(p);
    return op.template run<TG_SM90_KERNEL(false, false)>(p);
  }
#undef TG_SM90_KERNEL
  return TG_ERR_INTERNAL; /* the row accepts K-major operands only */
}

/* The kernel of set Set, if the row compiles it (sm90_compiled_sets; sm90_row_check refused the
 * requests of the others). */
template <class Row, class E, class Set, class Op>
tg_status sm90_dispatch_set(const tg_problem *p, const Op &op) {
  if constexpr ((Row::kSets & TG_SM90_SET_BIT(Set::kId)) != 0)
    return sm90_dispatch_orders<Row, E, Set>(p, op);
  else return TG_ERR_INTERNAL;
}

/* The kernel compiled with p's epilogue set. */
template <class Row, class E, class Op>
tg_status sm90_dispatch_epilogues(const tg_problem *p, const Op &op) {
  switch (sm90_epilogue_set(sm90_dispatch_class(*p), p->d_type == E::kLeanDType, Row::kTwoGroupTile,
                            p->read_c)) {
    case TG_SM90_EPILOGUES_LEAN: return sm90_dispatch_set<Row, E, Sm90EpilogueLean>(p, op);
    case TG_SM90_EPILOGUES_BIAS: return sm90_dispatch_set<Row, E, Sm90EpilogueBias>(p, op);
    case TG_SM90_EPILOGUES_CAST: return sm90_dispatch_set<Row, E, Sm90EpilogueCast>(p, op);
    case TG_SM90_EPILOGUES_RESID: return sm90_dispatch_set<Row, E, Sm90EpilogueResid>(p, op);
    case TG_SM90_EPILOGUES_ACT: return sm90_dispatch_set<Row, E, Sm90EpilogueAct>(p, op);
    default: return sm90_dispatch_set<Row, E, Sm90EpilogueRest>(p, op);
  }
}

/* The atoms a row compiles (Sm90Row's ATOMS): how a request finds its atom, and what the row
 * refuses beyond the input class. First: the atom the row describes itself by. */
struct Sm90Atoms16 {
  typedef Sm90F16 First;
  static constexpr int kInputs = TG_SM90_SIXTEEN_BIT;
  static constexpr unsigned kSets = ~0u; /* every set the tile compiles */
  static constexpr const char *kTakes = "f16/bf16 inputs, K-major unless it says any layout";
  template <class Row, class Op>
  static tg_status dispatch(const tg_problem *p, const Op &op) {
    if (p->input == TG_IN_F16) return sm90_dispatch_epilogues<Row, Sm90F16>(p, op);
    if (p->input == TG_IN_BF16) return sm90_dispatch_epilogues<Row, Sm90BF16>(p, op);
    return TG_ERR_INTERNAL;
  }
  template <class Row>
  static tg_status check(const tg_problem *, const char *, char *, size_t) {
    return TG_OK;
  }
};

/* fp8 inputs in every pairing, K-major; PROMOTE: partial sums promoted into fp32 every k-tile
 * (the default accumulation, and BLOCK scales), else accumulated in the tensor cores (requests
 * with fp8_fast_accum only). */
template <bool PROMOTE>
struct Sm90AtomsFp8 {
  typedef Sm90F8<TG_E4M3, TG_E4M3, PROMOTE> First;
  static constexpr int kInputs = PROMOTE ? TG_SM90_FP8 : TG_SM90_FP8_FAST;
  static constexpr unsigned kSets = ~0u;
  static constexpr const char *kTakes = "e4m3/e5m2 inputs, K-major";
  template <class Row, class Op>
  static tg_status dispatch(const tg_problem *p, const Op &op) {
    const bool a4 = p->a_type == TG_E4M3, b4 = p->b_type == TG_E4M3;
    if (p->input != TG_IN_FP8) return TG_ERR_INTERNAL;
    if (a4 && b4) return sm90_dispatch_epilogues<Row, Sm90F8<TG_E4M3, TG_E4M3, PROMOTE>>(p, op);
    if (a4) return sm90_dispatch_epilogues<Row, Sm90F8<TG_E4M3, TG_E5M2, PROMOTE>>(p, op);
    if (b4) return sm90_dispatch_epilogues<Row, Sm90F8<TG_E5M2, TG_E4M3, PROMOTE>>(p, op);
    return sm90_dispatch_epilogues<Row, Sm90F8<TG_E5M2, TG_E5M2, PROMOTE>>(p, op);
  }
  template <class Row>
  static tg_status check(const tg_problem *p, const char *row, char *why, size_t why_len) {
    if (!PROMOTE && !p->fast_accum) {
      snprintf(why, why_len,
               "%s accumulates all of k in the tensor cores' format: it serves fp8_fast_accum "
               "requests only",
               row);
      return TG_ERR_NOT_SUPPORTED;
    }
    if (p->scale_mode == TG_SCALE_BLOCK && !PROMOTE) {
      snprintf(why, why_len, "%s does not promote its sums: no BLOCK scales", row);
      return TG_ERR_NOT_SUPPORTED;
    }
    if (p->scale_mode == TG_SCALE_BLOCK &&
        !Sm90Scaling<typename Row::template Config<First, true, true>>::kBlockScales) {
      snprintf(why, why_len, "%s: its tile width is no multiple or divisor of 128 (BLOCK scales)",
               row);
      return TG_ERR_NOT_SUPPORTED;
    }
    return TG_OK;
  }
};

/* A row of one atom ATOM, for requests of input class INPUT_CLASS (problem.h), compiling the
 * epilogue sets SETS of those its tile has. */
template <class ATOM, int INPUT_CLASS, int INPUTS, unsigned SETS>
struct Sm90AtomsSingle {
  typedef ATOM First;
  static constexpr int kInputs = INPUTS;
  static constexpr unsigned kSets = SETS;
  static constexpr const char *kTakes = ATOM::kTakes;
  template <class Row, class Op>
  static tg_status dispatch(const tg_problem *p, const Op &op) {
    if (p->input != INPUT_CLASS) return TG_ERR_INTERNAL;
    return sm90_dispatch_epilogues<Row, ATOM>(p, op);
  }
  template <class Row>
  static tg_status check(const tg_problem *, const char *, char *, size_t) {
    return TG_OK;
  }
};
/* f32 inputs with tf32 math (compute TF32), K-major. */
typedef Sm90AtomsSingle<Sm90TF32, TG_IN_TF32, TG_SM90_TF32, ~0u> Sm90AtomsTf32;
/* int8 inputs into exact int32, K-major. The exact int32 product stores by TMA (LEAN); every
 * other D (an epilogue, s8 D) takes the GENERAL class (REST). */
typedef Sm90AtomsSingle<Sm90S8, TG_IN_S8, TG_SM90_S8,
                        TG_SM90_SET_BIT(TG_SM90_EPILOGUES_LEAN) |
                            TG_SM90_SET_BIT(TG_SM90_EPILOGUES_REST)>
    Sm90AtomsS8;

/* The atoms of an INPUTS column value (sm90_configs.h). */
template <int INPUTS>
struct Sm90AtomsOf {
  typedef Sm90Atoms16 type;
};
template <>
struct Sm90AtomsOf<TG_SM90_FP8> {
  typedef Sm90AtomsFp8<true> type;
};
template <>
struct Sm90AtomsOf<TG_SM90_FP8_FAST> {
  typedef Sm90AtomsFp8<false> type;
};
template <>
struct Sm90AtomsOf<TG_SM90_TF32> {
  typedef Sm90AtomsTf32 type;
};
template <>
struct Sm90AtomsOf<TG_SM90_S8> {
  typedef Sm90AtomsS8 type;
};

/* The input type's atom. */
template <class Row, class Op>
tg_status sm90_dispatch(const tg_problem *p, const Op &op) {
  return Row::Atoms::template dispatch<Row>(p, op);
}

/* The TMA maps a row's launch would encode for p (kernel.h's tma_maps): up to `max` of them
 * into out, returning how many (-1 when p is not one the row dispatches). */
template <class Row>
int sm90_row_maps(const tg_problem *p, tg_tma_desc *out, int max) {
  Sm90Maps maps;
  if (sm90_dispatch<Row>(p, Sm90MapsOp{&maps}) != TG_OK) return -1;
  int count = 0;
  for (int i = 0; i < SM90_MAPS; ++i)
    if (maps.used[i] && count < max) out[count++] = maps.desc[i];
  return count;
}

/* A row's check beyond the registry's (kernel.h's extra_check): what a kernel of wide
 * accumulators holds, and every TMA map its launch would encode within the driver's limits, so
 * that a request the check accepts always launches. The planner passes over the row for
 * anything else; a forced request gets the reason. */
template <class Row, int BM, int BN, int CM, int CN, int SCHEDULE>
tg_status sm90_row_check(const tg_problem *p, const char *row, char *why, size_t why_len) {
  tg_status s = sm90_row_check_wide<BM, BN, CM, CN, SCHEDULE>(p, row, why, why_len);
  if (s != TG_OK) return s;
  if ((s = Row::Atoms::template check<Row>(p, row, why, why_len)) != TG_OK) return s;
  tg_tma_desc maps[SM90_MAPS];
  const int count = sm90_row_maps<Row>(p, maps, SM90_MAPS);
  if (count < 0) {
    snprintf(why, why_len, "%s takes %s", row, Row::Atoms::kTakes);
    return TG_ERR_NOT_SUPPORTED;
  }
  char reason[160];
  for (int i = 0; i < count; ++i)
    if (!tg_tma_desc_valid(&maps[i], reason, sizeof reason)) {
      snprintf(why, why_len, "%s: %s", row, reason);
      return TG_ERR_NOT_SUPPORTED;
    }
  return TG_OK;
}

/* What the compiled templates of a row say of themselves (tg_sm90_row_info, sm90.h). */
template <class Row>
void sm90_row_describe(tg_sm90_row_info *out) {
  typedef typename Row::template Config<typename Row::Atoms::First, true, true> Cfg;
  out->tile_m = Cfg::kBM;
  out->tile_n = Cfg::kBN;
  out->tile_k = Cfg::kBK;
  out->stages = Cfg::kStages;
  out->cluster_m = Cfg::kClusterM;
  out->cluster_n = Cfg::kClusterN;
  out->schedule = Cfg::Schedule::kId;
  out->mn_major = Row::kMNMajor;
  out->epilogue_sets = Row::kSets;
  out->wide_acc = Cfg::kWideAcc;
  out->stream_k = Cfg::kStreamK;
  out->smem_bytes_lean = Sm90Kernel<Cfg, Sm90EpilogueLean>::kSmemBytes;
  out->inputs = Row::Atoms::kInputs;
}

/* A configuration's C entry points (sm90.h): its launcher, its launch prepared for a plan, its
 * workspace hook, its wave count, its check, its TMA maps and its description. The arguments are a row of sm90_configs.h: its
 * .cu file compiles it as TG_SM90_ROW_<fn>(SM90_ROW_FUNCTIONS). */
#define SM90_ROW_FUNCTIONS(fn, name, summary, BM, BN, STAGES, CM, CN, SCHEDULE, ORDERS, INPUTS, \
                           EFFICIENCY, RUNG)                                                    \
  typedef Sm90Row<BM, BN, STAGES, CM, CN, TG_SM90_##SCHEDULE, ORDERS == TG_SM90_ANY_ORDER,      \
                  Sm90AtomsOf<INPUTS>::type>                                                    \
      Sm90Row_##fn;                                                                             \
  extern "C" tg_status tg_sm90_launch_##fn(const tg_problem *p, cudaStream_t stream) {          \
    return sm90_dispatch<Sm90Row_##fn>(p, Sm90LaunchOp{stream});                                \
  }                                                                                             \
  extern "C" tg_status tg_sm90_prepare_##fn(const tg_problem *p, tg_prepared *prep) {           \
    return sm90_dispatch<Sm90Row_##fn>(p, Sm90PrepareOp{prep});                                 \
  }                                                                                             \
  extern "C" size_t tg_sm90_workspace_##fn(const tg_problem *p) {                               \
    return sm90_workspace(p, BM, BN, CM, CN, TG_SM90_##SCHEDULE);                               \
  }                                                                                             \
  extern "C" double tg_sm90_waves_##fn(const tg_problem *p) {                                   \
    return sm90_waves(p, BM, BN, CM, CN, TG_SM90_##SCHEDULE);                                   \
  }                                                                                             \
  extern "C" tg_status tg_sm90_check_##fn(const tg_problem *p, char *why, size_t why_len) {     \
    return sm90_row_check<Sm90Row_##fn, BM, BN, CM, CN, TG_SM90_##SCHEDULE>(                    \
        p, "the sm90 " #fn " row", why, why_len);                                               \
  }                                                                                             \
  extern "C" int tg_sm90_maps_##fn(const tg_problem *p, tg_tma_desc *out, int max) {            \
    return sm90_row_maps<Sm90Row_##fn>(p, out, max);                                            \
  }                                                                                             \
  extern "C" void tg_sm90_describe_##fn(tg_sm90_row_info *out) {                                \
    sm90_row_describe<Sm90Row_##fn>(out);                                                       \
  }

#endif /* TG_SM90_LAUNCH_CUH */
