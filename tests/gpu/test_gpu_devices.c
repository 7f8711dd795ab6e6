/*
 * test_gpu_devices.c — one process, two GPUs, a handle each: every tensor-core kernel (sm80 and
 * sm90 families) serves a request on the first device, then the same request on the second.
 * A launcher's setup is per device (a kernel's dynamic shared-memory limit is an attribute of
 * its copy on each device; device_memo.cuh): kept once per process, it leaves the second device
 * at the default limit and every launch there fails, which this test reports. With fewer than
 * two CUDA devices it reports itself skipped.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "tilegemm.h"

#define DEVICES 2
/* Not a multiple of any tile: edge tiles on every kernel; a few k-tiles. */
#define CASE_M 200
#define CASE_N 328
#define CASE_K 300

/* Input families to offer a kernel, in order; the first one it serves is used. */
typedef struct input_set {
  tg_dtype ab, cd;
  tg_compute compute;
} input_set;
static const input_set k_inputs[] = {{TG_BF16, TG_BF16, TG_COMPUTE_F32},
                                     {TG_F32, TG_F32, TG_COMPUTE_TF32},
                                     {TG_S8, TG_S32, TG_COMPUTE_S32}};
#define INPUT_SETS ((int)(sizeof k_inputs / sizeof k_inputs[0]))

/* Runs `kernel` on device d's handle with the first input set it serves; returns the outcome. */
static tg_case_outcome run_on(tg_handle *h, int d, const char *kernel) {
  char msg[2048];
  for (int s = 0; s < INPUT_SETS; ++s) {
    tg_gemm g;
    tg_gemm_init(&g, CASE_M, CASE_N, CASE_K, k_inputs[s].ab, k_inputs[s].cd);
    g.compute = k_inputs[s].compute;
    g.b_order = TG_COL_MAJOR; /* K-major B: every row serves it without a repack */
    g.kernel = kernel;
    tg_case_options o;
    memset(&o, 0, sizeof o);
    o.seed = 300000u + (uint64_t)(d * 10 + s);
    o.allow_refusal = 1;
    o.determinism = 1;
    cudaSetDevice(d); /* the case's buffers live on the handle's device */
    const tg_case_outcome r = tg_run_case(h, &g, &o, msg, sizeof msg);
    if (r == TG_CASE_FAIL) fprintf(stderr, "FAIL [%s on device %d] %s\n", kernel, d, msg);
    if (r != TG_CASE_REFUSED) return r;
  }
  return TG_CASE_REFUSED;
}

int main(void) {
  tg_test_require_gpu("test_gpu_devices");
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < DEVICES) {
    printf("SKIP test_gpu_devices: %d CUDA device(s); this test needs %d\n", count, DEVICES);
    return TG_TEST_SKIP_CODE;
  }
  tg_handle *h[DEVICES];
  for (int d = 0; d < DEVICES; ++d) {
    cudaSetDevice(d);
    if (tg_create(&h[d]) != TG_OK) {
      fprintf(stderr, "tg_create on device %d: %s\n", d, tg_last_error(NULL));
      return 1;
    }
  }
  long ran[DEVICES] = {0};
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    tg_kernel_get(i, &k);
    if (strcmp(k.family, "sm80") != 0 && strcmp(k.family, "sm90") != 0) continue;
    for (int d = 0; d < DEVICES;
         ++d) { /* device 0 first: its setup must not stand for device 1's */
      const tg_case_outcome r = run_on(h[d], d, k.name);
      CHECK_MSG(r != TG_CASE_FAIL, "%s on device %d", k.name, d);
      if (r == TG_CASE_PASS) ++ran[d];
    }
  }
  for (int d = 0; d < DEVICES; ++d) {
    printf("device %d: %ld tensor-core kernels ran\n", d, ran[d]);
    CHECK_MSG(ran[d] > 0, "no sm80 or sm90 kernel ran on device %d", d);
    tg_destroy(h[d]);
  }
  return tg_test_finish("test_gpu_devices");
}
