/*
 * simt_01_naive.cu — rung 1: one thread per output element.
 *
 * The starting point: thread (x, y) of a 32×32 CTA computes D(m0 + x, n0 + y) as a dot product
 * of a row of A and a column of B read straight from global memory, k steps of one FMA each.
 * Nothing is reused on chip, and the 32 lanes of a warp (consecutive threadIdx.x) walk 32
 * different ROWS: each load of A touches 32 rows lda apart (32 memory transactions for 32
 * useful floats) while all lanes read the same element of B. It is correct for any shape and
 * sets the floor every later rung is measured against (about 1% of cuBLAS).
 */
#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "simt.h"
#include "simt_layout.h"
#include "simt_operands.cuh"

namespace {

constexpr int kSide = TG_SIMT_SIDE; /* kSide × kSide threads over a kSide × kSide tile of D */

__global__ void __launch_bounds__(kSide *kSide) simt_01_naive_kernel(const tg_problem p) {
  const BlockTile t = block_tile<kSide, kSide>();
  /* lanes walk rows: the uncoalesced choice */
  const tg_cell64 out = tg_simt01_output(t.m0, t.n0, threadIdx.x, threadIdx.y);
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

extern "C" tg_status tg_simt_01_naive_launch(const tg_problem *p, cudaStream_t stream) {
  simt_01_naive_kernel<<<ladder_grid(p, kSide, kSide), dim3(kSide, kSide), 0, stream>>>(*p);
  return TG_OK;
}
