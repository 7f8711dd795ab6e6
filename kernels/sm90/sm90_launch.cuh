/*
 * sm90_launch.cuh — from a registry row to a persistent launch: encodes the TMA maps of A and B
 * for their orders (and C's and D's for the TMA epilogues), sizes the grid to the clusters that
 * fit on the GPU (or to the work, when less), and dispatches on f16/bf16, on the epilogue set
 * and on the operand orders.
 */
#ifndef TG_SM90_LAUNCH_CUH
#define TG_SM90_LAUNCH_CUH

#include <stdio.h>

#include "device_memo.cuh"
#include "sm90.h"
#include "sm90_gemm.cuh"
#include "sm90_tensor_map.h"
#include "tma_desc.h"

/* Clusters of this kernel that can be resident at once on the current device (0 if the query
 * fails), after raising its shared-memory limit there. Both are per device (device_memo.cuh);
 * the answer's memo also records that the limit was raised, so it is raised once per device. */
template <class Kernel>
int sm90_max_clusters(int sm_count) {
  static tg_device_memo fit_plus_one; /* per device; fit + 1 once queried */
  const int slot = tg_device_memo_slot();
  const int known = tg_device_memo_get(&fit_plus_one, slot);
  if (known) return known - 1;
  if (cudaFuncSetAttribute(sm90_gemm_kernel<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           Kernel::kSmemBytes) != cudaSuccess)
    return 0; /* the launcher fails; the library reports CUDA's error */
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
  tg_device_memo_set(&fit_plus_one, slot, n + 1);
  return n;
}

/* Stream-K only when the last wave of whole items would fill at most this share of the
 * clusters, ... Measured on the H100 (sm90_128x256x64, 2026-11-23), the stream-K part runs at
 * about 0.7 of the speed of whole tiles (shares that start at scattered k break the lockstep in
 * which a wave's tiles walk k together and share operand panels in L2), so spreading the last
 * full wave and a partial one (1 + r of a wave, r = last wave's fill) pays only when
 * (1 + r) / 0.7 < 2, r < 0.4. Ratio to cuBLAS without → with stream-K, bf16: 3072³ (r 0.18)
 * 0.74 → 0.83 (f16 0.74 → 0.84); 2560³ (r 0.52) 0.84 → 0.79; 8192×8192×1024 (0.52) 1.00 →
 * 0.96; 6144³ (0.73) 0.975 → 0.895; 4096×14336×4096 (0.79) 0.97 → 0.955; 4096³ (0.88) 0.98
 * → 0.90. */
#define TG_SM90_STREAM_K_MAX_LAST_WAVE_PERCENT 40
/* ... and each cluster's share holds at least this many k-tiles. */
#define TG_SM90_STREAM_K_MIN_SHARE 4
/* The speed of the stream-K part relative to whole tiles (above), for the planner. */
#define TG_SM90_STREAM_K_SPEED 0.7

/* A single partial wave (fewer items than clusters) is spread over every cluster only when it
 * fills at most this share of them and the problem is memory-bound (below): then the loads, not
 * the math, set the time, and a CTA's stages hold only so many bytes in flight, so twice the
 * CTAs pull about twice the bytes at once. On compute-bound single waves the spread lost
 * (H100, 2026-11-23: 1536³ 0.74 → 0.64× of cuBLAS). */
#define TG_SM90_SPREAD_MAX_FILL_PERCENT 50
/* ... over at most this many clusters per item: an item's finisher adds the partial sums of
 * every other cluster that ran part of it, one tile of fp32 after another, so a deep single
 * item spread over all 132 SMs would leave one CTA reading 131 tiles. */
#define TG_SM90_SPREAD_MAX_SPLIT 4
/* Multiply-adds and additions (flops) per byte of A, B and D at which the H100's tensor cores
 * and its DRAM take equal time: 989 TFLOP/s dense bf16 against 3.35 TB/s. Below it a problem is
 * memory-bound (decode: M = 1…128 tokens against 4096-wide weights sits at 1…120). */
#define TG_SM90_RIDGE_FLOPS_PER_BYTE 295.0

/* Whether streaming p's operands (and D) once from DRAM takes longer than its math. */
static inline bool sm90_memory_bound(const tg_problem *p) {
  return tg_problem_flops(p) < TG_SM90_RIDGE_FLOPS_PER_BYTE * tg_problem_min_bytes(p);
}

/* Clusters a spread single wave of `items` runs on, of the `clusters` that fit. */
static inline int64_t sm90_spread_clusters(int64_t items, int64_t clusters) {
  return items * TG_SM90_SPREAD_MAX_SPLIT < clusters ? items * TG_SM90_SPREAD_MAX_SPLIT : clusters;
}

/* First work item of the stream-K part of a cooperative launch over `clusters` clusters:
 * `items` (none) unless the last wave of whole items is mostly idle; then the last partial
 * wave and the full one before it, spread over all clusters, so every share holds over one
 * item. A memory-bound single partial wave is spread whole (item 0) over
 * sm90_spread_clusters of them. */
static inline int64_t sm90_stream_k_first(int64_t items, int64_t clusters, int64_t k_tiles,
                                          int schedule, bool memory_bound) {
  if (schedule != TG_SM90_COOPERATIVE || clusters <= 0 || items <= 0) return items;
  if (items < clusters) {
    if (!memory_bound || items * 100 > clusters * TG_SM90_SPREAD_MAX_FILL_PERCENT) return items;
    return items * k_tiles / sm90_spread_clusters(items, clusters) < TG_SM90_STREAM_K_MIN_SHARE ? items : 0;
  }
  const int64_t rest = items % clusters, first = (items / clusters - 1) * clusters;
  if (rest == 0 || rest * 100 > clusters * TG_SM90_STREAM_K_MAX_LAST_WAVE_PERCENT) return items;
  if ((items - first) * k_tiles / clusters < TG_SM90_STREAM_K_MIN_SHARE) return items;
  return first;
}

/* Work items (clusters' tile groups) of a BM×BN kernel with clusters of cm CTAs along m or cn
 * along n. */
static inline int64_t sm90_items(const tg_problem *p, int bm, int bn, int cm, int cn) {
  const int64_t m_items = ((p->m + bm - 1) / bm + cm - 1) / cm;
  const int64_t n_items = ((p->n + bn - 1) / bn + cn - 1) / cn;
  return m_items * n_items * p->batch;
}

/* k-tiles of every item. */
static inline int64_t sm90_k_tiles(const tg_problem *p) { return (p->k + TG_SM90_BOX - 1) / TG_SM90_BOX; }

/* A launch on up to `clusters` clusters: its items, the clusters its stream-K part is cut for
 * (all of them, or fewer for a spread single wave), and its first stream-K item. */
struct Sm90Split {
  int64_t items, clusters, first;
};
static inline Sm90Split sm90_split(const tg_problem *p, int bm, int bn, int cm, int cn, int64_t clusters,
                                   int schedule) {
  Sm90Split s;
  s.items = sm90_items(p, bm, bn, cm, cn);
  /* Kernels of wide accumulators never split items (Sm90Gemm::kStreamK). */
  s.first = sm90_wide_acc(bm, bn, schedule)
                ? s.items
                : sm90_stream_k_first(s.items, clusters, sm90_k_tiles(p), schedule, sm90_memory_bound(p));
  s.clusters = s.first == 0 && s.items < clusters ? sm90_spread_clusters(s.items, clusters) : clusters;
  return s;
}

/* The same on all of p's SMs (the planner's view; the launch uses the clusters that fit). */
static inline Sm90Split sm90_split_on_sms(const tg_problem *p, int bm, int bn, int cm, int cn, int schedule) {
  return sm90_split(p, bm, bn, cm, cn, p->sm_count / (cm * cn), schedule);
}

/* Bytes of partial sums a stream-K launch needs: one BM×BN fp32 tile per CTA. */
static inline size_t sm90_stream_k_bytes(int64_t ctas, int bm, int bn) {
  return (size_t)ctas * (size_t)bm * (size_t)bn * sizeof(float);
}

/* A row's workspace: partial sums for stream-K when it may apply (with as many clusters as
 * the SMs hold; the launch re-decides with the clusters that fit and falls back to whole
 * tiles if the workspace is short). */
static inline size_t sm90_workspace(const tg_problem *p, int bm, int bn, int cm, int cn, int schedule) {
  const Sm90Split s = sm90_split_on_sms(p, bm, bn, cm, cn, schedule);
  return s.first == s.items ? 0 : sm90_stream_k_bytes(s.clusters * cm * cn, bm, bn);
}

/* The planner's wave count (kernel.h's tg_waves_fn) on all of p's SMs: waves of whole items
 * (a pingpong cluster has one in flight per consumer warpgroup), a stream-K part (the last full
 * wave and a partial one, or a spread memory-bound single wave) counted at its speed. The
 * planner's memory floor (plan_cost.c) bounds what the spread can gain. */
static inline double sm90_waves(const tg_problem *p, int bm, int bn, int cm, int cn, int schedule) {
  const Sm90Split s = sm90_split_on_sms(p, bm, bn, cm, cn, schedule);
  if (s.clusters <= 0) return (double)s.items;
  const int64_t slots = s.clusters * (schedule == TG_SM90_PINGPONG ? TG_SM90_CONSUMERS : 1);
  if (s.first == s.items) return (double)((s.items + slots - 1) / slots);
  return (double)(s.first / s.clusters) + (double)(s.items - s.first) / (double)s.clusters / TG_SM90_STREAM_K_SPEED;
}

/* Whether p's work items and stream-K iterations can be counted in 32 bits on all of p's SMs:
 * (clusters + 1) × items × k-tiles below 2^32 bounds every product the kernel forms from them (a
 * stream-K share's start c·T/C, an iteration's owner (x + 1)·C). */
static inline bool sm90_count_fits_32(const tg_problem *p, int bm, int bn, int cm, int cn) {
  const double clusters = (double)(p->sm_count / (cm * cn));
  return (clusters + 1.0) * (double)sm90_items(p, bm, bn, cm, cn) * (double)sm90_k_tiles(p) < 4294967296.0;
}

/* What a kernel of wide accumulators (sm90_wide_acc) holds: the plain epilogue into D of the
 * inputs' type that TMA can store (the LEAN set), work that counts in 32 bits. */
template <int BM, int BN, int CM, int CN, int SCHEDULE>
tg_status sm90_row_check_wide(const tg_problem *p, const char *row, char *why, size_t why_len) {
  if (!sm90_wide_acc(BM, BN, SCHEDULE)) return TG_OK;
  if (sm90_epilogue_set(sm90_epilogue_class(*p), p->d_type == p->a_type, false, p->read_c) != TG_SM90_EPILOGUES_LEAN) {
    snprintf(why, why_len,
             "%s holds only the plain epilogue (alpha; beta = 0, no bias or activation) into a 16-byte "
             "aligned D of the inputs' type", row);
    return TG_ERR_NOT_SUPPORTED;
  }
  if (!sm90_count_fits_32(p, BM, BN, CM, CN)) {
    snprintf(why, why_len, "%s counts its work in 32 bits: (clusters + 1) x tiles x k-tiles must stay below 2^32",
             row);
    return TG_ERR_NOT_SUPPORTED;
  }
  return TG_OK;
}

/* Rows of a K-major operand's TMA box: its share of the tile, or, when the operand is not
 * shared and the matrix ends inside the first tile (M below BM for A, N below BN for B), only
 * the rows that exist, rounded up to a swizzle atom. Rows past the matrix would be zero-filled
 * by the copy engine, slowly: on the H100 with 128×64 tiles at N = K = 4096, M = 128 ran 21.5
 * µs, M = 64 31 µs, M = 1 38 µs; with the cut box M = 64, 16 and 1 run 20.4–20.8 µs. The tile
 * rows left stale in shared memory are multiplied too, but only into output rows that are
 * never stored. extent < tile_rows means a single tile along that dimension, so every tile of
 * the launch takes the same box (and every stage the same byte count). */
#define TG_SM90_BOX_ROW_ALIGN 8
static inline int sm90_box_rows(bool kmajor, int sharing, int tile_rows, int64_t extent) {
  const int share = tile_rows / sharing;
  if (!kmajor || sharing > 1 || extent >= tile_rows) return share;
  return (int)((extent + TG_SM90_BOX_ROW_ALIGN - 1) / TG_SM90_BOX_ROW_ALIGN * TG_SM90_BOX_ROW_ALIGN);
}

/* The TMA maps of a kernel's launch for p (tma_desc.h), in the order the kernel takes them:
 * A and B always; D, for the TMA-store epilogues, boxes of 16 rows × 128 (or 64) bytes (a
 * consumer warp's staging buffer; D's of 64 rows where a warpgroup stores, Kernel::kStoreRows),
 * swizzled alike, and C's where the FULL epilogue reads it; for a tile width with a tail, a
 * second pair whose boxes are the tail's 16 columns, unswizzled. A map the kernel does not use
 * is left out (`used` 0) and passed zeroed. */
enum { SM90_MAP_A, SM90_MAP_B, SM90_MAP_D, SM90_MAP_C, SM90_MAP_D_TAIL, SM90_MAP_C_TAIL, SM90_MAPS };
struct Sm90Maps {
  tg_tma_desc desc[SM90_MAPS];
  bool used[SM90_MAPS];
  uint32_t stage_bytes; /* bytes each stage receives, every CTA's share of the cluster's boxes */
};

template <class Kernel>
Sm90Maps sm90_kernel_maps(const tg_problem *p) {
  Sm90Maps maps = {};
  const int a_rows = sm90_box_rows(Kernel::kAKMajor, Kernel::kClusterN, Kernel::kBM, p->m);
  const int b_rows = sm90_box_rows(Kernel::kBKMajor, Kernel::kClusterM, Kernel::kBN, p->n);
  /* Each CTA of the sharing cluster delivers its box to every partner; MN-major operands load
   * whole tiles (their share of rows times the sharing is the tile's). */
  maps.stage_bytes = (uint32_t)(a_rows * Kernel::kClusterN + b_rows * Kernel::kClusterM) * TG_SM90_ROW_BYTES;
  maps.desc[SM90_MAP_A] =
      Kernel::kAKMajor
          ? tg_tma_desc_make(p->a, p->a_type, p->k, p->m, p->lda, p->batch, p->batch_stride_a, TG_SM90_BOX, a_rows,
                             TG_SM90_ROW_BYTES)
          : tg_tma_desc_make(p->a, p->a_type, p->m, p->k, p->lda, p->batch, p->batch_stride_a, TG_SM90_BOX,
                             TG_SM90_BOX, TG_SM90_ROW_BYTES);
  maps.desc[SM90_MAP_B] =
      Kernel::kBKMajor
          ? tg_tma_desc_make(p->b, p->b_type, p->k, p->n, p->ldb, p->batch, p->batch_stride_b, TG_SM90_BOX, b_rows,
                             TG_SM90_ROW_BYTES)
          : tg_tma_desc_make(p->b, p->b_type, p->n, p->k, p->ldb, p->batch, p->batch_stride_b, TG_SM90_BOX,
                             TG_SM90_BOX, TG_SM90_ROW_BYTES);
  maps.used[SM90_MAP_A] = maps.used[SM90_MAP_B] = true;
  const int epilogue = sm90_epilogue_class(*p);
  if (epilogue != TG_SM90_EPI_GENERAL) {
    const bool read_c = epilogue == TG_SM90_EPI_FULL && p->read_c;
    const int box_cols = Kernel::kStagingRowBytes / (int)tg_dtype_size(p->d_type);
    maps.desc[SM90_MAP_D] = tg_tma_desc_make(p->d, p->d_type, p->n, p->m, p->ldd, p->batch, p->batch_stride_d,
                                             box_cols, Kernel::kStoreRows, Kernel::kStagingRowBytes);
    maps.desc[SM90_MAP_D].store = 1;
    maps.used[SM90_MAP_D] = true;
    if (read_c) {
      maps.desc[SM90_MAP_C] = tg_tma_desc_make(p->c, p->c_type, p->n, p->m, p->ldc, p->batch, p->batch_stride_c,
                                               box_cols, Kernel::kWarpRows, Kernel::kStagingRowBytes);
      maps.used[SM90_MAP_C] = true;
    }
    if (Kernel::kTailCols > 0) {
      maps.desc[SM90_MAP_D_TAIL] = tg_tma_desc_make(p->d, p->d_type, p->n, p->m, p->ldd, p->batch,
                                                    p->batch_stride_d, Kernel::kTailCols, Kernel::kWarpRows, 0);
      maps.desc[SM90_MAP_D_TAIL].store = 1;
      maps.used[SM90_MAP_D_TAIL] = true;
      if (read_c) {
        maps.desc[SM90_MAP_C_TAIL] = tg_tma_desc_make(p->c, p->c_type, p->n, p->m, p->ldc, p->batch,
                                                      p->batch_stride_c, Kernel::kTailCols, Kernel::kWarpRows, 0);
        maps.used[SM90_MAP_C_TAIL] = true;
      }
    }
  }
  return maps;
}

template <class Kernel>
tg_status sm90_launch_config(const tg_problem *p, cudaStream_t stream) {
  const int bm = Kernel::kBM, bn = Kernel::kBN;
  if (Kernel::kWideAcc && !sm90_count_fits_32(p, bm, bn, Kernel::kClusterM, Kernel::kClusterN))
    return TG_ERR_INTERNAL; /* sm90_row_check refuses these */
  const int clusters = sm90_max_clusters<Kernel>(p->sm_count);
  if (clusters <= 0) return TG_ERR_CUDA;
  const Sm90Maps maps = sm90_kernel_maps<Kernel>(p);
  CUtensorMap map[SM90_MAPS] = {};
  for (int i = 0; i < SM90_MAPS; ++i) {
    if (!maps.used[i]) continue;
    if (!tg_tma_desc_valid(&maps.desc[i], NULL, 0)) return TG_ERR_INTERNAL; /* sm90_row_check refuses these */
    const tg_status s = tg_sm90_encode(&map[i], &maps.desc[i]);
    if (s != TG_OK) return s;
  }
  const Sm90Split split = sm90_split(p, bm, bn, Kernel::kClusterM, Kernel::kClusterN, clusters,
                                     Kernel::kPingpong ? TG_SM90_PINGPONG : TG_SM90_COOPERATIVE);
  Sm90StreamK sk = {split.first, (float *)p->workspace};
  const int64_t ctas = split.clusters * Kernel::kCluster;
  if (sk.first_item < split.items && (p->workspace_bytes < sm90_stream_k_bytes(ctas, bm, bn) || !p->sync_flags))
    sk.first_item = split.items; /* whole tiles only */
  /* Stream-K: the clusters its shares are cut for (the kernel cuts them by its grid); whole
   * items only: a cluster per item, up to the clusters that fit, and a cooperative launch on
   * no more clusters than its rounds need (tg_sm90_whole_item_clusters). */
  const int64_t whole_item_clusters =
      Kernel::kPingpong ? (split.items < clusters ? split.items : clusters)
                        : tg_sm90_whole_item_clusters(split.items, clusters);
  const int64_t grid = (sk.first_item < split.items ? split.clusters : whole_item_clusters) * Kernel::kCluster;

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
  return cudaLaunchKernelEx(&cfg, sm90_gemm_kernel<Kernel>, *p, sk, maps.stage_bytes, map[SM90_MAP_A],
                            map[SM90_MAP_B], map[SM90_MAP_D], map[SM90_MAP_C], map[SM90_MAP_D_TAIL],
                            map[SM90_MAP_C_TAIL]) == cudaSuccess
             ? TG_OK
             : TG_ERR_CUDA;
}

/* What a row's dispatch (below) does with the kernel it arrives at for p: launch it on a
 * stream, or describe the TMA maps its launch would encode. */
struct Sm90LaunchOp {
  cudaStream_t stream;
  template <class Kernel>
  tg_status run(const tg_problem *p) const { return sm90_launch_config<Kernel>(p, stream); }
};
struct Sm90MapsOp {
  Sm90Maps *maps;
  template <class Kernel>
  tg_status run(const tg_problem *p) const {
    *maps = sm90_kernel_maps<Kernel>(p);
    return TG_OK;
  }
};

/* Operand orders: canonical A row-major and B column-major are K-major. */
template <class E, int BM, int BN, int STAGES, int CM, int CN, int SCHEDULE, bool MN_MAJOR_OK, int EPILOGUES, class Op>
tg_status sm90_dispatch_orders(const tg_problem *p, const Op &op) {
  const bool ak = p->a_order == TG_ROW_MAJOR, bk = p->b_order == TG_COL_MAJOR;
#define TG_SM90_KERNEL(a_kmajor, b_kmajor) Sm90Gemm<E, BM, BN, STAGES, a_kmajor, b_kmajor, CM, CN, SCHEDULE, EPILOGUES>
  if (ak && bk) return op.template run<TG_SM90_KERNEL(true, true)>(p);
  if constexpr (MN_MAJOR_OK) {
    if (ak) return op.template run<TG_SM90_KERNEL(true, false)>(p);
    if (bk) return op.template run<TG_SM90_KERNEL(false, true)>(p);
    return op.template run<TG_SM90_KERNEL(false, false)>(p);
  }
#undef TG_SM90_KERNEL
  return TG_ERR_INTERNAL; /* the row accepts K-major operands only */
}

/* The kernel compiled with p's epilogue (Sm90EpilogueSet). */
template <class E, int BM, int BN, int STAGES, int CM, int CN, int SCHEDULE, bool MN_MAJOR_OK, class Op>
tg_status sm90_dispatch_epilogues(const tg_problem *p, const Op &op) {
  constexpr bool kSplitFull = sm90_borrows_stage(BM, BN, SCHEDULE == TG_SM90_PINGPONG);
  const int set = sm90_epilogue_set(sm90_epilogue_class(*p), p->d_type == E::kInputType, kSplitFull, p->read_c);
  if (set == TG_SM90_EPILOGUES_LEAN)
    return sm90_dispatch_orders<E, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK, TG_SM90_EPILOGUES_LEAN>(p, op);
  if constexpr (sm90_wide_acc(BM, BN, SCHEDULE)) {
    return TG_ERR_INTERNAL; /* the row holds LEAN only; sm90_row_check refused the rest */
  } else {
    if (set == TG_SM90_EPILOGUES_BIAS)
      return sm90_dispatch_orders<E, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK, TG_SM90_EPILOGUES_BIAS>(p, op);
    if (set == TG_SM90_EPILOGUES_CAST)
      return sm90_dispatch_orders<E, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK, TG_SM90_EPILOGUES_CAST>(p, op);
    if constexpr (kSplitFull) { /* RESID and ACT */
      if (set == TG_SM90_EPILOGUES_RESID)
        return sm90_dispatch_orders<E, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK, TG_SM90_EPILOGUES_RESID>(p, op);
      if (set == TG_SM90_EPILOGUES_ACT)
        return sm90_dispatch_orders<E, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK, TG_SM90_EPILOGUES_ACT>(p, op);
    }
    return sm90_dispatch_orders<E, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK, TG_SM90_EPILOGUES_REST>(p, op);
  }
}

/* BM×BN is the tile of one consumer warpgroup in pingpong, of the CTA in cooperative; clusters
 * of CM CTAs along m (sharing B) or CN along n (sharing A). */
template <int BM, int BN, int STAGES, int CM, int CN, int SCHEDULE, bool MN_MAJOR_OK, class Op>
tg_status sm90_dispatch_16bit(const tg_problem *p, const Op &op) {
  if (p->input == TG_IN_F16)
    return sm90_dispatch_epilogues<Sm90F16, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, op);
  if (p->input == TG_IN_BF16)
    return sm90_dispatch_epilogues<Sm90BF16, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, op);
  return TG_ERR_INTERNAL;
}

/* The TMA maps a row's launch would encode for p (kernel.h's tma_maps): up to `max` of them
 * into out, returning how many (-1 when p is not one the row dispatches). */
template <int BM, int BN, int STAGES, int CM, int CN, int SCHEDULE, bool MN_MAJOR_OK>
int sm90_row_maps(const tg_problem *p, tg_tma_desc *out, int max) {
  Sm90Maps maps;
  if (sm90_dispatch_16bit<BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, Sm90MapsOp{&maps}) != TG_OK) return -1;
  int count = 0;
  for (int i = 0; i < SM90_MAPS; ++i)
    if (maps.used[i] && count < max) out[count++] = maps.desc[i];
  return count;
}

/* A row's check beyond the registry's (kernel.h's extra_check): what a kernel of wide
 * accumulators holds, and every TMA map its launch would encode within the driver's limits, so
 * that a request the check accepts always launches. The planner passes over the row for
 * anything else; a forced request gets the reason. */
template <int BM, int BN, int STAGES, int CM, int CN, int SCHEDULE, bool MN_MAJOR_OK>
tg_status sm90_row_check(const tg_problem *p, const char *row, char *why, size_t why_len) {
  const tg_status s = sm90_row_check_wide<BM, BN, CM, CN, SCHEDULE>(p, row, why, why_len);
  if (s != TG_OK) return s;
  tg_tma_desc maps[SM90_MAPS];
  const int count = sm90_row_maps<BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, maps, SM90_MAPS);
  if (count < 0) {
    snprintf(why, why_len, "%s takes f16/bf16 inputs, K-major unless it says any layout", row);
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

/* A registry row's C entry points: its launcher, its workspace hook, its wave count, its check
 * and its TMA maps. */
#define SM90_ROW_FUNCTIONS(name, BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK)              \
  extern "C" tg_status tg_sm90_launch_##name(const tg_problem *p, cudaStream_t stream) {    \
    return sm90_dispatch_16bit<BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, Sm90LaunchOp{stream}); \
  }                                                                                         \
  extern "C" size_t tg_sm90_workspace_##name(const tg_problem *p) {                        \
    return sm90_workspace(p, BM, BN, CM, CN, SCHEDULE);                                     \
  }                                                                                         \
  extern "C" double tg_sm90_waves_##name(const tg_problem *p) {                            \
    return sm90_waves(p, BM, BN, CM, CN, SCHEDULE);                                         \
  }                                                                                         \
  extern "C" tg_status tg_sm90_check_##name(const tg_problem *p, char *why, size_t why_len) { \
    return sm90_row_check<BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, "the sm90 " #name " row", why, why_len); \
  }                                                                                         \
  extern "C" int tg_sm90_maps_##name(const tg_problem *p, tg_tma_desc *out, int max) {     \
    return sm90_row_maps<BM, BN, STAGES, CM, CN, SCHEDULE, MN_MAJOR_OK>(p, out, max);        \
  }

#endif /* TG_SM90_LAUNCH_CUH */
