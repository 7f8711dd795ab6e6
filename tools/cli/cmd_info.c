/* cmd_info.c — `tilegemm info`: what device the benchmarks run on. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tilegemm.h"

int tg_cli_require_device(void) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    fprintf(stderr, "tilegemm: no CUDA device available (%s); this command needs an NVIDIA GPU\n",
            e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return TG_EXIT_NO_DEVICE;
  }
  return 0;
}

int tg_cli_open_handle(const char *cmd, tg_handle **h) {
  *h = NULL;
  int rc = tg_cli_require_device();
  if (rc) return rc;
  if (tg_create(h) != TG_OK) {
    fprintf(stderr, "tilegemm %s: %s\n", cmd, tg_last_error(NULL));
    return TG_EXIT_ERROR;
  }
  return 0;
}

static int attr(enum cudaDeviceAttr a, int dev) {
  int v = 0;
  cudaDeviceGetAttribute(&v, a, dev);
  return v;
}

int tg_cmd_info(int argc, char **argv) {
  if (argc > 2) {
    if (strcmp(argv[2], "--help") == 0) {
      puts("usage: tilegemm info\n  prints the current CUDA device and the library version");
      return TG_EXIT_OK;
    }
    fprintf(stderr, "tilegemm info: unknown option '%s'\n", argv[2]);
    return TG_EXIT_ERROR;
  }
  int rc = tg_cli_require_device();
  if (rc) return rc;
  int dev = 0, drv = 0, rt = 0;
  struct cudaDeviceProp p;
  cudaGetDevice(&dev);
  cudaGetDeviceProperties(&p, dev);
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  printf("tilegemm        %s\n", tg_version());
  printf("device          %d: %s\n", dev, p.name);
  printf("compute         sm_%d%d\n", p.major, p.minor);
  printf("SMs             %d\n", p.multiProcessorCount);
  printf("SM clock        %d MHz (max)\n", attr(cudaDevAttrClockRate, dev) / 1000);
  printf("memory clock    %d MHz (max), bus %d bits\n",
         attr(cudaDevAttrMemoryClockRate, dev) / 1000, attr(cudaDevAttrGlobalMemoryBusWidth, dev));
  printf("memory          %.1f GiB\n", (double)p.totalGlobalMem / (1 << 30));
  printf("L2 cache        %.1f MiB\n", attr(cudaDevAttrL2CacheSize, dev) / 1048576.0);
  printf("shared memory   %d KiB per block (opt-in)\n",
         attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) / 1024);
  printf("driver          CUDA %d.%d\n", drv / 1000, (drv % 1000) / 10);
  printf("runtime         CUDA %d.%d\n", rt / 1000, (rt % 1000) / 10);
  return TG_EXIT_OK;
}
