/*
 * ladder_operands.cuh — how the 16-bit rungs reach their operands. A (m×k) is row-major and B
 * (k×n) column-major as computed, so both are K-major: row i of A and column j of B are each
 * k contiguous elements. B is therefore read as its N×K view, "row" j = column j of B.
 * Tiles move in 16-byte chunks of 8 elements; a chunk that crosses the k edge is cut short
 * and zero-filled, one that lies past m, n or k is all zeros. Operands that are not 16-byte
 * aligned are gathered element by element into the same chunks.
 */
#ifndef TG_LADDER_OPERANDS_CUH
#define TG_LADDER_OPERANDS_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "problem.h"
#include "ptx_sm80.cuh"
#include "trace_record.cuh"

constexpr int kChunkBytes = 16; /* one cp.async / 128-bit access */
constexpr int kElemBytes = 2;   /* f16 and bf16 */
constexpr int kChunkElems = kChunkBytes / kElemBytes;

/* Element (row, 0) of A, and element (0, col) of B (= row col of its N×K view), of batch bat. */
template <class T>
__device__ __forceinline__ const T *thread_a_row(const tg_problem &p, int bat, int64_t row) {
  return static_cast<const T *>(p.a) + bat * p.batch_stride_a + row * p.lda;
}
template <class T>
__device__ __forceinline__ const T *thread_bt_row(const tg_problem &p, int bat, int64_t col) {
  return static_cast<const T *>(p.b) + bat * p.batch_stride_b + col * p.ldb;
}

/* Bytes of the chunk starting at element kk of a K-major row that lie inside the matrix
 * (0..16); `inside` is false for a row past m or n. */
__device__ __forceinline__ int thread_chunk_bytes(bool inside, int64_t k, int64_t kk) {
  if (!inside || kk >= k) return 0;
  return k - kk >= kChunkElems ? kChunkBytes : (int)(k - kk) * kElemBytes;
}

/* Whether A / B may move in 16-byte chunks: pointer, leading dimension and batch stride all
 * multiples of 16 bytes (a run-time fact of the problem). Otherwise the rungs move them element
 * by element — slower, but an odd leading dimension still runs. Rung 12's launcher asks the
 * same question to pick its aligned instantiation. */
__host__ __device__ __forceinline__ bool thread_a_chunks(const tg_problem &p) {
  return p.align_a >= kChunkBytes;
}
__host__ __device__ __forceinline__ bool thread_b_chunks(const tg_problem &p) {
  return p.align_b >= kChunkBytes;
}

/* The 16-byte chunk at src of which only the first `bytes` exist, zero-filled: one 128-bit
 * load when whole and `vec` (src then 16-byte aligned), 16-bit loads otherwise. */
__device__ __forceinline__ uint4 thread_load_chunk_or_zero(const void *src, int bytes, bool vec) {
  if (vec && bytes == kChunkBytes) return *static_cast<const uint4 *>(src);
  constexpr int kWordElems = (int)sizeof(uint32_t) / kElemBytes, kElemBits = 8 * kElemBytes;
  uint32_t w[kChunkBytes / sizeof(uint32_t)] = {0u, 0u, 0u, 0u};
  const uint16_t *h = static_cast<const uint16_t *>(src);
#pragma unroll
  for (int e = 0; e < kChunkElems; ++e)
    if (e * kElemBytes < bytes)
      w[e / kWordElems] |= (uint32_t)h[e] << (kElemBits * (e % kWordElems));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

/* d += a·b on the tensor cores, m16n8k16, for the element type T. */
template <class T>
__device__ __forceinline__ void warp_mma_16816(float (&d)[4], const uint32_t (&a)[4],
                                               const uint32_t (&b)[2]);
template <>
__device__ __forceinline__ void warp_mma_16816<__half>(float (&d)[4], const uint32_t (&a)[4],
                                                       const uint32_t (&b)[2]) {
  warp_mma_m16n8k16_f16(d, a, b);
}
template <>
__device__ __forceinline__ void warp_mma_16816<__nv_bfloat16>(float (&d)[4], const uint32_t (&a)[4],
                                                              const uint32_t (&b)[2]) {
  warp_mma_m16n8k16_bf16(d, a, b);
}

#endif /* TG_LADDER_OPERANDS_CUH */
