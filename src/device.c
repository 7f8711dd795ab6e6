/* device.c — CUDA runtime plumbing of the host library (see device.h). */
#include "device.h"

#include <stdio.h>
#include <string.h>

tg_status tg_cuda_fail(tg_handle *h, const char *fn, const char *what, cudaError_t e) {
  tg_status s = e == cudaErrorMemoryAllocation ? TG_ERR_OUT_OF_MEMORY : TG_ERR_CUDA;
  return tg_fail(h, s, "%s: %s failed: %s (%s)", fn, what, cudaGetErrorName(e),
                 cudaGetErrorString(e));
}

tg_status tg_device_enter(tg_handle *h, const char *fn, int *prev) {
  cudaError_t e = cudaGetDevice(prev);
  if (e == cudaSuccess && *prev != h->device) e = cudaSetDevice(h->device);
  return e == cudaSuccess ? TG_OK : tg_cuda_fail(h, fn, "selecting the handle's device", e);
}

cudaError_t tg_device_malloc(void **ptr, size_t bytes) {
  enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaError_t e = cudaThreadExchangeStreamCaptureMode(&mode);
  if (e != cudaSuccess) return e;
  e = cudaMalloc(ptr, bytes);
  const cudaError_t restore = cudaThreadExchangeStreamCaptureMode(&mode);
  if (e != cudaSuccess) *ptr = NULL;
  return e != cudaSuccess ? e : restore;
}

/* The call has already succeeded or failed on its own terms; giving the caller back its device
 * can fail only if that device has gone, and then the error is taken off the runtime's
 * last-error slot, so that it does not surface in the caller's next cudaGetLastError. */
void tg_device_leave(const tg_handle *h, int prev) {
  if (prev != h->device && cudaSetDevice(prev) != cudaSuccess) (void)cudaGetLastError();
}

/* The runtime's version; the one this library was built with if the query fails. */
static int runtime_version(void) {
  int rt = 0;
  if (cudaRuntimeGetVersion(&rt) != cudaSuccess || rt <= 0) rt = CUDART_VERSION;
  return rt;
}

cudaError_t tg_device_identity(int dev, int sms, tg_cache_device *out) {
  struct cudaDeviceProp prop;
  memset(out, 0, sizeof *out);
  cudaError_t e = cudaGetDeviceProperties(&prop, dev);
  if (e != cudaSuccess) return e;
  snprintf(out->name, sizeof out->name, "%s", prop.name);
  out->sms = sms;
  out->cuda = runtime_version();
  return cudaSuccess;
}

void tg_device_virtual_identity(int sm, int sms, tg_cache_device *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "virtual sm_%d", sm);
  out->sms = sms;
  out->cuda = runtime_version();
}
