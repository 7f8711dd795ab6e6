/*
 * f32_operands.cuh — how the f32 family stages one operand's k-tile into shared memory.
 *
 * Whatever the operand's order, its tile lands in one layout: kTileK rows of k, each holding the
 * tile's m (for A) or n (for B) extent contiguously, padded by kF32SmemPad floats. The inner
 * product then reads four consecutive m (n) of one k as a float4 for every order, so the
 * multiply code knows nothing of orders. Every copy is a cp.async issued kStages - 1 k-tiles
 * ahead of its use; no staging registers are held across the math.
 *
 * - MN-major operand (A column-major, B row-major: m or n runs along memory, like the tile):
 *   aligned (pointer, leading dimension and batch stride multiples of 16 bytes), each thread
 *   copies 16-byte chunks, a warp whole 512-byte tile rows (kF32MnChunks); otherwise each
 *   thread copies single floats, a warp 32 consecutive ones: 128 bytes, conflict-free stores
 *   (kF32MnFloats).
 * - K-major operand (A row-major, B column-major: k runs along memory): transposed on the way,
 *   one 4-byte cp.async per element. A warp takes 8 consecutive k of 4 rows: whole 32-byte
 *   sectors from global memory, and, since the padded row of the tile is 4 banks longer than a
 *   multiple of 32, the 32 elements land in 32 different banks (bank 4·k + row) (kF32KMajor).
 * The launcher picks the staging of each operand from its order and alignment, and instantiates
 * the kernel for it, so no staging decision is left to the k-loop.
 *
 * Elements outside the matrix (the m, n and k edges) become zeros without being read (src-size
 * 0: the PTX ISA defines such copies to read nothing, so their address may lie past the
 * operand); a 16-byte chunk cut by the m or n edge is copied float by float, so no byte past
 * the operand is read.
 */
#ifndef TG_F32_OPERANDS_CUH
#define TG_F32_OPERANDS_CUH

#include <stdint.h>

#include "f32_layout.h" /* the index arithmetic, shared with `tilegemm trace` */
#include "ptx_sm80.cuh"
#include "trace_record.cuh"

/* Floats of padding after each k row of a staged tile: keeps the rows 16-byte aligned and
 * shifts each by 4 banks, which makes the transposed K-major stores conflict-free. */
constexpr int kF32SmemPad = TG_F32_SMEM_PAD;
/* Floats in a 16-byte chunk: one float4. */
constexpr int kF32Vector = TG_F32_VECTOR;
/* Bytes of one float and of one chunk. */
constexpr int kF32Bytes = 4;
constexpr int kF32ChunkBytes = kF32Vector * kF32Bytes;
/* Consecutive k that one warp access of a K-major operand takes from each of its rows: 32 bytes,
 * one sector. */
constexpr int kF32KLanes = TG_F32_K_LANES;
constexpr int kF32WarpSize = TG_F32_WARP;

/* One thread's share of staging an operand, set up once per output tile (and k range) and
 * advanced by one k-tile per issue. */
struct F32Loader {
  const float *src; /* the thread's first element in the current k-tile */
  uint32_t smem;    /* byte offset of the thread's first element in the operand's staged tile */
  int kk;           /* k row of the thread's first element within a k-tile */
  int outer_left;   /* the m (n) extent minus the outer index of the thread's first element */
  int k_left;       /* the k range's end minus the current k-tile's first k */
#ifdef TG_TRACE_RECORD
  int record_operand;      /* the recording build's: the operand staged (TG_RECORD_LOADER) */
  const char *record_base; /* and its pointer, which the records' offsets count from */
#endif
};

/* How an operand's k-tile reaches shared memory (header). */
enum F32Staging {
  kF32KMajor = TG_F32_K_MAJOR,
  kF32MnChunks = TG_F32_MN_CHUNKS,
  kF32MnFloats = TG_F32_MN_FLOATS
};

/* The staging of an operand from its order (k_major: k runs along memory) and its alignment in
 * bytes (pointer, leading dimension and batch stride). */
__host__ __device__ inline F32Staging tg_f32_staging(bool k_major, int align) {
  return (F32Staging)tg_f32_staging_of(k_major, align);
}

/* One operand's staged tile, kOuter (its m or n extent) × kTileK, filled by kThreads threads
 * the kStaging way. Thread t's first element: K-major, row t/8 and k t%8, then passes of
 * kThreads/8 rows and groups of 8 k; MN-major chunks, chunk t % (kOuter/4) of k row
 * t / (kOuter/4), then slots kThreads/(kOuter/4) rows apart; MN-major floats, float t % kOuter of
 * k row t / kOuter, then slots kThreads/kOuter rows apart. */
template <int kOuter, int kTileK, int kThreads, F32Staging kStaging>
struct F32OperandTile {
  static constexpr int kStride = kOuter + kF32SmemPad; /* floats from one k row to the next */
  static constexpr int kFloats = kTileK * kStride;
  static constexpr uint32_t kRowBytes = kStride * kF32Bytes;

  static constexpr int kKRowsPerPass = kThreads / kF32KLanes;
  static constexpr int kKPasses = kOuter / kKRowsPerPass;
  static constexpr int kKGroups = kTileK / kF32KLanes;
  static constexpr int kChunksPerRow = kOuter / kF32Vector;
  static constexpr int kThreadsPerRow = kStaging == kF32MnChunks ? kChunksPerRow : kOuter;
  static constexpr int kRowsPerSlot = kThreads / kThreadsPerRow; /* MN-major */
  static constexpr int kSlots = kTileK / kRowsPerSlot;

  static_assert(kOuter % kF32Vector == 0, "a tile's m or n extent must be whole float4s");
  static_assert((kStride * kF32Bytes) % kF32ChunkBytes == 0,
                "padded tile rows must keep float4 reads 16-byte aligned");
  static_assert(kStride % kF32WarpSize == kF32SmemPad,
                "a padded row must start 4 banks after the previous one (conflict-free stores)");
  static_assert(kThreads % kF32WarpSize == 0, "whole warps stage the tiles");
  static_assert(kStaging != kF32KMajor || (kTileK % kF32KLanes == 0 && kOuter % kKRowsPerPass == 0),
                "a K-major tile's rows and k must split evenly into the threads' passes");
  static_assert(kStaging == kF32KMajor ||
                    (kThreads % kThreadsPerRow == 0 && kTileK % kRowsPerSlot == 0),
                "an MN-major tile's k rows must split evenly over the threads");

  /* The loader of an operand whose batch starts at `base` (leading dimension ld), for the tile
   * that starts at outer index o0 (of `outer`, m or n) and at k_begin, for a k range ending at
   * k_end. */
  static __device__ __forceinline__ F32Loader thread_loader(const float *base, int64_t ld,
                                                            int64_t o0, int64_t outer,
                                                            int64_t k_begin, int64_t k_end) {
    const tg_cell first = tg_f32_stage_cell(threadIdx.x, kStaging, kThreadsPerRow);
    const int kk = first.row, o = first.col;
    F32Loader l;
    l.src = kStaging == kF32KMajor ? base + (o0 + o) * ld + (k_begin + kk)
                                   : base + (k_begin + kk) * ld + (o0 + o);
    l.smem = (uint32_t)(kk * kStride + o) * kF32Bytes;
    l.kk = kk;
    l.outer_left = (int)(outer - (o0 + o));
    l.k_left = (int)(k_end - k_begin);
    return l;
  }

  /* Issues the thread's copies of the loader's k-tile into the operand's tile at shared address
   * `tile`: zeros for whatever lies past the outer extent or the k range. */
  static __device__ __forceinline__ void thread_issue(const F32Loader &l, uint32_t tile,
                                                      int64_t ld) {
    const uint32_t dst = tile + l.smem;
    if (kStaging == kF32KMajor) {
      const int64_t pass_step = kKRowsPerPass * ld;
#pragma unroll
      for (int g = 0; g < kKGroups; ++g) {
        const bool k_inside = l.kk + g * kF32KLanes < l.k_left;
        const float *src = l.src + g * kF32KLanes;
#pragma unroll
        for (int pass = 0; pass < kKPasses; ++pass, src += pass_step) {
          const bool inside = k_inside && pass * kKRowsPerPass < l.outer_left;
          thread_cp_async_4(dst + (g * kF32KLanes * kStride + pass * kKRowsPerPass) * kF32Bytes,
                            src, inside ? kF32Bytes : 0);
          /* The copy, for the recording build alone (trace_record.cuh). */
          TG_RECORD_COPY_SIZED(l.record_operand,
                               dst + (g * kF32KLanes * kStride + pass * kKRowsPerPass) * kF32Bytes,
                               src, l.record_base, inside ? kF32Bytes : 0, kF32Bytes, kF32Bytes);
        }
      }
    } else {
      const int64_t slot_step = kRowsPerSlot * ld;
      const float *src = l.src;
      if (kStaging == kF32MnChunks) {
        if (l.outer_left >= kF32Vector) { /* whole chunks */
#pragma unroll
          for (int s = 0; s < kSlots; ++s, src += slot_step) {
            thread_cp_async_16(dst + s * kRowsPerSlot * kRowBytes, src,
                               l.kk + s * kRowsPerSlot < l.k_left ? kF32ChunkBytes : 0);
            TG_RECORD_COPY(l.record_operand, dst + s * kRowsPerSlot * kRowBytes, src, l.record_base,
                           l.kk + s * kRowsPerSlot < l.k_left ? kF32ChunkBytes : 0, kF32Bytes);
          }
        } else { /* the chunk the m (n) edge cuts: float by float */
#pragma unroll
          for (int s = 0; s < kSlots; ++s, src += slot_step) {
            const bool k_inside = l.kk + s * kRowsPerSlot < l.k_left;
#pragma unroll
            for (int j = 0; j < kF32Vector; ++j) {
              thread_cp_async_4(dst + s * kRowsPerSlot * kRowBytes + j * kF32Bytes, src + j,
                                k_inside && j < l.outer_left ? kF32Bytes : 0);
              TG_RECORD_COPY_SIZED(l.record_operand,
                                   dst + s * kRowsPerSlot * kRowBytes + j * kF32Bytes, src + j,
                                   l.record_base, k_inside && j < l.outer_left ? kF32Bytes : 0,
                                   kF32Bytes, kF32Bytes);
            }
          }
        }
      } else {
        const bool row_inside = l.outer_left > 0;
#pragma unroll
        for (int s = 0; s < kSlots; ++s, src += slot_step) {
          const bool inside = row_inside && l.kk + s * kRowsPerSlot < l.k_left;
          thread_cp_async_4(dst + s * kRowsPerSlot * kRowBytes, src, inside ? kF32Bytes : 0);
          TG_RECORD_COPY_SIZED(l.record_operand, dst + s * kRowsPerSlot * kRowBytes, src,
                               l.record_base, inside ? kF32Bytes : 0, kF32Bytes, kF32Bytes);
        }
      }
    }
  }

  /* Moves the loader to the next k-tile. */
  static __device__ __forceinline__ void thread_advance(F32Loader &l, int64_t ld) {
    l.src += kStaging == kF32KMajor ? (int64_t)kTileK : kTileK * ld;
    l.k_left -= kTileK;
  }
};

#endif /* TG_F32_OPERANDS_CUH */
