/*
 * sm90_scaling.cuh — what fp8 inputs add to the consumers of the Hopper kernel: promotion and
 * scales (problem.h's scale fields; tilegemm.h's tg_scale_mode says what each mode means).
 *
 * Promotion: the tensor cores sum fp8 products in a format narrower than fp32. A promoting atom
 * (sm90_config.cuh's kPromotes) has each k-tile's wgmma (128 of k) start from zero in a second
 * set of registers, and adds that partial sum into the fp32 accumulators once the k-tile is
 * done, so no run of more than 128 of k stays in the narrow format.
 *
 * Scales: BLOCK scales change every 128 of k, so they apply at the promotion: each k-tile's
 * partial sum is multiplied by its row's 1×128 scale of A and its column block's 128×128 scale of
 * B, or, where the canonical A holds the 128×128 blocks (scale_a_blocks: the user's D was
 * column-major), by its row block's 128×128 scale of A and its column's 1×128 scale of B. Either
 * way the scales are loaded before the k-tile's wait, so that their latency hides under it.
 * TENSOR and ROW_COL scales are the same for every k: the finished sums are multiplied once,
 * before stream-K hands them on and before the epilogue (whose alpha, beta, bias and activation
 * then apply as for unscaled inputs).
 *
 * Turns: promoting consumers wait for their own wgmma at every k-tile, so the two warpgroups of a
 * CTA take turns to issue theirs (consumer 0 k-tile t, consumer 1 k-tile t, consumer 0 k-tile
 * t + 1, ...). The tensor cores then run one warpgroup's k-tile while the other adds up its last
 * one, instead of idling while both do.
 */
#ifndef TG_SM90_SCALING_CUH
#define TG_SM90_SCALING_CUH

#include <stdint.h>

#include "problem.h"
#include "ptx_sm90.cuh"
#include "sm90_config.cuh"
#include "sm90_layout.h"

/* Accumulator layout of a wgmma (wgmma_shapes.cuh): register r of a 64-row block holds row
 * 16·warp + lane/4 + 8·((r/2)%2) and column 8·(r/4) + 2·(lane%4) + r%2 of the block (the
 * TG_SM90_ACC_* constants and tg_sm90_acc_cell: sm90_layout.h). */

template <class Cfg>
struct Sm90Scaling {
  static constexpr int BM = Cfg::kBM, BN = Cfg::kBN;
  static constexpr int kRowBlocks = Cfg::kRowBlocks, kAcc = Cfg::kAcc;
  /* B's 128×128 scale blocks a tile's columns meet (a narrower tile lies inside one). */
  static constexpr int kColBlocks = BN >= TG_SCALE_BLOCK_K ? BN / TG_SCALE_BLOCK_K : 1;
  static_assert(!Cfg::kPromotes || Cfg::kBK == TG_SCALE_BLOCK_K,
                "a promoting kernel's k-tile is one 128-deep block of scales");
  /* Whether the tile's columns meet whole 128-column scale blocks of B, which BLOCK scales need
   * (the host refuses BLOCK requests for other tiles: sm90_launch.cuh). */
  static constexpr bool kBlockScales = BN % TG_SCALE_BLOCK_K == 0 || TG_SCALE_BLOCK_K % BN == 0;
  /* This thread's columns of the tile: two per group of 8 (the accumulator layout above). */
  static constexpr int kThreadCols = kAcc / 2;

  /* A k-tile's block scales for this thread: its two rows of each row block (A's 1×128 slices,
   * or with scale_a_blocks its 128×128 blocks), and B's column blocks, or with scale_a_blocks
   * B's 1×128 slices of this thread's columns (cols[2·g + c]: column 8·g + 2·(lane%4) + c). */
  struct KScales {
    float row[kRowBlocks][2];
    float col[kColBlocks];
    float cols[kBlockScales ? kThreadCols : 1];
  };

  /* The accumulator rows of this thread: row block rb, half h. */
  __device__ static int64_t acc_row(int64_t tm, int wg_rows0, int rb, int h, int warp, int lane) {
    return tm * BM + wg_rows0 + rb * TG_SM90_WGMMA_M + warp * TG_SM90_ACC_WARP_ROWS +
           lane / TG_SM90_ACC_QUADS + h * TG_SM90_ACC_HALF_ROWS;
  }

  /* BLOCK: the scales of k-block kb (the k-tile of that index) for this thread's rows and the
   * tile's column blocks, or with a_blocks (problem.h's scale_a_blocks) for this thread's rows
   * and columns; rows, columns and blocks past the matrix get 0 (their sums are never stored).
   * The indices are tg_scale_index's (problem.h). */
  __device__ static void thread_load_k_scales(const tg_problem &p, bool a_blocks, int64_t bat,
                                              int64_t tm, int64_t tn, int kb, int wg_rows0,
                                              int warp, int lane, KScales &s) {
    if constexpr (!kBlockScales) return;
    const float *sa = p.scale_a + bat * p.scale_stride_a;
    const float *sb = p.scale_b + bat * p.scale_stride_b;
    const int64_t kbs = (p.k + TG_SCALE_BLOCK_K - 1) / TG_SCALE_BLOCK_K;
    if (a_blocks) {
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int64_t row = acc_row(tm, wg_rows0, rb, h, warp, lane);
          s.row[rb][h] = row < p.m ? __ldg(sa + (uint64_t)row / TG_SCALE_BLOCK_K * kbs + kb) : 0.0f;
        }
      /* Column col0 + j of the tile for j = 8·g + c; `left` of them lie in the matrix (col0 is
       * at most a tile past n, so the difference fits an int), compared in 32 bits. The loads
       * share one address register (opaque: ptxas otherwise works the address out anew under
       * each load's predicate). */
      const int64_t col0 = tn * BN + 2 * (lane % TG_SM90_ACC_QUADS);
      const float *sb_k = sb + kb * p.n + col0;
      asm("" : "+l"(sb_k));
      const int left = p.n - col0 < BN ? (int)(p.n - col0) : BN;
#pragma unroll
      for (int g = 0; g < kThreadCols / 2; ++g)
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          const int j = g * TG_SM90_ACC_GROUP_COLS + c;
          s.cols[2 * g + c] = j < left ? __ldg(sb_k + j) : 0.0f;
        }
      return;
    }
#pragma unroll
    for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t row = acc_row(tm, wg_rows0, rb, h, warp, lane);
        s.row[rb][h] = row < p.m ? __ldg(sa + kb * p.m + row) : 0.0f;
      }
#pragma unroll
    for (int cb = 0; cb < kColBlocks; ++cb) {
      const int64_t nb = tn * BN / TG_SCALE_BLOCK_K + cb;
      s.col[cb] = nb * TG_SCALE_BLOCK_K < p.n ? __ldg(sb + nb * kbs + kb) : 0.0f;
    }
  }

  /* acc += part, or with BLOCK scales acc += part · sa · sb (the scales of a_blocks as
   * thread_load_k_scales loaded them). */
  __device__ static void warpgroup_promote(float (&acc)[kRowBlocks][kAcc],
                                           const float (&part)[kRowBlocks][kAcc], const KScales &s,
                                           bool block, bool a_blocks) {
    if (kBlockScales && block) {
      if (a_blocks) {
#pragma unroll
        for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
          for (int r = 0; r < kAcc; ++r) {
            const float f = s.row[rb][r / 2 % 2] * s.cols[r / 4 * 2 + r % 2];
            acc[rb][r] = fmaf(part[rb][r], f, acc[rb][r]);
          }
        return;
      }
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb) {
        float f[2][kColBlocks];
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int cb = 0; cb < kColBlocks; ++cb) f[h][cb] = s.row[rb][h] * s.col[cb];
#pragma unroll
        for (int r = 0; r < kAcc; ++r) {
          const int cb = r / 4 * TG_SM90_ACC_GROUP_COLS / TG_SCALE_BLOCK_K % kColBlocks;
          acc[rb][r] = fmaf(part[rb][r], f[r / 2 % 2][cb], acc[rb][r]);
        }
      }
    } else {
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int r = 0; r < kAcc; ++r) acc[rb][r] += part[rb][r];
    }
  }

  /* Turns (above), by two named barriers of both consumers: consumer 1 waits on the first until
   * consumer 0 has issued the k-tile; consumer 0 waits on the second, before every k-tile but its
   * first, until consumer 1 has issued the one before. Each wait meets exactly one arrival, so no
   * barrier phase sees two. The turn barriers are the pingpong schedule's, which cooperative
   * kernels leave free. */
  static constexpr int kTurnThreads = TG_SM90_CONSUMERS * TG_SM90_WARPGROUP;
  __device__ static void warpgroup_wait_issue_turn(int cw, bool issued_before) {
    if (cw == 1) block_named_barrier(TG_SM90_TURN_BARRIER, kTurnThreads);
    else if (issued_before) block_named_barrier(TG_SM90_TURN_BARRIER + 1, kTurnThreads);
  }
  __device__ static void warpgroup_pass_issue_turn(int cw) {
    block_named_barrier_arrive(TG_SM90_TURN_BARRIER + (cw == 0 ? 0 : 1), kTurnThreads);
  }
  /* After its last k-tile consumer 0 takes consumer 1's last turn, which no k-tile waited for. */
  __device__ static void warpgroup_end_issue_turns(int cw, bool issued) {
    if (cw == 0 && issued) block_named_barrier(TG_SM90_TURN_BARRIER + 1, kTurnThreads);
  }

  /* TENSOR and ROW_COL: the finished sums times their scales (BLOCK's were applied by
   * warpgroup_promote; none: nothing to do). */
  __device__ static void warpgroup_scale_tile(const tg_problem &p, float (&acc)[kRowBlocks][kAcc],
                                              int64_t bat, int64_t tm, int64_t tn, int wg_rows0,
                                              int warp, int lane) {
    const float *sa = p.scale_a + bat * p.scale_stride_a;
    const float *sb = p.scale_b + bat * p.scale_stride_b;
    if (p.scale_mode == TG_SCALE_TENSOR) {
      const float f = __ldg(sa) * __ldg(sb);
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int r = 0; r < kAcc; ++r) acc[rb][r] *= f;
    } else if (p.scale_mode == TG_SCALE_ROW_COL) {
      float col[kAcc / 2]; /* this thread's columns: two per group of 8 */
#pragma unroll
      for (int g = 0; g < kAcc / 4; ++g)
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          const int64_t n =
              tn * BN + g * TG_SM90_ACC_GROUP_COLS + 2 * (lane % TG_SM90_ACC_QUADS) + c;
          col[2 * g + c] = n < p.n ? __ldg(sb + n) : 0.0f;
        }
#pragma unroll
      for (int rb = 0; rb < kRowBlocks; ++rb)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int64_t m = acc_row(tm, wg_rows0, rb, h, warp, lane);
          const float row = m < p.m ? __ldg(sa + m) : 0.0f;
#pragma unroll
          for (int g = 0; g < kAcc / 4; ++g)
#pragma unroll
            for (int c = 0; c < 2; ++c) acc[rb][4 * g + 2 * h + c] *= row * col[2 * g + c];
        }
    }
  }
};

#endif /* TG_SM90_SCALING_CUH */
