/* check.c — counters and the skip rule of check.h. */
#include "check.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

#include "gpu_case.h"

int tg_test_failures = 0;
int tg_test_checks = 0;

int tg_test_finish(const char *name) {
  const double worst = tg_case_worst_ratio();
  if (worst >= 0.0)
    printf("%s: %d checks, %d failed; worst error/bound of the passing results %.3g\n", name,
           tg_test_checks, tg_test_failures, worst);
  else printf("%s: %d checks, %d failed\n", name, tg_test_checks, tg_test_failures);
  return tg_test_failures ? 1 : 0;
}

void tg_test_require_gpu(const char *name) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    printf("SKIP %s: no CUDA device (%s); GPU tests need an NVIDIA GPU\n", name,
           e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    exit(TG_TEST_SKIP_CODE);
  }
}
