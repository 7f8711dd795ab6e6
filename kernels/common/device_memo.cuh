/*
 * device_memo.cuh — host-side setup that a launcher needs once per device, not once per process.
 *
 * A kernel's dynamic shared-memory limit (cudaFuncSetAttribute) and the answer of an occupancy
 * query belong to the function as loaded on one device: each device's context holds its own
 * copy. A process that drives several GPUs (one handle each) must raise the limit on every
 * device it launches on; a memo kept once per process leaves the second device at the 48 KB
 * default, and every launch there fails. Memos are static arrays indexed by device ordinal; a
 * device past TG_MEMO_DEVICES gets no memo (its setup repeats at every launch). Host threads
 * racing through a first launch only repeat idempotent calls; the memo's words are read and
 * written atomically.
 */
#ifndef TG_DEVICE_MEMO_CUH
#define TG_DEVICE_MEMO_CUH

#include <cuda_runtime.h>

/* Devices a memo covers. */
#define TG_MEMO_DEVICES 64

/* One int per device; 0 means nothing recorded yet. Zero-initialized as a static. */
typedef struct tg_device_memo {
  int value[TG_MEMO_DEVICES];
} tg_device_memo;

/* The current device's slot in a memo, or -1 (the query failed, or no slot: no memo). */
static inline int tg_device_memo_slot(void) {
  int dev = -1;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return dev >= 0 && dev < TG_MEMO_DEVICES ? dev : -1;
}

static inline int tg_device_memo_get(const tg_device_memo *memo, int slot) {
  return slot < 0 ? 0 : __atomic_load_n(&memo->value[slot], __ATOMIC_RELAXED);
}

static inline void tg_device_memo_set(tg_device_memo *memo, int slot, int value) {
  if (slot >= 0) __atomic_store_n(&memo->value[slot], value, __ATOMIC_RELAXED);
}

/* Lets `kernel` take `bytes` of dynamic shared memory on the device `slot` names (the current
 * one), raising its limit the first time on that device. */
static inline cudaError_t tg_raise_smem_limit(tg_device_memo *raised, int slot, const void *kernel,
                                              int bytes) {
  if (tg_device_memo_get(raised, slot)) return cudaSuccess;
  const cudaError_t e =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (e == cudaSuccess) tg_device_memo_set(raised, slot, 1);
  return e;
}

#endif /* TG_DEVICE_MEMO_CUH */
