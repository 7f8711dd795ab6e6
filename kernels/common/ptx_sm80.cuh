/*
 * ptx_sm80.cuh — thin wrappers over the sm_80 instructions that tensor-core GEMMs are built
 * from: cp.async (global → shared without a register round trip), ldmatrix (shared → the
 * register fragments of mma), and mma.sync (warp-wide matrix multiply-accumulate).
 *
 * Every instruction here exists on sm_80 and later (sm_90a included). Each function names its
 * hardware scope: thread_ functions act for the calling thread alone, warp_ functions must be
 * called by all 32 lanes of a warp together (they are .sync.aligned).
 *
 * Fragment layouts (PTX ISA, "Matrix fragments for mma.m16n8k16"): with lane = 4*g + t
 * (g = lane/4 in 0..7, t = lane%4),
 *   A (16×16, row):  a[0] = A[g][2t..2t+1],   a[1] = A[g+8][2t..2t+1],
 *                    a[2] = A[g][2t+8..2t+9], a[3] = A[g+8][2t+8..2t+9]
 *   B (16×8, col):   b[0] = B[2t..2t+1][g],   b[1] = B[2t+8..2t+9][g]
 *   C/D (16×8):      d[0..1] = D[g][2t..2t+1], d[2..3] = D[g+8][2t..2t+1]
 * where two consecutive 16-bit elements share one 32-bit register (lower index in the low half).
 */
#ifndef TG_PTX_SM80_CUH
#define TG_PTX_SM80_CUH

#include <stdint.h>

#include "tf32x3.h"

/* The 32-bit shared-state-space address of a generic pointer into shared memory. */
__device__ __forceinline__ uint32_t thread_smem_address(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/* Copies 16 bytes from global to shared memory asynchronously (bypassing L1: .cg). Only the
 * first src_bytes (0..16) are read; the rest of the 16 destination bytes are zero-filled, which
 * is how a tile's edge is predicated without a branch (src_bytes = 0 reads nothing). */
__device__ __forceinline__ void thread_cp_async_16(uint32_t smem_addr, const void *gmem,
                                                   int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr), "l"(gmem),
               "r"(src_bytes)
               : "memory");
}

/* As thread_cp_async_16 for a whole chunk, or none: when `skip` is set the source is not read
 * at all (its address may lie anywhere) and the 16 destination bytes become zeros. A predicate
 * instead of a byte count keeps the instruction free of address arithmetic. */
__device__ __forceinline__ void thread_cp_async_16_or_zero(uint32_t smem_addr, const void *gmem,
                                                           bool skip) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
      " cp.async.cg.shared.global [%0], [%1], 16, p;\n}\n" ::"r"(smem_addr),
      "l"(gmem), "r"((int)skip)
      : "memory");
}

/* Copies 4 bytes from global to shared memory asynchronously (through L1: .ca, the only form of
 * a 4-byte cp.async). src_bytes is 4 or 0: 0 reads nothing (the address may lie anywhere) and
 * writes a zero. Each element lands where its thread says, so a tile can be transposed on its
 * way into shared memory, and any 4-byte-aligned operand can be staged. */
__device__ __forceinline__ void thread_cp_async_4(uint32_t smem_addr, const void *gmem,
                                                  int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr), "l"(gmem),
               "r"(src_bytes)
               : "memory");
}

/* Stores 16 bytes at a shared-state-space address (the register path beside cp.async). */
__device__ __forceinline__ void thread_store_shared_16(uint32_t smem_addr, uint4 v) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(smem_addr), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}

/* Ors `v` into the 16-byte value (lo, hi) at byte `at` (v fits in the bytes left there). */
__device__ __forceinline__ void thread_put_bytes(uint64_t &lo, uint64_t &hi, int at, uint64_t v) {
  if (at < 8) lo |= v << (8 * at);
  else hi |= v << (8 * (at - 8));
}

/* Fills the 16 shared bytes at smem_addr with the first `bytes` (0..16) of the 16-byte-aligned
 * chunk at gmem and zeros after them, reading no global byte at or past gmem + bytes. A whole
 * chunk, or none, moves by cp.async (src-size 0 reads nothing); a part goes through registers
 * with loads of 8, 4, 2 and 1 bytes, because a cp.async of 16 with a smaller src-size is a
 * 16-byte read of the source for compute-sanitizer and may cross the end of an operand. */
__device__ __forceinline__ void thread_copy_chunk_prefix(uint32_t smem_addr, const void *gmem,
                                                         int bytes) {
  if (bytes == 0 || bytes == 16) {
    thread_cp_async_16(smem_addr, gmem, bytes);
    return;
  }
  const unsigned char *src = static_cast<const unsigned char *>(gmem);
  uint64_t lo = 0, hi = 0;
  int at = 0;
  if (bytes & 8) {
    lo = *reinterpret_cast<const uint64_t *>(src);
    at = 8;
  }
  if (bytes & 4) {
    thread_put_bytes(lo, hi, at, *reinterpret_cast<const uint32_t *>(src + at));
    at += 4;
  }
  if (bytes & 2) {
    thread_put_bytes(lo, hi, at, *reinterpret_cast<const uint16_t *>(src + at));
    at += 2;
  }
  if (bytes & 1) thread_put_bytes(lo, hi, at, src[at]);
  thread_store_shared_16(smem_addr, make_uint4((uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi,
                                               (uint32_t)(hi >> 32)));
}

/* Closes the group of cp.async issued by this thread since the previous commit. */
__device__ __forceinline__ void thread_cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* Waits until at most N of this thread's committed cp.async groups are still in flight. */
template <int N>
__device__ __forceinline__ void thread_cp_async_wait() {
  static_assert(N >= 0, "cp.async.wait_group takes a non-negative group count");
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Loads four 8×8 matrices of 16-bit elements from shared memory. Lanes 8i..8i+7 give the row
 * addresses (16 contiguous bytes each) of matrix i; lane 4g+t receives row g, elements 2t..2t+1
 * of matrix i in r[i]. */
__device__ __forceinline__ void warp_ldmatrix_x4(uint32_t (&r)[4], uint32_t smem_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr));
}

/* As warp_ldmatrix_x4, each 8×8 matrix transposed on the way (rows given, columns received). */
__device__ __forceinline__ void warp_ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t smem_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr));
}

/* d += A·B for a 16×8×16 tile: A row-major f16, B column-major f16, fp32 accumulators. */
__device__ __forceinline__ void warp_mma_m16n8k16_f16(float (&d)[4], const uint32_t (&a)[4],
                                                      const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* The same with bf16 inputs. */
__device__ __forceinline__ void warp_mma_m16n8k16_bf16(float (&d)[4], const uint32_t (&a)[4],
                                                       const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#define TG_F32_CANONICAL_NAN 0x7fffffffu

/* fp32 bits rounded to tf32: nearest, ties to even, low 13 bits cleared; infinities stay, the
 * largest finite values round up to infinity. One F2FP on sm_90 (cvt.rn.tf32.f32). Before
 * sm_90, which has no cvt.rn to tf32, the same in integer arithmetic: adding 0xfff plus the
 * last kept bit carries into the kept bits exactly when the dropped part is over half an ulp,
 * or exactly half with an odd last bit; a NaN, which that carry could turn into a number,
 * becomes the canonical NaN. */
__device__ __forceinline__ uint32_t thread_cvt_rn_tf32(uint32_t bits) {
#if __CUDA_ARCH__ >= 900
  uint32_t r;
  asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(__uint_as_float(bits)));
  return r;
#else
  const float x = __uint_as_float(bits);
  if (x != x) return TG_F32_CANONICAL_NAN;
  return (bits + TG_TF32_HALF_ULP_MINUS_1 + ((bits >> TG_TF32_LSB_SHIFT) & 1u)) &
         ~TG_TF32_DROPPED_BITS;
#endif
}

/* d += A·B for a 16×8×8 tile of tf32 (fp32 registers whose low 13 mantissa bits are ignored).
 * A: a[0] = A[g][t], a[1] = A[g+8][t], a[2] = A[g][t+4], a[3] = A[g+8][t+4];
 * B: b[0] = B[t][g], b[1] = B[t+4][g]. */
__device__ __forceinline__ void warp_mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4],
                                                      const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* d += A·B for a 16×8×32 tile of int8 with exact int32 accumulation (wrapping, no saturation).
 * A: a[0] = A[g][4t..4t+3], a[1] = A[g+8][4t..], a[2] = A[g][4t+16..], a[3] = A[g+8][4t+16..];
 * B: b[0] = B[4t..4t+3][g], b[1] = B[4t+16..4t+19][g]. */
__device__ __forceinline__ void warp_mma_m16n8k32_s8(int32_t (&d)[4], const uint32_t (&a)[4],
                                                     const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

#endif /* TG_PTX_SM80_CUH */
