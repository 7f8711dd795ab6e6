/*
 * sm80_smem_tile.cuh — shared-memory tiles as rows of 16-byte chunks, XOR-swizzled so that
 * both the cp.async writes (a warp fills whole 128-byte lines) and the ldmatrix reads (8 rows at
 * the same logical chunk) touch 8 different bank groups:
 *     physical chunk = logical chunk XOR (row mod 8)
 * (the Swizzle<3,4,3> pattern). Rows hold 8 or more chunks (128 bytes or more).
 *
 * A K-major operand tile is [rows = m or n][128 bytes of k]; an MN-major tile is
 * [rows = k][the m or n extent]. Both are filled from global memory by BlockTileLoader with
 * 16-byte cp.async, zero-filling whatever lies past the matrix edge; a chunk cut by the edge
 * goes through registers (thread_copy_chunk_prefix), so no byte past the operand is read.
 */
#ifndef TG_SM80_SMEM_TILE_CUH
#define TG_SM80_SMEM_TILE_CUH

#include <stdint.h>

#include "ptx_sm80.cuh"
#include "sm80_layout.h" /* TG_CHUNK_BYTES, TG_SWIZZLE_ROWS and the index arithmetic */
#include "trace_record.cuh"

/* Byte offset of logical chunk `chunk` of row `row` in a tile of row_chunks chunks per row. */
__device__ __forceinline__ uint32_t thread_swizzled_offset(int row, int chunk, int row_chunks) {
  return tg_sm80_swizzled_offset(row, chunk, row_chunks);
}

/* Clamps the bytes of a 16-byte chunk that lie inside the matrix: `left` elements remain
 * before the edge along the contiguous dimension. */
__device__ __forceinline__ int thread_chunk_bytes(int left, int elem_bytes) {
  if (left <= 0) return 0;
  return left * elem_bytes < TG_CHUNK_BYTES ? left * elem_bytes : TG_CHUNK_BYTES;
}

/* One thread's share of filling a tile of kRows × kRowChunks 16-byte chunks from a matrix in
 * global memory, where tile row r is matrix row row0 + r (stride ld elements) and the chunks
 * run along the contiguous dimension from col0. Consecutive threads take consecutive chunks of a
 * row, so a warp reads whole 128-byte lines. A thread keeps the same chunk column for all its
 * rows (kThreads is a multiple of kRowChunks), and its rows are kRowStep apart, a multiple of 8,
 * so they share one swizzle: all addresses are set up once and advanced per k-tile with one add.
 */
template <int kRows, int kRowChunks, int kThreads, int kElemBytes>
struct BlockTileLoader {
  static constexpr int kPerThread = kRows * kRowChunks / kThreads;
  static constexpr int kRowStep = kThreads / kRowChunks;
  static constexpr int kElemsPerChunk = TG_CHUNK_BYTES / kElemBytes;
  static constexpr uint32_t kSmemRowStep = kRowStep * kRowChunks * TG_CHUNK_BYTES;
  static_assert(kRowChunks % TG_SWIZZLE_ROWS == 0, "tile rows must hold a multiple of 8 chunks");
  static_assert(kThreads % kRowChunks == 0, "a thread must keep one chunk column");
  static_assert(kRowStep % TG_SWIZZLE_ROWS == 0, "a thread's rows must share one swizzle phase");
  static_assert(kRows % kRowStep == 0, "tile rows must split evenly over the threads");

  const char *ptr;   /* the thread's first chunk in the current tile */
  int row, col;      /* matrix row of the thread's first chunk, and its column (the
                          registry keeps every extent below 2^31 - 2^16) */
  uint32_t smem_off; /* swizzled offset of the thread's first chunk in a stage */
#ifdef TG_TRACE_RECORD
  int record_operand;      /* the recording build's: the operand staged (TG_RECORD_LOADER) */
  const char *record_base; /* and its pointer, which the records' offsets count from */
#endif

  /* Bytes between the thread's rows: kRowStep rows of the matrix (leading dimension ld). Not
   * kept in the loader: ld is the same for every thread, so recomputing it from the kernel
   * parameters costs no register. */
  __device__ __forceinline__ static int64_t pass_bytes(int64_t ld) {
    return ld * (kElemBytes * kRowStep);
  }

  __device__ __forceinline__ void init(const char *matrix, int64_t ld, int64_t row0, int64_t col0) {
    const tg_cell first = tg_sm80_copy_cell(threadIdx.x, kRowChunks);
    const int c = first.col, r = first.row;
    const int64_t row_bytes = ld * kElemBytes;
    row = (int)row0 + r;
    col = (int)col0 + c * kElemsPerChunk;
    ptr = matrix + (int64_t)row * row_bytes + (int64_t)col * kElemBytes;
    smem_off = thread_swizzled_offset(r, c, kRowChunks);
  }

  /* Issues the thread's cp.async for the current tile, checking every chunk: rows at or past
   * rows_end and columns at or past cols_end are zero-filled. `fallback` is any valid global
   * address, used by chunks that read nothing. For the tiles at the k edge and the prologue's
   * tiles past it; the k-loop's other tiles (and the prologue's whole ones) take the fast forms
   * below, which the compiler cannot fold into this one. */
  __device__ __forceinline__ void load(uint32_t stage, int64_t ld, int rows_end, int cols_end,
                                       const void *fallback) const {
    const uint32_t dst = stage + smem_off;
    const char *src = ptr;
    const int bytes = thread_chunk_bytes(cols_end - col, kElemBytes);
#pragma unroll
    for (int j = 0; j < kPerThread; ++j, src += pass_bytes(ld)) {
      const int b = row + j * kRowStep < rows_end ? bytes : 0;
      thread_copy_chunk_prefix(dst + j * kSmemRowStep, b ? src : fallback, b);
      TG_RECORD_COPY(record_operand, dst + j * kSmemRowStep, b ? src : fallback, record_base, b,
                     kElemBytes); /* nothing but in the recording build (trace_record.cuh) */
    }
  }

  /* How many of the thread's rows lie before rows_end (fixed for an output tile when the rows
   * are m or n). */
  __device__ __forceinline__ int rows_inside(int rows_end) const {
    const int left = rows_end - row;
    if (left <= 0) return 0;
    const int n = (left + kRowStep - 1) / kRowStep;
    return n < kPerThread ? n : kPerThread;
  }

  /* Bytes of the thread's chunk before cols_end (fixed for an output tile when the columns are
   * m or n). */
  __device__ __forceinline__ int chunk_bytes_inside(int cols_end) const {
    return thread_chunk_bytes(cols_end - col, kElemBytes);
  }

  /* The fast forms of load() for tiles that need no per-chunk checks, used by the k-loop.
   * Chunks that read nothing keep their computed address, which may lie past the allocation:
   * the PTX ISA defines such copies (ignore-src, src-size 0) to read no source data, and
   * compute-sanitizer memcheck agrees. Rows are m or n (K-major operand, the tile lies inside
   * k): the first `rows` chunks are copied whole, the others become zeros without a read. */
  __device__ __forceinline__ void load_rows(uint32_t stage, int64_t ld, int rows) const {
    const uint32_t dst = stage + smem_off;
    const char *src = ptr;
#pragma unroll
    for (int j = 0; j < kPerThread; ++j, src += pass_bytes(ld)) {
      thread_cp_async_16_or_zero(dst + j * kSmemRowStep, src, j >= rows);
      TG_RECORD_COPY(record_operand, dst + j * kSmemRowStep, src, record_base,
                     j >= rows ? 0 : TG_CHUNK_BYTES, kElemBytes);
    }
  }
  /* Rows are k (MN-major operand, the tile lies inside k): every row copies `bytes` of the
   * thread's chunk (16 inside the matrix, fewer or none at its m or n edge). */
  __device__ __forceinline__ void load_cols(uint32_t stage, int64_t ld, int bytes) const {
    const uint32_t dst = stage + smem_off;
    const char *src = ptr;
#pragma unroll
    for (int j = 0; j < kPerThread; ++j, src += pass_bytes(ld)) {
      thread_copy_chunk_prefix(dst + j * kSmemRowStep, src, bytes);
      TG_RECORD_COPY(record_operand, dst + j * kSmemRowStep, src, record_base, bytes, kElemBytes);
    }
  }

  /* Moves to the next tile along the contiguous dimension (K-major operands)... */
  __device__ __forceinline__ void advance_cols(int cols) {
    col += cols;
    ptr += cols * kElemBytes;
  }
  /* ... or along the rows (MN-major operands, whose rows are k). */
  template <int kAdvance>
  __device__ __forceinline__ void advance_rows(int64_t ld) {
    static_assert(kAdvance % kRowStep == 0, "an MN-major tile must advance by whole thread passes");
    row += kAdvance;
    ptr += kAdvance / kRowStep * pass_bytes(ld);
  }
};

#endif /* TG_SM80_SMEM_TILE_CUH */
