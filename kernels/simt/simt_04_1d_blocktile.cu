/*
 * simt_04_1d_blocktile.cu — rung 4: 1D register blocking, each thread computes a column of
 * kThreadM outputs.
 *
 * In rung 3 every FMA needs two shared-memory loads, so shared-memory bandwidth, not the FMA
 * units, sets the speed. Here a thread owns kThreadM = 8 vertically adjacent outputs: per k
 * step it loads ONE element of B into a register and reuses it for 8 FMAs against 8 elements
 * of A (which are the same for the whole warp, so they broadcast). Shared loads per FMA drop
 * from 2 to about 1.1, and the 64×64 CTA tile halves the global traffic per output of rung 3's
 * 32×32 tile. The k step shrinks to 8 so the staged tiles stay small.
 */
#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "simt.h"
#include "simt_layout.h"
#include "simt_operands.cuh"

namespace {

template <int kTileM, int kTileN, int kTileK, int kThreadM>
struct Config {
  static constexpr int kThreads = kTileM * kTileN / kThreadM;
  static_assert(kTileM % kThreadM == 0, "a thread's column of outputs must tile the CTA's rows");
  static_assert(kThreads == kTileM * kTileK, "each thread stages exactly one element of A");
  static_assert(kThreads == kTileK * kTileN, "each thread stages exactly one element of B");
  static_assert(kThreads <= 1024, "a CTA has at most 1024 threads");
};

constexpr int kTileM = TG_SIMT04_TILE_M, kTileN = TG_SIMT04_TILE_N, kTileK = TG_SIMT04_TILE_K,
              kThreadM = TG_SIMT04_THREAD_M;
using Cfg = Config<kTileM, kTileN, kTileK, kThreadM>;

template <int TM, int TN, int TK, int THM>
__global__ void __launch_bounds__(Config<TM, TN, TK, THM>::kThreads)
    simt_04_1d_blocktile_kernel(const tg_problem p) {
  __shared__ float as[TM][TK]; /* as[row][kk] */
  __shared__ float bs[TK][TN]; /* bs[kk][col] */
  const int tid = threadIdx.x;
  /* The thread's column in the tile and the first of its THM rows (uniform across a warp). */
  const tg_cell out = tg_simt_block_origin(tid, TN, THM, 1);
  const int col = out.col, row0 = out.row;
  const tg_cell as_cell = tg_simt_row_major_cell(tid, TK); /* what it stages: as[row][kk] */
  const tg_cell bs_cell = tg_simt_row_major_cell(tid, TN); /* bs[kk][col] */
  const BlockTile t = block_tile<TM, TN>();
  TG_RECORD_BASE(TG_REC_A, as); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, bs);
  float acc[THM] = {};
  for (int64_t k0 = 0; k0 < p.k; k0 += TK) {
    as[as_cell.row][as_cell.col] =
        thread_load_a_or_zero(p, t.bat, t.m0 + as_cell.row, k0 + as_cell.col);
    bs[bs_cell.row][bs_cell.col] =
        thread_load_b_or_zero(p, t.bat, k0 + bs_cell.row, t.n0 + bs_cell.col);
    TG_RECORD_STAGE(TG_REC_A, &as[as_cell.row][as_cell.col], as[as_cell.row][as_cell.col]);
    TG_RECORD_STAGE(TG_REC_B, &bs[bs_cell.row][bs_cell.col], bs[bs_cell.row][bs_cell.col]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < TK; ++kk) {
      const float b = bs[kk][col]; /* one load, THM uses */
      TG_RECORD_OPERAND(TG_REC_B, b);
#pragma unroll
      for (int i = 0; i < THM; ++i) {
        TG_RECORD_OPERAND(TG_REC_A, as[row0 + i][kk]);
        acc[i] = fmaf(as[row0 + i][kk], b, acc[i]);
      }
    }
    __syncthreads();
  }
  const int64_t gcol = t.n0 + col;
#pragma unroll
  for (int i = 0; i < THM; ++i) {
    const int64_t grow = t.m0 + row0 + i;
    if (grow < p.m && gcol < p.n) thread_epilogue_store(p, t.bat, grow, gcol, acc[i]);
  }
}

}  // namespace

extern "C" tg_status tg_simt_04_1d_blocktile_launch(const tg_problem *p, cudaStream_t stream) {
  simt_04_1d_blocktile_kernel<kTileM, kTileN, kTileK, kThreadM>
      <<<ladder_grid(p, kTileM, kTileN), Cfg::kThreads, 0, stream>>>(*p);
  return TG_OK;
}
