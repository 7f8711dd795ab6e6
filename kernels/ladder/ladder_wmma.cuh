/*
 * ladder_wmma.cuh — what rungs 9 and 10 share: the WMMA tiling of a 128×128×32 CTA tile over
 * 8 warps, the staging of A and B through registers into (skewed) shared memory, one k-tile of
 * warp-level WMMA, and the epilogue through a small per-warp scratch tile.
 *
 * WMMA (nvcuda::wmma) is the portable C++ face of the tensor cores: a warp loads 16×16
 * fragments of A and B from shared memory, multiplies them into a 16×16 fp32 accumulator
 * fragment, and stores that to memory. How the fragment's elements are spread over the lanes
 * is opaque, which is why the epilogue goes through shared memory: only there does the kernel
 * know which element is which. The index arithmetic is ladder_layout.h's, shared with
 * `tilegemm trace`.
 */
#ifndef TG_LADDER_WMMA_CUH
#define TG_LADDER_WMMA_CUH

#include <cuda_runtime.h>
#include <mma.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "ladder_layout.h"
#include "ladder_operands.cuh"

constexpr int kWarpSize = TG_LADDER_WARP;
constexpr int kWmmaSide = TG_LADDER_WMMA_SIDE; /* the m16n16k16 fragment */
/* Elements of padding after each 32-element row of a staged tile: rows 80 bytes apart fall
 * on different banks for the 16-byte accesses of the stores and of the fragment loads. */
constexpr int kWmmaSkew = TG_LADDER_WMMA_SKEW;
/* Row pitch of the per-warp fp32 scratch tile (WMMA needs a multiple of 4 floats). */
constexpr int kScratchPitch = TG_LADDER_WMMA_SCRATCH_PITCH;

template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kStages_>
struct WmmaConfig {
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_, kWarpsN = kWarpsN_, kStages = kStages_;
  static constexpr int kWarps = kWarpsM * kWarpsN, kThreads = kWarps * kWarpSize;
  static constexpr int kFragsM = kTileM / kWarpsM / kWmmaSide; /* fragments per warp along m */
  static constexpr int kFragsN = kTileN / kWarpsN / kWmmaSide;
  static constexpr int kPitch = kTileK + kWmmaSkew; /* staged row pitch, elements */
  static constexpr int kChunksPerRow = kTileK / kChunkElems;
  static constexpr int kChunksA = kTileM * kChunksPerRow / kThreads; /* per thread */
  static constexpr int kChunksB = kTileN * kChunksPerRow / kThreads;
  static_assert(kTileM % (kWarpsM * kWmmaSide) == 0 && kTileN % (kWarpsN * kWmmaSide) == 0,
                "warp tiles must be whole 16×16 fragments");
  static_assert(kTileK % kWmmaSide == 0, "the k-tile must be whole k16 steps");
  static_assert(kTileM * kChunksPerRow % kThreads == 0 && kTileN * kChunksPerRow % kThreads == 0,
                "the staged tiles must split evenly into 16-byte chunks per thread");
  static_assert(kPitch % kChunkElems == 0, "staged rows must keep 16-byte alignment");
};

/* One stage of staged operands: A's tile [row][k], B's N×K tile [col][k]. */
template <class T, class C>
struct WmmaStage {
  T a[C::kTileM][C::kPitch];
  T b[C::kTileN][C::kPitch];
};

/* The CTA's shared memory: the stages while the main loop runs, then the epilogue's per-warp
 * scratch tiles in the same bytes. */
template <class T, class C>
union WmmaShared {
  WmmaStage<T, C> stage[C::kStages];
  float scratch[C::kWarps][kWmmaSide][kScratchPitch];
};

/* One k-tile of this thread's chunks, between their global load and their shared store. */
template <class C>
struct WmmaStaged {
  uint4 a[C::kChunksA];
  uint4 b[C::kChunksB];
};

/* Global → registers: chunk c = tid + i·threads is row c / chunks_per_row, chunk c % … of it
 * (tg_ladder_chunk_cell); consecutive threads read consecutive 16-byte pieces of a row. */
template <class T, class C>
__device__ __forceinline__ void thread_fetch_tile(const tg_problem &p, const BlockTile &t,
                                                  int64_t k0, WmmaStaged<C> &s) {
#pragma unroll
  for (int i = 0; i < C::kChunksA; ++i) {
    const tg_cell q = tg_ladder_chunk_cell(threadIdx.x + i * C::kThreads, C::kChunksPerRow);
    const int64_t row = t.m0 + q.row, kk = k0 + q.col;
    const int bytes = thread_chunk_bytes(row < p.m, p.k, kk);
    s.a[i] = thread_load_chunk_or_zero(bytes ? thread_a_row<T>(p, t.bat, row) + kk : p.a, bytes,
                                       thread_a_chunks(p));
  }
#pragma unroll
  for (int i = 0; i < C::kChunksB; ++i) {
    const tg_cell q = tg_ladder_chunk_cell(threadIdx.x + i * C::kThreads, C::kChunksPerRow);
    const int64_t col = t.n0 + q.row, kk = k0 + q.col;
    const int bytes = thread_chunk_bytes(col < p.n, p.k, kk);
    s.b[i] = thread_load_chunk_or_zero(bytes ? thread_bt_row<T>(p, t.bat, col) + kk : p.b, bytes,
                                       thread_b_chunks(p));
  }
}

/* Registers → one shared stage. */
template <class T, class C>
__device__ __forceinline__ void thread_stash_tile(const WmmaStaged<C> &s, WmmaStage<T, C> &st) {
#pragma unroll
  for (int i = 0; i < C::kChunksA; ++i) {
    const tg_cell q = tg_ladder_chunk_cell(threadIdx.x + i * C::kThreads, C::kChunksPerRow);
    *reinterpret_cast<uint4 *>(&st.a[q.row][q.col]) = s.a[i];
    TG_RECORD_STAGE_CHUNK16(TG_REC_A, &st.a[q.row][q.col], s.a[i]); /* trace_record.cuh */
  }
#pragma unroll
  for (int i = 0; i < C::kChunksB; ++i) {
    const tg_cell q = tg_ladder_chunk_cell(threadIdx.x + i * C::kThreads, C::kChunksPerRow);
    *reinterpret_cast<uint4 *>(&st.b[q.row][q.col]) = s.b[i];
    TG_RECORD_STAGE_CHUNK16(TG_REC_B, &st.b[q.row][q.col], s.b[i]);
  }
}

template <class C>
using WmmaAccumulator =
    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, kWmmaSide, kWmmaSide, kWmmaSide, float>;

/* The warp's part of one k-tile: for each k16 step, its fragments of A (row-major) and of B
 * (column-major: the N×K tile read as K×N), multiplied into its accumulators. */
template <class T, class C>
__device__ __forceinline__ void warp_multiply_tile(
    const WmmaStage<T, C> &st, WmmaAccumulator<C> (&acc)[C::kFragsM][C::kFragsN]) {
  using namespace nvcuda;
  const tg_cell w =
      tg_ladder_wmma_warp_origin(threadIdx.x / kWarpSize, C::kWarpsM, C::kFragsM, C::kFragsN);
  const int row0 = w.row, col0 = w.col;
#pragma unroll
  for (int kk = 0; kk < C::kTileK; kk += kWmmaSide) {
    wmma::fragment<wmma::matrix_a, kWmmaSide, kWmmaSide, kWmmaSide, T, wmma::row_major>
        fa[C::kFragsM];
    wmma::fragment<wmma::matrix_b, kWmmaSide, kWmmaSide, kWmmaSide, T, wmma::col_major>
        fb[C::kFragsN];
#pragma unroll
    for (int i = 0; i < C::kFragsM; ++i)
      wmma::load_matrix_sync(fa[i], &st.a[row0 + i * kWmmaSide][kk], C::kPitch);
#pragma unroll
    for (int j = 0; j < C::kFragsN; ++j)
      wmma::load_matrix_sync(fb[j], &st.b[col0 + j * kWmmaSide][kk], C::kPitch);
#pragma unroll
    for (int i = 0; i < C::kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < C::kFragsN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
}

/* The epilogue: each accumulator fragment goes to the warp's scratch tile, where the lanes
 * read it back element by element (8 each, consecutive lanes on consecutive columns) and
 * apply the epilogue with the edges predicated. The caller has synchronized the CTA after its
 * last read of the stages (the scratch reuses their bytes). */
template <class T, class C>
__device__ __forceinline__ void warp_store_tile(const tg_problem &p, const BlockTile &t,
                                                WmmaShared<T, C> &sh,
                                                WmmaAccumulator<C> (&acc)[C::kFragsM][C::kFragsN]) {
  using namespace nvcuda;
  constexpr int kPerLane = kWmmaSide * kWmmaSide / kWarpSize;
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const tg_cell w = tg_ladder_wmma_warp_origin(warp, C::kWarpsM, C::kFragsM, C::kFragsN);
  const int row0 = w.row, col0 = w.col;
  float(&scratch)[kWmmaSide][kScratchPitch] = sh.scratch[warp];
#pragma unroll
  for (int i = 0; i < C::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < C::kFragsN; ++j) {
      wmma::store_matrix_sync(&scratch[0][0], acc[i][j], kScratchPitch, wmma::mem_row_major);
      __syncwarp();
#pragma unroll
      for (int e = 0; e < kPerLane; ++e) {
        const tg_cell s = tg_ladder_wmma_scratch_cell(e, lane);
        const int64_t grow = (int64_t)t.m0 + row0 + i * kWmmaSide + s.row;
        const int64_t gcol = (int64_t)t.n0 + col0 + j * kWmmaSide + s.col;
        if (grow < p.m && gcol < p.n)
          thread_epilogue_store(p, t.bat, grow, gcol, scratch[s.row][s.col]);
      }
      __syncwarp();
    }
}

#endif /* TG_LADDER_WMMA_CUH */
