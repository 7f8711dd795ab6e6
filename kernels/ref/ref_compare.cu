/*
 * ref_compare.cu — compares D with the oracle's fp64 result, element by element, with the
 * bound of docs/testing.md (the host computes rel and abs: src/tune_verify.c), and fills D with NaN
 * before a checked run. One thread per element in a grid-stride loop; the worst ratio and the
 * failure count are reduced per block in shared memory, then with one atomic each.
 */
#include <cuda_runtime.h>
#include <math.h>

#include "element.cuh"
#include "ref_compare.h"

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 4096;
constexpr unsigned char kPoisonByte = 0xff; /* NaN in every float format */

__device__ __forceinline__ int64_t thread_d_offset(const tg_compare_spec &s, int64_t idx) {
  const int64_t per_batch = s.m * s.n;
  const int64_t b = idx / per_batch, r = idx % per_batch, i = r / s.n, j = r % s.n;
  return b * s.batch_stride_d + (s.d_order == TG_ROW_MAJOR ? i * s.ldd + j : j * s.ldd + i);
}

/* error / bound of one element: INFINITY for NaN or a miss with a zero bound. */
__device__ __forceinline__ double thread_error_ratio(const tg_compare_spec &s, double d, double ref,
                                                     double mag) {
  if (d != d || ref != ref) return INFINITY;
  ref = ref < s.lo ? s.lo : (ref > s.hi ? s.hi : ref);
  const double err = fabs(d - ref);
  if (err == 0.0) return 0.0;
  const double bound = s.rel * mag + s.abs;
  return bound > 0.0 ? err / bound : INFINITY;
}

__global__ void __launch_bounds__(kThreads)
    compare_kernel(const tg_compare_spec s, tg_compare_counts *counts) {
  __shared__ double worst_of_warp[kThreads / 32];
  __shared__ unsigned long long fails_of_block;
  if (threadIdx.x == 0) fails_of_block = 0;
  __syncthreads();
  const int64_t total = s.batch * s.m * s.n;
  double worst = 0.0;
  unsigned long long fails = 0;
  for (int64_t idx = (int64_t)blockIdx.x * kThreads + threadIdx.x; idx < total;
       idx += (int64_t)gridDim.x * kThreads) {
    const double d = thread_load_f64(s.d, thread_d_offset(s, idx), s.d_type);
    const double ratio = thread_error_ratio(s, d, s.ref[idx], s.mag[idx]);
    fails += ratio > 1.0;
    worst = ratio > worst ? ratio : worst;
  }
  for (int offset = 16; offset > 0; offset /= 2)
    worst = fmax(worst, __shfl_down_sync(0xffffffffu, worst, offset));
  if (threadIdx.x % 32 == 0) worst_of_warp[threadIdx.x / 32] = worst;
  if (fails) atomicAdd(&fails_of_block, fails);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kThreads / 32; ++w) worst = fmax(worst, worst_of_warp[w]);
    /* Non-negative doubles order like their bit patterns. */
    atomicMax(&counts->worst_bits, (unsigned long long)__double_as_longlong(worst));
    if (fails_of_block) atomicAdd(&counts->failures, fails_of_block);
  }
}

__global__ void __launch_bounds__(kThreads) poison_kernel(const tg_compare_spec s, int bytes) {
  const int64_t total = s.batch * s.m * s.n;
  for (int64_t idx = (int64_t)blockIdx.x * kThreads + threadIdx.x; idx < total;
       idx += (int64_t)gridDim.x * kThreads) {
    unsigned char *e = (unsigned char *)s.d + thread_d_offset(s, idx) * (int64_t)bytes;
    for (int b = 0; b < bytes; ++b) e[b] = kPoisonByte;
  }
}

unsigned blocks_for(int64_t total) {
  const int64_t b = (total + kThreads - 1) / kThreads;
  return (unsigned)(b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b));
}

}  // namespace

extern "C" tg_status tg_ref_compare_launch(const tg_compare_spec *s, tg_compare_counts *counts,
                                           cudaStream_t stream) {
  if (s->batch * s->m * s->n == 0) return TG_OK;
  compare_kernel<<<blocks_for(s->batch * s->m * s->n), kThreads, 0, stream>>>(*s, counts);
  return TG_OK;
}

extern "C" tg_status tg_ref_poison_launch(const tg_compare_spec *s, cudaStream_t stream) {
  if (s->batch * s->m * s->n == 0) return TG_OK;
  const int bytes = (int)tg_dtype_size(s->d_type);
  if (bytes == 0) return TG_ERR_INVALID_VALUE;
  poison_kernel<<<blocks_for(s->batch * s->m * s->n), kThreads, 0, stream>>>(*s, bytes);
  return TG_OK;
}
