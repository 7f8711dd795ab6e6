/*
 * device.h — the host library's CUDA runtime plumbing shared by the entry points: failures
 * turned into statuses, the handle's device made current, and the device's identity (the
 * key of the tuning cache).
 */
#ifndef TG_DEVICE_H
#define TG_DEVICE_H

#include <cuda_runtime_api.h>
#include "handle.h"

/* Records "fn: what failed: cudaErrorName (text)" and returns TG_ERR_OUT_OF_MEMORY for an
 * allocation failure, TG_ERR_CUDA otherwise. */
tg_status tg_cuda_fail(tg_handle *h, const char *fn, const char *what, cudaError_t e);

/* Makes the handle's device current; *prev receives what tg_device_leave restores. */
tg_status tg_device_enter(tg_handle *h, const char *fn, int *prev);
void tg_device_leave(const tg_handle *h, int prev);

/* cudaMalloc that may run while a stream is being captured into a CUDA graph: the thread's
 * capture mode is relaxed for the call. For memory the handle owns (its workspace, its flags),
 * which is not the graph's and outlives any graph that uses it. *ptr is NULL on failure. */
cudaError_t tg_device_malloc(void **ptr, size_t bytes);

/* Name, SM count and CUDA runtime version of device dev (for the tuning cache). */
cudaError_t tg_device_identity(int dev, int sms, tg_cache_device *out);

/* The identity of a virtual handle: "virtual sm_XY", its SM count, this CUDA runtime. */
void tg_device_virtual_identity(int sm, int sms, tg_cache_device *out);

#endif /* TG_DEVICE_H */
