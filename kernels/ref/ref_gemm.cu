/*
 * ref_gemm.cu — the GPU reference: every dtype, layout, stride, batch and epilogue, fp64
 * accumulation. It is the oracle of the tests and benchmarks, and the kernel that serves any
 * valid request on any sm_80+ GPU when nothing faster can.
 *
 * Correctness over speed, but fast enough to check 8192³ in well under a second: a 64×64 CTA
 * tile staged through shared memory as doubles (widened once when loaded), 16×16 threads each
 * owning a 4×4 strided block of outputs, so a tile costs 2 shared loads per 16 fp64 FMAs.
 * Products of the stored inputs are exact in fp64 (at most 2×24 significant bits), so only
 * the fp64 sums round (fp8 scales, applied to each element as it is staged, round once more). Element types are run-time values; the switch on them is uniform.
 */
#include <cuda_runtime.h>

#include "activation.cuh"
#include "element.cuh"
#include "ref.h"

namespace {

constexpr int kTile = 64;                           /* outputs per CTA side */
constexpr int kThreadsPerSide = 16;                 /* CTA is 16×16 threads */
constexpr int kPerThread = kTile / kThreadsPerSide; /* 4×4 outputs per thread */
constexpr int kTileK = 16;                          /* k depth staged per step */
constexpr int kThreads = kThreadsPerSide * kThreadsPerSide;
constexpr int kLoadsPerThread = kTile * kTileK / kThreads;
static_assert(kTile % kThreadsPerSide == 0, "tile must split evenly over the threads of a side");
static_assert(kTile * kTileK % kThreads == 0, "a staged tile must split evenly over the threads");
constexpr unsigned kMaxGridY = 65535;
constexpr unsigned kMaxGridZ = 65535;

/* Where the oracle writes (absent for the typed kernel). */
struct OracleOut {
  double *ref, *mag;
  int64_t row_stride, col_stride;
};

/* Element (row, col) of a matrix stored with `order` and leading dimension ld. */
__device__ __forceinline__ int64_t offset_of(int64_t row, int64_t col, tg_order order, int64_t ld) {
  return order == TG_ROW_MAJOR ? row * ld + col : col * ld + row;
}

/* The fp8 scale of an operand's element at outer index o and depth kk of batch bat (1 without
 * scales), as problem.h lays the scales out. */
__device__ __forceinline__ double thread_scale_of(const tg_problem &p, const float *scales,
                                                  int64_t stride, int blocks, int64_t outer,
                                                  int64_t bat, int64_t o, int64_t kk) {
  if (p.scale_mode == TG_SCALE_NONE) return 1.0;
  return (double)scales[bat * stride + tg_scale_index(p.scale_mode, blocks, outer, p.k, o, kk)];
}

/* Stages A[m0:m0+64, k0:k0+16] into as[kk][row] and B[k0:k0+16, n0:n0+64] into bs[kk][col],
 * scaled (fp8 scales), zero outside the matrix. Consecutive threads walk the operand's
 * contiguous dimension. */
__device__ void block_stage_tiles(const tg_problem &p, const void *a, const void *b, int64_t m0,
                                  int64_t n0, int64_t k0, double (*as)[kTile], double (*bs)[kTile],
                                  int64_t a_base, int64_t b_base, int64_t bat) {
  const int b_blocks = p.scale_mode == TG_SCALE_BLOCK && !p.scale_a_blocks;
  const int tid = threadIdx.y * kThreadsPerSide + threadIdx.x;
  for (int r = 0; r < kLoadsPerThread; ++r) {
    const int e = tid + r * kThreads;
    /* A: k-contiguous when row-major. */
    int row = p.a_order == TG_ROW_MAJOR ? e / kTileK : e % kTile;
    int kk = p.a_order == TG_ROW_MAJOR ? e % kTileK : e / kTile;
    int64_t gm = m0 + row, gk = k0 + kk;
    as[kk][row] = (gm < p.m && gk < p.k)
                      ? thread_load_f64(a, a_base + offset_of(gm, gk, p.a_order, p.lda), p.a_type) *
                            thread_scale_of(p, p.scale_a, p.scale_stride_a, p.scale_a_blocks, p.m,
                                            bat, gm, gk)
                      : 0.0;
    /* B: n-contiguous when row-major. */
    int col = p.b_order == TG_ROW_MAJOR ? e % kTile : e / kTileK;
    kk = p.b_order == TG_ROW_MAJOR ? e / kTile : e % kTileK;
    int64_t gn = n0 + col;
    gk = k0 + kk;
    bs[kk][col] =
        (gn < p.n && gk < p.k)
            ? thread_load_f64(b, b_base + offset_of(gk, gn, p.b_order, p.ldb), p.b_type) *
                  thread_scale_of(p, p.scale_b, p.scale_stride_b, b_blocks, p.n, bat, gn, gk)
            : 0.0;
  }
}

template <bool kOracle>
__global__ void __launch_bounds__(kThreads) ref_gemm_kernel(const tg_problem p, OracleOut out) {
  __shared__ double as[kTileK][kTile];
  __shared__ double bs[kTileK][kTile];
  const int64_t m_tiles = (p.m + kTile - 1) / kTile;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t n0 = (int64_t)blockIdx.x * kTile;
  const double abs_alpha = fabs(p.alpha), abs_beta = fabs(p.beta);

  for (int64_t bat = blockIdx.z; bat < p.batch; bat += gridDim.z) {
    for (int64_t mt = blockIdx.y; mt < m_tiles; mt += gridDim.y) {
      const int64_t m0 = mt * kTile;
      double acc[kPerThread][kPerThread] = {};
      double mag[kPerThread][kPerThread] = {};
      for (int64_t k0 = 0; k0 < p.k; k0 += kTileK) {
        /* Batch offsets enter through the element offset: base + bat*stride + (row, col). */
        block_stage_tiles(p, p.a, p.b, m0, n0, k0, as, bs, bat * p.batch_stride_a,
                          bat * p.batch_stride_b, bat);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kTileK; ++kk) {
          double av[kPerThread], bv[kPerThread];
#pragma unroll
          for (int i = 0; i < kPerThread; ++i) av[i] = as[kk][ty + i * kThreadsPerSide];
#pragma unroll
          for (int j = 0; j < kPerThread; ++j) bv[j] = bs[kk][tx + j * kThreadsPerSide];
#pragma unroll
          for (int i = 0; i < kPerThread; ++i)
#pragma unroll
            for (int j = 0; j < kPerThread; ++j) {
              acc[i][j] = fma(av[i], bv[j], acc[i][j]);
              if (kOracle) mag[i][j] = fma(fabs(av[i]), fabs(bv[j]), mag[i][j]);
            }
        }
        __syncthreads();
      }
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
        const int64_t gm = m0 + ty + i * kThreadsPerSide;
        if (gm >= p.m) continue;
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
          const int64_t gn = n0 + tx + j * kThreadsPerSide;
          if (gn >= p.n) continue;
          double v = p.alpha * acc[i][j];
          double scale = abs_alpha * mag[i][j];
          if (p.read_c) {
            const double c =
                thread_load_f64(p.c, bat * p.batch_stride_c + gm * p.ldc + gn, p.c_type);
            v += p.beta * c;
            scale += abs_beta * fabs(c);
          }
          if (p.has_bias) {
            const double bias = thread_load_f64(p.bias, p.bias_along_m ? gm : gn, p.bias_type);
            v += bias;
            scale += fabs(bias);
          }
          v = thread_activate_f64(v, p.act);
          if (kOracle) {
            const int64_t o = bat * p.m * p.n + gm * out.row_stride + gn * out.col_stride;
            out.ref[o] = v;
            if (out.mag) out.mag[o] = scale;
          } else {
            thread_store_from_f64(p.d, bat * p.batch_stride_d + gm * p.ldd + gn, p.d_type, v);
          }
        }
      }
    }
  }
}

template <bool kOracle>
tg_status launch(const tg_problem *p, OracleOut out, cudaStream_t stream) {
  const int64_t n_tiles = (p->n + kTile - 1) / kTile;
  const int64_t m_tiles = (p->m + kTile - 1) / kTile;
  if (n_tiles > 0x7fffffff) return TG_ERR_NOT_SUPPORTED;
  dim3 grid((unsigned)n_tiles, (unsigned)(m_tiles < kMaxGridY ? m_tiles : kMaxGridY),
            (unsigned)(p->batch < kMaxGridZ ? p->batch : kMaxGridZ));
  dim3 block(kThreadsPerSide, kThreadsPerSide);
  ref_gemm_kernel<kOracle><<<grid, block, 0, stream>>>(*p, out);
  return TG_OK;
}

}  // namespace

extern "C" tg_status tg_ref_launch(const tg_problem *p, cudaStream_t stream) {
  return launch<false>(p, OracleOut{nullptr, nullptr, 0, 0}, stream);
}

extern "C" tg_status tg_ref_oracle_launch(const tg_problem *p, double *ref, double *mag,
                                          int64_t row_stride, int64_t col_stride,
                                          cudaStream_t stream) {
  return launch<true>(p, OracleOut{ref, mag, row_stride, col_stride}, stream);
}
