/*
 * simt_06_vectorized.cu — rung 6: 128-bit loads everywhere, and A's tile stored transposed.
 *
 * Rung 5 moves every float from global memory with its own 32-bit load, and its 8 A operands
 * per k step lie down a column of the [row][k] tile, 8 floats apart: 8 separate shared loads
 * (the compiler could merge only the 8 contiguous B operands into two LDS.128). Here each
 * global load fetches a float4 (LDG.128: a quarter of the load instructions), and A's tile is
 * stored transposed while it is staged, as_t[kk][row], so a thread's 8 A operands are
 * contiguous too: per k step two LDS.128 for A and two for B.
 * 128-bit global loads need 16-byte aligned rows (lda and ldb multiples of 4 floats); when an
 * operand is not aligned (a run-time fact, p.align_a / p.align_b) it is read element by element
 * instead, and so is a float4 that straddles the k or n edge (zeros past the edge).
 */
#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "simt.h"
#include "simt_layout.h"
#include "simt_operands.cuh"

namespace {

template <int kTileM, int kTileN, int kTileK, int kThreadM, int kThreadN>
struct Config {
  static constexpr int kThreadsN = kTileN / kThreadN;
  static constexpr int kThreads = (kTileM / kThreadM) * kThreadsN;
  static constexpr int kVecK = kTileK / kFloatsPerVector;   /* float4s along a row of A's tile */
  static constexpr int kVecN = kTileN / kFloatsPerVector;   /* float4s along a row of B's tile */
  static constexpr int kLoadsA = kTileM * kVecK / kThreads; /* float4s staged per thread */
  static constexpr int kLoadsB = kTileK * kVecN / kThreads;
  static_assert(kTileM % kThreadM == 0 && kTileN % kThreadN == 0,
                "thread blocks must tile the CTA tile");
  static_assert(kThreadM % kFloatsPerVector == 0 && kThreadN % kFloatsPerVector == 0,
                "a thread's operands are read from shared memory as whole float4s");
  static_assert(kTileK % kFloatsPerVector == 0, "A's tile rows are staged as whole float4s");
  static_assert(
      kThreads % kTileM == 0 && (kThreads / kTileM) * kLoadsA == kVecK,
      "A is staged as one float4 column per thread group: threads must cover rows exactly");
  static_assert(kTileK * kVecN % kThreads == 0, "B's tile must split evenly over the threads");
};

constexpr int kTileM = TG_SIMT05_TILE_M, kTileN = TG_SIMT05_TILE_N, kTileK = TG_SIMT05_TILE_K,
              kThreadM = TG_SIMT05_THREAD_M, kThreadN = TG_SIMT05_THREAD_N;
using Cfg = Config<kTileM, kTileN, kTileK, kThreadM, kThreadN>;

template <int TM, int TN, int TK, int THM, int THN>
__global__ void __launch_bounds__(Config<TM, TN, TK, THM, THN>::kThreads)
    simt_06_vectorized_kernel(const tg_problem p) {
  using C = Config<TM, TN, TK, THM, THN>;
  __shared__ __align__(16) float as_t[TK][TM]; /* A's tile transposed: as_t[kk][row] */
  __shared__ __align__(16) float bs[TK][TN];   /* bs[kk][col] */
  const int tid = threadIdx.x;
  const tg_cell out = tg_simt_block_origin(tid, C::kThreadsN, THM, THN);
  const int row0 = out.row, col0 = out.col;
  /* Staging map of A: consecutive threads take consecutive rows (conflict-free transposed
   * stores); each thread takes kLoadsA adjacent float4s of its row. */
  const int a_row = tg_simt06_a_cell(tid, 0, TM, C::kLoadsA).row;
  const BlockTile t = block_tile<TM, TN>();
  TG_RECORD_BASE(TG_REC_A, as_t); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, bs);
  const int64_t grow_a = t.m0 + a_row;
  const float *a_src = grow_a < p.m ? thread_a_row(p, t.bat, grow_a) : nullptr;
  float acc[THM][THN] = {};
  for (int64_t k0 = 0; k0 < p.k; k0 += TK) {
#pragma unroll
    for (int l = 0; l < C::kLoadsA; ++l) {
      const int kk = tg_simt06_a_cell(tid, l, TM, C::kLoadsA).col;
      const float4 v =
          a_src ? thread_load_float4_or_zero(a_src + k0 + kk, p.k - (k0 + kk), thread_a_vectors(p))
                : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      as_t[kk + 0][a_row] = v.x;
      as_t[kk + 1][a_row] = v.y;
      as_t[kk + 2][a_row] = v.z;
      as_t[kk + 3][a_row] = v.w;
      TG_RECORD_STAGE4(TG_REC_A, &as_t[kk][a_row], TM, v);
    }
#pragma unroll
    for (int l = 0; l < C::kLoadsB; ++l) {
      /* consecutive threads: consecutive float4s of a row */
      const tg_cell s = tg_simt_vector_cell(tid + l * C::kThreads, C::kVecN);
      const int kk = s.row, col = s.col;
      float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (k0 + kk < p.k)
        v = thread_load_float4_or_zero(thread_b_row(p, t.bat, k0 + kk) + t.n0 + col,
                                       p.n - (t.n0 + col), thread_b_vectors(p));
      *reinterpret_cast<float4 *>(&bs[kk][col]) = v;
      TG_RECORD_STAGE4(TG_REC_B, &bs[kk][col], 1, v);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TK; ++kk) {
      float a[THM], b[THN];
#pragma unroll
      for (int i = 0; i < THM; i += kFloatsPerVector)
        thread_unpack_float4(a + i, *reinterpret_cast<const float4 *>(&as_t[kk][row0 + i]));
#pragma unroll
      for (int j = 0; j < THN; j += kFloatsPerVector)
        thread_unpack_float4(b + j, *reinterpret_cast<const float4 *>(&bs[kk][col0 + j]));
      TG_RECORD_OPERANDS(TG_REC_A, a);
      TG_RECORD_OPERANDS(TG_REC_B, b);
#pragma unroll
      for (int i = 0; i < THM; ++i)
#pragma unroll
        for (int j = 0; j < THN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < THM; ++i) {
    const int64_t grow = t.m0 + row0 + i;
    if (grow >= p.m) continue;
#pragma unroll
    for (int j = 0; j < THN; ++j) {
      const int64_t gcol = t.n0 + col0 + j;
      if (gcol < p.n) thread_epilogue_store(p, t.bat, grow, gcol, acc[i][j]);
    }
  }
}

}  // namespace

extern "C" tg_status tg_simt_06_vectorized_launch(const tg_problem *p, cudaStream_t stream) {
  simt_06_vectorized_kernel<kTileM, kTileN, kTileK, kThreadM, kThreadN>
      <<<ladder_grid(p, kTileM, kTileN), Cfg::kThreads, 0, stream>>>(*p);
  return TG_OK;
}
