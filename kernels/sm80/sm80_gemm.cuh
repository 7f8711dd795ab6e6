/*
 * sm80_gemm.cuh — the production mma.sync kernel (Ampere and later; on Hopper the path for
 * what wgmma does not serve). Over the ladder's multistage kernel it adds:
 *   - every input class with one mainloop: f16 and bf16 (K- or MN-major operands, ldmatrix or
 *     ldmatrix.trans), tf32 (fragments rounded to nearest) and int8 (exact int32),
 *     K-major;
 *   - tile shapes and warp layouts as compile-time parameters, several configs per type;
 *   - a grouped tile order (GROUP_M rows of tiles sweep the columns together) so that the
 *     A and B tiles in flight stay in L2;
 *   - batches and split-K on the grid's y dimension: split s computes the k range
 *     [s·k_split, (s+1)·k_split) and writes raw partial sums that tg_splitk_reduce
 *     (kernels/common/splitk_reduce.cu) adds in a fixed order (deterministic);
 *   - the full epilogue (alpha, beta·C, bias, ReLU/GELU, any output type) through a
 *     shared-memory staging tile, so each thread stores 8 consecutive outputs as one vector.
 *
 * Pipeline: STAGES shared-memory stages filled by 16-byte cp.async (zero-fill past the edges),
 * kept STAGES-1 tiles ahead of the tensor cores; within a tile the fragments of k-step s+1 are
 * loaded (ldmatrix) while the mma of k-step s runs.
 */
#ifndef TG_SM80_GEMM_CUH
#define TG_SM80_GEMM_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "device_memo.cuh"
#include "epilogue.cuh"
#include "problem.h"
#include "ptx_sm80.cuh"
#include "sm80_layout.h" /* the index arithmetic, shared with `tilegemm trace` */
#include "sm80_smem_tile.cuh"
#include "sm80_traits.cuh"

#define TG_MAX_GRID_Y 65535

/* The k range of one split: split s of `splits` covers [k_begin, k_end). */
struct Sm80Split {
  int64_t k_begin, k_end;
};

template <class E, int BM, int BN, int WARPS_M, int WARPS_N, int STAGES, bool A_KMAJOR,
          bool B_KMAJOR, int MIN_CTAS = 1>
struct Sm80Gemm {
  static constexpr int kBM = BM, kBN = BN;
  static constexpr int kMinCtas = MIN_CTAS; /* CTAs per SM the register budget must allow */
  static constexpr int kThreads = WARPS_M * WARPS_N * 32;
  static constexpr int kBK = TG_SM80_TILE_K_BYTES / E::kBytes; /* k elements per tile */
  static constexpr int kWarpM = BM / WARPS_M, kWarpN = BN / WARPS_N;
  static constexpr int kMI = kWarpM / 16, kNI = kWarpN / 8; /* mma tiles per warp */
  static constexpr int kKSteps = TG_SM80_TILE_K_BYTES / TG_SM80_MMA_K_BYTES;
  static constexpr int kTileABytes = BM * TG_SM80_TILE_K_BYTES;
  static constexpr int kTileBBytes = BN * TG_SM80_TILE_K_BYTES;
  static constexpr int kStageBytes = kTileABytes + kTileBBytes;
  static constexpr int kStagingStride = BN + TG_SM80_STAGE_PAD; /* 4-byte words */
  static constexpr int kStagingBytes = BM * kStagingStride * 4;
  static constexpr int kSmemBytes =
      STAGES * kStageBytes > kStagingBytes ? STAGES *kStageBytes : kStagingBytes;
  /* Chunks per row of MN-major tiles ([k][m] and [k][n]). */
  static constexpr int kAMnChunks = BM * E::kBytes / TG_CHUNK_BYTES;
  static constexpr int kBMnChunks = BN * E::kBytes / TG_CHUNK_BYTES;

  static_assert(BM % (WARPS_M * 16) == 0, "a warp's m extent must be a multiple of 16");
  static_assert(BN % (WARPS_N * 16) == 0,
                "a warp's n extent must be a multiple of 16 (ldmatrix.x4 loads two n8 tiles)");
  static_assert(STAGES >= 2, "the pipeline needs at least two stages");
  static_assert(kKSteps >= 3,
                "the k-loop refills a stage at k-steps 0 and 1, before the barrier of the last");
  static_assert((A_KMAJOR && B_KMAJOR) || E::kMnMajorOk, "MN-major operands need 16-bit elements");
  static_assert(A_KMAJOR || kAMnChunks % TG_SWIZZLE_ROWS == 0,
                "MN-major A tile rows must be >= 128 bytes");
  static_assert(B_KMAJOR || kBMnChunks % TG_SWIZZLE_ROWS == 0,
                "MN-major B tile rows must be >= 128 bytes");
  static_assert(kSmemBytes <= 227 * 1024, "shared memory of one CTA exceeds the sm_90 limit");

  typedef typename E::Acc Acc;

  /* Per-thread loaders of the A and B tiles. */
  typedef BlockTileLoader<A_KMAJOR ? BM : kBK,
                          A_KMAJOR ? TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES : kAMnChunks, kThreads,
                          E::kBytes>
      LoaderA;
  typedef BlockTileLoader<B_KMAJOR ? BN : kBK,
                          B_KMAJOR ? TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES : kBMnChunks, kThreads,
                          E::kBytes>
      LoaderB;

  /* Sets the loaders on the first k-tile (k_begin) of output tile (m0, n0). */
  __device__ static void init_loaders(const tg_problem &p, LoaderA &la, LoaderB &lb, const char *a,
                                      const char *b, int64_t m0, int64_t n0, int64_t k_begin) {
    if constexpr (A_KMAJOR) la.init(a, p.lda, m0, k_begin); /* rows m, contiguous k */
    else la.init(a, p.lda, k_begin, m0);                    /* rows k, contiguous m */
    if constexpr (B_KMAJOR) lb.init(b, p.ldb, n0, k_begin); /* rows n, contiguous k */
    else lb.init(b, p.ldb, k_begin, n0);                    /* rows k, contiguous n */
    TG_RECORD_LOADER(la, TG_REC_A, p.a); /* the recording build's (trace_record.cuh) */
    TG_RECORD_LOADER(lb, TG_REC_B, p.b);
  }

  /* Issues the current k-tile into `stage` and moves both loaders to the next one. */
  __device__ static void load_stage(const tg_problem &p, uint32_t stage, LoaderA &la, LoaderB &lb,
                                    int64_t k_end) {
    if constexpr (A_KMAJOR) {
      la.load(stage, p.lda, (int)p.m, (int)k_end, p.a);
      la.advance_cols(kBK);
    } else {
      la.load(stage, p.lda, (int)k_end, (int)p.m, p.a);
      la.template advance_rows<kBK>(p.lda);
    }
    if constexpr (B_KMAJOR) {
      lb.load(stage + kTileABytes, p.ldb, (int)p.n, (int)k_end, p.b);
      lb.advance_cols(kBK);
    } else {
      lb.load(stage + kTileABytes, p.ldb, (int)k_end, (int)p.n, p.b);
      lb.template advance_rows<kBK>(p.ldb);
    }
  }

  /* Sizes of the fast loads of one output tile (BlockTileLoader::load_rows / load_cols): for a
   * K-major operand how many of the thread's rows lie inside m (n), for an MN-major one how
   * many bytes of its chunk do. */
  struct InteriorLoads {
    int a, b;
  };
  __device__ static InteriorLoads interior_loads(const tg_problem &p, const LoaderA &la,
                                                 const LoaderB &lb) {
    InteriorLoads il;
    il.a = A_KMAJOR ? la.rows_inside((int)p.m) : la.chunk_bytes_inside((int)p.m);
    il.b = B_KMAJOR ? lb.rows_inside((int)p.n) : lb.chunk_bytes_inside((int)p.n);
    return il;
  }

  /* load_stage for a k-tile that lies wholly inside [k_begin, k_end), no check per chunk, in
   * two halves (A's tile, B's tile) that the k-loop issues at different k-steps. */
  __device__ static void load_a_interior(const tg_problem &p, uint32_t stage, LoaderA &la,
                                         int il_a) {
    if constexpr (A_KMAJOR) {
      la.load_rows(stage, p.lda, il_a);
      la.advance_cols(kBK);
    } else {
      la.load_cols(stage, p.lda, il_a);
      la.template advance_rows<kBK>(p.lda);
    }
  }
  __device__ static void load_b_interior(const tg_problem &p, uint32_t stage, LoaderB &lb,
                                         int il_b) {
    if constexpr (B_KMAJOR) {
      lb.load_rows(stage + kTileABytes, p.ldb, il_b);
      lb.advance_cols(kBK);
    } else {
      lb.load_cols(stage + kTileABytes, p.ldb, il_b);
      lb.template advance_rows<kBK>(p.ldb);
    }
  }

  /* Where this lane's ldmatrix rows start in a stage, for K-major operands (0 otherwise). A
   * K-major tile has 128-byte rows, so k-step ks only flips the swizzled chunk bits of the
   * address (chunk 2·ks + h becomes (2·ks) XOR h XOR row%8: offset XOR 32·ks) and the next m16
   * (n16) tile is 16 whole rows further: every fragment address is one XOR and one add away. */
  struct FragmentOffsets {
    uint32_t a, b;
  };
  /* MN-major tiles ([k][m or n]) take the same shortcut when a warp spans 64 of their columns
   * (8 chunks: its first chunk has bits 1-2 clear, so the m16/n16 tile i, chunk + 2i, only
   * flips bits of the swizzled chunk: offset XOR 32·i), and k-step ks is 16 whole rows further.
   * Other warp extents compute each address in full. */
  static constexpr bool kAMnShortcut = !A_KMAJOR && kWarpM == 64;
  static constexpr bool kBMnShortcut = !B_KMAJOR && kWarpN == 64;
  static constexpr uint32_t kAMnRowBytes = kAMnChunks * TG_CHUNK_BYTES;
  static constexpr uint32_t kBMnRowBytes = kBMnChunks * TG_CHUNK_BYTES;
  __device__ static FragmentOffsets warp_fragment_offsets(int warp_m, int warp_n) {
    const int lane = threadIdx.x & 31;
    FragmentOffsets f = {0u, 0u};
    constexpr int kKChunks = TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES;
    if constexpr (A_KMAJOR) {
      const tg_cell c = tg_sm80_ldsm_a_kmajor(lane, warp_m, kWarpM);
      f.a = thread_swizzled_offset(c.row, c.col, kKChunks);
    } else if constexpr (kAMnShortcut) {
      const tg_cell c = tg_sm80_ldsm_a_mn(lane, 0, warp_m * kWarpM);
      f.a = thread_swizzled_offset(c.row, c.col, kAMnChunks);
    }
    if constexpr (B_KMAJOR) {
      const tg_cell c = tg_sm80_ldsm_b_kmajor(lane, warp_n, kWarpN);
      f.b = kTileABytes + thread_swizzled_offset(c.row, c.col, kKChunks);
    } else if constexpr (kBMnShortcut) {
      const tg_cell c = tg_sm80_ldsm_b_mn(lane, 0, warp_n * kWarpN);
      f.b = kTileABytes + thread_swizzled_offset(c.row, c.col, kBMnChunks);
    }
    return f;
  }

  /* Fragments of k-step ks for this warp: A for its kMI m-tiles, B for its kNI n-tiles. */
  __device__ __forceinline__ static void warp_load_fragments(uint32_t stage, int ks,
                                                             const FragmentOffsets &fo, int warp_m,
                                                             int warp_n, uint32_t (&fa)[kMI][4],
                                                             uint32_t (&fb)[kNI][2]) {
    constexpr uint32_t kRows16Bytes = 16 * TG_SM80_TILE_K_BYTES; /* 16 rows of a K-major tile */
    const int lane = threadIdx.x & 31;
    const uint32_t sa = stage + tg_sm80_kstep_offset(fo.a, ks);
    const uint32_t sb = stage + tg_sm80_kstep_offset(fo.b, ks);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
      if constexpr (A_KMAJOR) {
        warp_ldmatrix_x4(fa[mi], sa + mi * kRows16Bytes);
        TG_RECORD_REGS(TG_REC_A, fa[mi], E::kBytes); /* trace_record.cuh */
      } else if constexpr (kAMnShortcut) {
        warp_ldmatrix_x4_trans(fa[mi],
                               stage + ks * 16 * kAMnRowBytes + tg_sm80_mn_tile_offset(fo.a, mi));
        TG_RECORD_REGS(TG_REC_A, fa[mi], E::kBytes);
      } else {
        const tg_cell c = tg_sm80_ldsm_a_mn(lane, ks, warp_m * kWarpM + mi * 16);
        warp_ldmatrix_x4_trans(fa[mi], stage + thread_swizzled_offset(c.row, c.col, kAMnChunks));
        TG_RECORD_REGS(TG_REC_A, fa[mi], E::kBytes);
      }
    }
#pragma unroll
    for (int nj = 0; nj < kNI / 2; ++nj) {
      uint32_t r[4];
      if constexpr (B_KMAJOR) {
        warp_ldmatrix_x4(r, sb + nj * kRows16Bytes);
      } else if constexpr (kBMnShortcut) {
        warp_ldmatrix_x4_trans(r,
                               stage + ks * 16 * kBMnRowBytes + tg_sm80_mn_tile_offset(fo.b, nj));
      } else {
        const tg_cell c = tg_sm80_ldsm_b_mn(lane, ks, warp_n * kWarpN + nj * 16);
        warp_ldmatrix_x4_trans(
            r, stage + kTileABytes + thread_swizzled_offset(c.row, c.col, kBMnChunks));
      }
      TG_RECORD_REGS(TG_REC_B, r, E::kBytes);
      fb[2 * nj][0] = r[0];
      fb[2 * nj][1] = r[1];
      fb[2 * nj + 1][0] = r[2];
      fb[2 * nj + 1][1] = r[3];
    }
  }

  /* tf32 (E::kRoundsFragments): rounds register r of this thread's fragments of one k-step
   * (A's kMI·4 registers, then B's kNI·2) for the mma. A fragment register holds elements of
   * the staged tile, so each warp rounds what it multiplies; the k-loop spreads the rounding of
   * the next k-step's registers between the mma of this one, where the conversions fill issue
   * slots the mma leave free (H100, 4096³, 128×256 tiles: 215 TFLOP/s spread, 209 all after the mma). */
  static constexpr int kFragmentRegs = kMI * 4 + kNI * 2;
  __device__ __forceinline__ static void thread_round_fragment(int r, uint32_t (&fa)[kMI][4],
                                                               uint32_t (&fb)[kNI][2]) {
    if (r < kMI * 4) fa[r / 4][r % 4] = E::round_word(fa[r / 4][r % 4]);
    else
      fb[(r - kMI * 4) / 2][(r - kMI * 4) % 2] =
          E::round_word(fb[(r - kMI * 4) / 2][(r - kMI * 4) % 2]);
  }

  /* What the k-loop carries from one k-tile to the next. */
  struct Mainloop {
    Acc acc[kMI][kNI][4];
    uint32_t fa[2][kMI][4], fb[2][kNI][2]; /* fragments, double-buffered over k-steps */
    LoaderA la;
    LoaderB lb;
    InteriorLoads il;
    uint32_t read, write; /* stages of tile kt and of tile kt + STAGES - 1 */
  };

  /* One k-tile. Fragments are double-buffered over k-steps; the pipeline advances (wait +
   * barrier) just before the last k-step of a tile, so the first fragments of the next tile are
   * already loading while the last mma of this one run, and the tensor cores never wait at a
   * tile boundary. kInterior: the refill, tile kt + STAGES - 1, lies wholly inside k (all
   * iterations but the last STAGES - 1, or STAGES when k ends inside a k-tile), so it takes
   * the fast loads; the k-loop is split in two so that each copy holds one kind of load and no
   * predicated-off instructions. */
  template <bool kInterior>
  __device__ __forceinline__ static void k_tile(const tg_problem &p, Mainloop &ml, int kt,
                                                int k_tiles, int64_t k_end, uint32_t smem_base,
                                                const FragmentOffsets &fo, int warp_m, int warp_n) {
    const uint32_t next_read = next_stage(ml.read, smem_base);
#pragma unroll
    for (int ks = 0; ks < kKSteps; ++ks) {
      if (ks == kKSteps - 1) {
        thread_cp_async_wait<STAGES - 2>();
        __syncthreads(); /* tile kt+1 has landed; nobody reads stage kt any more */
      }
      /* Fragments of the next k-step: this tile's, or the first of the next tile. */
      const int nb = (ks + 1) & 1;
      if (ks + 1 < kKSteps)
        warp_load_fragments(ml.read, ks + 1, fo, warp_m, warp_n, ml.fa[nb], ml.fb[nb]);
      else if (kt + 1 < k_tiles)
        warp_load_fragments(next_read, 0, fo, warp_m, warp_n, ml.fa[nb], ml.fb[nb]);
      /* Refill the stage freed at the previous tile's barrier with tile kt + STAGES - 1: A's
       * half at k-step 0 and B's at k-step 1 when interior (spread between the mma), all at
       * k-step 0 otherwise; one commit group per k-tile either way. */
      if constexpr (kInterior) {
        if (ks == 0) load_a_interior(p, ml.write, ml.la, ml.il.a);
        if (ks == 1) {
          load_b_interior(p, ml.write, ml.lb, ml.il.b);
          thread_cp_async_commit();
        }
      } else if (ks == 0) {
        if (kt + STAGES - 1 < k_tiles) load_stage(p, ml.write, ml.la, ml.lb, k_end);
        thread_cp_async_commit();
      }
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
          E::mma(ml.acc[mi][ni], ml.fa[ks & 1][mi], ml.fb[ks & 1][ni]);
          if constexpr (E::kRoundsFragments) {
            /* Registers [i·R/n, (i+1)·R/n) of the next k-step after mma i of n. */
            const int i = mi * kNI + ni;
#pragma unroll
            for (int r = i * kFragmentRegs / (kMI * kNI); r < (i + 1) * kFragmentRegs / (kMI * kNI);
                 ++r)
              thread_round_fragment(r, ml.fa[nb], ml.fb[nb]);
          }
        }
    }
    ml.read = next_read;
    ml.write = next_stage(ml.write, smem_base);
  }

  /* The stage after `stage` in the ring of STAGES that starts at smem_base. */
  __device__ __forceinline__ static uint32_t next_stage(uint32_t stage, uint32_t smem_base) {
    return stage + kStageBytes == smem_base + STAGES * kStageBytes ? smem_base
                                                                   : stage + kStageBytes;
  }

  /* The tile (tm, tn) of a grid of m_tiles × n_tiles, in grouped order. */
  __device__ static void tile_of(int64_t id, int64_t m_tiles, int64_t n_tiles, int64_t *tm,
                                 int64_t *tn) {
    const tg_tile_coord t = tg_grouped_tile_of(id, m_tiles, n_tiles, TG_SM80_GROUP_M);
    *tm = t.tm;
    *tn = t.tn;
  }

  /* One CTA: tile blockIdx.x, then (batch, split) pairs over the grid's y dimension. */
  __device__ static void run(const tg_problem &p, int splits, int64_t k_split, Acc *partial) {
    extern __shared__ __align__(128) unsigned char smem[];
    const uint32_t smem_base = thread_smem_address(smem);
    TG_RECORD_BASE(TG_REC_A, smem); /* the recording build's hooks (trace_record.cuh) */
    TG_RECORD_BASE(TG_REC_B, smem);
    const int lane = threadIdx.x & 31;
    const tg_cell warp_cell = tg_sm80_warp_cell(threadIdx.x >> 5, WARPS_N);
    const int warp_m = warp_cell.row, warp_n = warp_cell.col;
    const int64_t m_tiles = (p.m + BM - 1) / BM, n_tiles = (p.n + BN - 1) / BN;
    int64_t tm, tn;
    tile_of(blockIdx.x, m_tiles, n_tiles, &tm, &tn);
    const int64_t m0 = tm * BM, n0 = tn * BN;

    for (int64_t z = blockIdx.y; z < p.batch * splits; z += gridDim.y) {
      const int64_t bat = z / splits;
      const int split = (int)(z % splits);
      const int64_t k_begin = split * k_split;
      const int64_t k_end = k_begin + k_split < p.k ? k_begin + k_split : p.k;
      const char *a = (const char *)p.a + bat * p.batch_stride_a * E::kBytes;
      const char *b = (const char *)p.b + bat * p.batch_stride_b * E::kBytes;
      const int k_tiles = k_end > k_begin ? (int)((k_end - k_begin + kBK - 1) / kBK) : 0;

      Mainloop ml;
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni)
#pragma unroll
          for (int r = 0; r < 4; ++r) ml.acc[mi][ni][r] = 0;

      init_loaders(p, ml.la, ml.lb, a, b, m0, n0, k_begin);
      ml.il = interior_loads(p, ml.la, ml.lb);
      /* k-tiles [0, whole) lie inside k; only the last one may be cut by the k edge. */
      const int whole = (int)((k_end - k_begin) / kBK);
#pragma unroll
      for (int s = 0; s < STAGES - 1; ++s) {
        if (s < whole) {
          load_a_interior(p, smem_base + s * kStageBytes, ml.la, ml.il.a);
          load_b_interior(p, smem_base + s * kStageBytes, ml.lb, ml.il.b);
        } else if (s < k_tiles) {
          load_stage(p, smem_base + s * kStageBytes, ml.la, ml.lb, k_end);
        }
        thread_cp_async_commit();
      }
      thread_cp_async_wait<STAGES - 2>();
      __syncthreads(); /* tile 0 has landed */

      const FragmentOffsets fo = warp_fragment_offsets(warp_m, warp_n);
      ml.read = smem_base;
      ml.write = smem_base + (STAGES - 1) * kStageBytes;
      if (k_tiles > 0) warp_load_fragments(ml.read, 0, fo, warp_m, warp_n, ml.fa[0], ml.fb[0]);
      if constexpr (E::kRoundsFragments)
#pragma unroll
        for (int r = 0; r < kFragmentRegs; ++r) thread_round_fragment(r, ml.fa[0], ml.fb[0]);
      int kt = 0;
      for (; kt + STAGES - 1 < whole; ++kt)
        k_tile<true>(p, ml, kt, k_tiles, k_end, smem_base, fo, warp_m, warp_n);
      for (; kt < k_tiles; ++kt)
        k_tile<false>(p, ml, kt, k_tiles, k_end, smem_base, fo, warp_m, warp_n);
      thread_cp_async_wait<0>();
      __syncthreads(); /* every warp is done with the pipeline's shared memory */

      /* Stage the accumulators: row-major BM × BN words. */
      Acc *staging = (Acc *)smem;
      const tg_cell q = tg_sm80_acc_lane_cell(lane);
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi)
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni)
#pragma unroll
          for (int half = 0; half < 2; ++half) {
            const int row = warp_m * kWarpM + mi * 16 + q.row + 8 * half;
            const int col = warp_n * kWarpN + ni * 8 + q.col;
            Acc *dst = staging + row * kStagingStride + col;
            dst[0] = ml.acc[mi][ni][2 * half];
            dst[1] = ml.acc[mi][ni][2 * half + 1];
          }
      __syncthreads();

      /* Each thread takes segments of 8 consecutive outputs of a row. */
      constexpr int kSegmentsPerRow = BN / TG_EPILOGUE_VECTOR;
      for (int s = threadIdx.x; s < BM * kSegmentsPerRow; s += kThreads) {
        const tg_cell seg = tg_row_vector_cell(s, kSegmentsPerRow, TG_EPILOGUE_VECTOR);
        const int r = seg.row, c = seg.col;
        const int64_t row = m0 + r, col = n0 + c;
        if (row >= p.m || col >= p.n) continue;
        Acc v[TG_EPILOGUE_VECTOR];
#pragma unroll
        for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i) v[i] = staging[r * kStagingStride + c + i];
        if (splits == 1) {
          thread_epilogue_store8(p, bat, row, col, v);
        } else { /* raw partial sums: [split][batch][m][n] */
          Acc *out = partial + ((split * p.batch + bat) * p.m + row) * p.n + col;
#pragma unroll
          for (int i = 0; i < TG_EPILOGUE_VECTOR; ++i)
            if (col + i < p.n) {
              out[i] = v[i];
              TG_RECORD_STORE(out + i - partial);
            }
        }
      }
      __syncthreads(); /* staging is reused as pipeline memory by the next (batch, split) */
    }
  }
};

template <class Kernel>
__global__ void __launch_bounds__(Kernel::kThreads, Kernel::kMinCtas)
    sm80_gemm_kernel(const tg_problem p, int splits, int64_t k_split,
                     typename Kernel::Acc *partial) {
  Kernel::run(p, splits, k_split, partial);
}

/* Launches one instantiation: grid x = output tiles, y = batch × splits (strided when larger
 * than the grid allows). */
template <class Kernel>
tg_status sm80_launch_config(const tg_problem *p, int splits, int64_t k_split,
                             typename Kernel::Acc *partial, cudaStream_t stream) {
  static tg_device_memo smem_raised; /* per device (device_memo.cuh) */
  if (tg_raise_smem_limit(&smem_raised, tg_device_memo_slot(),
                          (const void *)sm80_gemm_kernel<Kernel>,
                          Kernel::kSmemBytes) != cudaSuccess)
    return TG_ERR_CUDA;
  const int64_t tiles =
      ((p->m + Kernel::kBM - 1) / Kernel::kBM) * ((p->n + Kernel::kBN - 1) / Kernel::kBN);
  const int64_t zs = p->batch * splits;
  dim3 grid((unsigned)tiles, (unsigned)(zs < TG_MAX_GRID_Y ? zs : TG_MAX_GRID_Y));
  sm80_gemm_kernel<Kernel>
      <<<grid, Kernel::kThreads, Kernel::kSmemBytes, stream>>>(*p, splits, k_split, partial);
  return TG_OK;
}

#endif /* TG_SM80_GEMM_CUH */
