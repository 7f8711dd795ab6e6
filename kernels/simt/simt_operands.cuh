/*
 * simt_operands.cuh — how the fp32 rungs reach their operands. Canonical A (m×k) and B (k×n)
 * are both row-major here, so a row of A runs along k and a row of B along n.
 */
#ifndef TG_SIMT_OPERANDS_CUH
#define TG_SIMT_OPERANDS_CUH

#include <stdint.h>

#include "problem.h"
#include "trace_record.cuh"

/* Bytes in one 128-bit access, and floats in it. */
constexpr int kVectorBytes = 16;
constexpr int kFloatsPerVector = kVectorBytes / (int)sizeof(float);

/* Row `row` of A (element (row, 0)) of batch bat. */
__device__ __forceinline__ const float *thread_a_row(const tg_problem &p, int64_t bat,
                                                     int64_t row) {
  return static_cast<const float *>(p.a) + bat * p.batch_stride_a + row * p.lda;
}

/* Row `kk` of B (element (kk, 0)) of batch bat. */
__device__ __forceinline__ const float *thread_b_row(const tg_problem &p, int64_t bat, int64_t kk) {
  return static_cast<const float *>(p.b) + bat * p.batch_stride_b + kk * p.ldb;
}

/* A(row, kk) or B(kk, col) with zero outside the matrix: the predicated edge of a tile. */
__device__ __forceinline__ float thread_load_a_or_zero(const tg_problem &p, int64_t bat,
                                                       int64_t row, int64_t kk) {
  return row < p.m && kk < p.k ? thread_a_row(p, bat, row)[kk] : 0.0f;
}

__device__ __forceinline__ float thread_load_b_or_zero(const tg_problem &p, int64_t bat, int64_t kk,
                                                       int64_t col) {
  return kk < p.k && col < p.n ? thread_b_row(p, bat, kk)[col] : 0.0f;
}

/* Four consecutive floats of which only the first `valid` exist (the rest read as zero): one
 * 128-bit load when all four do and `vec` says the operand is 16-byte aligned (pointer, ld and
 * batch stride: p.align_a / p.align_b ≥ 16), element by element otherwise — at the matrix
 * edge, and for operands with odd leading dimensions, which therefore still run, slower. */
__device__ __forceinline__ float4 thread_load_float4_or_zero(const float *src, int64_t valid,
                                                             bool vec) {
  if (vec && valid >= kFloatsPerVector) return *reinterpret_cast<const float4 *>(src);
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (valid > 0) v.x = src[0];
  if (valid > 1) v.y = src[1];
  if (valid > 2) v.z = src[2];
  if (valid > 3) v.w = src[3];
  return v;
}

/* Whether A / B may be read with 128-bit loads. */
__device__ __forceinline__ bool thread_a_vectors(const tg_problem &p) {
  return p.align_a >= kVectorBytes;
}
__device__ __forceinline__ bool thread_b_vectors(const tg_problem &p) {
  return p.align_b >= kVectorBytes;
}

/* The four lanes of a float4 into four registers of a thread's operand array. */
__device__ __forceinline__ void thread_unpack_float4(float *dst, float4 v) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

#endif /* TG_SIMT_OPERANDS_CUH */
