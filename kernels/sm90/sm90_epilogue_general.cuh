/*
 * sm90_epilogue_general.cuh — the GENERAL epilogue class of the sm90 kernel (REST set): whatever
 * the TMA epilogues do not take (integer or misaligned D, C or bias of another type, exact int32)
 * leaves through the warp's staging buffer as fp32 (int32 from integer atoms) and the epilogue every kernel family shares
 * (common/epilogue.cuh), 8 outputs at a time.
 */
#ifndef TG_SM90_EPILOGUE_GENERAL_CUH
#define TG_SM90_EPILOGUE_GENERAL_CUH

#include <stdint.h>

#include "epilogue.cuh"
#include "problem.h"
#include "sm90_config.cuh"
#include "sm90_epilogue_sets.cuh"

template <class Cfg, class Set>
struct Sm90EpilogueGeneral {
  typedef Sm90EpilogueLayout<Cfg, Set> Layout;
  static constexpr int BM = Cfg::kBM, BN = Cfg::kBN, kRowBlocks = Cfg::kRowBlocks, kAcc = Cfg::kAcc;
  static constexpr int kStagingRowBytes = Layout::kStagingRowBytes;

  /* 32 fp32 columns at a time through the staging buffer: each thread then takes 8 consecutive
   * columns of one row and runs the shared epilogue on them, with 16-byte loads of C and stores of
   * D. The chunks are a run-time loop: only the write pass, which must name accumulator registers,
   * is unrolled (one short guarded block per chunk), so the one inline copy of the shared
   * epilogue stays in the instruction cache for the whole tile (unrolled, or called out of line,
   * it cost twice the time). Bank conflicts: unit u of row r sits at u ^ 2(r mod 4) (u ^ 2(r mod 2)
   * in 64-byte rows), which spreads a write pass's four rows (per half warp, 8-byte stores) over
   * all banks; the two rows of a quarter warp in a read pass load their two units in opposite
   * order (the odd unit first on odd rows). */
  __device__ static void warp_epilogue_general(const tg_problem &p, float (&acc)[kRowBlocks][kAcc],
                                               int64_t bat, int64_t tm, int64_t tn, int wg_rows0,
                                               int warp, int lane, unsigned char *staging) {
    constexpr int kUnit = 16;                                    /* bytes of a vector */
    constexpr int kChunkCols = kStagingRowBytes / sizeof(float); /* 32 (16 in 64-byte rows) */
    constexpr int kSwizzlePairs = kStagingRowBytes / kUnit / 2;  /* unit pairs per row: 4 (2) */
    constexpr int kChunksPerRow =
        (BN + kChunkCols - 1) / kChunkCols; /* the last one part filled with a tail */
    constexpr int kSegmentsPerRow = kChunkCols / TG_EPILOGUE_VECTOR; /* 4 threads per row */
    constexpr int kRowsPerPass = TG_WARP_THREADS / kSegmentsPerRow;  /* 8 */
    static_assert(BN % TG_EPILOGUE_VECTOR == 0, "a tile row holds whole 8-column segments");
    const int g = lane / 4, t = lane % 4, seg = lane % kSegmentsPerRow;
#pragma unroll 1
    for (int chunk = 0; chunk < kRowBlocks * kChunksPerRow; ++chunk) {
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int c = 0; c < kChunksPerRow; ++c) {
          if (chunk != rb * kChunksPerRow + c) continue;
#pragma unroll
          for (int jj = 0; jj < kChunkCols / 8; ++jj) {
            const int j = c * (kChunkCols / 8) + jj;
            if (j >= BN / 8) break; /* past the tail */
#pragma unroll
            for (int i = 0; i < 2; ++i) {
              const int r = g + 8 * i, unit = (2 * jj + t / 2) ^ (2 * (r % kSwizzlePairs));
              *(float2 *)(staging + r * kStagingRowBytes + unit * kUnit +
                          (t % 2) * sizeof(float2)) =
                  make_float2(acc[rb][4 * j + 2 * i], acc[rb][4 * j + 2 * i + 1]);
            }
          }
        }
      __syncwarp();
      const int rb = chunk / kChunksPerRow, c = chunk % kChunksPerRow;
      const int64_t row0 = tm * BM + wg_rows0 + rb * TG_SM90_WGMMA_M + Layout::kWarpRows * warp;
      const int64_t col = tn * BN + c * kChunkCols + seg * TG_EPILOGUE_VECTOR;
      const bool in_tile = BN % kChunkCols == 0 ||
                           c * kChunkCols + seg * TG_EPILOGUE_VECTOR < BN; /* not past a tail */
#pragma unroll 1
      for (int q = 0; q < Layout::kWarpRows / kRowsPerPass && in_tile; ++q) {
        const int r = q * kRowsPerPass + lane / kSegmentsPerRow, odd = r & 1;
        const unsigned char *src = staging + r * kStagingRowBytes;
        const float4 x =
            *(const float4 *)(src + ((2 * seg + odd) ^ (2 * (r % kSwizzlePairs))) * kUnit);
        const float4 y =
            *(const float4 *)(src + ((2 * seg + 1 - odd) ^ (2 * (r % kSwizzlePairs))) * kUnit);
        const float4 lo = odd ? y : x, hi = odd ? x : y;
        const float v[TG_EPILOGUE_VECTOR] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        if constexpr (Cfg::Atom::kIntAcc) { /* the staged words are int32 accumulators */
          int32_t vi[TG_EPILOGUE_VECTOR];
#pragma unroll
          for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) vi[i] = __float_as_int(v[i]);
          thread_epilogue_store8(p, bat, row0 + r, col, vi);
        } else {
          thread_epilogue_store8(p, bat, row0 + r, col, v);
        }
      }
      __syncwarp();
    }
  }
};

#endif /* TG_SM90_EPILOGUE_GENERAL_CUH */
