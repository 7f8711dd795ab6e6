/*
 * simt_warptile.cuh — the pieces rungs 7 and 8 share: the warp-tiled thread layout, the staging
 * of A (transposed) and B through registers into shared memory, one k step of the per-thread
 * outer product, and the epilogue. Rung 7 uses them with one shared buffer, rung 8 with two.
 *
 * Layout: the CTA tile is split into kWarpsM × kWarpsN warp tiles. Inside a warp the lanes form
 * an kLanesM × kLanesN grid; a lane owns kIterM × kIterN sub-blocks of kSubM × kSubN outputs,
 * the sub-blocks of all lanes interleaved so that at each k step the warp reads, per sub-block
 * row, kLanesM DIFFERENT float4s of A (128 contiguous bytes: one conflict-free wavefront) and
 * kLanesN different float4s of B, each broadcast to the lanes that share it. The index
 * arithmetic of both maps is simt_layout.h's, shared with `tilegemm trace`.
 */
#ifndef TG_SIMT_WARPTILE_CUH
#define TG_SIMT_WARPTILE_CUH

#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "simt_layout.h"
#include "simt_operands.cuh"

constexpr int kWarpSize = TG_SIMT_WARP;

template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kLanesM_,
          int kSubM_, int kSubN_>
struct WarpTileConfig {
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_, kWarpsN = kWarpsN_;
  static constexpr int kLanesM = kLanesM_, kLanesN = kWarpSize / kLanesM_;
  static constexpr int kSubM = kSubM_, kSubN = kSubN_;
  static constexpr int kThreads = kWarpSize * kWarpsM * kWarpsN;
  static constexpr int kWarpTileM = kTileM / kWarpsM, kWarpTileN = kTileN / kWarpsN;
  static constexpr int kIterM = kWarpTileM / (kLanesM * kSubM);
  static constexpr int kIterN = kWarpTileN / (kLanesN * kSubN);
  static constexpr int kThreadM = kIterM * kSubM, kThreadN = kIterN * kSubN;
  static constexpr int kVecK = kTileK / kFloatsPerVector;
  static constexpr int kVecN = kTileN / kFloatsPerVector;
  static constexpr int kLoadsA = kTileM * kVecK / kThreads;
  static constexpr int kLoadsB = kTileK * kVecN / kThreads;
  static_assert(kWarpSize % kLanesM_ == 0, "the lane grid must use all 32 lanes");
  static_assert(kTileM % kWarpsM == 0 && kTileN % kWarpsN == 0,
                "warp tiles must tile the CTA tile");
  static_assert(kIterM * kLanesM * kSubM == kWarpTileM && kIterN * kLanesN * kSubN == kWarpTileN,
                "the lanes' sub-blocks must tile the warp tile exactly");
  static_assert(kSubM == kFloatsPerVector && kSubN == kFloatsPerVector,
                "a sub-block row or column is one float4 in shared memory");
  static_assert(kTileK % kFloatsPerVector == 0, "A's tile rows are staged as whole float4s");
  static_assert(kThreads % kTileM == 0 && (kThreads / kTileM) * kLoadsA == kVecK,
                "A is staged one row per thread group: the threads must cover its rows exactly");
  static_assert(kTileK * kVecN % kThreads == 0, "B's tile must split evenly over the threads");
};

/* One k-tile of A and B in flight in registers, between its global load and its shared store. */
template <class C>
struct StagedTile {
  float4 a[C::kLoadsA];
  float4 b[C::kLoadsB];
};

/* The tiles of one shared-memory buffer. */
template <class C>
struct SharedTile {
  float as_t[C::kTileK][C::kTileM]; /* A transposed: as_t[kk][row] */
  float bs[C::kTileK][C::kTileN];   /* bs[kk][col] */
};

/* Where this thread works inside the CTA tile. */
struct ThreadPlace {
  int row0, col0; /* first row and column of its first sub-block */
};

template <class C>
__device__ __forceinline__ ThreadPlace thread_place() {
  const tg_cell c = tg_warp_tile_place(threadIdx.x, TG_SIMT_WARP, C::kWarpsM, C::kWarpTileM,
                                       C::kWarpTileN, C::kLanesN, C::kSubM, C::kSubN);
  return ThreadPlace{c.row, c.col};
}

/* This thread's share of the staging: where its A row and its B rows start in the current
 * k-tile. Computed once per CTA tile, then advanced by one k-tile per step, so the main loop
 * carries pointers instead of recomputing 64-bit offsets. */
template <class C>
struct ThreadLoader {
  const float *a;  /* A(m0 + row, k0 + first float4 of the thread), or null past m */
  const float *b;  /* B(k0 + first row of the thread, n0 + its column) */
  int a_left;      /* k - (k0 + first k of the thread's A float4s); k, n < 2^31 */
  int b_rows_left; /* k - (k0 + first B row of the thread) */
  int b_cols_left; /* n - (n0 + its column) */
};

/* Which float4s a thread stages. A: consecutive threads take consecutive rows (conflict-free
 * transposed stores), each kLoadsA adjacent float4s along its row; B: consecutive threads
 * take consecutive float4s of a row, kBRowStep rows apart. */
template <class C>
struct StagingMap {
  static constexpr int kBRowStep = C::kThreads / C::kVecN;
  static_assert(C::kThreads % C::kVecN == 0, "B's staging rows must be whole");
  static __device__ __forceinline__ int a_row() { return tg_simt_wt_a_row(threadIdx.x, C::kTileM); }
  static __device__ __forceinline__ int a_k() {
    return tg_simt_wt_a_k(threadIdx.x, C::kTileM, C::kLoadsA);
  }
  static __device__ __forceinline__ int b_row() { return tg_simt_wt_b_row(threadIdx.x, C::kVecN); }
  static __device__ __forceinline__ int b_col() { return tg_simt_wt_b_col(threadIdx.x, C::kVecN); }
};

template <class C>
__device__ __forceinline__ ThreadLoader<C> thread_loader(const tg_problem &p, const BlockTile &t) {
  using M = StagingMap<C>;
  ThreadLoader<C> l;
  const int64_t grow = t.m0 + M::a_row();
  l.a = grow < p.m ? thread_a_row(p, t.bat, grow) + M::a_k() : nullptr;
  l.a_left = (int)p.k - M::a_k();
  l.b = thread_b_row(p, t.bat, M::b_row()) + t.n0 + M::b_col();
  l.b_rows_left = (int)p.k - M::b_row();
  l.b_cols_left = (int)(p.n - (t.n0 + M::b_col()));
  return l;
}

template <class C>
__device__ __forceinline__ void thread_advance_loader(const tg_problem &p, ThreadLoader<C> &l) {
  if (l.a) l.a += C::kTileK;
  l.a_left -= C::kTileK;
  l.b += C::kTileK * p.ldb;
  l.b_rows_left -= C::kTileK;
}

/* Global → registers: the loader's k-tile, zero outside the matrices. */
template <class C>
__device__ __forceinline__ void thread_fetch_tile(const tg_problem &p, const ThreadLoader<C> &l,
                                                  StagedTile<C> &s) {
  using M = StagingMap<C>;
#pragma unroll
  for (int i = 0; i < C::kLoadsA; ++i)
    s.a[i] = l.a ? thread_load_float4_or_zero(l.a + i * kFloatsPerVector,
                                              l.a_left - i * kFloatsPerVector, thread_a_vectors(p))
                 : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int i = 0; i < C::kLoadsB; ++i)
    s.b[i] = i * M::kBRowStep < l.b_rows_left
                 ? thread_load_float4_or_zero(l.b + i * M::kBRowStep * p.ldb, l.b_cols_left,
                                              thread_b_vectors(p))
                 : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

/* Registers → shared memory, A transposed on the way. */
template <class C>
__device__ __forceinline__ void thread_stash_tile(const StagedTile<C> &s, SharedTile<C> &sh) {
  using M = StagingMap<C>;
  const int row = M::a_row(), kk0 = M::a_k();
#pragma unroll
  for (int i = 0; i < C::kLoadsA; ++i) {
    const int kk = kk0 + i * kFloatsPerVector;
    sh.as_t[kk + 0][row] = s.a[i].x;
    sh.as_t[kk + 1][row] = s.a[i].y;
    sh.as_t[kk + 2][row] = s.a[i].z;
    sh.as_t[kk + 3][row] = s.a[i].w;
    TG_RECORD_STAGE4(TG_REC_A, &sh.as_t[kk][row], C::kTileM, s.a[i]); /* trace_record.cuh */
  }
#pragma unroll
  for (int i = 0; i < C::kLoadsB; ++i) {
    *reinterpret_cast<float4 *>(&sh.bs[M::b_row() + i * M::kBRowStep][M::b_col()]) = s.b[i];
    TG_RECORD_STAGE4(TG_REC_B, &sh.bs[M::b_row() + i * M::kBRowStep][M::b_col()], 1, s.b[i]);
  }
}

/* Output (i, j) of the thread's kThreadM × kThreadN block sits at row0 + row_of(i), col0 +
 * col_of(j) of the CTA tile; the same offsets place its operands in the staged tiles. */
template <class C>
__device__ __forceinline__ int thread_row_of(int i) {
  return tg_simt_wt_row_of(i, C::kSubM, C::kLanesM);
}
template <class C>
__device__ __forceinline__ int thread_col_of(int j) {
  return tg_simt_wt_col_of(j, C::kSubN, C::kLanesN);
}

/* The thread's outer products over one shared k-tile. */
template <class C>
__device__ __forceinline__ void thread_multiply_tile(const SharedTile<C> &sh, ThreadPlace at,
                                                     float (&acc)[C::kThreadM][C::kThreadN]) {
#pragma unroll
  for (int kk = 0; kk < C::kTileK; ++kk) {
    float a[C::kThreadM], b[C::kThreadN];
#pragma unroll
    for (int i = 0; i < C::kIterM; ++i)
      thread_unpack_float4(a + i * C::kSubM,
                           *reinterpret_cast<const float4 *>(
                               &sh.as_t[kk][at.row0 + thread_row_of<C>(i * C::kSubM)]));
#pragma unroll
    for (int j = 0; j < C::kIterN; ++j)
      thread_unpack_float4(
          b + j * C::kSubN,
          *reinterpret_cast<const float4 *>(&sh.bs[kk][at.col0 + thread_col_of<C>(j * C::kSubN)]));
    TG_RECORD_OPERANDS(TG_REC_A, a);
    TG_RECORD_OPERANDS(TG_REC_B, b);
#pragma unroll
    for (int i = 0; i < C::kThreadM; ++i)
#pragma unroll
      for (int j = 0; j < C::kThreadN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
  }
}

template <class C>
__device__ __forceinline__ void thread_store_block(const tg_problem &p, const BlockTile &t,
                                                   ThreadPlace at,
                                                   const float (&acc)[C::kThreadM][C::kThreadN]) {
#pragma unroll
  for (int i = 0; i < C::kThreadM; ++i) {
    const int64_t grow = t.m0 + at.row0 + thread_row_of<C>(i);
    if (grow >= p.m) continue;
#pragma unroll
    for (int j = 0; j < C::kThreadN; ++j) {
      const int64_t gcol = t.n0 + at.col0 + thread_col_of<C>(j);
      if (gcol < p.n) thread_epilogue_store(p, t.bat, grow, gcol, acc[i][j]);
    }
  }
}

#endif /* TG_SIMT_WARPTILE_CUH */
