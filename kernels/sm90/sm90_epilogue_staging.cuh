/*
 * sm90_epilogue_staging.cuh — how the TMA epilogues turn a row block's accumulators into a staged
 * chunk of D: where each lane's values sit in a swizzled staging buffer, the FULL class's work on
 * them (beta·C, bias, activation), and the rounding into D's type, by stmatrix for 16-bit D. Also
 * the held group: a chunk rounded into registers, as stmatrix would take it, to be staged later.
 * Accumulator d[4j + 2i + c] of a 64-row block is row 16·warp + g + 8i, column 8j + 2t + c
 * (g = lane / 4, t = lane mod 4), wgmma's layout for every input type.
 */
#ifndef TG_SM90_EPILOGUE_STAGING_CUH
#define TG_SM90_EPILOGUE_STAGING_CUH

#include <stdint.h>

#include "epilogue.cuh"
#include "problem.h"
#include "ptx_sm80.cuh" /* warp_ldmatrix_x4 */
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_epilogue_sets.cuh"

/* A group of chunks held in registers (Sm90EpilogueLayout::kHoldSecondGroup): the words as
 * warp_stage_chunk_16bit hands them to stmatrix, and where their boxes go. */
template <int WORDS>
struct Sm90HeldGroup {
  uint32_t w[WORDS];
  int row0, col0, bat; /* this warp's first row, the first column, the batch */
  bool pending;
};

template <class Cfg, class Set>
struct Sm90Staging {
  typedef Sm90EpilogueLayout<Cfg, Set> Layout;
  typedef Sm90HeldGroup<Layout::kHeldWords> Held;
  static constexpr int kAcc = Cfg::kAcc;
  static constexpr int kStagingRowBytes = Layout::kStagingRowBytes;

  /* Staging buffers hold 16 rows of 128 bytes in the 128-byte swizzle: 16-byte unit u of row r
   * sits at u ^ (r mod 8), which keeps the accesses below free of bank conflicts. Rows of 64 bytes
   * take the 64-byte swizzle, u ^ (r/2 mod 4) (the XOR takes the offset's 128-byte line): the
   * eight rows of an stmatrix block still land on eight different 16-byte bank groups (two rows
   * per 128-byte line, four unit orders). A tail buffer (TAIL) holds 16 rows of one 16-column
   * chunk, kTailChunkCols · ES bytes each, unswizzled: its 16-bit rows of 32 bytes cost stmatrix a
   * two-way bank conflict, once per tile and row block. */
  static constexpr int kUnit = 16;                              /* bytes of a swizzle unit */
  static constexpr int kUnitsPerRow = kStagingRowBytes / kUnit; /* 8 (4 in 64-byte rows) */
  template <bool TAIL, int ES>
  __device__ static uint32_t staging_offset(int row, int byte) {
    if constexpr (TAIL) {
      return row * (Layout::kTailChunkCols * ES) + byte;
    } else {
      const int swizzle = row * kStagingRowBytes / TG_SM90_ROW_BYTES % kUnitsPerRow;
      return row * kStagingRowBytes + (((byte / kUnit) ^ swizzle) * kUnit) + byte % kUnit;
    }
  }
  /* 16-bit D: the byte offset this lane gives stmatrix (or ldmatrix) for the x4 covering the
   * 8-column blocks jj and jj + 1 of a chunk: lanes 8m..8m+7 address the rows of block m
   * (m = 2·(jj odd) + i, i the 8-row half). */
  template <bool TAIL>
  __device__ static uint32_t stmatrix_offset(int lane, int jj) {
    const int row = lane % 8 + 8 * ((lane / 8) % 2), unit = jj + lane / 16;
    return staging_offset<TAIL, 2>(row, unit * kUnit);
  }
  /* f32 D: the byte offset of this lane's pair (row g + 8i, columns 8jj + 2t, +1) of a chunk. */
  template <bool TAIL>
  __device__ static uint32_t f32_pair_offset(int lane, int jj, int i) {
    return staging_offset<TAIL, 4>(lane / 4 + 8 * i, (8 * jj + 2 * (lane % 4)) * 4);
  }

  /* The FULL epilogue's work on the BLOCKS 8-column blocks j0, j0 + 1, ... of a row block's
   * accumulators v (already scaled by alpha), in place, before they are rounded and staged: +
   * beta·C (C's chunk waits in the staging buffer at `buffer`, or the tail buffer (TAIL), where
   * D's will go), + bias (along n: the chunk's pairs `bias`; along m: the thread's two rows'
   * `row_bias`), then the activation, in the order and arithmetic of thread_epilogue_store8.
   * Each step is one uniform branch around an unrolled pass, so the code holds each step once per
   * chunk, not every combination per pair. */
  template <int DT, int BLOCKS, bool TAIL>
  __device__ static void chunk_full(const tg_problem &p, float (&v)[kAcc], int j0, bool read_c,
                                    bool bias_m, const float (&row_bias)[2],
                                    const float (&bias)[BLOCKS][2], const unsigned char *buffer,
                                    uint32_t buffer_smem, int lane) {
    if (read_c) {
      if constexpr (DT == TG_F32) {
#pragma unroll
        for (int jj = 0; jj < BLOCKS; ++jj)
#pragma unroll
          for (int i = 0; i < 2; ++i) {
            const float2 cc = *(const float2 *)(buffer + f32_pair_offset<TAIL>(lane, jj, i));
            const int e = 4 * (j0 + jj) + 2 * i;
            v[e] = fmaf(p.beta_f, cc.x, v[e]);
            v[e + 1] = fmaf(p.beta_f, cc.y, v[e + 1]);
          }
      } else {
        static_assert(BLOCKS % 2 == 0, "ldmatrix x4 reads two 8-column blocks of 16 rows");
#pragma unroll
        for (int jj = 0; jj < BLOCKS; jj += 2) {
          uint32_t cx[4];
          warp_ldmatrix_x4(cx, buffer_smem + stmatrix_offset<TAIL>(lane, jj));
#pragma unroll
          for (int m = 0; m < 4; ++m) {
            float cv[2];
            thread_unpack2_16bit<DT>(cx[m], cv);
            const int e = 4 * (j0 + jj + m / 2) + 2 * (m % 2);
            v[e] = fmaf(p.beta_f, cv[0], v[e]);
            v[e + 1] = fmaf(p.beta_f, cv[1], v[e + 1]);
          }
        }
      }
    }
    if (p.has_bias) {
      if (bias_m) {
#pragma unroll
        for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] += row_bias[(e / 2) % 2];
      } else {
#pragma unroll
        for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] += bias[e / 4][e % 2];
      }
    }
    if (p.act == TG_ACT_GELU) {
#pragma unroll
      for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] = thread_gelu_f32(v[4 * j0 + e]);
    } else if (p.act == TG_ACT_RELU) {
#pragma unroll
      for (int e = 0; e < 4 * BLOCKS; ++e) v[4 * j0 + e] = thread_relu_f32(v[4 * j0 + e]);
    }
  }

  /* 16-bit D: blocks j0.. j0 + BLOCKS - 1 of a row block's accumulators v, plus their bias pairs
   * (BIAS) and through ReLU (RELU, folded into the rounding), into the staging buffer (or the
   * tail buffer, TAIL) at buffer_smem. */
  template <int DT, int BLOCKS, bool TAIL, bool BIAS, bool RELU>
  __device__ static void warp_stage_chunk_16bit(const float (&v)[kAcc], int j0,
                                                const float (&bias)[BLOCKS][2],
                                                uint32_t buffer_smem, int lane) {
    static_assert(BLOCKS % 2 == 0, "stmatrix x4 writes two 8-column blocks of 16 rows");
#pragma unroll
    for (int jj = 0; jj < BLOCKS; jj += 2) {
      uint32_t x[4];
      thread_pack_blocks_16bit<DT, BLOCKS, BIAS, RELU>(v, j0, jj, bias, x);
      warp_stmatrix_x4(buffer_smem + stmatrix_offset<TAIL>(lane, jj), x);
    }
  }
  /* The words stmatrix x4 takes for 8-column blocks j0 + jj and j0 + jj + 1 of a row block's
   * accumulators v (word m: block m / 2, 8-row half m mod 2), plus their bias pairs (BIAS; bias
   * holds those of blocks j0..), through ReLU (RELU). */
  template <int DT, int BLOCKS, bool BIAS, bool RELU>
  __device__ static void thread_pack_blocks_16bit(const float (&v)[kAcc], int j0, int jj,
                                                  const float (&bias)[BLOCKS][2],
                                                  uint32_t (&x)[4]) {
#pragma unroll
    for (int m = 0; m < 4; ++m) {
      const int j = j0 + jj + m / 2, i = m % 2;
      float v0 = v[4 * j + 2 * i], v1 = v[4 * j + 2 * i + 1];
      if constexpr (BIAS) {
        v0 += bias[jj + m / 2][0];
        v1 += bias[jj + m / 2][1];
      }
      x[m] = RELU ? thread_pack2_16bit_relu<DT>(v0, v1) : thread_pack2_16bit<DT>(v0, v1);
    }
  }

  /* A held chunk: chunk q (of the group) of a row block's accumulators v, from block j0, into the
   * held words, as warp_stage_chunk_16bit would hand them to stmatrix. */
  template <int DT, int BLOCKS, bool BIAS, bool RELU>
  __device__ static void thread_hold_chunk(const float (&v)[kAcc], int j0, int q,
                                           const float (&bias)[BLOCKS][2], Held &held) {
    static_assert(BLOCKS * 2 == Layout::kHeldWordsPerChunk,
                  "a held chunk is two words per 8-column block");
#pragma unroll
    for (int jj = 0; jj < BLOCKS; jj += 2) {
      uint32_t x[4];
      thread_pack_blocks_16bit<DT, BLOCKS, BIAS, RELU>(v, j0, jj, bias, x);
#pragma unroll
      for (int m = 0; m < 4; ++m) held.w[q * Layout::kHeldWordsPerChunk + 2 * jj + m] = x[m];
    }
  }

  /* One chunk of EPI's work on BLOCKS 8-column blocks from j0 of the accumulators v, written to
   * the staging buffer (or the tail buffer, TAIL) at buffer / buffer_smem in D's type DT; C (FULL)
   * waits there already. bias: the chunk's pairs along n. */
  template <int DT, int EPI, int BLOCKS, bool TAIL>
  __device__ static void warp_stage_chunk(const tg_problem &p, float (&v)[kAcc], int j0,
                                          bool read_c, bool bias_m, const float (&row_bias)[2],
                                          const float (&bias)[BLOCKS][2], unsigned char *buffer,
                                          uint32_t buffer_smem, int lane) {
    constexpr bool PLAIN = EPI == TG_SM90_EPI_PLAIN, FULL = EPI == TG_SM90_EPI_FULL;
    if constexpr (FULL)
      chunk_full<DT, BLOCKS, TAIL>(p, v, j0, read_c, bias_m, row_bias, bias, buffer, buffer_smem,
                                   lane);
    if constexpr (DT != TG_F32 && EPI == TG_SM90_EPI_BIAS_RELU) {
      if (p.act == TG_ACT_RELU)
        warp_stage_chunk_16bit<DT, BLOCKS, TAIL, true, true>(v, j0, bias, buffer_smem, lane);
      else warp_stage_chunk_16bit<DT, BLOCKS, TAIL, true, false>(v, j0, bias, buffer_smem, lane);
    } else if constexpr (DT != TG_F32) {
      warp_stage_chunk_16bit<DT, BLOCKS, TAIL, false, false>(v, j0, bias, buffer_smem, lane);
    } else {
#pragma unroll
      for (int jj = 0; jj < BLOCKS; ++jj) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          float v0 = v[4 * (j0 + jj) + 2 * i], v1 = v[4 * (j0 + jj) + 2 * i + 1];
          if constexpr (!FULL) thread_epilogue_pair_finish<PLAIN>(p, bias[jj], v0, v1);
          *(float2 *)(buffer + f32_pair_offset<TAIL>(lane, jj, i)) = make_float2(v0, v1);
        }
      }
    }
  }
};

#endif /* TG_SM90_EPILOGUE_STAGING_CUH */
