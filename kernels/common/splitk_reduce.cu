/*
 * splitk_reduce.cu — the second half of split-K, for every family that splits k (sm80, f32):
 * each thread sums the partial sums of 8 consecutive outputs over the splits, always in split
 * order (so results are bitwise reproducible), then applies the shared epilogue. Partials are
 * [split][batch][m][n], packed.
 */
#include <cuda_runtime.h>

#include "epilogue.cuh"
#include "splitk_reduce.h"

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;

template <typename Acc>
__global__ void __launch_bounds__(kThreads)
    splitk_reduce_kernel(const tg_problem p, int splits, const Acc *partial) {
  const int64_t segs_per_row = (p.n + TG_EPILOGUE_VECTOR - 1) / TG_EPILOGUE_VECTOR;
  const int64_t total = p.batch * p.m * segs_per_row;
  const int64_t plane = p.batch * p.m * p.n;
  for (int64_t s = blockIdx.x * (int64_t)kThreads + threadIdx.x; s < total;
       s += (int64_t)gridDim.x * kThreads) {
    const int64_t row_all = s / segs_per_row; /* batch * m + row */
    const int64_t col = (s % segs_per_row) * TG_EPILOGUE_VECTOR;
    const int64_t bat = row_all / p.m, row = row_all % p.m;
    Acc v[TG_EPILOGUE_VECTOR];
#pragma unroll
    for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) v[i] = 0;
    for (int sp = 0; sp < splits; ++sp) {
      const Acc *src = partial + sp * plane + row_all * p.n + col;
#pragma unroll
      for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i)
        if (col + i < p.n) v[i] += src[i];
    }
    thread_epilogue_store8(p, bat, row, col, v);
  }
}

}  // namespace

extern "C" tg_status tg_splitk_reduce(const tg_problem *p, int splits, const void *partial,
                                      cudaStream_t stream) {
  const int64_t segs = p->batch * p->m * ((p->n + TG_EPILOGUE_VECTOR - 1) / TG_EPILOGUE_VECTOR);
  int64_t blocks = (segs + kThreads - 1) / kThreads;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  if (p->input == TG_IN_S8)
    splitk_reduce_kernel<int32_t>
        <<<(unsigned)blocks, kThreads, 0, stream>>>(*p, splits, (const int32_t *)partial);
  else
    splitk_reduce_kernel<float>
        <<<(unsigned)blocks, kThreads, 0, stream>>>(*p, splits, (const float *)partial);
  return TG_OK;
}
