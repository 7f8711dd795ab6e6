/*
 * simt_03_smem.cu — rung 3: shared-memory blocking.
 *
 * Rung 2 reads every element of A and B from global memory once per output that uses it: a
 * 32×32 CTA fetches each A element 32 times and each B element 32 times (L1 and L2 catch part
 * of it). Here the CTA first copies a 32×32 tile of A and a 32×32 tile of B into shared memory
 * — each thread one element of each, coalesced, zero outside the matrix — and then every
 * thread runs its 32-step dot product out of shared memory. Each global element is now loaded
 * once per CTA, and the edge predication moves into the staging loads, so the inner loop is
 * branch-free.
 */
#include <cuda_runtime.h>

#include "epilogue_scalar.cuh"
#include "ladder_grid.cuh"
#include "simt.h"
#include "simt_layout.h"
#include "simt_operands.cuh"

namespace {

constexpr int kSide = TG_SIMT_SIDE; /* kSide × kSide threads, tile of D kSide², k step kSide */

__global__ void __launch_bounds__(kSide *kSide) simt_03_smem_kernel(const tg_problem p) {
  __shared__ float as[kSide][kSide];                          /* as[row][kk] */
  __shared__ float bs[kSide][kSide];                          /* bs[kk][col] */
  const tg_cell c = tg_simt03_cell(threadIdx.x, threadIdx.y); /* as[c.row][c.col], bs[…], D */
  const BlockTile t = block_tile<kSide, kSide>();
  TG_RECORD_BASE(TG_REC_A, as); /* the TG_RECORD hooks: the recording build (trace_record.cuh) */
  TG_RECORD_BASE(TG_REC_B, bs);
  float acc = 0.0f;
  for (int64_t k0 = 0; k0 < p.k; k0 += kSide) {
    /* Lanes (tx) walk the contiguous dimension of each operand. */
    as[c.row][c.col] = thread_load_a_or_zero(p, t.bat, t.m0 + c.row, k0 + c.col);
    bs[c.row][c.col] = thread_load_b_or_zero(p, t.bat, k0 + c.row, t.n0 + c.col);
    TG_RECORD_STAGE(TG_REC_A, &as[c.row][c.col], as[c.row][c.col]);
    TG_RECORD_STAGE(TG_REC_B, &bs[c.row][c.col], bs[c.row][c.col]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSide; ++kk) {
      TG_RECORD_OPERAND(TG_REC_A, as[c.row][kk]);
      TG_RECORD_OPERAND(TG_REC_B, bs[kk][c.col]);
      acc = fmaf(as[c.row][kk], bs[kk][c.col], acc);
    }
    __syncthreads();
  }
  const int64_t row = t.m0 + c.row, col = t.n0 + c.col;
  if (row < p.m && col < p.n) thread_epilogue_store(p, t.bat, row, col, acc);
}

}  // namespace

extern "C" tg_status tg_simt_03_smem_launch(const tg_problem *p, cudaStream_t stream) {
  simt_03_smem_kernel<<<ladder_grid(p, kSide, kSide), dim3(kSide, kSide), 0, stream>>>(*p);
  return TG_OK;
}
