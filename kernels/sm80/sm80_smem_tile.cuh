/*
 * sm80_smem_tile.cuh — shared-memory tiles as rows of 16-byte chunks, XOR-swizzled so that
 * both the cp.async writes (a warp fills whole 128-byte lines) and the ldmatrix reads (8 rows at
 * the same logical chunk) touch 8 different bank groups:
 *     physical chunk = logical chunk XOR (row mod 8)
 * (the Swizzle<3,4,3> pattern). Rows hold 8 or more chunks (128 bytes or more).
 *
 * A K-major operand tile is [rows = m or n][128 bytes of k]; an MN-major tile is
 * [rows = k][the m or n extent]. Both are filled from global memory by block_load_tile with
 * 16-byte cp.async, zero-filling whatever lies past the matrix edge.
 */
#ifndef TG_SM80_SMEM_TILE_CUH
#define TG_SM80_SMEM_TILE_CUH

#include <stdint.h>

#include "ptx_sm80.cuh"

#define TG_CHUNK_BYTES 16
#define TG_SWIZZLE_ROWS 8

/* Byte offset of logical chunk `chunk` of row `row` in a tile of row_chunks chunks per row. */
__device__ __forceinline__ uint32_t thread_swizzled_offset(int row, int chunk, int row_chunks) {
  return (uint32_t)((row * row_chunks + (chunk ^ (row & (TG_SWIZZLE_ROWS - 1)))) * TG_CHUNK_BYTES);
}

/* Clamps the bytes of a 16-byte chunk that lie inside the matrix: `left` elements remain
 * before the edge along the contiguous dimension. */
__device__ __forceinline__ int thread_chunk_bytes(int64_t left, int elem_bytes) {
  if (left <= 0) return 0;
  int64_t b = left * elem_bytes;
  return b < TG_CHUNK_BYTES ? (int)b : TG_CHUNK_BYTES;
}

/* Copies a tile of `kRows` rows × `kRowChunks` chunks from global memory, where row r starts at
 * element (row0 + r) * ld + col0 of `base` (elements of kElemBytes), the matrix has `rows`
 * rows and `cols` columns along the contiguous dimension. Issued by all kThreads threads;
 * consecutive threads take consecutive chunks of a row, so each warp reads whole 128-byte
 * lines. */
template <int kRows, int kRowChunks, int kThreads, int kElemBytes>
__device__ __forceinline__ void block_load_tile(uint32_t smem, const char *base, int64_t ld,
                                                int64_t row0, int64_t rows, int64_t col0,
                                                int64_t cols) {
  static_assert(kRowChunks % TG_SWIZZLE_ROWS == 0, "tile rows must hold a multiple of 8 chunks");
  static_assert((kRows * kRowChunks) % kThreads == 0, "tile chunks must split evenly over threads");
  constexpr int kElemsPerChunk = TG_CHUNK_BYTES / kElemBytes;
  const int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kRows * kRowChunks / kThreads; ++i) {
    const int idx = tid + i * kThreads;
    const int r = idx / kRowChunks, c = idx % kRowChunks;
    const int64_t grow = row0 + r, gcol = col0 + (int64_t)c * kElemsPerChunk;
    const int bytes = grow < rows ? thread_chunk_bytes(cols - gcol, kElemBytes) : 0;
    const char *src = bytes ? base + (grow * ld + gcol) * kElemBytes : base;
    thread_cp_async_16(smem + thread_swizzled_offset(r, c, kRowChunks), src, bytes);
  }
}

#endif /* TG_SM80_SMEM_TILE_CUH */
