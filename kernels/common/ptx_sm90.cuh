/*
 * ptx_sm90.cuh — the Hopper instructions the sm90 family is built from, one thin wrapper each:
 * mbarrier (transaction-counted barriers in shared memory), TMA (cp.async.bulk.tensor: a tile
 * copied by the copy engine, completing on an mbarrier), wgmma fences and groups, setmaxnreg,
 * named barriers, and the shared-memory matrix descriptor of wgmma. The scope is in each name:
 * thread_ acts for the calling thread, warpgroup_ must be executed by all 128 threads of a
 * warpgroup together, block_ by the threads named in the call.
 * wgmma itself is in wgmma_shapes.cuh.
 */
#ifndef TG_PTX_SM90_CUH
#define TG_PTX_SM90_CUH

#include <stdint.h>

/* ---- mbarrier ----------------------------------------------------------------------------- */

/* Initializes a barrier expecting `count` arrivals per phase. */
__device__ __forceinline__ void thread_mbarrier_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

/* Makes barrier initializations visible to the async proxy (TMA) and the other threads. */
__device__ __forceinline__ void thread_fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* Arrives once and adds `bytes` to the transactions this phase waits for (TMA's arrival). */
__device__ __forceinline__ void thread_mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}

/* Arrives once. */
__device__ __forceinline__ void thread_mbarrier_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/* 1 when the phase of parity `parity` has completed (the hardware may wait a while first). */
__device__ __forceinline__ uint32_t thread_mbarrier_try_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done;
}

/* Waits until the phase of parity `parity` has completed. The retry loop is C++, so the
 * compiler keeps it next to its caller (an asm-internal branch was placed at the far end of the
 * kernel, costing an instruction-cache miss per retry). */
__device__ __forceinline__ void thread_mbarrier_wait(uint32_t bar, uint32_t parity) {
  while (!thread_mbarrier_try_wait(bar, parity)) {
  }
}

/* Arrives once on the barrier at shared offset `bar` of CTA `cta` of this cluster. The default
 * (CTA-scope) release suffices for "this stage has been read": the reads were wgmma's, or (a
 * stage borrowed for staging D) the copy engine's, already complete (wgmma.wait_group,
 * cp.async.bulk.wait_group.read), so no access of this CTA is left for the barrier to order;
 * a cluster-scope release would fence every k-tile for nothing. */
__device__ __forceinline__ void thread_mbarrier_arrive_cluster(uint32_t bar, uint32_t cta) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(bar),
      "r"(cta)
      : "memory");
}

/* ---- clusters ----------------------------------------------------------------------------- */

/* This CTA's rank in its cluster. */
__device__ __forceinline__ uint32_t thread_cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

/* All threads of all CTAs of the cluster meet here (release/acquire: shared memory written
 * before it, barriers initialized before it, are visible to the whole cluster after it). */
__device__ __forceinline__ void block_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
}

/* ---- TMA ---------------------------------------------------------------------------------- */

/* Copies the box at coordinates (c0, c1, c2) of a 3-D tensor map into shared memory; the copy
 * engine signals `bar` with the bytes it wrote. Out-of-bounds elements are filled with zeros. */
__device__ __forceinline__ void thread_tma_load_3d(uint32_t smem, const void *tensor_map,
                                                   uint32_t bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(smem),
      "l"(tensor_map), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

/* The same box delivered to every CTA of the cluster in `cta_mask`, at the same shared-memory
 * offsets, each CTA's barrier at `bar`'s offset receiving the bytes it got. */
__device__ __forceinline__ void thread_tma_load_3d_multicast(uint32_t smem, const void *tensor_map,
                                                             uint32_t bar, int c0, int c1, int c2,
                                                             uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::"
      "cluster"
      " [%0], [%1, {%3, %4, %5}], [%2], %6;\n" ::"r"(smem),
      "l"(tensor_map), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "h"(cta_mask)
      : "memory");
}

/* Copies a box from shared memory to the box at coordinates (c0, c1, c2) of a 3-D tensor map,
 * asynchronously, as part of this thread's current bulk group; elements outside the tensor are
 * not written. The writes to `smem` must be made visible to the copy engine first
 * (thread_fence_proxy_async_shared). */
__device__ __forceinline__ void thread_tma_store_3d(const void *tensor_map, uint32_t smem, int c0,
                                                    int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(
          tensor_map),
      "r"(smem), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}

/* Closes this thread's current bulk group (the TMA stores issued since the last commit). */
__device__ __forceinline__ void thread_bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/* Waits until at most N of this thread's bulk groups still read their shared-memory source. */
template <int N>
__device__ __forceinline__ void thread_bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

/* Waits until at most N of this thread's bulk groups are still incomplete (writes included). */
template <int N>
__device__ __forceinline__ void thread_bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Makes this thread's generic-proxy writes to shared memory visible to the async proxy (TMA). */
__device__ __forceinline__ void thread_fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Stores four 8×8 blocks of 16-bit elements from the warp's registers to shared memory: x[m]
 * holds the thread's pair of block m (row lane / 4, columns 2·(lane % 4) and +1, the mma and
 * wgmma accumulator layout); lanes 8m..8m+7 give the addresses of the 16-byte rows of block m. */
__device__ __forceinline__ void warp_stmatrix_x4(uint32_t smem_row, const uint32_t (&x)[4]) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem_row),
               "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3])
               : "memory");
}

/* Starts fetching a tensor map into the constant cache before its first use. */
__device__ __forceinline__ void thread_tma_prefetch_descriptor(const void *tensor_map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(tensor_map) : "memory");
}

/* ---- wgmma bookkeeping -------------------------------------------------------------------- */

/* Orders register and shared-memory accesses before the next wgmma (required before the first
 * wgmma that reads or writes accumulators other code touched). */
__device__ __forceinline__ void warpgroup_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

/* Closes the group of wgmma issued since the last commit. */
__device__ __forceinline__ void warpgroup_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Waits until at most N committed wgmma groups are pending. */
template <int N>
__device__ __forceinline__ void warpgroup_wait() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/* ---- registers and barriers ---------------------------------------------------------------- */

/* Raise (consumers) or lower (producer) this warpgroup's register budget. */
template <int N>
__device__ __forceinline__ void warpgroup_setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
}
template <int N>
__device__ __forceinline__ void warpgroup_setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
}

/* Barrier `id` (1..15; 0 is __syncthreads) among `threads` threads of the block. */
__device__ __forceinline__ void block_named_barrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* Arrives on barrier `id` without waiting: the threads that block_named_barrier waits for. */
__device__ __forceinline__ void block_named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* ---- flags between CTAs (global memory, GPU scope) ----------------------------------------- */

/* Publishes `value` at *flag after everything this CTA's threads wrote before a barrier they
 * all passed with this thread (the release covers what the barrier made visible to it). */
__device__ __forceinline__ void thread_flag_publish(unsigned *flag, unsigned value) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(value) : "memory");
}

/* Spins until *flag == value, then clears it (the waiter is the flag's only reader, and nothing
 * sets it again in the same launch, so the next launch finds it clear); the acquire makes the
 * publisher's writes visible to this thread and, through a barrier that follows, to the threads
 * that pass it with this one. */
__device__ __forceinline__ void thread_flag_take(unsigned *flag, unsigned value) {
  unsigned seen;
  do {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(seen) : "l"(flag) : "memory");
  } while (seen != value);
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(0u) : "memory");
}

/* ---- shared-memory matrix descriptors ------------------------------------------------------ */

/* Swizzle mode field (bits 62-63) of the 128-byte swizzle that TMA's SWIZZLE_128B produces. */
#define TG_WGMMA_SWIZZLE_128B (1ull << 62)

/* Descriptor fields count 16-byte units. */
#define TG_WGMMA_DESC_UNIT_SHIFT 4
/* The descriptor's high word (stride byte offset, swizzle mode). The low word holds the start
 * address (bits 0-13) and the leading byte offset (bits 16-29): a byte offset within shared
 * memory, >> TG_WGMMA_DESC_UNIT_SHIFT, adds to the low word alone, without carry, since shared
 * addresses stay below 2^18. */
#define TG_WGMMA_DESC_HIGH_MASK 0xffffffff00000000ull

/* Descriptor of a tile in 128-byte-swizzled shared memory: start address, leading byte offset
 * (between 64-element blocks along M/N, MN-major tiles only) and stride byte offset (between
 * groups of 8 rows), all in 16-byte units. The tile must start 1024-byte aligned. */
__device__ __forceinline__ uint64_t thread_wgmma_descriptor(uint32_t smem, uint32_t lbo,
                                                            uint32_t sbo) {
  return (uint64_t)((smem & 0x3ffff) >> TG_WGMMA_DESC_UNIT_SHIFT) |
         ((uint64_t)((lbo >> TG_WGMMA_DESC_UNIT_SHIFT) & 0x3fff) << 16) |
         ((uint64_t)((sbo >> TG_WGMMA_DESC_UNIT_SHIFT) & 0x3fff) << 32) | TG_WGMMA_SWIZZLE_128B;
}

#endif /* TG_PTX_SM90_CUH */
