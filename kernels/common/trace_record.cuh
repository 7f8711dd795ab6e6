/*
 * trace_record.cuh — the hooks a traced kernel marks what each thread touches with. In a normal
 * build (TG_TRACE_RECORD undefined) every hook expands to nothing and evaluates none of its
 * arguments, so the kernels' code is what it would be without them. The recording build of the
 * GPU trace test (tests/gpu/test_gpu_trace.c compiles the traced kernels with
 * -DTG_TRACE_RECORD) makes each hook append one record per element to the thread's slot of the
 * sink the test sets up (trace_record.h); the test then compares the records with the lists of
 * `tilegemm trace` (tools/trace), element for element.
 *
 *   TG_RECORD_BASE(op, ptr)              the shared memory op's offsets count from (thread 0)
 *   TG_RECORD_LOAD(op, value)            an element loaded from global memory into a register
 *   TG_RECORD_STAGE(op, ptr, value)      an fp32 element stored into shared memory at ptr
 *   TG_RECORD_STAGE4(op, ptr, stride, v) a float4 stored at ptr, ptr + stride, ... (floats)
 *   TG_RECORD_STAGE_CHUNK16(op, ptr, v)  a 16-byte chunk of 16-bit elements (uint4) at ptr
 *   TG_RECORD_COPY(op, addr, src, base, bytes, elem_bytes)
 *                                        a 16-byte cp.async to shared address addr from src
 *                                        (bytes of it read, the rest zero-filled)
 *   TG_RECORD_COPY_SIZED(op, addr, src, base, bytes, elem_bytes, size)
 *                                        the same for a cp.async of `size` bytes
 *   TG_RECORD_OPERAND(op, value)         an fp32 operand read from shared memory
 *   TG_RECORD_OPERANDS(op, array)        the fp32 operands of a register array, in order
 *   TG_RECORD_REGS(op, regs, elem_bytes) an array of 32-bit fragment registers, 4 / elem_bytes
 *                                        elements each (the lowest first)
 *   TG_RECORD_LOADER(loader, op, base)   which operand a loader of copies stages, and its
 *                                        pointer (the recording build's members of the loader)
 *   TG_RECORD_STORE(offset)              D[offset] written
 *   TG_RECORD_STORES(offset, count)      D[offset .. offset + count - 1] written
 *
 * A value's tag is the element's identity: the test fills each operand element with its offset
 * + 1 (fp32 values, or the bits of 16-bit, tf32 and int8 elements, the latter modulo 256), so 0
 * is a zero that was never read.
 */
#ifndef TG_TRACE_RECORD_CUH
#define TG_TRACE_RECORD_CUH

#ifdef TG_TRACE_RECORD

#include <cuda_runtime.h>
#include <stdint.h>

#include "trace_record.h"

/* Floats of a float4, bytes of a 16-byte chunk, and the 16-bit halves of a 32-bit word. */
#define TG_RECORD_VECTOR 4
#define TG_RECORD_CHUNK_BYTES 16
#define TG_RECORD_HALF_BITS 16
#define TG_RECORD_HALF_MASK 0xffffu
#define TG_RECORD_HALVES 2

/* The hooks are calls, not inlined: the recording build's kernels stay small enough to compile
 * in reasonable time, and their speed does not matter. */

/* The sink; defined by the recording test (relocatable device code). */
extern __device__ tg_trace_sink tg_trace_sink_device;

__device__ __forceinline__ unsigned tg_record_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* The thread's slot, or -1 when the launch does not match the sink (counted). */
__device__ __forceinline__ int64_t tg_record_slot() {
  const tg_trace_sink &s = tg_trace_sink_device;
  const unsigned block = tg_record_block();
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (block >= (unsigned)s.blocks || tid >= (unsigned)s.threads) {
    atomicAdd(&s.counts[(int64_t)s.blocks * s.threads], 1);
    return -1;
  }
  return (int64_t)block * s.threads + tid;
}

static __device__ __noinline__ void tg_record_put(int kind, int operand, int32_t smem,
                                                  int64_t tag) {
  const int64_t slot = tg_record_slot();
  if (slot < 0) return;
  const int32_t n = tg_trace_sink_device.counts[slot]++;
  if (n < tg_trace_sink_device.capacity) {
    tg_trace_record r = {kind * TG_REC_OPERANDS + operand, smem, tag};
    tg_trace_sink_device.records[slot * tg_trace_sink_device.capacity + n] = r;
  }
}

__device__ __forceinline__ int32_t tg_record_smem(const void *p) {
  return (int32_t)__cvta_generic_to_shared(p);
}

static __device__ __noinline__ void tg_record_base(int operand, const void *p) {
  const unsigned block = tg_record_block();
  if (threadIdx.x == 0 && threadIdx.y == 0 && block < (unsigned)tg_trace_sink_device.blocks)
    tg_trace_sink_device.smem_base[block * TG_REC_OPERANDS + operand] = (uint32_t)tg_record_smem(p);
}

static __device__ __noinline__ void tg_record_stage4(int operand, const float *p, int stride,
                                                     float4 v) {
  const float e[TG_RECORD_VECTOR] = {v.x, v.y, v.z, v.w};
  for (int i = 0; i < TG_RECORD_VECTOR; ++i)
    tg_record_put(TG_REC_LOAD, operand, tg_record_smem(p + i * stride), (int64_t)e[i]);
}

/* The 16-bit element e of a run of 32-bit words. */
__device__ __forceinline__ int64_t tg_record_half(const uint32_t *w, int e) {
  return (w[e / TG_RECORD_HALVES] >> (TG_RECORD_HALF_BITS * (e % TG_RECORD_HALVES))) &
         TG_RECORD_HALF_MASK;
}

static __device__ __noinline__ void tg_record_chunk16(int operand, const void *p, uint4 v) {
  const uint32_t w[TG_RECORD_VECTOR] = {v.x, v.y, v.z, v.w};
  const int half_bytes = TG_RECORD_HALF_BITS / 8;
  for (int e = 0; e < TG_RECORD_CHUNK_BYTES / half_bytes; ++e)
    tg_record_put(TG_REC_LOAD, operand,
                  tg_record_smem(static_cast<const char *>(p) + half_bytes * e),
                  tg_record_half(w, e));
}

static __device__ __noinline__ void tg_record_copy(int operand, uint32_t addr, const void *src,
                                                   const void *base, int bytes, int elem_bytes,
                                                   int size) {
  const int64_t first =
      (static_cast<const char *>(src) - static_cast<const char *>(base)) / elem_bytes;
  for (int e = 0; e < size / elem_bytes; ++e)
    tg_record_put(TG_REC_LOAD, operand, (int32_t)(addr + e * elem_bytes),
                  e * elem_bytes < bytes ? first + e + 1 : 0);
}

static __device__ __noinline__ void tg_record_regs(int operand, const uint32_t *regs, int count,
                                                   int elem_bytes) {
  const int bits = 8 * elem_bytes, per_reg = (int)sizeof(uint32_t) / elem_bytes;
  const uint64_t mask = (1ull << bits) - 1;
  for (int r = 0; r < count; ++r)
    for (int e = 0; e < per_reg; ++e)
      tg_record_put(TG_REC_FRAGMENT, operand, -1, (int64_t)((regs[r] >> (bits * e)) & mask));
}

#define TG_RECORD_BASE(op, ptr) tg_record_base((op), (ptr))
#define TG_RECORD_LOAD(op, value) tg_record_put(TG_REC_LOAD, (op), -1, (int64_t)(value))
#define TG_RECORD_STAGE(op, ptr, value) \
  tg_record_put(TG_REC_LOAD, (op), tg_record_smem(ptr), (int64_t)(value))
#define TG_RECORD_STAGE4(op, ptr, stride, v) tg_record_stage4((op), (ptr), (stride), (v))
#define TG_RECORD_STAGE_CHUNK16(op, ptr, v) tg_record_chunk16((op), (ptr), (v))
#define TG_RECORD_COPY(op, addr, src, base, bytes, elem_bytes) \
  tg_record_copy((op), (addr), (src), (base), (bytes), (elem_bytes), TG_RECORD_CHUNK_BYTES)
#define TG_RECORD_COPY_SIZED(op, addr, src, base, bytes, elem_bytes, size) \
  tg_record_copy((op), (addr), (src), (base), (bytes), (elem_bytes), (size))
#define TG_RECORD_OPERAND(op, value) tg_record_put(TG_REC_FRAGMENT, (op), -1, (int64_t)(value))
#define TG_RECORD_OPERANDS(op, array)                                                \
  for (int tg_record_i = 0; tg_record_i < (int)(sizeof(array) / sizeof((array)[0])); \
       ++tg_record_i)                                                                \
  TG_RECORD_OPERAND((op), (array)[tg_record_i])
#define TG_RECORD_REGS(op, regs, elem_bytes) \
  tg_record_regs((op), (regs), (int)(sizeof(regs) / sizeof((regs)[0])), (elem_bytes))
#define TG_RECORD_LOADER(loader, op, base) \
  ((loader).record_operand = (op), (loader).record_base = (const char *)(base))
#define TG_RECORD_STORE(offset) tg_record_put(TG_REC_STORE, TG_REC_D, -1, (offset))
#define TG_RECORD_STORES(offset, count)                           \
  for (int tg_record_i = 0; tg_record_i < (count); ++tg_record_i) \
  TG_RECORD_STORE((offset) + tg_record_i)

#else /* a normal build: no code */

#define TG_RECORD_BASE(op, ptr) ((void)0)
#define TG_RECORD_LOAD(op, value) ((void)0)
#define TG_RECORD_STAGE(op, ptr, value) ((void)0)
#define TG_RECORD_STAGE4(op, ptr, stride, v) ((void)0)
#define TG_RECORD_STAGE_CHUNK16(op, ptr, v) ((void)0)
#define TG_RECORD_COPY(op, addr, src, base, bytes, elem_bytes) ((void)0)
#define TG_RECORD_COPY_SIZED(op, addr, src, base, bytes, elem_bytes, size) ((void)0)
#define TG_RECORD_OPERAND(op, value) ((void)0)
#define TG_RECORD_OPERANDS(op, array) ((void)0)
#define TG_RECORD_REGS(op, regs, elem_bytes) ((void)0)
#define TG_RECORD_LOADER(loader, op, base) ((void)0)
#define TG_RECORD_STORE(offset) ((void)0)
#define TG_RECORD_STORES(offset, count) ((void)0)

#endif /* TG_TRACE_RECORD */

#endif /* TG_TRACE_RECORD_CUH */
