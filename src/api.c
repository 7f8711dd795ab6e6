/*
 * api.c — the public entry points: handles, tg_check, tg_matmul, tg_reference (planned requests:
 * plan_api.c).
 *
 * Every call runs validate → quick return → build the canonical problem → plan → launch, and
 * turns every CUDA failure into a tg_status with a message. Nothing is launched or written
 * before all checks pass.
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "handle.h"
#include "launch.h"
#include "problem_build.h"
#include "ref.h"
#include "request.h"
#include "tilegemm.h"

/* Oldest architecture the library's kernels are built for. */
#define TG_MIN_SM 80

void tg_gemm_init(tg_gemm *g, int64_t m, int64_t n, int64_t k, tg_dtype ab_type, tg_dtype cd_type) {
  if (!g) return;
  memset(g, 0, sizeof *g);
  g->m = m;
  g->n = n;
  g->k = k;
  g->batch = 1;
  g->a_type = g->b_type = ab_type;
  g->c_type = g->d_type = cd_type;
  g->compute = ab_type == TG_S8 ? TG_COMPUTE_S32 : TG_COMPUTE_F32;
  g->a_order = g->b_order = g->c_order = TG_ROW_MAJOR;
  g->alpha = 1.0;
  g->beta = 0.0;
  g->epilogue = TG_EPI_NONE;
  g->bias_type = TG_F32;
}

tg_status tg_create(tg_handle **out) {
  static const char fn[] = "tg_create";
  if (!out) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  *out = NULL;
  int count = 0, dev = 0, major = 0, minor = 0, sms = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return tg_fail(NULL, TG_ERR_NO_DEVICE, "%s: no CUDA device is available (%s)", fn,
                   e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
  }
  if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
    return tg_cuda_fail(NULL, fn, "querying the current device", e);
  tg_cache_device identity;
  if ((e = tg_device_identity(dev, sms, &identity)) != cudaSuccess)
    return tg_cuda_fail(NULL, fn, "querying the current device's name", e);
  if (major * 10 + minor < TG_MIN_SM)
    return tg_fail(NULL, TG_ERR_NOT_SUPPORTED, "%s: device %d is sm_%d%d; tilegemm needs sm_80+",
                   fn, dev, major, minor);
  tg_handle *h = (tg_handle *)calloc(1, sizeof *h);
  if (!h) return tg_fail(NULL, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  h->device = dev;
  h->sm = major * 10 + minor;
  h->sm_count = sms;
  h->last_kernel = "";
  /* The readiness flags start zeroed, and every launch leaves them so (problem.h). */
  const size_t flag_bytes = (size_t)sms * TG_SYNC_FLAGS_PER_SM * sizeof(unsigned);
  if ((e = tg_device_malloc((void **)&h->sync_flags, flag_bytes)) != cudaSuccess ||
      (e = cudaMemset(h->sync_flags, 0, flag_bytes)) != cudaSuccess) {
    if (h->sync_flags) cudaFree(h->sync_flags);
    free(h);
    (void)cudaGetLastError();
    return tg_cuda_fail(NULL, fn, "allocating the readiness flags", e);
  }
  tg_cache_init(&h->cache, &identity);
  /* The default tuning cache: its problems are warnings (tg_cache_warnings), never failures. */
  (void)tg_cache_load(h, NULL);
  h->error[0] = '\0';
  *out = h;
  return tg_succeed(NULL);
}

tg_status tg_create_virtual(tg_handle **out, int sm, int sm_count) {
  static const char fn[] = "tg_create_virtual";
  if (!out) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  *out = NULL;
  if (sm < TG_MIN_SM)
    return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'sm' = %d is below %d", fn, sm,
                   TG_MIN_SM);
  if (sm_count <= 0)
    return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'sm_count' = %d is not positive", fn,
                   sm_count);
  tg_handle *h = (tg_handle *)calloc(1, sizeof *h);
  if (!h) return tg_fail(NULL, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  h->device = -1;
  h->sm = sm;
  h->sm_count = sm_count;
  h->last_kernel = "";
  tg_cache_device identity;
  tg_device_virtual_identity(sm, sm_count, &identity);
  tg_cache_init(&h->cache, &identity); /* empty: a virtual device has no default cache */
  *out = h;
  return tg_succeed(NULL);
}

void tg_destroy(tg_handle *h) {
  if (!h) return;
  tg_cache_clear(&h->cache);
  if (h->workspace || h->sync_flags || h->retired_count) {
    /* tg_destroy returns nothing: a failure here (the device or its context already gone, whose
     * memory went with it) is taken off the runtime's last-error slot and the rest still runs. */
    int prev = -1, ok = cudaGetDevice(&prev) == cudaSuccess;
    if (prev != h->device && cudaSetDevice(h->device) != cudaSuccess) ok = 0;
    if (h->workspace && cudaFree(h->workspace) != cudaSuccess) ok = 0;
    for (int i = 0; i < h->retired_count; ++i)
      if (cudaFree(h->retired[i]) != cudaSuccess) ok = 0;
    if (h->sync_flags && cudaFree(h->sync_flags) != cudaSuccess) ok = 0;
    if (prev >= 0 && prev != h->device && cudaSetDevice(prev) != cudaSuccess) ok = 0;
    if (!ok) (void)cudaGetLastError();
  }
  free(h);
}

tg_status tg_check(tg_handle *h, const tg_gemm *g) {
  static const char fn[] = "tg_check";
  tg_layout L;
  int empty = 0;
  tg_status s = tg_request_begin(h, fn, g, &L, &empty);
  if (s != TG_OK || empty) return s == TG_OK ? tg_succeed(h) : s;
  const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
  tg_problem p;
  tg_problem_build(&p, g, &L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
  tg_plan plan;
  if ((s = tg_request_choose(h, fn, g, &p, &plan)) != TG_OK) return s;
  h->last_kernel = plan.kernel ? plan.kernel->name : TG_EPILOGUE_ONLY_NAME;
  return tg_succeed(h);
}

tg_status tg_matmul(tg_handle *h, const tg_gemm *g, const void *A, const void *B, const void *C,
                    void *D, tg_stream stream) {
  static const char fn[] = "tg_matmul";
  tg_layout L;
  int empty = 0;
  tg_status s = tg_request_begin(h, fn, g, &L, &empty);
  if (s != TG_OK || empty) return s == TG_OK ? tg_succeed(h) : s;
  if ((s = tg_validate_pointers(h, fn, g, &L, A, B, C, D)) != TG_OK) return s;
  tg_problem p;
  tg_problem_build(&p, g, &L, A, B, C, D, h->sm, h->sm_count);
  tg_plan plan;
  if ((s = tg_request_choose(h, fn, g, &p, &plan)) != TG_OK) return s;
  tg_launch x;
  tg_launch_layout(&x, &plan, &p);
  return tg_launch_on_device(h, fn, &x, &p, NULL, stream);
}

tg_status tg_reference(tg_handle *h, const tg_gemm *g, const void *A, const void *B, const void *C,
                       double *ref, double *mag, tg_stream stream) {
  static const char fn[] = "tg_reference";
  tg_layout L;
  int empty = 0, prev = 0;
  tg_status s = tg_request_begin(h, fn, g, &L, &empty);
  if (s != TG_OK || empty) return s == TG_OK ? tg_succeed(h) : s;
  int reads_ab = g->alpha != 0.0 && g->k > 0;
  if (reads_ab && !A) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'A' is NULL", fn);
  if (reads_ab && !B) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'B' is NULL", fn);
  if (g->beta != 0.0 && !C)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'C' is NULL but beta != 0", fn);
  if (!ref) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'ref' is NULL", fn);
  if (tg_epilogue_has_bias(g->epilogue) && !g->bias)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'bias' is NULL", fn);
  if (reads_ab && g->scale_mode != TG_SCALE_NONE && (!g->scale_a || !g->scale_b))
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter '%s' is NULL but scale_mode asks for scales", fn,
                   g->scale_a ? "scale_b" : "scale_a");
  tg_problem p;
  tg_problem_build(&p, g, &L, A, B, C, NULL, h->sm, h->sm_count);
  if (h->device < 0)
    return tg_fail(h, TG_ERR_NO_DEVICE, "%s: the handle is virtual (no device to run on)", fn);
  if ((s = tg_device_enter(h, fn, &prev)) != TG_OK) return s;
  /* The oracle writes in the user's frame: row-major m×n, whatever D's order. */
  int64_t row_stride = p.transposed ? 1 : p.n, col_stride = p.transposed ? p.m : 1;
  s = tg_after_launch(h, fn, "ref oracle",
                      tg_ref_oracle_launch(&p, ref, mag, row_stride, col_stride, stream));
  tg_device_leave(h, prev);
  return s == TG_OK ? tg_succeed(h) : s;
}
