/*
 * simt_05_2d_blocktile.cu — rung 5: 2D register blocking, each thread computes an 8×8 block.
 *
 * Rung 4 reuses each loaded B element 8 times but each A element only once. Here a thread owns
 * an 8×8 block of outputs: per k step it loads 8 elements of A and 8 of B into registers and
 * does their 64-FMA outer product. Shared loads per FMA fall from about 1.1 to 0.25, and a
 * 128×128 CTA tile (256 threads) halves the global traffic per output again. The cost is 64
 * accumulators plus 16 operands per thread: register pressure becomes the design limit.
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
  static constexpr int kThreadsN = kTileN / kThreadN; /* threads along a row of the tile */
  static constexpr int kThreads = (kTileM / kThreadM) * kThreadsN;
  static constexpr int kLoadsA = kTileM * kTileK / kThreads; /* staged elements per thread */
  static constexpr int kLoadsB = kTileK * kTileN / kThreads;
  static_assert(kTileM % kThreadM == 0 && kTileN % kThreadN == 0,
                "thread blocks must tile the CTA tile");
  static_assert(kTileM * kTileK % kThreads == 0 && kTileK * kTileN % kThreads == 0,
                "the staged tiles must split evenly over the threads");
  static_assert(kThreads <= 1024, "a CTA has at most 1024 threads");
};

constexpr int kTileM = TG_SIMT05_TILE_M, kTileN = TG_SIMT05_TILE_N, kTileK = TG_SIMT05_TILE_K,
              kThreadM = TG_SIMT05_THREAD_M, kThreadN = TG_SIMT05_THREAD_N;
using Cfg = Config<kTileM, kTileN, kTileK, kThreadM, kThreadN>;

template <int TM, int TN, int TK, int THM, int THN>
__global__ void __launch_bounds__(Config<TM, TN, TK, THM, THN>::kThreads)
    simt_05_2d_blocktile_kernel(const tg_problem p) {
  using C = Config<TM, TN, TK, THM, THN>;
  __shared__ float as[TM][TK]; /* as[row][kk] */
  __shared__ float bs[TK][TN]; /* bs[kk][col] */
  const int tid = threadIdx.x;
  const tg_cell out = tg_simt_block_origin(tid, C::kThreadsN, THM, THN); /* its THM × THN */
  const int row0 = out.row, col0 = out.col;
  const BlockTile t = block_tile<TM, TN>();
  TG_RECORD_BASE(TG_REC_A, as); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, bs);
  float acc[THM][THN] = {};
  for (int64_t k0 = 0; k0 < p.k; k0 += TK) {
#pragma unroll
    for (int l = 0; l < C::kLoadsA; ++l) {
      /* consecutive threads: consecutive k */
      const tg_cell s = tg_simt_row_major_cell(tid + l * C::kThreads, TK);
      as[s.row][s.col] = thread_load_a_or_zero(p, t.bat, t.m0 + s.row, k0 + s.col);
      TG_RECORD_STAGE(TG_REC_A, &as[s.row][s.col], as[s.row][s.col]);
    }
#pragma unroll
    for (int l = 0; l < C::kLoadsB; ++l) {
      /* consecutive threads: consecutive columns */
      const tg_cell s = tg_simt_row_major_cell(tid + l * C::kThreads, TN);
      bs[s.row][s.col] = thread_load_b_or_zero(p, t.bat, k0 + s.row, t.n0 + s.col);
      TG_RECORD_STAGE(TG_REC_B, &bs[s.row][s.col], bs[s.row][s.col]);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TK; ++kk) {
      float a[THM], b[THN];
#pragma unroll
      for (int i = 0; i < THM; ++i) a[i] = as[row0 + i][kk];
#pragma unroll
      for (int j = 0; j < THN; ++j) b[j] = bs[kk][col0 + j];
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

extern "C" tg_status tg_simt_05_2d_blocktile_launch(const tg_problem *p, cudaStream_t stream) {
  simt_05_2d_blocktile_kernel<kTileM, kTileN, kTileK, kThreadM, kThreadN>
      <<<ladder_grid(p, kTileM, kTileN), Cfg::kThreads, 0, stream>>>(*p);
  return TG_OK;
}
