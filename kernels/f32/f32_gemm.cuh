/*
 * f32_gemm.cuh — the f32 family's kernel: full fp32 math on the CUDA cores (FFMA), for every
 * operand order and alignment. Over the ladder's rung 8 (simt_08_double_buffer) it adds:
 *   - every order of A and B, and any 4-byte alignment, with one inner loop: each operand's
 *     k-tile is staged by cp.async into one shared layout, k rows of contiguous m (n)
 *     (f32_operands.cuh), transposed on the way when the operand is K-major;
 *   - a kStages-deep cp.async pipeline instead of register double buffering: the loads of k-tile
 *     kt + kStages - 1 are in flight while k-tile kt is multiplied, and hold no registers, and
 *     one barrier per k-tile both publishes a tile and frees the stage of the previous one;
 *   - thread tiles of 4 or 8 rows (one float4 of A per 4 rows, 32 rows apart) by 8 consecutive
 *     columns (two float4 of B), so that a thread's rows are whole 8-column segments of D;
 *   - the full epilogue (alpha, beta·C of any float type, bias, ReLU/GELU, any float D) by the
 *     shared vector epilogue (epilogue.cuh), as in the sm80 family: each warp passes its
 *     accumulators through a staging area in shared memory, 32 rows at a time, and each lane
 *     then finishes 8 consecutive outputs of a row per call;
 *   - a grouped tile order (kF32GroupM rows of tiles sweep the columns together: A and B stay in
 *     L2), batches and split-K on the grid's y dimension (strided when larger than the grid):
 *     split s computes the k range [s·k_split, (s+1)·k_split) and writes raw partial sums that
 *     the shared reduction (kernels/common/splitk_reduce.cu) adds in a fixed order.
 *
 * Warp tiling as in rung 7: a warp's tile of 32·kIterM rows by 32 columns is covered by 8×4
 * lanes; lane (lm, ln) owns rows 4·lm + {0..3} (+ 32 for its second sub-block) and columns
 * 8·ln .. 8·ln + 7. At each k step the warp reads 8 different float4 of A per sub-block (128
 * contiguous bytes) and twice 4 float4 of B 32 bytes apart (all in different banks): every
 * shared read is one conflict-free wavefront, broadcast to the lanes that share it, for 32·kIterM
 * FFMA per thread.
 */
#ifndef TG_F32_GEMM_CUH
#define TG_F32_GEMM_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "device_memo.cuh"
#include "epilogue.cuh"
#include "f32_operands.cuh"
#include "problem.h"
#include "ptx_sm80.cuh"

/* Rows of tiles that sweep the columns together (L2 reuse of B). */
constexpr int kF32GroupM = TG_F32_GROUP_M;
/* Largest gridDim.y: batches and splits beyond it are walked by a strided loop. */
constexpr int64_t kF32MaxGridY = 65535;
/* Shared memory one CTA may take on sm_90 (the opt-in limit; sm_80's is lower, 163 KB). */
constexpr int kF32MaxSmemBytes = 227 * 1024;
/* The lanes of a warp: 8 along m by 4 along n. */
constexpr int kF32LanesM = TG_F32_LANES_M;
constexpr int kF32LanesN = TG_F32_LANES_N;
/* A thread's rows come in sub-blocks of one float4 of A; its columns are two float4 of B. */
constexpr int kF32SubM = kF32Vector;
constexpr int kF32ThreadN = 2 * kF32Vector;
/* Floats of padding per row of the epilogue's staging area (keeps rows 16-byte aligned). */
constexpr int kF32StagingPad = 4;

/* One tile configuration: a kTileM × kTileN × kTileK CTA tile of kWarpsM × kWarpsN warps,
 * kStages shared-memory stages, and at least kMinCtas CTAs per SM (the register budget). */
template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kStages_,
          int kMinCtas_>
struct F32Config {
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_, kWarpsN = kWarpsN_;
  static constexpr int kStages = kStages_, kMinCtas = kMinCtas_;
  static constexpr int kThreads = kF32WarpSize * kWarpsM * kWarpsN;
  static constexpr int kWarpTileM = kTileM / kWarpsM, kWarpTileN = kTileN / kWarpsN;
  static constexpr int kIterM = kWarpTileM / (kF32LanesM * kF32SubM); /* A float4s per k step */
  static constexpr int kThreadM = kIterM * kF32SubM, kThreadN = kF32ThreadN;
  /* Rows between a thread's sub-blocks. */
  static constexpr int kSubBlockStride = kF32LanesM * kF32SubM;

  static_assert(kF32LanesM * kF32LanesN == kF32WarpSize, "the lane grid must use all 32 lanes");
  static_assert(kTileM % kWarpsM == 0 && kTileN % kWarpsN == 0,
                "warp tiles must tile the CTA tile");
  static_assert(kIterM >= 1 && kIterM * kF32LanesM * kF32SubM == kWarpTileM,
                "a warp tile's rows must be whole sub-blocks of its 8 lane rows");
  static_assert(kWarpTileN == kF32LanesN * kF32ThreadN,
                "a warp tile is 32 columns wide: 4 lanes of 8 columns");
  static_assert(kThreadN == TG_EPILOGUE_VECTOR,
                "a thread's row is one segment of the shared epilogue");
  static_assert(kStages >= 2, "the pipeline needs at least two stages");
};

/* The kernel of configuration C with A and B staged the kAStaging and kBStaging ways. */
template <class C, F32Staging kAStaging, F32Staging kBStaging>
struct F32Gemm {
  typedef C Config;
  typedef F32OperandTile<C::kTileM, C::kTileK, C::kThreads, kAStaging> TileA;
  typedef F32OperandTile<C::kTileN, C::kTileK, C::kThreads, kBStaging> TileB;
  static constexpr int kStageFloats = TileA::kFloats + TileB::kFloats;
  static constexpr uint32_t kStageBytes = kStageFloats * kF32Bytes;
  static constexpr uint32_t kTileBOffset = TileA::kFloats * kF32Bytes;
  static constexpr int kSmemBytes = C::kStages * kStageFloats * kF32Bytes;
  static_assert(kSmemBytes <= kF32MaxSmemBytes, "shared memory of one CTA exceeds the sm_90 limit");
  /* The epilogue's staging: per warp, one 32-row sub-block of its tile, rows padded. */
  static constexpr int kStagingStride = C::kWarpTileN + kF32StagingPad;
  static constexpr int kStagingRows = kF32LanesM * kF32SubM;
  static constexpr int kWarpStagingFloats = kStagingRows * kStagingStride;
  static constexpr int kSegmentsPerRow = C::kWarpTileN / TG_EPILOGUE_VECTOR;
  static constexpr int kStagingSegments = kStagingRows * kSegmentsPerRow;
  static_assert(C::kThreads / kF32WarpSize * kWarpStagingFloats <= C::kStages * kStageFloats,
                "the epilogue's staging must fit in the pipeline's shared memory");

  /* Where this thread works: its first row and column in the CTA tile. */
  struct ThreadPlace {
    int row, col;
  };
  static __device__ __forceinline__ ThreadPlace thread_place() {
    const tg_cell c =
        tg_warp_tile_place(threadIdx.x, TG_F32_WARP, C::kWarpsM, C::kWarpTileM, C::kWarpTileN,
                           TG_F32_LANES_N, TG_F32_VECTOR, TG_F32_THREAD_N);
    return ThreadPlace{c.row, c.col};
  }

  /* The thread's outer products over one staged k-tile (as: A's tile, bs: B's tile). */
  static __device__ __forceinline__ void thread_multiply_stage(
      const float *as, const float *bs, const ThreadPlace &at,
      float (&acc)[C::kThreadM][C::kThreadN]) {
#pragma unroll
    for (int kk = 0; kk < C::kTileK; ++kk) {
      float a[C::kThreadM], b[C::kThreadN];
#pragma unroll
      for (int i = 0; i < C::kIterM; ++i) {
        const float4 v = *reinterpret_cast<const float4 *>(as + kk * TileA::kStride + at.row +
                                                           i * C::kSubBlockStride);
        a[i * kF32SubM + 0] = v.x;
        a[i * kF32SubM + 1] = v.y;
        a[i * kF32SubM + 2] = v.z;
        a[i * kF32SubM + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < C::kThreadN / kF32Vector; ++j) {
        const float4 v =
            *reinterpret_cast<const float4 *>(bs + kk * TileB::kStride + at.col + j * kF32Vector);
        b[j * kF32Vector + 0] = v.x;
        b[j * kF32Vector + 1] = v.y;
        b[j * kF32Vector + 2] = v.z;
        b[j * kF32Vector + 3] = v.w;
      }
      TG_RECORD_OPERANDS(TG_REC_A, a); /* the recording build's (trace_record.cuh) */
      TG_RECORD_OPERANDS(TG_REC_B, b);
#pragma unroll
      for (int i = 0; i < C::kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < C::kThreadN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }

  /* The tile (tm, tn) of a grid of m_tiles × n_tiles, in grouped order. */
  static __device__ __forceinline__ void block_tile_of(int64_t id, int64_t m_tiles, int64_t n_tiles,
                                                       int64_t *tm, int64_t *tn) {
    const tg_tile_coord t = tg_grouped_tile_of(id, m_tiles, n_tiles, TG_F32_GROUP_M);
    *tm = t.tm;
    *tn = t.tn;
  }

  /* The warp's accumulators through its staging area in shared memory (one sub-block of 32
   * rows at a time), then the epilogue (or the split's raw partial sums), 8 consecutive outputs
   * of a row per lane and call. The loop over sub-blocks stays rolled: each pass stages acc's
   * first sub-block and then moves the next one up, so every index is a constant (acc stays in
   * registers), the kernel holds one copy of the shared epilogue's code, and while it runs only
   * the sub-blocks not yet written are live. */
  static __device__ __forceinline__ void warp_finish(const tg_problem &p, int64_t z, int splits,
                                                     int m0, int n0, float *partial, float *smem,
                                                     float (&acc)[C::kThreadM][C::kThreadN]) {
    const int64_t bat = z / splits;
    const int split = (int)(z % splits);
    const int warp = threadIdx.x / kF32WarpSize, lane = threadIdx.x % kF32WarpSize;
    float *stage = smem + warp * kWarpStagingFloats;
    /* The thread's rows and columns within the warp's 32-row sub-block. */
    const tg_cell lc = tg_f32_lane_cell(lane);
    const int srow = lc.row, scol = lc.col;
    /* The warp's first output row and column. */
    const int64_t wrow = m0 + (warp % C::kWarpsM) * C::kWarpTileM;
    const int64_t wcol = n0 + (warp / C::kWarpsM) * C::kWarpTileN;
#pragma unroll 1
    for (int ib = 0; ib < C::kIterM; ++ib) {
#pragma unroll
      for (int r = 0; r < kF32SubM; ++r)
#pragma unroll
        for (int j = 0; j < C::kThreadN; j += kF32Vector)
          *reinterpret_cast<float4 *>(stage + (srow + r) * kStagingStride + scol + j) =
              make_float4(acc[r][j], acc[r][j + 1], acc[r][j + 2], acc[r][j + 3]);
      __syncwarp();
#pragma unroll 1
      for (int s = lane; s < kStagingSegments; s += kF32WarpSize) {
        const tg_cell seg = tg_row_vector_cell(s, kSegmentsPerRow, TG_EPILOGUE_VECTOR);
        const int r = seg.row, c = seg.col;
        const int64_t row = wrow + ib * C::kSubBlockStride + r, col = wcol + c;
        float v[TG_EPILOGUE_VECTOR];
#pragma unroll
        for (int j = 0; j < TG_EPILOGUE_VECTOR; j += kF32Vector) {
          const float4 x = *reinterpret_cast<const float4 *>(stage + r * kStagingStride + c + j);
          v[j] = x.x;
          v[j + 1] = x.y;
          v[j + 2] = x.z;
          v[j + 3] = x.w;
        }
        if (splits == 1) {
          thread_epilogue_store8(p, bat, row, col, v);
        } else if (row < p.m && col < p.n) { /* raw partial sums: [split][batch][m][n] */
          float *out = partial + ((split * p.batch + bat) * p.m + row) * p.n + col;
#pragma unroll
          for (int j = 0; j < TG_EPILOGUE_VECTOR; ++j)
            if (col + j < p.n) {
              out[j] = v[j];
              TG_RECORD_STORE(out + j - partial); /* the recording build's (trace_record.cuh) */
            }
        }
      }
      __syncwarp(); /* the staging area is free for the next sub-block */
#pragma unroll
      for (int r = 0; r + kF32SubM < C::kThreadM; ++r)
#pragma unroll
        for (int j = 0; j < C::kThreadN; ++j) acc[r][j] = acc[r + kF32SubM][j];
    }
  }

  /* One CTA: output tile blockIdx.x, then (batch, split) pairs over the grid's y dimension. */
  static __device__ __forceinline__ void block_run(const tg_problem &p, int splits, int64_t k_split,
                                                   float *partial) {
    extern __shared__ __align__(16) float smem[];
    const uint32_t smem_base = thread_smem_address(smem);
    TG_RECORD_BASE(TG_REC_A, smem); /* the recording build's hooks (trace_record.cuh) */
    TG_RECORD_BASE(TG_REC_B, smem);
    const int64_t m_tiles = (p.m + C::kTileM - 1) / C::kTileM;
    const int64_t n_tiles = (p.n + C::kTileN - 1) / C::kTileN;
    int64_t tm, tn;
    block_tile_of(blockIdx.x, m_tiles, n_tiles, &tm, &tn);
    /* Below 2^31: the registry caps m and n. */
    const int m0 = (int)(tm * C::kTileM), n0 = (int)(tn * C::kTileN);
    const ThreadPlace at = thread_place();

    for (int64_t z = blockIdx.y; z < p.batch * splits; z += gridDim.y) {
      const int64_t bat = z / splits;
      const int split = (int)(z % splits);
      const int64_t k_begin = split * k_split;
      const int64_t k_end = k_begin + k_split < p.k ? k_begin + k_split : p.k;
      const int k_tiles =
          k_end > k_begin ? (int)((k_end - k_begin + C::kTileK - 1) / C::kTileK) : 0;
      const float *a = static_cast<const float *>(p.a) + bat * p.batch_stride_a;
      const float *b = static_cast<const float *>(p.b) + bat * p.batch_stride_b;
      F32Loader la = TileA::thread_loader(a, p.lda, m0, p.m, k_begin, k_end);
      F32Loader lb = TileB::thread_loader(b, p.ldb, n0, p.n, k_begin, k_end);
      TG_RECORD_LOADER(la, TG_REC_A, p.a);
      TG_RECORD_LOADER(lb, TG_REC_B, p.b);

      float acc[C::kThreadM][C::kThreadN];
#pragma unroll
      for (int i = 0; i < C::kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < C::kThreadN; ++j) acc[i][j] = 0.0f;

      /* The next k-tile's loads of A and B into stage `s`; both loaders move on past it. */
      auto thread_load_next_k_tile = [&](int s) {
        const uint32_t stage = smem_base + s * kStageBytes;
        TileA::thread_issue(la, stage, p.lda);
        TileB::thread_issue(lb, stage + kTileBOffset, p.ldb);
        TileA::thread_advance(la, p.lda);
        TileB::thread_advance(lb, p.ldb);
      };
      /* Prologue: k-tiles 0 .. kStages - 2 into stages 0 .. kStages - 2, one commit group each
       * (empty past the last k-tile, so the group count stays what the waits below assume). */
#pragma unroll
      for (int s = 0; s < C::kStages - 1; ++s) {
        if (s < k_tiles) thread_load_next_k_tile(s);
        thread_cp_async_commit();
      }
      int read = 0, write = C::kStages - 1;
      for (int kt = 0; kt < k_tiles; ++kt) {
        thread_cp_async_wait<C::kStages - 2>();
        __syncthreads(); /* k-tile kt has landed; every warp is done with k-tile kt - 1 */
        if (kt + C::kStages - 1 < k_tiles)
          thread_load_next_k_tile(write); /* refill the stage k-tile kt - 1 used */
        thread_cp_async_commit();
        const float *as = smem + read * kStageFloats;
        thread_multiply_stage(as, as + TileA::kFloats, at, acc);
        read = read + 1 == C::kStages ? 0 : read + 1;
        write = write + 1 == C::kStages ? 0 : write + 1;
      }
      thread_cp_async_wait<0>();
      __syncthreads(); /* every warp is done with the pipeline's shared memory */
      warp_finish(p, z, splits, m0, n0, partial, smem, acc);
      __syncthreads(); /* the next (batch, split) refills stages other warps may still read */
    }
  }
};

template <class K>
__global__ void __launch_bounds__(K::Config::kThreads, K::Config::kMinCtas)
    f32_gemm_kernel(const tg_problem p, int splits, int64_t k_split, float *partial) {
  K::block_run(p, splits, k_split, partial);
}

#endif /* TG_F32_GEMM_CUH */
