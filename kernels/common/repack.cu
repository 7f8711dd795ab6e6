/*
 * repack.cu — batched matrix copy into a 16-byte-aligned layout. Same order (odd leading
 * dimensions, offset pointers): each thread gathers one 16-byte chunk of a destination line with
 * element loads and writes it as one vector, padding included. Other order (a transpose): a
 * 32×32 shared-memory tile, so that reads and writes both walk their contiguous dimension; for
 * 1- and 2-byte elements a 64×64 tile moved in 16-byte vectors both ways instead, since element
 * accesses would use a quarter or half of each memory transaction.
 * The 3xTF32 split (tf32x3.h) writes each element three times along the destination's lines:
 * its tf32 value twice, its remainder once; between different orders through the 32×32 tile,
 * in the same order by a line-walking kernel with 16-byte loads and stores.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "repack.h"
#include "tf32x3.h"

/* dst's leading dimension must be a multiple of 16 bytes and its base 16-byte aligned (the
 * library's workspace layout guarantees both). */

namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8; /* threads per tile column: a 32×8 block makes 4 passes */
constexpr unsigned kMaxGridYZ = 65535;

/* Runs body(first, s, d) for each of this CTA's tiles: over the batches (blockIdx.z onwards)
 * and the `extent` rows of tiles `tile` deep (blockIdx.y onwards), with first the tile's first
 * index along that extent and s, d the batch's source and destination. */
template <typename T, class Body>
__device__ void block_for_each_tile(const tg_matrix_ref &src, const tg_matrix_ref &dst,
                                    int64_t extent, int tile, int64_t batch, Body body) {
  const int64_t tiles = (extent + tile - 1) / tile;
  for (int64_t b = blockIdx.z; b < batch; b += gridDim.z)
    for (int64_t t = blockIdx.y; t < tiles; t += gridDim.y)
      body(t * tile, (const T *)src.ptr + b * src.batch_stride,
           (T *)dst.ptr + b * dst.batch_stride);
}

/* Writes element (r, c) of a rows × cols operand into the 3xTF32 layout: three copies along
 * dst's lines (a row of a row-major dst, a column of a column-major one), part `lo_part` the
 * remainder and the others the tf32 value. The line's last element also zeroes the padding from
 * 3 × its extent up to ld. */
__device__ void thread_store_tf32x3(float *d, const tg_matrix_ref &dst, int64_t r, int64_t c,
                                    int64_t rows, int64_t cols, float x, int lo_part) {
  float hi, lo;
  tg_tf32x3_split(x, &hi, &lo);
  const int row_lines = dst.order == TG_ROW_MAJOR;
  const int64_t line = row_lines ? r : c, at = row_lines ? c : r, inner = row_lines ? cols : rows;
  float *p = d + line * dst.ld;
#pragma unroll
  for (int part = 0; part < TG_TF32X3_PRODUCTS; ++part)
    p[part * inner + at] = part == lo_part ? lo : hi;
  if (at == inner - 1)
    for (int64_t pad = TG_TF32X3_PRODUCTS * inner; pad < dst.ld; ++pad) p[pad] = 0.0f;
}

/* kSplit false: dst = src. kSplit true (T float): dst = the 3xTF32 layout of src (above). */
template <typename T, bool kSplit>
__global__ void __launch_bounds__(kTile *kRowsPerPass)
    repack_kernel(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols, int64_t batch,
                  int lo_part) {
  __shared__ T tile[kTile][kTile + 1]; /* +1: column reads hit 32 different banks */
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t c0 = (int64_t)blockIdx.x * kTile;
  block_for_each_tile<T>(src, dst, rows, kTile, batch, [&](int64_t r0, const T *s, T *d) {
    for (int j = ty; j < kTile; j += kRowsPerPass) {
      /* Row-major source: lanes walk columns; column-major: lanes walk rows. */
      const int64_t r = src.order == TG_ROW_MAJOR ? r0 + j : r0 + tx;
      const int64_t c = src.order == TG_ROW_MAJOR ? c0 + tx : c0 + j;
      if (r < rows && c < cols)
        tile[r - r0][c - c0] = s[src.order == TG_ROW_MAJOR ? r * src.ld + c : c * src.ld + r];
    }
    __syncthreads();
    for (int j = ty; j < kTile; j += kRowsPerPass) {
      const int64_t r = dst.order == TG_ROW_MAJOR ? r0 + j : r0 + tx;
      const int64_t c = dst.order == TG_ROW_MAJOR ? c0 + tx : c0 + j;
      const int64_t at = dst.order == TG_ROW_MAJOR ? r * dst.ld + c : c * dst.ld + r;
      if (r < rows && c < cols) {
        if (kSplit)
          thread_store_tf32x3((float *)d, dst, r, c, rows, cols, tile[r - r0][c - c0], lo_part);
        else d[at] = tile[r - r0][c - c0];
      } else if (!kSplit && (dst.order == TG_ROW_MAJOR ? (r < rows && c < dst.ld)
                                                       : (c < cols && r < dst.ld))) {
        /* Padding up to the 16-byte-aligned ld: zeros, so every chunk a kernel may fetch
         * whole is initialized. The last tile always reaches it (ld - extent < 16 bytes). */
        d[at] = T(0);
      }
    }
    __syncthreads();
  });
}

constexpr int kCopyThreads = 256;
constexpr int64_t kCopyMaxBlocks = 65535;

/* The 3xTF32 split with src and dst in the same order: no tile, each thread splits 4 consecutive
 * elements of a line (one 16-byte load where src allows) and writes them to the line's three
 * parts (16-byte stores where the parts start 16-byte aligned, i.e. the line's extent is a
 * multiple of 4); the line's last chunk also zeroes the padding up to ld. */
constexpr int kSplitChunk = 4;
__global__ void __launch_bounds__(kCopyThreads)
    repack_split_lines_kernel(tg_matrix_ref src, tg_matrix_ref dst, int64_t inner, int64_t outer,
                              int64_t batch, int lo_part, int src_vectors) {
  const int64_t chunks = (inner + kSplitChunk - 1) / kSplitChunk;
  const int64_t total = batch * outer * chunks;
  const bool dst_vectors = inner % kSplitChunk == 0;
  for (int64_t i = blockIdx.x * (int64_t)kCopyThreads + threadIdx.x; i < total;
       i += (int64_t)gridDim.x * kCopyThreads) {
    const int64_t c = i % chunks, line = (i / chunks) % outer, b = i / (chunks * outer);
    const int64_t at = c * kSplitChunk;
    const float *s = (const float *)src.ptr + b * src.batch_stride + line * src.ld + at;
    float *d = (float *)dst.ptr + b * dst.batch_stride + line * dst.ld;
    float x[kSplitChunk];
    if (src_vectors && at + kSplitChunk <= inner) {
      const float4 v = __ldg((const float4 *)s);
      x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
    } else {
#pragma unroll
      for (int e = 0; e < kSplitChunk; ++e) x[e] = at + e < inner ? s[e] : 0.0f;
    }
    float hi[kSplitChunk], lo[kSplitChunk];
#pragma unroll
    for (int e = 0; e < kSplitChunk; ++e) tg_tf32x3_split(x[e], &hi[e], &lo[e]);
#pragma unroll
    for (int part = 0; part < TG_TF32X3_PRODUCTS; ++part) {
      const float *v = part == lo_part ? lo : hi;
      float *p = d + part * inner + at;
      if (dst_vectors) {
        *(float4 *)p = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int e = 0; e < kSplitChunk; ++e)
          if (at + e < inner) p[e] = v[e];
      }
    }
    if (c == chunks - 1)
      for (int64_t pad = TG_TF32X3_PRODUCTS * inner; pad < dst.ld; ++pad) d[pad] = 0.0f;
  }
}

/* Same order: destination line `line` (a row of a row-major matrix, a column of a column-major
 * one), chunk c = elements [c·E, (c+1)·E) with E = 16 / sizeof(T); the chunk's padding past
 * `inner` is written as zeros. */
template <typename T>
__global__ void __launch_bounds__(kCopyThreads)
    repack_copy_kernel(tg_matrix_ref src, tg_matrix_ref dst, int64_t inner, int64_t outer,
                       int64_t batch) {
  constexpr int kPerChunk = 16 / sizeof(T);
  const int64_t chunks = (inner + kPerChunk - 1) / kPerChunk;
  const int64_t total = batch * outer * chunks;
  for (int64_t i = blockIdx.x * (int64_t)kCopyThreads + threadIdx.x; i < total;
       i += (int64_t)gridDim.x * kCopyThreads) {
    const int64_t c = i % chunks, line = (i / chunks) % outer, b = i / (chunks * outer);
    const T *s = (const T *)src.ptr + b * src.batch_stride + line * src.ld + c * kPerChunk;
    union {
      uint4 v;
      T e[kPerChunk];
    } chunk;
#pragma unroll
    for (int e = 0; e < kPerChunk; ++e) chunk.e[e] = c * kPerChunk + e < inner ? s[e] : T(0);
    *(uint4 *)((T *)dst.ptr + b * dst.batch_stride + line * dst.ld + c * kPerChunk) = chunk.v;
  }
}

/* The vector transpose: src is an L × I matrix of lines (its rows when row-major, its columns
 * otherwise) and dst the I × L one, I lines of L elements padded with zeros up to dst.ld. A CTA
 * moves a kVecTile × kVecTile tile: each thread reads whole 16-byte vectors of source lines into
 * shared memory (element loads where a vector would leave the matrix or src is not 16-byte
 * aligned), then gathers 16-byte chunks of destination lines from the tile's columns. Lanes walk
 * the destination lines, so a warp's shared-memory reads of one tile row hit consecutive
 * elements. */
constexpr int kVecTile = 64;
constexpr int kVecThreads = 256;
constexpr int kVecBytes = 16;

template <typename T>
__global__ void __launch_bounds__(kVecThreads)
    repack_transpose_vec_kernel(tg_matrix_ref src, tg_matrix_ref dst, int64_t lines, int64_t inner,
                                int64_t batch, int src_vectors) {
  constexpr int kPerVec = kVecBytes / (int)sizeof(T);
  constexpr int kVecsPerLine = kVecTile / kPerVec;
  static_assert(kVecTile % kPerVec == 0, "a tile line holds whole 16-byte vectors");
  __shared__ __align__(kVecBytes) T tile[kVecTile][kVecTile];
  union vec {
    uint4 v;
    T e[kPerVec];
  };
  const int64_t i0 = (int64_t)blockIdx.x * kVecTile;
  block_for_each_tile<T>(src, dst, lines, kVecTile, batch, [&](int64_t l0, const T *s, T *d) {
    for (int v = threadIdx.x; v < kVecTile * kVecsPerLine; v += kVecThreads) {
      const int tl = v / kVecsPerLine, ti = v % kVecsPerLine * kPerVec;
      const int64_t l = l0 + tl, i = i0 + ti;
      vec x;
      if (src_vectors && l < lines && i + kPerVec <= inner) {
        x.v = *(const uint4 *)(s + l * src.ld + i);
      } else {
#pragma unroll
        for (int e = 0; e < kPerVec; ++e)
          x.e[e] = l < lines && i + e < inner ? s[l * src.ld + i + e] : T(0);
      }
      *(uint4 *)&tile[tl][ti] = x.v;
    }
    __syncthreads();
    for (int w = threadIdx.x; w < kVecTile * kVecsPerLine; w += kVecThreads) {
      const int ti = w % kVecTile, tl = w / kVecTile * kPerVec;
      const int64_t i = i0 + ti, l = l0 + tl;
      if (i >= inner || l >= dst.ld) continue; /* past the last line, or past its padding */
      vec x;
#pragma unroll
      for (int e = 0; e < kPerVec; ++e) x.e[e] = l + e < lines ? tile[tl + e][ti] : T(0);
      *(uint4 *)(d + i * dst.ld + l) = x.v;
    }
    __syncthreads();
  });
}

/* 1 when every 16-byte vector of src's lines that starts at a multiple of 16 bytes from a line's
 * start is 16-byte aligned in memory. */
static int vectors_aligned(const tg_matrix_ref &m, int64_t batch, size_t elem_bytes) {
  const uint64_t bits = (uint64_t)(uintptr_t)m.ptr | (uint64_t)m.ld * elem_bytes |
                        (batch > 1 ? (uint64_t)m.batch_stride * elem_bytes : 0);
  return bits % kVecBytes == 0;
}

template <typename T>
void launch_transpose_vec(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols,
                          int64_t batch, cudaStream_t stream) {
  const int64_t lines = src.order == TG_ROW_MAJOR ? rows : cols,
                inner = src.order == TG_ROW_MAJOR ? cols : rows;
  const int64_t line_tiles = (lines + kVecTile - 1) / kVecTile;
  dim3 grid((unsigned)((inner + kVecTile - 1) / kVecTile),
            (unsigned)(line_tiles < kMaxGridYZ ? line_tiles : kMaxGridYZ),
            (unsigned)(batch < kMaxGridYZ ? batch : kMaxGridYZ));
  repack_transpose_vec_kernel<T><<<grid, kVecThreads, 0, stream>>>(
      src, dst, lines, inner, batch, vectors_aligned(src, batch, sizeof(T)));
}

template <typename T, bool kSplit>
void launch_tiles(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols, int64_t batch,
                  int lo_part, cudaStream_t stream) {
  const int64_t row_tiles = (rows + kTile - 1) / kTile;
  dim3 grid((unsigned)((cols + kTile - 1) / kTile),
            (unsigned)(row_tiles < kMaxGridYZ ? row_tiles : kMaxGridYZ),
            (unsigned)(batch < kMaxGridYZ ? batch : kMaxGridYZ));
  repack_kernel<T, kSplit>
      <<<grid, dim3(kTile, kRowsPerPass), 0, stream>>>(src, dst, rows, cols, batch, lo_part);
}

template <typename T>
void launch(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols, int64_t batch,
            cudaStream_t stream) {
  if (src.order == dst.order) {
    const int64_t inner = src.order == TG_ROW_MAJOR ? cols : rows,
                  outer = src.order == TG_ROW_MAJOR ? rows : cols;
    const int64_t chunks = batch * outer * ((inner + 16 / sizeof(T) - 1) / (16 / sizeof(T)));
    int64_t blocks = (chunks + kCopyThreads - 1) / kCopyThreads;
    if (blocks > kCopyMaxBlocks) blocks = kCopyMaxBlocks;
    repack_copy_kernel<T>
        <<<(unsigned)blocks, kCopyThreads, 0, stream>>>(src, dst, inner, outer, batch);
    return;
  }
  if (sizeof(T) < sizeof(uint32_t)) launch_transpose_vec<T>(src, dst, rows, cols, batch, stream);
  else launch_tiles<T, false>(src, dst, rows, cols, batch, 0, stream);
}

}  // namespace

extern "C" tg_status tg_repack_launch(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows,
                                      int64_t cols, int64_t batch, int elem_bytes,
                                      cudaStream_t stream) {
  if (rows <= 0 || cols <= 0 || batch <= 0) return TG_OK;
  if ((cols + kTile - 1) / kTile > 0x7fffffff || (rows + kVecTile - 1) / kVecTile > 0x7fffffff)
    return TG_ERR_NOT_SUPPORTED;
  switch (elem_bytes) {
    case 1: launch<uint8_t>(src, dst, rows, cols, batch, stream); return TG_OK;
    case 2: launch<uint16_t>(src, dst, rows, cols, batch, stream); return TG_OK;
    case 4: launch<uint32_t>(src, dst, rows, cols, batch, stream); return TG_OK;
  }
  return TG_ERR_INTERNAL;
}

extern "C" tg_status tg_repack_tf32x3_launch(tg_matrix_ref src, tg_matrix_ref dst, int64_t rows,
                                             int64_t cols, int64_t batch, int lo_part,
                                             cudaStream_t stream) {
  if (rows <= 0 || cols <= 0 || batch <= 0) return TG_OK;
  if ((cols + kTile - 1) / kTile > 0x7fffffff) return TG_ERR_NOT_SUPPORTED;
  if (src.order == dst.order) {
    const int64_t inner = src.order == TG_ROW_MAJOR ? cols : rows,
                  outer = src.order == TG_ROW_MAJOR ? rows : cols;
    const int64_t chunks = batch * outer * ((inner + kSplitChunk - 1) / kSplitChunk);
    int64_t blocks = (chunks + kCopyThreads - 1) / kCopyThreads;
    if (blocks > kCopyMaxBlocks) blocks = kCopyMaxBlocks;
    repack_split_lines_kernel<<<(unsigned)blocks, kCopyThreads, 0, stream>>>(
        src, dst, inner, outer, batch, lo_part, vectors_aligned(src, batch, sizeof(float)));
    return TG_OK;
  }
  launch_tiles<float, true>(src, dst, rows, cols, batch, lo_part, stream);
  return TG_OK;
}
