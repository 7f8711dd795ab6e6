/* device_peak.c — see device_peak.h. */
#include "device_peak.h"

#include <cuda_runtime_api.h>
#include <string.h>

#include "measure.h"

/* Dense FLOPs (int8: ops) per clock and SM, from NVIDIA's datasheets divided by SMs × boost clock:
 * H100 SXM 989 TF bf16 = 132 × 1.83 GHz × 4096; A100 312 TF = 108 × 1.41 GHz × 2048. */
typedef struct sm_rates {
  int sm;              /* major*10 + minor */
  double tensor_16bit; /* f16 / bf16 inputs */
  double tensor_tf32;
  double tensor_fp8; /* 0: none; fp8 inputs then run at the 16-bit rate at best */
  double tensor_int8;
  double fp32; /* fp32 inputs multiplied in full fp32: CUDA cores, FMA = 2 FLOPs */
} sm_rates;

static const sm_rates k_rates[] = {
    {80, 2048, 1024, 0, 4096, 128},
    {90, 4096, 2048, 8192, 8192, 256},
};

static double per_clock(const sm_rates *r, const tg_gemm *g) {
  if (g->compute == TG_COMPUTE_S32) return r->tensor_int8;
  if (g->compute == TG_COMPUTE_TF32) return r->tensor_tf32;
  /* Three tf32 products for each of the request's multiply-adds. */
  if (g->compute == TG_COMPUTE_3XTF32) return r->tensor_tf32 / TG_TF32X3_PRODUCTS;
  if (g->a_type == TG_F32) return r->fp32;
  if ((g->a_type == TG_E4M3 || g->a_type == TG_E5M2) && r->tensor_fp8 > 0) return r->tensor_fp8;
  return r->tensor_16bit;
}

tg_floor tg_request_floor(const tg_gemm *g, int dev) {
  tg_floor f;
  memset(&f, 0, sizeof f);
  int major = 0, minor = 0, sms = 0, clock_khz = 0, mem_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return f;
  }
  const sm_rates *r = NULL;
  for (size_t i = 0; i < sizeof k_rates / sizeof k_rates[0]; ++i)
    if (k_rates[i].sm == major * 10 + minor) r = &k_rates[i];
  if (!r || sms <= 0 || clock_khz <= 0 || mem_khz <= 0 || bus_bits <= 0) return f;
  f.known = 1;
  f.peak_tflops = per_clock(r, g) * (double)sms * (double)clock_khz * 1e3 / 1e12;
  f.peak_gbps = 2.0 * (double)mem_khz * 1e3 * (double)bus_bits / 8.0 / 1e9; /* double data rate */
  const double compute_ms = tg_request_flops(g) / (f.peak_tflops * 1e12) * 1e3;
  const double memory_ms = tg_request_bytes(g) / (f.peak_gbps * 1e9) * 1e3;
  f.memory_bound = memory_ms > compute_ms;
  f.ms = f.memory_bound ? memory_ms : compute_ms;
  return f;
}
