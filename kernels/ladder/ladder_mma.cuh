/*
 * ladder_mma.cuh — what rungs 11 and 12 share: seed 000's three-level tiling written with the
 * raw sm_80 instructions of ptx_sm80.cuh instead of CuTe.
 *
 *   CTA   128×128 tile of D, k-tiles of 32; 4 warps in 2×2.
 *   warp  64×64 of D: 4 × 8 tiles of the m16n8k16 mma, 2 k16 steps per k-tile.
 *   copy  cp.async 16-byte chunks global → shared (no register round trip, zero-filled edges);
 *         operands that are not 16-byte aligned are gathered through registers instead.
 *   smem  both tiles K-major, 64-byte rows, chunks XOR-swizzled (Swizzle<3,3,3>, below).
 *   frags ldmatrix x4 loads four 8×8 matrices = one A fragment or the B fragments of two
 *         n8 tiles, already in the register layout mma.sync wants.
 * The index arithmetic is ladder_layout.h's, shared with `tilegemm trace`.
 */
#ifndef TG_LADDER_MMA_CUH
#define TG_LADDER_MMA_CUH

#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "ladder_layout.h"
#include "ladder_operands.cuh"
#include "ptx_sm80.cuh"

constexpr int kWarpSize = TG_LADDER_WARP;
constexpr int kMmaM = TG_LADDER_MMA_M, kMmaN = TG_LADDER_MMA_N, kMmaK = TG_LADDER_MMA_K;
constexpr int kPair = 2; /* two 16-bit elements (or two fp32 accumulators) per pair */

template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kStages_>
struct MmaConfig {
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_, kWarpsN = kWarpsN_, kStages = kStages_;
  static constexpr int kThreads = kWarpsM * kWarpsN * kWarpSize;
  static constexpr int kWarpTileM = kTileM / kWarpsM, kWarpTileN = kTileN / kWarpsN;
  static constexpr int kTilesM = kWarpTileM / kMmaM; /* mma tiles per warp along m */
  static constexpr int kTilesN = kWarpTileN / kMmaN;
  static constexpr int kStepsK = kTileK / kMmaK;
  static constexpr int kChunksPerRow = kTileK / kChunkElems;
  static constexpr int kRowsPerPass =
      kThreads / kChunksPerRow;                          /* rows one pass of the CTA copies */
  static constexpr int kChunksA = kTileM / kRowsPerPass; /* chunks per thread per k-tile */
  static constexpr int kChunksB = kTileN / kRowsPerPass;
  static constexpr int kStageBytesA = kTileM * kTileK * kElemBytes;
  static constexpr int kStageBytes = (kTileM + kTileN) * kTileK * kElemBytes;
  static_assert(kTileK * kElemBytes == 64,
                "the swizzle below is Swizzle<3,3,3> for 64-byte rows (k-tile of 32 elements)");
  static_assert(kWarpTileM % kMmaM == 0 && kWarpTileN % (kPair * kMmaN) == 0,
                "a warp tile is whole m16 tiles and whole pairs of n8 tiles (one ldmatrix x4)");
  static_assert(kThreads % kChunksPerRow == 0 && kTileM % kRowsPerPass == 0 &&
                    kTileN % kRowsPerPass == 0,
                "the copy passes must cover the tiles' rows exactly");
};

/* Swizzle<3,3,3>: a staged tile is a sequence of 16-byte chunks, chunk L = row·4 + c (c = k/8).
 * Physical chunk = L XOR ((L >> 3) & 7): within each 128-byte line (two rows) the chunks are
 * permuted by the line's index mod 8. The 8 row addresses of an ldmatrix 8×8 matrix (8 rows,
 * same logical chunk) then land in 8 different chunk positions of their lines — all 32 banks,
 * one wavefront — where the unswizzled tile would put them 4 lines deep on the same 4 banks. */
__device__ __forceinline__ int smem_chunk_swizzled(int row, int chunk) {
  return tg_ladder_swizzled_chunk(row, chunk);
}

/* Where this thread's copies start, advanced one k-tile per step. Thread tid copies chunk
 * tid % 4 of rows tid / 4 + i·kRowsPerPass of each tile; the first a_rows (b_rows) of them
 * lie inside the matrix. */
struct MmaLoader {
  const char *a, *b;  /* bytes: A(m0 + tid/4, k0 + chunk·8), B's N×K view at (n0 + tid/4, …);
                          only dereferenced while inside the matrix */
  int a_rows, b_rows; /* how many of the thread's rows are inside m (n) */
  int k_left;         /* k - (k0 + chunk·8): elements left from the thread's chunk */
};

template <class T, class C>
__device__ __forceinline__ MmaLoader thread_loader(const tg_problem &p, const BlockTile &t) {
  const tg_cell copy = tg_ladder_copy_cell(threadIdx.x, C::kChunksPerRow);
  const int row = copy.row, kk = copy.col * kChunkElems;
  MmaLoader l;
  const int64_t a_row = t.m0 + row, b_row = t.n0 + row;
  l.a = reinterpret_cast<const char *>(a_row < p.m ? thread_a_row<T>(p, t.bat, a_row) + kk : p.a);
  l.b = reinterpret_cast<const char *>(b_row < p.n ? thread_bt_row<T>(p, t.bat, b_row) + kk : p.b);
  const int64_t a_in = a_row < p.m ? (p.m - a_row + C::kRowsPerPass - 1) / C::kRowsPerPass : 0;
  const int64_t b_in = b_row < p.n ? (p.n - b_row + C::kRowsPerPass - 1) / C::kRowsPerPass : 0;
  l.a_rows = (int)(a_in < C::kChunksA ? a_in : C::kChunksA);
  l.b_rows = (int)(b_in < C::kChunksB ? b_in : C::kChunksB);
  l.k_left = (int)p.k - kk;
  return l;
}

template <class C>
__device__ __forceinline__ void thread_advance_loader(MmaLoader &l) {
  l.a += C::kTileK * kElemBytes;
  l.b += C::kTileK * kElemBytes;
  l.k_left -= C::kTileK;
}

/* One chunk into shared memory, its first `bytes` read and the rest zero-filled: when the
 * operand is 16-byte aligned, cp.async for a whole chunk (thread_copy_chunk_prefix takes a cut
 * one through registers); else gathered element by element and stored (the odd-ld path,
 * synchronous). */
__device__ __forceinline__ void thread_copy_chunk(uint32_t smem_addr, const void *src, int bytes,
                                                  bool vec) {
  if (vec) thread_copy_chunk_prefix(smem_addr, src, bytes);
  else thread_store_shared_16(smem_addr, thread_load_chunk_or_zero(src, bytes, false));
}

/* Issues the copies of the loader's k-tile into the stage at shared address `stage` (A's tile,
 * then B's). Chunks past the matrix read nothing and land as zeros; a chunk that reads
 * nothing still names a valid address, the operand's first element. kAligned: the caller
 * knows both operands move in 16-byte chunks, so the gather path is not compiled in (the
 * compiler would otherwise issue both paths under predicates in the k-loop). */
template <class C, bool kAligned = false>
__device__ __forceinline__ void thread_copy_tile_async(const tg_problem &p, const MmaLoader &l,
                                                       uint32_t stage) {
  const tg_cell copy = tg_ladder_copy_cell(threadIdx.x, C::kChunksPerRow);
  const int row = copy.row, chunk = copy.col;
  const int k_bytes =
      l.k_left >= kChunkElems ? kChunkBytes : (l.k_left > 0 ? l.k_left * kElemBytes : 0);
  const int64_t a_pass = (int64_t)C::kRowsPerPass * p.lda * kElemBytes;
  const int64_t b_pass = (int64_t)C::kRowsPerPass * p.ldb * kElemBytes;
  const bool a_vec = kAligned || thread_a_chunks(p), b_vec = kAligned || thread_b_chunks(p);
#pragma unroll
  for (int i = 0; i < C::kChunksA; ++i) {
    const int bytes = i < l.a_rows ? k_bytes : 0;
    const uint32_t dst =
        stage + smem_chunk_swizzled(row + i * C::kRowsPerPass, chunk) * kChunkBytes;
    const void *src = bytes ? l.a + i * a_pass : p.a;
    thread_copy_chunk(dst, src, bytes, a_vec);
    TG_RECORD_COPY(TG_REC_A, dst, src, p.a, bytes, kElemBytes); /* trace_record.cuh */
  }
#pragma unroll
  for (int i = 0; i < C::kChunksB; ++i) {
    const int bytes = i < l.b_rows ? k_bytes : 0;
    const uint32_t dst = stage + C::kStageBytesA +
                         smem_chunk_swizzled(row + i * C::kRowsPerPass, chunk) * kChunkBytes;
    const void *src = bytes ? l.b + i * b_pass : p.b;
    thread_copy_chunk(dst, src, bytes, b_vec);
    TG_RECORD_COPY(TG_REC_B, dst, src, p.b, bytes, kElemBytes);
  }
}

/* The warp's accumulators: acc[i][j] is mma tile (i, j) of its 64×64; lane 4g+t holds
 * D(g, 2t..2t+1) in [0..1] and D(g+8, 2t..2t+1) in [2..3] of each. */
template <class C>
struct WarpAccumulators {
  float acc[C::kTilesM][C::kTilesN][4];
};

template <class C>
__device__ __forceinline__ int warp_row0() {
  return tg_ladder_mma_warp_origin(threadIdx.x, C::kWarpsM, C::kWarpTileM, C::kWarpTileN).row;
}
template <class C>
__device__ __forceinline__ int warp_col0() {
  return tg_ladder_mma_warp_origin(threadIdx.x, C::kWarpsM, C::kWarpTileM, C::kWarpTileN).col;
}

/* One k-tile from the stage at shared address `stage`: per k16 step, ldmatrix the warp's A
 * fragments (one x4 per m16 tile: matrices rows 0-7/8-15 × k 0-7/8-15) and B fragments (one
 * x4 per pair of n8 tiles: n 0-7 and 8-15 × k 0-7/8-15), then 4 × 8 mma.sync. */
template <class T, class C>
__device__ __forceinline__ void warp_multiply_tile(uint32_t stage, WarpAccumulators<C> &w) {
  const int lane = threadIdx.x % kWarpSize;
  const int row0 = warp_row0<C>(), col0 = warp_col0<C>();
#pragma unroll
  for (int ks = 0; ks < C::kStepsK; ++ks) {
    uint32_t a[C::kTilesM][4], b[C::kTilesN][2];
#pragma unroll
    for (int i = 0; i < C::kTilesM; ++i) {
      /* lane l gives row l % 16 of the m16 tile, k half l / 16 */
      const tg_cell at = tg_ladder_ldsm_a_cell(lane, row0, i, ks);
      warp_ldmatrix_x4(a[i], stage + smem_chunk_swizzled(at.row, at.col) * kChunkBytes);
      TG_RECORD_REGS(TG_REC_A, a[i], kElemBytes); /* trace_record.cuh */
    }
#pragma unroll
    for (int j = 0; j < C::kTilesN; j += kPair) {
      /* lanes 0-7: n tile j, k 0-7; 8-15: tile j, k 8-15; 16-23: tile j+1, k 0-7; 24-31: … */
      const tg_cell bt = tg_ladder_ldsm_b_cell(lane, col0, j, ks);
      uint32_t r[4];
      warp_ldmatrix_x4(r,
                       stage + C::kStageBytesA + smem_chunk_swizzled(bt.row, bt.col) * kChunkBytes);
      TG_RECORD_REGS(TG_REC_B, r, kElemBytes);
      b[j][0] = r[0];
      b[j][1] = r[1];
      b[j + 1][0] = r[2];
      b[j + 1][1] = r[3];
    }
#pragma unroll
    for (int i = 0; i < C::kTilesM; ++i)
#pragma unroll
      for (int j = 0; j < C::kTilesN; ++j) warp_mma_16816<T>(w.acc[i][j], a[i], b[j]);
  }
}

template <class C>
__device__ __forceinline__ void thread_zero(WarpAccumulators<C> &w) {
#pragma unroll
  for (int i = 0; i < C::kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < C::kTilesN; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) w.acc[i][j][e] = 0.0f;
}

#endif /* TG_LADDER_MMA_CUH */
