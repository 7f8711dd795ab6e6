/*
 * simt_02_coalesced.cu — rung 2: the lanes of a warp walk consecutive COLUMNS of D.
 *
 * Over rung 1 only the thread→element map changes: threadIdx.x now picks the column. A warp's
 * 32 lanes then read 32 consecutive floats of a row of B (one 128-byte transaction instead of
 * 32) and all read the same element of A (a broadcast). The arithmetic is identical; the
 * memory system simply stops wasting 31 of every 32 bytes it fetches, which is worth several
 * times the speed of rung 1.
 */
#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "simt.h"
#include "simt_layout.h"
#include "simt_operands.cuh"

namespace {

constexpr int kSide = TG_SIMT_SIDE; /* kSide × kSide threads over a kSide × kSide tile of D */

__global__ void __launch_bounds__(kSide *kSide) simt_02_coalesced_kernel(const tg_problem p) {
  const BlockTile t = block_tile<kSide, kSide>();
  /* lanes walk columns: coalesced reads of B */
  const tg_cell64 out = tg_simt02_output(t.m0, t.n0, threadIdx.x, threadIdx.y);
  const int64_t row = out.row, col = out.col;
  if (row >= p.m || col >= p.n) return;
  const float *a = thread_a_row(p, t.bat, row);
  const float *b = thread_b_row(p, t.bat, 0) + col;
  float acc = 0.0f;
  for (int64_t kk = 0; kk < p.k; ++kk) {
    TG_RECORD_LOAD(TG_REC_A, a[kk]); /* nothing but in the recording build (trace_record.cuh) */
    TG_RECORD_LOAD(TG_REC_B, b[kk * p.ldb]);
    acc = fmaf(a[kk], b[kk * p.ldb], acc);
  }
  thread_epilogue_store(p, t.bat, row, col, acc);
}

}  // namespace

extern "C" tg_status tg_simt_02_coalesced_launch(const tg_problem *p, cudaStream_t stream) {
  simt_02_coalesced_kernel<<<ladder_grid(p, kSide, kSide), dim3(kSide, kSide), 0, stream>>>(*p);
  return TG_OK;
}
