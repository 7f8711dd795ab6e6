/* device_tools.cu — random fills, oracle comparison and an empty launch on the GPU (see
 * device_tools.h). */
#include "device_tools.h"

#include <string.h>

#include "cpu_ref.h"
#include "element.cuh"
#include "host_dtype.h"
#include "random_values.h"

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 4096;

unsigned blocks_for(int64_t count) {
  int64_t b = (count + kThreads - 1) / kThreads;
  return (unsigned)(b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b));
}

__global__ void fill_random_kernel(void *p, int64_t count, tg_dtype t, uint64_t seed, int exact) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
       i += (int64_t)gridDim.x * blockDim.x)
    thread_store_from_f64(p, i, t, tg_random_value(seed, i, t, exact));
}

/* fp8 has no path in thread_store_from_f64 (the library never writes fp8). */
__global__ void fill_random_fp8_kernel(uint8_t *p, int64_t count, tg_dtype t, uint64_t seed,
                                       int exact) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
       i += (int64_t)gridDim.x * blockDim.x) {
    float v = (float)tg_random_value(seed, i, t, exact);
    p[i] = t == TG_E4M3 ? __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3)
                        : __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E5M2);
  }
}

struct VerifyLayout {
  int64_t m, n, batch, ldd, stride_d;
  tg_order order;
  tg_dtype type;
};

struct VerifyCounters {
  unsigned long long worst_bits, failures, nans, first_bad;
};

__global__ void verify_kernel(const void *d, const double *ref, const double *mag, VerifyLayout L,
                              tg_tolerance tol, VerifyCounters *out) {
  const int64_t total = L.batch * L.m * L.n;
  double worst = 0.0;
  for (int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; idx < total;
       idx += (int64_t)gridDim.x * blockDim.x) {
    const int64_t b = idx / (L.m * L.n), r = idx % (L.m * L.n), i = r / L.n, j = r % L.n;
    const int64_t off = b * L.stride_d + (L.order == TG_ROW_MAJOR ? i * L.ldd + j : j * L.ldd + i);
    const double v = thread_load_f64(d, off, L.type);
    const double ratio = tg_error_ratio(&tol, v, ref[idx], mag ? mag[idx] : 0.0);
    if (v != v) atomicAdd(&out->nans, 1ull);
    if (ratio > 1.0) {
      atomicAdd(&out->failures, 1ull);
      atomicMin(&out->first_bad, (unsigned long long)idx);
    }
    worst = ratio > worst ? ratio : worst;
  }
  /* Non-negative doubles order like their bit patterns. */
  atomicMax(&out->worst_bits, (unsigned long long)__double_as_longlong(worst));
}

VerifyLayout layout_of(const tg_gemm *g) {
  VerifyLayout L;
  L.m = g->m;
  L.n = g->n;
  L.batch = g->batch;
  L.order = g->c_order;
  L.type = g->d_type;
  L.ldd = tg_resolved_ld(g->ldd, g->c_order, g->m, g->n);
  L.stride_d = tg_resolved_batch_stride(g->batch_stride_d, L.ldd, g->c_order, g->m, g->n);
  return L;
}

__global__ void empty_kernel() {}

}  // namespace

extern "C" cudaError_t tg_launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return cudaGetLastError();
}

extern "C" cudaError_t tg_fill_random_device(void *p, int64_t count, tg_dtype t, uint64_t seed,
                                             int exact, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  if (t == TG_E4M3 || t == TG_E5M2)
    fill_random_fp8_kernel<<<blocks_for(count), kThreads, 0, stream>>>((uint8_t *)p, count, t, seed,
                                                                       exact);
  else fill_random_kernel<<<blocks_for(count), kThreads, 0, stream>>>(p, count, t, seed, exact);
  return cudaGetLastError();
}

extern "C" cudaError_t tg_verify_device(const tg_gemm *g, const void *D, const double *ref,
                                        const double *mag, tg_tolerance tol, tg_verify_result *res,
                                        cudaStream_t stream) {
  VerifyCounters init = {0ull, 0ull, 0ull, ~0ull}, host;
  VerifyCounters *dev = nullptr;
  memset(res, 0, sizeof *res);
  res->first_bad = -1;
  const VerifyLayout L = layout_of(g);
  const int64_t total = L.batch * L.m * L.n;
  res->checked = total;
  if (total == 0) return cudaSuccess;
  cudaError_t e = cudaMalloc(&dev, sizeof *dev);
  if (e != cudaSuccess) return e;
  if ((e = cudaMemcpyAsync(dev, &init, sizeof init, cudaMemcpyHostToDevice, stream)) ==
      cudaSuccess) {
    verify_kernel<<<blocks_for(total), kThreads, 0, stream>>>(D, ref, mag, L, tol, dev);
    if ((e = cudaGetLastError()) == cudaSuccess &&
        (e = cudaMemcpyAsync(&host, dev, sizeof host, cudaMemcpyDeviceToHost, stream)) ==
            cudaSuccess)
      e = cudaStreamSynchronize(stream);
  }
  cudaFree(dev);
  if (e != cudaSuccess) return e;
  memcpy(&res->worst_ratio, &host.worst_bits, sizeof(double));
  res->failures = (int64_t)host.failures;
  res->nans = (int64_t)host.nans;
  res->first_bad = host.failures ? (int64_t)host.first_bad : -1;
  return cudaSuccess;
}

extern "C" void tg_verify_host(const tg_gemm *g, const void *D, const double *ref,
                               const double *mag, tg_tolerance tol, tg_verify_result *res) {
  const VerifyLayout L = layout_of(g);
  memset(res, 0, sizeof *res);
  res->first_bad = -1;
  res->checked = L.batch * L.m * L.n;
  for (int64_t idx = 0; idx < res->checked; ++idx) {
    const int64_t b = idx / (L.m * L.n), r = idx % (L.m * L.n), i = r / L.n, j = r % L.n;
    const double v =
        tg_host_load(D, tg_element_offset(b, i, j, L.order, L.ldd, L.stride_d), L.type);
    const double ratio = tg_error_ratio(&tol, v, ref[idx], mag ? mag[idx] : 0.0);
    if (v != v) res->nans++;
    if (ratio > 1.0) {
      if (res->failures++ == 0) res->first_bad = idx;
    }
    if (ratio > res->worst_ratio) res->worst_ratio = ratio;
  }
}
