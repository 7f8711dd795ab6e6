/*
 * decode_gemm.cuh — the decode family's kernel: products where one side is a handful of tokens
 * (at most 8·TT: decode steps, small batches) and the other a weight matrix read from DRAM once.
 * What it adds over the tiled families, and why:
 *   - Swap-AB: the weights fill the 16-row side of mma.m16n8k16 and the tokens its 8-wide side,
 *     so one token wastes compute (cheap here) but no weight bandwidth (what sets the time).
 *   - No shared-memory staging: every lane loads 16-byte vectors of the weights straight into
 *     registers, several k-chunks ahead, so that enough bytes are in flight to keep DRAM busy.
 *     The vectors feed mma.sync as loaded, through a k permutation both operands share (below):
 *     the order of the k terms inside a chunk changes no dot product.
 *   - K is spread over the CTA's warps, whose sums meet in shared memory and add in warp order;
 *     when the weight rows alone cannot fill the GPU, k is also split across CTAs and summed by
 *     the shared fixed-order reduction (splitk_reduce.h). Both orders are fixed: results are
 *     bitwise reproducible.
 * Operands are K-major and 16-byte aligned (the planner repacks anything else); f16 or bf16 in,
 * fp32 sums, the shared scalar epilogue (epilogue_scalar.cuh).
 *
 * The permutation: lane (g, t) = (lane / 4, lane % 4) loads elements 8t .. 8t+7 of a 32-wide
 * k-chunk of its weight rows and tokens. The chunk's first mma takes elements 0..3 of each as
 * the logical k {2t, 2t+1, 2t+8, 2t+9} of ptx_sm80.cuh's fragment layouts, the second mma
 * elements 4..7: register j of a loaded vector holds elements 2j, 2j+1, so mma s reads
 * registers 2s and 2s+1 of every vector.
 */
#ifndef TG_DECODE_GEMM_CUH
#define TG_DECODE_GEMM_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "decode_shape.h"
#include "epilogue_scalar.cuh"
#include "problem.h"
#include "ptx_sm80.cuh"

#define TG_DECODE_VECTOR 8         /* 16-bit elements of one 16-byte load */
#define TG_DECODE_MMA_ROWS 16      /* weight rows of one mma.m16n8k16 */
#define TG_DECODE_MMA_TOKENS 8     /* tokens of one mma */
#define TG_DECODE_MMAS_PER_CHUNK 2 /* mma.m16n8k16 per 32-wide k-chunk */

static_assert(TG_DECODE_CHUNK_K == TG_DECODE_VECTOR * (TG_DECODE_LANES / TG_DECODE_MMA_TOKENS),
              "a k-chunk is one 16-byte vector per lane of a row's four lanes");

/* The operands as the kernel sees them: `rows` weight rows and `tokens` token rows, both K-major
 * (row r of W starts at w + r·ldw); D(token, row) is D[row][token] of the canonical problem when
 * the weights are its A, D[token][row] when they are its B. */
struct DecodeOperands {
  const uint16_t *w, *x;
  int64_t ldw, ldx, batch_stride_w, batch_stride_x;
  int64_t rows, tokens;
  int weights_are_a;
};

/* Eight consecutive 16-bit elements from k on of a K-major row that ends at k_end, zero past
 * it (and for rows outside the matrix). WEIGHTS: read once, kept out of L1. */
template <bool WEIGHTS>
__device__ __forceinline__ uint4 thread_load_k8(const uint16_t *row, bool row_ok, int64_t k,
                                                int64_t k_end) {
  uint4 v = make_uint4(0u, 0u, 0u, 0u);
  if (!row_ok || k >= k_end) return v;
  if (k + TG_DECODE_VECTOR <= k_end) {
    if constexpr (WEIGHTS)
      asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                   : "l"(row + k));
    else v = __ldg(reinterpret_cast<const uint4 *>(row + k));
    return v;
  }
  /* The last vector of a row whose k is no multiple of 8: element by element. */
  uint32_t w[4] = {0u, 0u, 0u, 0u};
  for (int i = 0; i < TG_DECODE_VECTOR && k + i < k_end; ++i)
    w[i / 2] |= (uint32_t)__ldg(reinterpret_cast<const unsigned short *>(row + k + i))
                << (16 * (i % 2));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ uint32_t vector_word(const uint4 &v, int j) {
  return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
}

/* RT: 16-row weight tiles per CTA; TT: 8-token tiles; AHEAD: k-chunks each warp loads before
 * it multiplies them; CTAS: CTAs per SM (the register budget); BF16: bf16 (else f16) inputs.
 * partial: NULL, or the [split][batch][m][n] fp32 planes of a split-K launch. */
template <int RT, int TT, int AHEAD, int CTAS, bool BF16>
__global__ void __launch_bounds__(TG_DECODE_THREADS, CTAS)
    decode_gemm_kernel(const tg_problem p, const DecodeOperands o, int64_t k_split,
                       float *partial) {
  constexpr int kRows = RT * TG_DECODE_MMA_ROWS, kTokens = TT * TG_DECODE_MMA_TOKENS;
  constexpr int kSums = RT * TT * 4; /* accumulators per lane */
  __shared__ float sums[TG_DECODE_WARPS][kSums][TG_DECODE_LANES];

  const int warp = threadIdx.x / TG_DECODE_LANES, lane = threadIdx.x % TG_DECODE_LANES;
  const int g = lane / 4, t = lane % 4;
  const int64_t row0 = (int64_t)blockIdx.x * kRows;
  const int64_t k_begin = (int64_t)blockIdx.y * k_split;
  const int64_t k_end = k_begin + k_split < p.k ? k_begin + k_split : p.k;

  for (int64_t bat = blockIdx.z; bat < p.batch; bat += gridDim.z) {
    const uint16_t *w = o.w + bat * o.batch_stride_w, *x = o.x + bat * o.batch_stride_x;
    /* This lane's weight rows (g and g + 8 of each 16-row tile) and tokens (g of each tile). */
    const uint16_t *w_row[RT][2];
    bool w_ok[RT][2];
#pragma unroll
    for (int rt = 0; rt < RT; ++rt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t r = row0 + rt * TG_DECODE_MMA_ROWS + h * TG_DECODE_MMA_TOKENS + g;
        w_ok[rt][h] = r < o.rows;
        w_row[rt][h] = w + (w_ok[rt][h] ? r : 0) * o.ldw;
      }
    const uint16_t *x_row[TT];
    bool x_ok[TT];
#pragma unroll
    for (int tt = 0; tt < TT; ++tt) {
      const int64_t tok = tt * TG_DECODE_MMA_TOKENS + g;
      x_ok[tt] = tok < o.tokens;
      x_row[tt] = x + (x_ok[tt] ? tok : 0) * o.ldx;
    }

    float acc[RT][TT][4];
#pragma unroll
    for (int rt = 0; rt < RT; ++rt)
#pragma unroll
      for (int tt = 0; tt < TT; ++tt)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[rt][tt][i] = 0.0f;

    /* The warp's chunks: kw, kw + CTA_K, ...; kw is the same for the warp's lanes (mma.sync). */
    for (int64_t kw = k_begin + warp * TG_DECODE_CHUNK_K; kw < k_end;
         kw += AHEAD * TG_DECODE_CTA_K) {
      uint4 wv[AHEAD][RT][2], xv[AHEAD][TT];
#pragma unroll
      for (int u = 0; u < AHEAD; ++u) {
        const int64_t k = kw + u * TG_DECODE_CTA_K + t * TG_DECODE_VECTOR;
#pragma unroll
        for (int rt = 0; rt < RT; ++rt)
#pragma unroll
          for (int h = 0; h < 2; ++h)
            wv[u][rt][h] = thread_load_k8<true>(w_row[rt][h], w_ok[rt][h], k, k_end);
#pragma unroll
        for (int tt = 0; tt < TT; ++tt)
          xv[u][tt] = thread_load_k8<false>(x_row[tt], x_ok[tt], k, k_end);
      }
#pragma unroll
      for (int u = 0; u < AHEAD; ++u)
#pragma unroll
        for (int s = 0; s < TG_DECODE_MMAS_PER_CHUNK; ++s)
#pragma unroll
          for (int rt = 0; rt < RT; ++rt) {
            const uint32_t a[4] = {
                vector_word(wv[u][rt][0], 2 * s), vector_word(wv[u][rt][1], 2 * s),
                vector_word(wv[u][rt][0], 2 * s + 1), vector_word(wv[u][rt][1], 2 * s + 1)};
#pragma unroll
            for (int tt = 0; tt < TT; ++tt) {
              const uint32_t b[2] = {vector_word(xv[u][tt], 2 * s),
                                     vector_word(xv[u][tt], 2 * s + 1)};
              if constexpr (BF16) warp_mma_m16n8k16_bf16(acc[rt][tt], a, b);
              else warp_mma_m16n8k16_f16(acc[rt][tt], a, b);
            }
          }
    }

    /* The warps' sums meet in shared memory and add in warp order. */
#pragma unroll
    for (int rt = 0; rt < RT; ++rt)
#pragma unroll
      for (int tt = 0; tt < TT; ++tt)
#pragma unroll
        for (int i = 0; i < 4; ++i) sums[warp][(rt * TT + tt) * 4 + i][lane] = acc[rt][tt][i];
    __syncthreads();
    /* One output per thread and step, consecutive threads along D's rows (coalesced stores):
     * token-fastest when the weights are A (D[row][token]), row-fastest when they are B. */
    for (int e = threadIdx.x; e < kRows * kTokens; e += TG_DECODE_THREADS) {
      const int wl = o.weights_are_a ? e / kTokens : e % kRows;
      const int tl = o.weights_are_a ? e % kTokens : e / kRows;
      const int64_t r = row0 + wl;
      if (r >= o.rows || tl >= o.tokens) continue;
      /* Where mma left D(token tl, row wl): accumulator c0..c3 = rows g, g, g+8, g+8 and
       * tokens 2t, 2t+1, 2t, 2t+1 of its tile (ptx_sm80.cuh). */
      const int rr = wl % TG_DECODE_MMA_ROWS, cc = tl % TG_DECODE_MMA_TOKENS;
      const int slot = ((wl / TG_DECODE_MMA_ROWS) * TT + tl / TG_DECODE_MMA_TOKENS) * 4 +
                       (rr / TG_DECODE_MMA_TOKENS) * 2 + cc % 2;
      const int from = (rr % TG_DECODE_MMA_TOKENS) * 4 + cc / 2;
      float v = 0.0f;
#pragma unroll
      for (int wp = 0; wp < TG_DECODE_WARPS; ++wp) v += sums[wp][slot][from];
      const int64_t row = o.weights_are_a ? r : tl, col = o.weights_are_a ? tl : r;
      if (partial) partial[((int64_t)blockIdx.y * p.batch + bat) * p.m * p.n + row * p.n + col] = v;
      else thread_epilogue_store(p, bat, row, col, v);
    }
    __syncthreads(); /* the next batch reuses `sums` */
  }
}

#endif /* TG_DECODE_GEMM_CUH */
