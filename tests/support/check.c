/* check.c — counters and the skip rule of check.h. */
#include "check.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <time.h>

int tg_test_failures = 0;
int tg_test_checks = 0;
double tg_test_worst_ratio = -1.0;

int tg_test_finish(const char *name) {
  if (tg_test_worst_ratio >= 0.0)
    printf("%s: %d checks, %d failed; worst error/bound of the passing results %.3g\n", name, tg_test_checks,
           tg_test_failures, tg_test_worst_ratio);
  else
    printf("%s: %d checks, %d failed\n", name, tg_test_checks, tg_test_failures);
  return tg_test_failures ? 1 : 0;
}

unsigned long long tg_test_seed_base(void) {
  static int chosen = 0;
  static unsigned long long base = 0;
  if (!chosen) {
    const char *env = getenv("TILEGEMM_TEST_SEED");
    struct timespec now;
    if (env && *env) {
      base = strtoull(env, NULL, 0);
    } else {
      timespec_get(&now, TIME_UTC);
      base = ((unsigned long long)now.tv_sec * 1000003ull) ^ (unsigned long long)now.tv_nsec;
    }
    chosen = 1;
    printf("random inputs from seed base %llu (TILEGEMM_TEST_SEED=%llu repeats them)\n", base, base);
    fflush(stdout);
  }
  return base;
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
